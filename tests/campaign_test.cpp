// `omnilink campaign` end to end, through the CLI, on real harnesses validated by the native checker: the demo
// campaign (locked-queue passes, racy-queue fails, each failure shown as its core), with rr when it records here;
// a hanging harness killed at its time limit; a segfaulting one kept as `crashed`; a corrupt trace
// as `bad-trace`; SIGINT then --resume; two campaigns writing one store at once; configuration
// errors. Cases that need rr exit 77 without it, which ctest reports as SKIPPED.
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <sstream>
#include <map>
#include <set>
#include <thread>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "platform/rr_probe.hpp"
#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"
#include "support/campaign_support.hpp"
#include "support/mount_namespace.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
using omnilink::testing::ScratchDir;
namespace fs = std::filesystem;

using omnilink::testing::omnilink_cli;
using omnilink::testing::require_rr_chaos;
using omnilink::testing::skip_test;

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p);
  out << text;
}

// A campaign file of one target running tests/helpers/crashing_harness against tests/specs/Steps.tla.
std::string steps_campaign(const std::string& name, const std::vector<std::string>& args, int runs = 1,
                           int run_timeout_s = 60, int threads = 2, int ops = 100) {
  nlohmann::json target{{"name", "steps"},
                        {"harness", OMNILINK_CRASHING_HARNESS},
                        {"spec", std::string(OMNILINK_TEST_SPECS) + "/Steps.tla"},
                        {"threads", {threads}},
                        {"ops", {ops}},
                        {"runs", runs},
                        {"args", args}};
  nlohmann::json campaign{{"format", 1},       {"name", name},       {"rr", "off"},
                          {"run_timeout_s", run_timeout_s}, {"tlc", {{"heap", "1g"}, {"timeout_s", 300}}},
                          {"targets", {target}}};
  return campaign.dump(2);
}

nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(read_text(p)); }

std::vector<store::RunRecord> stored_runs(const fs::path& store, const std::string& campaign) {
  return store::Store::open(store).runs(campaign);
}

// No process still has `needle` on its command line (the run's whole process group was killed).
bool no_process_mentions(const std::string& needle) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename();
    if (pid.find_first_not_of("0123456789") != std::string::npos || pid == std::to_string(::getpid())) continue;
    std::string cmdline = read_text(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(needle) != std::string::npos) return false;
  }
  return true;
}

