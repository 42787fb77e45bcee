// A correct harness killed outright (SIGKILL: what the OOM killer, a power loss or a campaign's
// own escalation do) never yields FAIL, and a buggy one still can: each thread's buffer is lost
// at a different point, and validation decides on the consistent cut. Natively, under
// `rr record --chaos` (where rr records here), and inside a campaign. Cases needing TLC or rr
// report SKIPPED (77).
#include <catch2/catch.hpp>

#include <csignal>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include <sys/wait.h>

#include "support/campaign_support.hpp"
#include "checkers/validate.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
using testing::ScratchDir;
namespace fs = std::filesystem;

constexpr int kKills = 20;

// Starts the command, kills it with SIGKILL `delay` after the harness started (wrote `meta`),
// reaps it. False if it ended by itself first. Counted from the harness's start, not the spawn:
// under `rr record` on a loaded machine rr alone can take longer than the delay to start it.
bool kill_after(const std::vector<std::string>& args, const fs::path& meta, std::chrono::milliseconds delay) {
  const pid_t pid = testing::spawn_silenced(args);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(meta) && waitpid(pid, nullptr, WNOHANG) == 0 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(delay);
  const bool alive = waitpid(pid, nullptr, WNOHANG) == 0;
  if (alive) ::kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, alive ? 0 : WNOHANG);
  return alive;
}

// The harness arguments: two threads sleeping now and then, so a kill lands mid-run.
std::vector<std::string> queue_args(const std::string& harness, const fs::path& out, int seed, const std::string& clock) {
  return {harness, "--threads", "2", "--ops", "200000", "--perturb", "sleep", "--perturb-rate", "0.02", "--sleep-max-us",
          "2000", "--param", "max_len=16", "--seed", std::to_string(seed), "--clock", clock, "--quiet", "--out", out.string()};
}

results::ValidationResult validate(const fs::path& run) {
  checkers::ValidateOptions o;
  o.run_dir = run;
  o.spec = fs::path(OMNILINK_SPECS_DIR) / "LinearizableQueue.tla";
  o.heap = "1g";
  o.timeout = std::chrono::seconds(300);
  return checkers::validate_run(o);
}

// Kills `kKills` runs of HARNESS at random moments; the verdicts, by name. `wrap` puts the harness
// under another program (rr record), whose process is the one killed. `stop_at_fail`: stop at the
// first FAIL (a buggy harness needs to show only that it can still fail).
std::map<std::string, int> kill_runs(const std::string& harness, const ScratchDir& dir, const std::vector<std::string>& wrap,
                                     const std::string& clock, std::chrono::milliseconds min_delay, bool stop_at_fail) {
  std::map<std::string, int> verdicts;
  std::mt19937 rng(20261123);
  std::uniform_int_distribution<int> delay_ms(static_cast<int>(min_delay.count()), static_cast<int>(min_delay.count()) * 4);
  for (int k = 1; k <= kKills; ++k) {
    const fs::path out = dir / ("run-" + std::to_string(k));
    std::vector<std::string> args = wrap;
    if (!wrap.empty()) args.insert(args.end(), {"-o", (dir / ("rr-" + std::to_string(k))).string()});
    const auto harness_args = queue_args(harness, out, k, clock);
    args.insert(args.end(), harness_args.begin(), harness_args.end());
    const auto delay = std::chrono::milliseconds(delay_ms(rng));
    const bool killed = kill_after(args, out / "meta.json", delay);
    if (!fs::exists(out / "meta.json")) {  // the harness never started (within a minute): nothing to judge
      ++verdicts["not started"];
      continue;
    }
    const auto r = validate(out);
    INFO("run " << k << ", killed after " << delay.count() << " ms" << (killed ? "" : " (had ended)") << ": " << r.summary());
    CHECK(killed);  // the kill must land mid-run for the test to mean anything
    ++verdicts[to_string(r.verdict)];
    if (r.verdict == Verdict::fail && stop_at_fail) break;
  }
  return verdicts;
}

// "pass 18; unknown 2; " (also printed: the closing notes quote these counts).
std::string describe(const std::map<std::string, int>& verdicts) {
  std::string s;
  for (const auto& [v, n] : verdicts) s += v + " " + std::to_string(n) + "; ";
  return s;
}

std::string report(const std::string& what, const std::map<std::string, int>& verdicts) {
  std::cout << what << ": " << describe(verdicts) << "\n";
  return describe(verdicts);
}

std::vector<std::string> rr_record() {
  const ToolLocation rr = find_rr();
  std::vector<std::string> wrap{rr.path->string(), "record"};
  if (probe_rr(*rr.path).needs_soft_counters()) wrap.push_back("-W");
  wrap.insert(wrap.end(), {"--chaos", "--num-cpu-ticks=2000"});
  return wrap;
}

}  // namespace

