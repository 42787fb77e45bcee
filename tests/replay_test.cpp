// `omnilink replay`: the gdb command files stop at the requested operation, under plain gdb on a
// deterministic single-thread run (--rerun) and under rr on a recorded failing run, and a recorded
// crash at its signal (--crash); and every error
// names what exists. SKIPPED (exit 77) without gdb; the rr case skips itself where rr cannot record
// and replay a statically linked harness. Each case is its own ctest entry.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "replay/seek_index.hpp"
#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"
#include "support/test_support.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
using omnilink::testing::ScratchDir;
namespace fs = std::filesystem;

using omnilink::testing::skip_test;
void require_rr_replay() {
#ifdef OMNILINK_SANITIZER_BUILD
  skip_test("sanitizer build: the harness is not static and its shadow memory collides with rr's mappings");
#endif
  if (!find_rr().found()) skip_test("rr not found");
}

void require_gdb() {
  if (const ToolLocation gdb = find_gdb(); !gdb.found()) skip_test("gdb not found (" + gdb.explain_missing() + ")");
}

ProcessResult cli(const std::vector<std::string>& args, std::map<std::string, std::string> env = {}) {
  ProcessOptions options;
  options.timeout = std::chrono::minutes(10);
  options.env_overrides = std::move(env);
  return run_process(OMNILINK_CLI, args, options);
}

// A deterministic run: one thread, counter clock.
fs::path single_thread_run(const ScratchDir& dir, std::uint64_t ops) {
  const fs::path run = dir / "run";
  const auto r = run_process(OMNILINK_EXAMPLE_LOCKED_QUEUE, {"--threads", "1", "--ops", std::to_string(ops), "--seed", "7",
                                                             "--clock", "counter", "--out", run.string(), "--quiet"});
  REQUIRE(r.ok());
  return run;
}

std::string logged_call(const fs::path& run, const std::string& op) {
  const auto r = run_process(OMNILINK_CLI, {"trace", "show", run.string(), "--thread", "0", "--limit", "100000"});
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(op + " ", 0) == 0) return line.substr(line.rfind("]  ") + 3);
  return "";
}

TEST_CASE("under plain gdb, --rerun stops a deterministic run at an early and at a late operation") {
  require_gdb();
  ScratchDir dir;
  const fs::path run = single_thread_run(dir, 3000);
  for (const std::string op : {"T0.3", "T0.2990"}) {
    const std::string call = logged_call(run, op);
    REQUIRE_FALSE(call.empty());
    const auto r = cli({"replay", run.string(), op, "--rerun", "--batch"});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("omnilink: stopped at operation " + op) != std::string::npos);
    CHECK(r.out.find("omnilink: logged call " + call) != std::string::npos);
    CHECK(r.out.find("omnilink_op_start") != std::string::npos);  // the backtrace
    CHECK(r.out.find("Breakpoint 1 at") == std::string::npos);  // gdb's own line, not under omnilink's name
  }
  CHECK(fs::exists(run / "replay" / "T0.3.gdb"));
  CHECK(fs::exists(run / "trace" / "thread-0000.msgpack"));  // the run's own trace is untouched
}