TEST_CASE("the demo campaign with rr off: locked-queue passes, racy-queue fails with a failing core") {
  ScratchDir dir;
  // Longer racy-queue runs than the demo's: each then fails validation with probability about 7/8,
  // so six runs all passing (a false test failure) has odds of about 4 in a million.
  const auto r = omnilink_cli({"campaign", std::string(OMNILINK_SOURCE_DIR) + "/examples/campaigns/demo.json", "--rr",
                               "off", "--set", "targets.racy-queue.ops=4000", "--set", "targets.racy-queue.runs=6",
                               "--store", (dir / "store").string(), "--plain", "--json",
                               (dir / "summary.json").string(), "--junit", (dir / "junit.xml").string()});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  const nlohmann::json summary = read_json(dir / "summary.json");
  CHECK(summary["campaign"] == "demo-1");
  std::map<std::string, std::multiset<std::string>> outcomes;
  for (const auto& run : summary["runs"]) outcomes[run["target"]].insert(run["outcome"].get<std::string>());
  CHECK(outcomes["locked-queue"].count("pass") == 4);
  CHECK(outcomes["locked-queue"].size() == 4);
  CHECK(outcomes["racy-queue"].count("fail") >= 1);
  for (const auto& run : summary["runs"]) {
    if (run["outcome"] != "fail") continue;
    const nlohmann::json result = read_json(fs::path(run["dir"].get<std::string>()) / "validation" / "result.json");
    CHECK(result["verdict"] == "fail");
    CHECK_FALSE(result["frontier"]["pending"].empty());
    // Explained by the validation's worker: the failing core, a few operations (docs/explain.md).
    const nlohmann::json explanation = read_json(fs::path(run["dir"].get<std::string>()) / "explain" / "explanation.json");
    CHECK(explanation["core"].size() >= 1);
    CHECK(explanation["core"].size() <= 8);
    CHECK(run["replay"].get<std::string>().find("not recorded (rr off)") != std::string::npos);
  }
  // The racy queue's check-then-act race is one bug: its failures are one signature (a Dequeue the
  // spec refuses), each run's symptom saying how it showed (docs/campaign.md, Failure signatures).
  std::size_t racy_failures = 0;
  for (const auto& run : summary["runs"]) racy_failures += run["target"] == "racy-queue" && run["outcome"] == "fail";
  REQUIRE(summary["signatures"].size() == 1);
  const nlohmann::json& race = summary["signatures"][0];
  CHECK(race["target"] == "racy-queue");
  CHECK(race["title"] == "Dequeue refused by Dequeue");
  CHECK(race["runs"].size() == racy_failures);  // every failing run of it, by key
  CHECK(race["symptoms"].size() <= 2);  // the skipped element lost, or a dequeue from a queue already empty
  std::size_t shown = 0;
  for (const auto& symptom : race["symptoms"]) {
    CHECK_FALSE(symptom["title"].get<std::string>().empty());
    shown += symptom["runs"].get<std::size_t>();
  }
  CHECK(shown == racy_failures);
  // Each failure shown as its core, the frontier left to `omnilink show`.
  CHECK(r.out.find("Failing core: ") != std::string::npos);
  CHECK(r.out.find("pending at the deepest state") == std::string::npos);
  CHECK(r.out.find("why: omnilink explain demo-1/") != std::string::npos);
  CHECK(read_text(dir / "junit.xml").find("<failure message=") != std::string::npos);

  // The results document of the same store (docs/results.md's generator).
  const auto doc = omnilink_cli({"results", "--store", (dir / "store").string(), "-o", (dir / "results.md").string()});
  INFO(doc.out << doc.err);
  REQUIRE(doc.exit_code == 0);
  const std::string md = read_text(dir / "results.md");
  CHECK(md.find("| demo-1 | locked-queue | threads 2, 3; ops 300; 2 runs each;") != std::string::npos);
  CHECK(md.find("| demo-1 | racy-queue |") != std::string::npos);
  CHECK(md.find("runs failed validation") != std::string::npos);
  CHECK(md.find("Failing core: ") != std::string::npos);  // as the campaign report shows it
  CHECK(md.find("why: omnilink explain demo-1/") != std::string::npos);
  const auto unknown = omnilink_cli({"results", "--store", (dir / "store").string(), "nope"});
  CHECK(unknown.exit_code == 3);
  CHECK(unknown.err.find("no campaign 'nope'") != std::string::npos);
  const auto not_sweep = omnilink_cli({"results", "--store", (dir / "store").string(), "--sweep", "demo"});
  CHECK(not_sweep.exit_code == 3);
  CHECK(not_sweep.err.find("--sweep demo: demo-1 is a campaign, not a sweep") != std::string::npos);
}

TEST_CASE("the README's demo (scripts/run-demo) runs the demo campaign to its verdicts") {
  ScratchDir dir;
  ProcessOptions options;
  options.timeout = std::chrono::minutes(10);
  options.env_overrides = {{"OMNILINK", OMNILINK_CLI}};
  // rr off and longer racy-queue runs, as in the case above, for a verdict that does not flake; 12
  // of them, since under ctest -j2 (both cores busy) 6 runs once all passed: the race needs the
  // queue's threads to run at the same time.
  auto r = run_process("/bin/bash", {OMNILINK_RUN_DEMO, (dir / "store").string(), "--rr", "off", "--plain", "--set",
                                     "targets.racy-queue.ops=4000", "--set", "targets.racy-queue.runs=12"}, options);
  INFO(r.describe() << "\n" << r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("== omnilink doctor") != std::string::npos);
  CHECK(r.out.find("campaign demo-1: FAILURES FOUND (exit 1") != std::string::npos);
  const auto runs = stored_runs(dir / "store", "demo-1");
  CHECK(runs.size() == 16);
  for (const auto& run : runs)
    if (run.target == "locked-queue") CHECK(run.validation->verdict == Verdict::pass);
}