namespace {

// Kills the correct queue and the racy one `kKills` times each (the racy one until it fails): no
// cut of the correct one fails, most pass (a kill before some thread's first flush leaves nothing
// to decide: unknown), and the racy one's bug is still found.
void check_kills(const std::string& how, const std::vector<std::string>& wrap, const std::string& clock,
                 std::chrono::milliseconds min_delay) {
  ScratchDir dir;
  const auto correct = kill_runs(OMNILINK_EXAMPLE_LOCKED_QUEUE, dir, wrap, clock, min_delay, false);
  INFO(report("locked-queue, " + how, correct));
  CHECK(correct.count("fail") == 0);
  CHECK(correct.count("error") == 0);
  REQUIRE(correct.count("pass") == 1);
  CHECK(correct.at("pass") >= kKills / 2);

  ScratchDir racy_dir;
  const auto racy = kill_runs(OMNILINK_EXAMPLE_RACY_QUEUE, racy_dir, wrap, clock, min_delay, true);
  INFO(report("racy-queue, " + how, racy));
  CHECK(racy.count("fail") == 1);
}

}  // namespace

TEST_CASE("SIGKILL at 20 random moments: a correct queue never fails, a racy one still does (native)") {
  check_kills("killed natively", {}, "monotonic", std::chrono::milliseconds(500));
}

TEST_CASE("SIGKILL of rr record --chaos at 20 random moments: a correct queue never fails, a racy one still does") {
  testing::require_rr_chaos();
  check_kills("rr record killed", rr_record(), "counter", std::chrono::milliseconds(400));
}

namespace {

// The pid a run's meta.json names (the harness), once the run has started; 0 until then.
pid_t harness_pid(const fs::path& store) {
  std::error_code ec;
  for (const auto& campaign : fs::directory_iterator(store, ec)) {
    if (!campaign.is_directory()) continue;
    for (const auto& run : fs::directory_iterator(campaign.path(), ec)) {
      std::ifstream in(run.path() / "meta.json");
      const auto meta = nlohmann::json::parse(in, nullptr, false);
      if (meta.is_object() && meta.contains("pid")) return meta["pid"].get<pid_t>();
    }
  }
  return 0;
}

pid_t parent_of(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  const auto close = text.rfind(')');  // the command name may contain spaces and parentheses
  std::istringstream rest(close == std::string::npos ? "" : text.substr(close + 2));
  char state = 0;
  pid_t ppid = 0;
  rest >> state >> ppid;
  return ppid;
}

// Runs a one-run campaign of the locked queue and SIGKILLs, mid-run, its harness (or the rr
// recording it). The campaign's outcome for that run.
testing::CampaignResult campaign_with_kill(const ScratchDir& dir, const std::string& rr, bool kill_rr) {
  const nlohmann::json target{{"name", "locked-queue"},
                              {"harness", OMNILINK_EXAMPLE_LOCKED_QUEUE},
                              {"spec", std::string(OMNILINK_SPECS_DIR) + "/LinearizableQueue.tla"},
                              {"threads", {2}},
                              {"ops", {200000}},
                              {"runs", 1},
                              {"args", {"--perturb", "sleep", "--perturb-rate", "0.02", "--sleep-max-us", "2000", "--param", "max_len=16"}}};
  const nlohmann::json file{{"format", 1}, {"name", "killed"}, {"rr", rr}, {"run_timeout_s", 600},
                            {"validation", {{"timeout_s", 300}}}, {"tlc", {{"heap", "1g"}}}, {"targets", {target}}};
  std::ofstream(dir / "killed.json") << file.dump(2);
  std::thread killer([&] {
    pid_t pid = 0;
    for (int i = 0; i < 600 && pid == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      pid = harness_pid(dir / "store");
    }
    if (pid == 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    ::kill(kill_rr ? parent_of(pid) : pid, SIGKILL);
  });
  auto result = testing::run_campaign(dir / "killed.json", dir);
  killer.join();
  return result;
}

}  // namespace

TEST_CASE("a campaign whose harness is SIGKILLed validates the run on its consistent cut: no FAILURES FOUND") {
  ScratchDir dir;
  const auto r = campaign_with_kill(dir, "off", false);
  INFO(r.output);
  CHECK(r.exit_code == 2);  // a run without a pass verdict, not a failure found
  CHECK(r.output.find("FAILURES FOUND") == std::string::npos);
  REQUIRE(r.summary["runs"].size() == 1);
  const auto& run = r.summary["runs"][0];
  CHECK(run["outcome"] == "crashed");
  CHECK_THAT(run["detail"].get<std::string>(), Catch::Contains("validated on its consistent cut"));
  const auto result = nlohmann::json::parse(std::ifstream(fs::path(run["dir"].get<std::string>()) / "validation" / "result.json"));
  CHECK(result["verdict"] == "pass");
  CHECK(result.contains("cut"));
}

TEST_CASE("a campaign whose rr record is SIGKILLed under chaos validates the run on its consistent cut") {
  testing::require_rr_chaos();
  ScratchDir dir;
  const auto r = campaign_with_kill(dir, "chaos", true);
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("FAILURES FOUND") == std::string::npos);
  REQUIRE(r.summary["runs"].size() == 1);
  const auto& run = r.summary["runs"][0];
  CHECK(run["outcome"] != "fail");
  CHECK_THAT(run["detail"].get<std::string>(), Catch::Contains("validated on its consistent cut"));
}