TEST_CASE("the command file that --print writes breaks on the thread and the logged start") {
  ScratchDir dir;
  const fs::path run = single_thread_run(dir, 50);
  const auto r = cli({"replay", run.string(), "0.10", "--print"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("break omnilink_op_start if header->thread == 0 && header->start == ") != std::string::npos);
  CHECK(r.out.find("bt") != std::string::npos);
}

TEST_CASE("the seek index reads the indexing replay's output and starts at the thread's last checkpoint") {
  const replay::SeekIndex index = replay::parse_index_output(
      "Breakpoint 1 at 0x40f110\nomnilink-checkpoint 0 0 0\nCompleted event: 182\nomnilink-checkpoint 1 0 1\n"
      "Completed event: 190\nomnilink-checkpoint 0 256 300\nCompleted event: 201\nomnilink-checkpoint 0 512 900\n");
  REQUIRE(index.checkpoints.size() == 3);  // the last has no event yet: not kept
  CHECK(index.event_before(0, 0) == 182u);
  CHECK(index.event_before(0, 255) == 182u);
  CHECK(index.event_before(0, 256) == 201u);
  CHECK(index.event_before(0, 100000) == 201u);
  CHECK(index.event_before(1, 7) == 190u);
  CHECK_FALSE(index.event_before(2, 7));
  ScratchDir dir;
  replay::save_seek_index(dir.path(), index);
  const auto loaded = replay::load_seek_index(dir.path());
  REQUIRE(loaded);
  CHECK(loaded->event_before(0, 300) == 201u);
}

TEST_CASE("replay errors name what exists") {
  ScratchDir dir;
  const fs::path run = single_thread_run(dir, 50);
  auto r = cli({"replay", "nope-1/x", "T0.1", "--store", (dir / "store").string()});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("no store") != std::string::npos);
  store::Store::open(dir / "store").create_campaign(store::CampaignKind::campaign, "demo", "demo.json", "{}");
  r = cli({"replay", "nope-1/x", "T0.1", "--store", (dir / "store").string()});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("campaigns in the store: demo-1") != std::string::npos);

  r = cli({"replay", run.string(), "T4.1", "--batch"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("the run has threads 0..0") != std::string::npos);
  r = cli({"replay", run.string(), "T0.50", "--batch"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("indices 0..49") != std::string::npos);
  r = cli({"replay", run.string(), "--crash", "--batch"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("did not crash (its harness exit status is ok)") != std::string::npos);
  r = cli({"replay", run.string(), "T0.1", "--crash"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("give one of OP, --core and --crash") != std::string::npos);
  r = cli({"replay", run.string(), "banana", "--batch"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("THREAD.INDEX") != std::string::npos);
  // A thread of 2^32 + 1 is out of range, not thread 1; signs and spaces are not digits.
  const std::pair<std::string, std::string> bad_ids[] = {{"T4294967297.100", "its thread is out of range"},
                                                         {"T0.18446744073709551616", "its index is out of range"},
                                                         {"T-1.5", "is not an operation"},
                                                         {"T0.+5", "is not an operation"},
                                                         {"T 0.5", "is not an operation"},
                                                         {"T0.5x", "is not an operation"}};
  for (const auto& [bad, says] : bad_ids) {
    INFO(bad);
    r = cli({"replay", run.string(), bad, "--batch"});
    CHECK(r.exit_code == 3);
    CHECK(r.err.find(says) != std::string::npos);
  }

  // Not recorded: said so, and --rerun offered because it is deterministic.
  r = cli({"replay", run.string(), "T0.1", "--batch"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("was not recorded with rr") != std::string::npos);
  CHECK(r.err.find("use --rerun") != std::string::npos);

  // A multi-threaded run cannot be re-executed deterministically.
  const fs::path two = dir / "two";
  REQUIRE(run_process(OMNILINK_EXAMPLE_LOCKED_QUEUE, {"--threads", "2", "--ops", "20", "--out", two.string(), "--quiet"}).ok());
  r = cli({"replay", two.string(), "T1.1", "--rerun", "--batch"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("--rerun needs a deterministic run") != std::string::npos);

  // A recording but no rr.
  fs::create_directories(two / "rr");
  r = cli({"replay", two.string(), "T1.1", "--batch"}, {{"OMNILINK_RR", (dir / "no-rr").string()}});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("rr: ") != std::string::npos);
}

// A campaign `name` of one target under rr chaos, stored in dir/store; SKIPPED where rr cannot
// record. Its harnesses are statically linked: rr replays those here even where the hypervisor
// ignores rdtsc traps (the dynamic loader's rdtsc is what diverges).
ProcessResult rr_chaos_campaign(const ScratchDir& dir, const std::string& name, const nlohmann::json& target) {
  const nlohmann::json campaign{{"format", 1}, {"name", name}, {"rr", "chaos"}, {"tlc", {{"heap", "1g"}}}, {"targets", nlohmann::json::array({target})}};
  const fs::path file = dir / (name + ".json");
  std::ofstream(file) << campaign.dump();
  const auto c = cli({"campaign", file.string(), "--store", (dir / "store").string(), "--plain", "--rr", "chaos"});
  if (c.exit_code == 3) skip_test("rr cannot record here: " + c.err);
  return c;
}

TEST_CASE("under rr, a failing racy-queue run replays to a frontier operation, identically twice") {
  require_gdb();
  require_rr_replay();
  ScratchDir dir;
  const auto c = rr_chaos_campaign(dir, "rr", {{"name", "racy"}, {"harness", OMNILINK_STATIC_RACY_QUEUE},
                                               {"spec", std::string(OMNILINK_SPECS_DIR) + "/LinearizableQueue.tla"},
                                               {"threads", {3}}, {"ops", {4000}}, {"runs", 8},
                                               {"args", {"--perturb", "mixed", "--perturb-rate", "0.05"}}});
  const std::string store = (dir / "store").string();
  std::optional<store::RunRecord> failed;
  for (const auto& run : store::Store::open(store).runs("rr-1"))
    if (run.validation && run.validation->verdict == Verdict::fail) failed = run;
  INFO(c.out);
  REQUIRE(failed);
  const nlohmann::json result = nlohmann::json::parse(std::ifstream(fs::path(failed->dir) / "validation" / "result.json"));
  const auto& pending = result["frontier"]["pending"][0];
  const std::string op = "T" + std::to_string(pending["thread"].get<int>()) + "." + std::to_string(pending["index"].get<int>());
  CHECK(fs::exists(fs::path(failed->dir) / "replay" / (op + ".gdb")));
  CHECK(fs::exists(fs::path(failed->dir) / "replay" / "README.txt"));
  std::vector<std::string> stops;
  for (int i = 0; i < 2; ++i) {
    const auto r = cli({"replay", failed->key(), op, "--batch", "--store", store});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    const auto at = r.out.find("omnilink: stopped at operation " + op);
    REQUIRE(at != std::string::npos);
    stops.push_back(r.out.substr(at, r.out.find('\n', r.out.find("omnilink: logged call", at)) - at));
  }
  CHECK(stops[0] == stops[1]);
  CHECK(stops[0].find(pending["name"].get<std::string>()) != std::string::npos);

  // rr pack made the recording self-contained: the run directory moved elsewhere still replays.
  const fs::path moved = dir / "moved";
  fs::rename(failed->dir, moved);
  const auto r = cli({"replay", moved.string(), op, "--batch"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find(stops[0]) != std::string::npos);
}

TEST_CASE("under rr, a crashed run replays to its signal and stops where it struck, identically twice") {
  require_gdb();
  require_rr_replay();
  ScratchDir dir;
  // Thread 0 writes through a null pointer at its 30th operation while thread 1 goes on.
  const auto c = rr_chaos_campaign(dir, "crash", {{"name", "steps"}, {"harness", OMNILINK_STATIC_CRASHING_HARNESS},
                                                  {"spec", std::string(OMNILINK_TEST_SPECS) + "/Steps.tla"},
                                                  {"threads", {2}}, {"ops", {100}}, {"runs", 1},
                                                  {"args", {"--param", "how=segv", "--param", "crash_at=30"}}});
  const std::string store = (dir / "store").string();
  INFO(c.out << c.err);
  const auto runs = store::Store::open(store).runs("crash-1");
  REQUIRE(runs.size() == 1);
  REQUIRE(runs[0].status == store::RunStatus::crashed);
  // The campaign's report says how to replay it.
  CHECK(c.out.find("replay: omnilink replay " + runs[0].key() + " --crash") != std::string::npos);
  std::vector<std::string> stops;
  for (int i = 0; i < 2; ++i) {
    const auto r = cli({"replay", runs[0].key(), "--crash", "--batch", "--store", store});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    const auto at = r.out.find("omnilink: stopped at signal SIGSEGV, where it ended the run");
    REQUIRE(at != std::string::npos);
    stops.push_back(r.out.substr(at));
  }
  CHECK(stops[0] == stops[1]);
  // The backtrace is the crashing thread's: the harness's operation, in the helper's source.
  CHECK(stops[0].find("crashing_harness.cpp") != std::string::npos);
  CHECK(fs::exists(fs::path(runs[0].dir) / "replay" / "crash.gdb"));
}

}  // namespace


namespace {

TEST_CASE("fast seek stops at a late operation of a long recording within seconds, and matches the slow path") {
  require_gdb();
  require_rr_replay();
  const ToolLocation rr = find_rr();
  ScratchDir dir;
  const fs::path run = dir / "long";
  fs::create_directories(run);
  // 3 threads x 20000 operations: the plain conditional breakpoint needs about 90 s for the last ones.
  const auto rec = run_process(*rr.path, {"record", "-W", "--chaos", "-o", (run / "rr").string(), "--", OMNILINK_STATIC_RACY_QUEUE,
                                          "--threads", "3", "--ops", "20000", "--seed", "5", "--clock", "counter", "--out",
                                          run.string(), "--quiet"});
  if (!rec.ok()) skip_test("rr cannot record here: " + rec.err.substr(0, 300));
  std::ofstream(run / "recording.json") << R"({"mode": "chaos", "soft_counters": true})";
  const auto first = cli({"replay", run.string(), "T2.19900", "--batch"});
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  CHECK(first.err.find("checkpoints indexed") != std::string::npos);
  CHECK(fs::exists(run / "replay" / "seek-index.json"));
  const auto begin = std::chrono::steady_clock::now();
  const auto second = cli({"replay", run.string(), "T2.19900", "--batch"});  // the index is cached now
  const auto took = std::chrono::steady_clock::now() - begin;
  INFO(second.out << second.err);
  CHECK(second.exit_code == 0);
  CHECK(second.err.find("indexing") == std::string::npos);
  CHECK(took < std::chrono::seconds(15));
  const auto stop = [](const std::string& out) {
    const auto at = out.find("omnilink: stopped at operation");
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', out.find("omnilink: logged call", at)) - at);
  };
  CHECK_FALSE(stop(second.out).empty());
  CHECK(stop(first.out) == stop(second.out));
  // An early operation, through the slow path: the same stop as with the seek.
  const auto early_seek = cli({"replay", run.string(), "T0.300", "--batch"});
  const auto early_slow = cli({"replay", run.string(), "T0.300", "--batch", "--no-seek"});
  CHECK(early_seek.exit_code == 0);
  CHECK(early_slow.exit_code == 0);
  CHECK(stop(early_seek.out) == stop(early_slow.out));
}

}  // namespace