TEST_CASE("the demo campaign under rr chaos records, packs and validates every run") {
  require_rr_chaos();
  ScratchDir dir;
  const auto r = omnilink_cli({"campaign", std::string(OMNILINK_SOURCE_DIR) + "/examples/campaigns/demo.json", "--rr",
                               "chaos", "--set", "targets.locked-queue.runs=1", "--set", "targets.racy-queue.runs=2",
                               "--set", "rr_timeslice_ticks=5000",
                               "--store", (dir / "store").string(), "--plain", "--json", (dir / "summary.json").string()});
  INFO(r.out << r.err);
  CHECK(r.exit_code != 3);
  const nlohmann::json summary = read_json(dir / "summary.json");
  for (const auto& run : summary["runs"]) {
    INFO(run.dump());
    CHECK(run["rr_mode"] == "chaos");
    CHECK(read_json(fs::path(run["dir"].get<std::string>()) / "recording.json")["timeslice_ticks"] == 5000);
    // rr.soft's chaos mode sometimes asserts in rr itself; the engine records such a run again, and
    // after the last attempt reports it as an error that blames rr, never as a harness crash.
    if (run["status"] == "error") {
      CHECK(run["detail"].get<std::string>().find("rr failed while recording") != std::string::npos);
      continue;
    }
    CHECK(run["status"] == "ok");
    CHECK((run["outcome"] == "pass" || run["outcome"] == "fail"));
    if (run["target"] == "locked-queue") CHECK(run["outcome"] == "pass");
    // Packed: the recording holds its own copies of the files it maps (rr pack's mmap_pack_*).
    const fs::path recording = fs::path(run["dir"].get<std::string>()) / "rr";
    CHECK(fs::exists(recording / "version"));
    bool has_copied_binary = false;
    for (const auto& f : fs::directory_iterator(recording))
      has_copied_binary |= f.path().filename().string().starts_with("mmap_pack_");
    CHECK(has_copied_binary);
    if (run["outcome"] == "fail") CHECK(run["replay"].get<std::string>().find("omnilink replay demo-1/racy-queue") != std::string::npos);
  }
}

TEST_CASE("a hanging harness is killed with its process group at the run time limit") {
  ScratchDir dir;
  write_text(dir / "hang.json", steps_campaign("hang", {"--param", "how=hang", "--param", "crash_at=20"}, 1, 2));
  const auto begin = std::chrono::steady_clock::now();
  const auto r = omnilink_cli({"campaign", (dir / "hang.json").string(), "--store", (dir / "store").string(), "--plain"});
  const auto took = std::chrono::steady_clock::now() - begin;
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  const auto runs = stored_runs(dir / "store", "hang-1");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].status == store::RunStatus::timeout);
  CHECK(runs[0].detail.find("2 s") != std::string::npos);
  CHECK(took < std::chrono::seconds(2 + 3 + 60));  // limit + grace + validation of the prefix
  CHECK(no_process_mentions(runs[0].dir));
  CHECK(fs::exists(fs::path(runs[0].dir) / "trace" / "thread-0000.msgpack"));  // the prefix is kept
}

TEST_CASE("a segfaulting harness is crashed, its trace prefix kept and validated") {
  ScratchDir dir;
  write_text(dir / "segv.json", steps_campaign("segv", {"--param", "how=segv", "--param", "crash_at=30"}));
  const auto r = omnilink_cli({"campaign", (dir / "segv.json").string(), "--store", (dir / "store").string(), "--plain"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  const auto runs = stored_runs(dir / "store", "segv-1");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].status == store::RunStatus::crashed);
  CHECK(runs[0].detail.find("11") != std::string::npos);  // SIGSEGV
  CHECK(fs::file_size(fs::path(runs[0].dir) / "trace" / "thread-0000.msgpack") > 0);
  REQUIRE(runs[0].validation);
  CHECK(runs[0].validation->verdict == Verdict::pass);  // the prefix is a valid behaviour
  CHECK(read_text(fs::path(runs[0].dir) / "harness.err").size() < 100000);
}

TEST_CASE("a parameter the harness refuses is the campaign's configuration error, never a crash of the system under test") {
  ScratchDir dir;
  write_text(dir / "typo.json", steps_campaign("typo", {"--param", "crash_at=abc"}));
  const auto r = omnilink_cli({"campaign", (dir / "typo.json").string(), "--store", (dir / "store").string(), "--plain"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  const auto runs = stored_runs(dir / "store", "typo-1");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].status == store::RunStatus::error);
  CHECK_THAT(runs[0].detail, Catch::Contains("the harness refused its arguments") && Catch::Contains("--param crash_at=abc: not an integer"));
}

TEST_CASE("a campaign whose disk fills ends as interrupted: the reason, exit 2 and the resume command", "[disk]") {
  ScratchDir dir;
  const fs::path small = dir / "small", out = dir / "out.txt";
  fs::create_directories(small);
  // A 2 MiB tmpfs for the store; a few locked-queue runs of 2 x 20,000 operations fill it.
  const auto [code, output] = testing::cli_with_mounts(
      [&] { return mount("tmpfs", small.c_str(), "tmpfs", 0, "size=2m") == 0; },
      {"campaign", std::string(OMNILINK_SOURCE_DIR) + "/examples/campaigns/demo.json", "--rr", "off", "--only", "locked-queue", "--set",
       "targets.locked-queue.ops=20000", "--set", "targets.locked-queue.runs=20", "--store", (small / "store").string(), "--plain"},
      out, "cannot mount a small tmpfs here (needs CAP_SYS_ADMIN)");
  INFO(output);
  CHECK(code == 2);  // not -1: no abort
  CHECK_THAT(output, Catch::Contains("No space left on device") || Catch::Contains("database or disk is full"));
  CHECK_THAT(output, Catch::Contains("INTERRUPTED; continue it with: omnilink campaign") && Catch::Contains("--resume --id demo-1"));
  CHECK_THAT(output, !Catch::Contains("terminate called"));
}

TEST_CASE("a misspelt next, init or view is found before any run, naming the target") {
  ScratchDir dir;
  for (const auto& [field, value] : std::vector<std::pair<std::string, std::string>>{{"next", "Nxet"}, {"init", "Intt"}, {"view", "Veiw"}}) {
    INFO(field);
    nlohmann::json file = nlohmann::json::parse(steps_campaign("names", {"--param", "crash_at=-1"}));
    file["targets"][0][field] = value;
    write_text(dir / "names.json", file.dump());
    const auto r = omnilink_cli({"campaign", (dir / "names.json").string(), "--store", (dir / "store").string(), "--plain"});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("target 'steps': " + field + " '" + value + "' is not defined in " +
                                      (field == "view" ? "its MC module (it has none)" : "Steps.tla")));
    CHECK_FALSE(fs::exists(dir / "store" / "names-1"));  // nothing ran
  }
}

TEST_CASE("crashes are signed by where they struck: two segfaults share a signature, an abort has its own") {
  if (const ToolLocation a = find_addr2line(); !a.found()) skip_test("crash signatures need addr2line: " + a.explain_missing());
  ScratchDir dir;
  nlohmann::json file = nlohmann::json::parse(steps_campaign("crash", {"--param", "how=segv", "--param", "crash_at=30"}, 2));
  nlohmann::json abort_target = file["targets"][0];
  abort_target["name"] = "abort";
  abort_target["runs"] = 1;
  abort_target["args"] = {"--param", "how=abort", "--param", "crash_at=30"};
  file["targets"].push_back(abort_target);
  write_text(dir / "crash.json", file.dump());
  const auto r = omnilink_cli({"campaign", (dir / "crash.json").string(), "--store", (dir / "store").string(), "--plain",
                               "--json", (dir / "summary.json").string()});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  const auto runs = stored_runs(dir / "store", "crash-1");
  REQUIRE(runs.size() == 3);
  for (const auto& run : runs) {
    CHECK(run.status == store::RunStatus::crashed);
    // The handler wrote where the signal struck; addr2line named it while the harness was there.
    const nlohmann::json meta = read_json(fs::path(run.dir) / "meta.json");
    CHECK(meta["exit"]["frames"].size() >= 2);
    const nlohmann::json site = read_json(fs::path(run.dir) / "crash.json");
    CHECK(site["format"] == "omnilink-crash");
    CHECK(site["frames"].size() >= meta["exit"]["frames"].size());
  }
  // The summary's signatures: one for both segfaults, naming the line that dereferences null.
  const nlohmann::json summary = read_json(dir / "summary.json");
  REQUIRE(summary["signatures"].size() == 2);
  std::map<std::string, nlohmann::json> by_target;
  for (const auto& s : summary["signatures"]) by_target[s["target"].get<std::string>()] = s;
  CHECK(by_target["steps"]["runs"].size() == 2);
  CHECK(by_target["abort"]["runs"].size() == 1);
  // The lines of the helper's `*null_pointer = 1` and `std::abort()`.
  auto line_of = [](const std::string& needle) {
    std::ifstream in(fs::path(OMNILINK_SOURCE_DIR) / "tests" / "helpers" / "crashing_harness.cpp");
    int n = 0;
    for (std::string line; std::getline(in, line);)
      if (++n, line.find(needle) != std::string::npos) return std::to_string(n);
    return std::string("?");
  };
  const std::string segv = by_target["steps"]["title"], abort = by_target["abort"]["title"];
  CHECK(segv.starts_with("SIGSEGV at crashing_harness.cpp:" + line_of("*null_pointer = 1") + " "));
  CHECK(abort.starts_with("SIGABRT at crashing_harness.cpp:" + line_of("std::abort()") + " "));
  CHECK(r.out.find("2 distinct failures (by signature)") != std::string::npos);
}

TEST_CASE("a corrupt trace is bad-trace with the reader's error") {
  ScratchDir dir;
  write_text(dir / "corrupt.json", steps_campaign("corrupt", {"--param", "how=corrupt"}));
  const auto r = omnilink_cli({"campaign", (dir / "corrupt.json").string(), "--store", (dir / "store").string(), "--plain"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  const auto runs = stored_runs(dir / "store", "corrupt-1");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].status == store::RunStatus::bad_trace);
  CHECK(runs[0].detail.find("thread-0000.msgpack") != std::string::npos);
  CHECK(runs[0].detail.find("byte") != std::string::npos);
  CHECK(r.out.find("bad-trace") != std::string::npos);
}

TEST_CASE("SIGINT stops a campaign cleanly and --resume completes it, no run lost or repeated") {
  ScratchDir dir;
  // 8 runs of about a second each, two at a time.
  write_text(dir / "long.json", steps_campaign("long", {"--param", "crash_at=-1", "--param", "sleep_us=5000"}, 8, 60, 2, 200));
  const std::vector<std::string> args{"campaign", (dir / "long.json").string(), "--store", (dir / "store").string(), "--plain", "--jobs", "2"};
  std::vector<char*> argv{const_cast<char*>(OMNILINK_CLI)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int out = ::open((dir / "first.out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(out, 2);
    ::execv(OMNILINK_CLI, argv.data());
    ::_exit(127);
  }
  // Interrupt once some runs are finished and others are not.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  std::size_t finished = 0;
  while (std::chrono::steady_clock::now() < deadline && finished < 2) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!fs::exists(dir / "store" / "omnilink.db")) continue;
    try {
      finished = 0;
      for (const auto& run : stored_runs(dir / "store", "long-1")) finished += run.finished_ms != 0;
    } catch (const store::StoreError&) {
    }
  }
  REQUIRE(finished >= 2);
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  INFO(read_text(dir / "first.out"));
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(read_text(dir / "first.out").find("--resume") != std::string::npos);
  CHECK(read_text(dir / "first.out").find("SIGINT: stopping") != std::string::npos);  // says which signal, and what it stops
  {
    auto store = store::Store::open(dir / "store");
    CHECK(store.campaign("long-1")->status == store::CampaignStatus::interrupted);
    std::size_t not_final = 0;
    for (const auto& run : store.runs("long-1")) not_final += run.finished_ms == 0;
    CHECK(not_final > 0);
  }
  CHECK(no_process_mentions((dir / "store").string()));

  // The printed command, run as printed from another directory, continues this campaign in this store.
  const std::string first_out = read_text(dir / "first.out");
  const auto from = first_out.find("continue it with: ");
  REQUIRE(from != std::string::npos);
  std::istringstream printed(first_out.substr(from + 18, first_out.find(" (exit", from) - from - 18));
  std::vector<std::string> resume_args;
  for (std::string word; printed >> word;) resume_args.push_back(word);
  REQUIRE(resume_args.size() > 2);
  CHECK(resume_args[0] == "omnilink");
  CHECK(std::find(resume_args.begin(), resume_args.end(), "--store") != resume_args.end());
  fs::create_directories(dir / "elsewhere");
  ProcessOptions elsewhere;
  elsewhere.cwd = dir / "elsewhere";
  elsewhere.timeout = std::chrono::minutes(10);
  const auto r = run_process(OMNILINK_CLI, std::vector<std::string>(resume_args.begin() + 1, resume_args.end()), elsewhere);
  INFO(r.out << r.err);
  CHECK(r.out.find("resuming") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "elsewhere" / "omnilink-store"));
  auto store = store::Store::open(dir / "store");
  CHECK(store.campaigns().size() == 1);
  CHECK(store.campaign("long-1")->status == store::CampaignStatus::finished);
  const auto runs = store.runs("long-1");
  CHECK(runs.size() == 8);
  std::set<std::string> ids;
  for (const auto& run : runs) {
    ids.insert(run.id);
    CHECK(run.status == store::RunStatus::ok);
    CHECK(run.validation.has_value());
    CHECK(run.finished_ms != 0);
  }
  CHECK(ids.size() == 8);
  CHECK(r.exit_code == 0);
}

TEST_CASE("two campaigns write one store at the same time") {
  ScratchDir dir;
  write_text(dir / "a.json", steps_campaign("shared", {"--param", "crash_at=-1"}, 3));
  write_text(dir / "b.json", steps_campaign("shared", {"--param", "crash_at=-1"}, 3));
  const std::string store = (dir / "store").string();
  ProcessResult a, b;
  std::thread first([&] { a = omnilink_cli({"campaign", (dir / "a.json").string(), "--store", store, "--plain"}); });
  std::thread second([&] { b = omnilink_cli({"campaign", (dir / "b.json").string(), "--store", store, "--plain"}); });
  first.join();
  second.join();
  INFO(a.out << a.err << b.out << b.err);
  CHECK(a.exit_code == b.exit_code);
  CHECK((a.exit_code == 0 || a.exit_code == 2));
  auto s = store::Store::open(store);
  const auto campaigns = s.campaigns();
  REQUIRE(campaigns.size() == 2);
  std::set<std::string> ids;
  for (const auto& c : campaigns) {
    ids.insert(c.id);
    CHECK(c.status == store::CampaignStatus::finished);
    const auto runs = s.runs(c.id);
    CHECK(runs.size() == 3);
    for (const auto& run : runs) CHECK(run.validation.has_value());
  }
  CHECK(ids == std::set<std::string>{"shared-1", "shared-2"});
}

TEST_CASE("configuration errors exit 3 and name the field") {
  ScratchDir dir;
  nlohmann::json campaign = nlohmann::json::parse(steps_campaign("bad", {}));
  campaign["targets"][0]["thread"] = 2;  // a typo of "threads"
  write_text(dir / "typo.json", campaign.dump());
  auto r = omnilink_cli({"campaign", (dir / "typo.json").string(), "--store", (dir / "store").string()});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("targets[0]") != std::string::npos);
  CHECK(r.err.find("thread") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "store"));  // nothing is started for a bad file

  write_text(dir / "ok.json", steps_campaign("bad", {}));
  r = omnilink_cli({"campaign", (dir / "ok.json").string(), "--store", (dir / "store").string(), "--set", "tlc.heap=lots"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("tlc.heap") != std::string::npos);

  // --resume never creates a store; in a store without that campaign it says so.
  r = omnilink_cli({"campaign", (dir / "ok.json").string(), "--store", (dir / "store").string(), "--resume"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("no store at") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "store"));
  store::Store::open(dir / "store");
  r = omnilink_cli({"campaign", (dir / "ok.json").string(), "--store", (dir / "store").string(), "--resume"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("no campaign named 'bad'") != std::string::npos);
}

}  // namespace

namespace {

TEST_CASE("revalidate re-checks archived traces against another spec without re-running them") {
  ScratchDir dir;
  write_text(dir / "steps.json", steps_campaign("steps", {"--param", "crash_at=-1"}, 2));
  const std::string store = (dir / "store").string();
  omnilink_cli({"campaign", (dir / "steps.json").string(), "--store", store, "--plain"});
  const auto before = stored_runs(store, "steps-1");
  REQUIRE(before.size() == 2);

  // A spec without the traces' operation: every run is an error naming it, and nothing was re-run.
  auto r = omnilink_cli({"revalidate", "steps-1", "--store", store, "--spec", std::string(OMNILINK_TEST_SPECS) + "/Queue.tla"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("has no operation 'Step'") != std::string::npos);
  const auto after = stored_runs(store, "steps-1");
  for (std::size_t i = 0; i < after.size(); ++i) {
    CHECK(after[i].validation->verdict == Verdict::error);
    CHECK(after[i].harness_ms == before[i].harness_ms);
    CHECK(after[i].started_ms == before[i].started_ms);
  }

  // One run, back to the campaign's own spec.
  r = omnilink_cli({"revalidate", "steps-1/" + before[0].id, "--store", store});
  INFO(r.out << r.err);
  const auto one = store::Store::open(store).run("steps-1/" + before[0].id);
  CHECK(r.exit_code == 0);
  CHECK(one->validation->verdict == Verdict::pass);  // the native checker decides, with or without TLC
  CHECK(store::Store::open(store).run("steps-1/" + before[1].id)->validation->verdict == Verdict::error);

  r = omnilink_cli({"revalidate", "steps-1/nope", "--store", store});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("no run 'steps-1/nope'") != std::string::npos);
}

}  // namespace

namespace {

TEST_CASE("a campaign being run cannot be resumed by a second omnilink at the same time") {
  ScratchDir dir;
  write_text(dir / "slow.json", steps_campaign("slow", {"--param", "crash_at=-1", "--param", "sleep_us=20000"}, 1, 60, 1, 200));
  const std::string store = (dir / "store").string();
  ProcessResult first;
  std::thread running([&] { first = omnilink_cli({"campaign", (dir / "slow.json").string(), "--store", store, "--plain"}); });
  // Wait until the first one has its run going (about 4 s of harness), then try to resume it.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool started = false;
  while (!started && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    try {
      if (fs::exists(dir / "store" / "omnilink.db"))
        for (const auto& run : stored_runs(store, "slow-1")) started |= run.status == store::RunStatus::running;
    } catch (const store::StoreError&) {
    }
  }
  const auto second = omnilink_cli({"campaign", (dir / "slow.json").string(), "--store", store, "--resume"});
  running.join();
  INFO(first.out << first.err << second.out << second.err);
  REQUIRE(started);
  CHECK(second.exit_code == 3);
  CHECK(second.err.find("another omnilink (pid") != std::string::npos);
  CHECK(stored_runs(store, "slow-1").size() == 1);
  CHECK(stored_runs(store, "slow-1")[0].status == store::RunStatus::ok);
}

}  // namespace

TEST_CASE("without TLC a campaign says once where it looked and what that changes, and each failure only its consequence") {
  ScratchDir dir;
  ProcessOptions options;
  options.timeout = std::chrono::seconds(600);
  options.env_overrides["OMNILINK_TLC_JAR"] = (dir / "nowhere" / "tla2tools.jar").string();
  const auto r = run_process(OMNILINK_CLI,
                             {"campaign", std::string(OMNILINK_SOURCE_DIR) + "/examples/campaigns/demo.json", "--rr", "off", "--set",
                              "targets.racy-queue.ops=4000", "--set", "targets.racy-queue.runs=6", "--set", "validation.checker=auto",
                              "--set", "validation.confirm_failures=6", "--store", (dir / "store").string(), "--plain", "--json",
                              (dir / "summary.json").string()},
                             options);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);  // the native checker still decides: a failure, not `unknown`
  CHECK_THAT(r.out, Catch::Contains("TLC: not available") && Catch::Contains((dir / "nowhere").string()) &&
                        Catch::Contains("the native checker decides every verdict, and its failures are not confirmed by TLC"));
  CHECK_THAT(r.out, !Catch::Contains("every validation will be `unknown`"));
  CHECK_THAT(r.out, !Catch::Contains("TLC confirms") && !Catch::Contains("TLC heap"));  // the header promises nothing TLC would do
  const nlohmann::json summary = read_json(dir / "summary.json");
  std::size_t failures = 0;
  for (const auto& run : summary["runs"]) {
    if (run["outcome"] != "fail") continue;
    ++failures;
    const nlohmann::json result = read_json(fs::path(run["dir"].get<std::string>()) / "validation" / "result.json");
    const std::string caveats = result["caveats"].dump();
    CHECK_THAT(caveats, Catch::Contains("the failure was not confirmed by TLC (TLC not found; `omnilink doctor` says where omnilink looks)"));
    CHECK_THAT(caveats, !Catch::Contains("nowhere"));  // where it looked is said once, in the header
  }
  CHECK(failures >= 1);
}
