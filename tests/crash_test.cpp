// A harness that crashes (or is interrupted) mid-run leaves decodable traces: every committed
// record, a pending record (with its declared inputs) for each operation in flight, an end record
// per thread, and a meta.json naming the signal.
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <thread>

#include <spawn.h>
#include <sys/wait.h>

#include "platform/subprocess.hpp"
#include "support/test_support.hpp"

namespace {

using namespace omnilink;

ProcessResult run_crashing(const std::filesystem::path& out, const std::string& how, std::uint32_t threads,
                           std::int64_t others_ops = -1, std::int64_t wait_ms = 0) {
  std::vector<std::string> args{"--threads", std::to_string(threads), "--ops", "1000000000", "--seed", "3", "--clock",
                                "counter", "--quiet", "--out", out.string(), "--param", "how=" + how, "--param",
                                "crash_at=500", "--param", "others_ops=" + std::to_string(others_ops),
                                "--param", "wait_ms=" + std::to_string(wait_ms)};
  return run_process(OMNILINK_CRASHING_HARNESS, args);
}

void check_crashed_run(const std::filesystem::path& out, int expected_signal, std::uint32_t threads) {
  auto meta = trace::read_run_meta(out / "meta.json");
  CHECK(meta.exit_status == trace::ExitStatus::crashed);
  REQUIRE(meta.exit_signal.has_value());
  CHECK(*meta.exit_signal == expected_signal);
  CHECK(meta.json["exit"]["thread"] == 0);

  auto traces = testing::read_run(out);
  REQUIRE(traces.size() == threads);
  // Thread 0 died inside its operation 500: 500 complete records, then the pending record with the
  // input it had set (n = 500).
  const auto& t0 = traces[0];
  INFO((t0.error ? t0.error->describe() : "no error"));
  REQUIRE_FALSE(t0.error.has_value());
  REQUIRE(t0.ops.size() == 501);
  for (std::uint64_t k = 0; k < 500; ++k) {
    REQUIRE(t0.ops[k].kind == trace::RecordKind::op);
    REQUIRE(t0.ops[k].field("n")->as<std::int64_t>() == static_cast<std::int64_t>(k));
  }
  const auto& pending = t0.ops[500];
  CHECK(pending.kind == trace::RecordKind::pending);
  CHECK(pending.index == 500);
  CHECK(pending.name == "Step");
  CHECK(pending.signal == expected_signal);
  CHECK(pending.start > t0.ops[499].end);
  REQUIRE(pending.inputs_known);
  REQUIRE(pending.field("n") != nullptr);
  CHECK(pending.field("n")->as<std::int64_t>() == 500);
  REQUIRE(t0.header.has_value());
  CHECK(t0.header->version == 2);
  CHECK(t0.header->inputs == trace::InputDeclarations{{"Step", {"n"}}});
  REQUIRE(t0.end.has_value());
  CHECK(t0.end->reason == "signal");
  CHECK(t0.end->signal == expected_signal);
  // Where it struck: the interrupted instruction, then its callers (at least the worker's loop).
  CHECK(meta.crash_frames.size() >= 2);
  CHECK(std::find(meta.crash_frames.begin(), meta.crash_frames.end(), 0) == meta.crash_frames.end());
  // The other threads were cut short, each file closed, no record lost in between.
  for (std::uint32_t t = 1; t < threads; ++t) {
    INFO("thread " << t << (traces[t].error ? traces[t].error->describe() : ""));
    REQUIRE_FALSE(traces[t].error.has_value());
    REQUIRE(traces[t].end.has_value());
    for (std::size_t k = 0; k < traces[t].ops.size(); ++k) CHECK(traces[t].ops[k].index == k);
  }
}

}  // namespace

TEST_CASE("a segfaulting harness leaves decodable logs with pending records", "[crash]") {
  testing::ScratchDir dir;
  ProcessResult r = run_crashing(dir.path(), "segv", 4);
  INFO(r.describe() << "\n" << r.err);
  REQUIRE(r.signal == SIGSEGV);
  check_crashed_run(dir.path(), SIGSEGV, 4);
}

TEST_CASE("abort() and SIGFPE are handled the same way", "[crash]") {
  const auto [how, sig] = GENERATE(std::pair{"abort", SIGABRT}, std::pair{"fpe", SIGFPE});
  testing::ScratchDir dir;
  ProcessResult r = run_crashing(dir.path(), how, 2);
  INFO(r.describe() << "\n" << r.err);
  REQUIRE(r.signal == sig);
  check_crashed_run(dir.path(), sig, 2);
}

TEST_CASE("threads that had already finished keep their own end record", "[crash]") {
  testing::ScratchDir dir;
  // Other threads stop after 5 operations (their only op becomes unsupported 1000 times in a row);
  // thread 0 waits 500 ms before it dies, long after they have closed their files.
  ProcessResult r = run_crashing(dir.path(), "segv", 3, 5, 500);
  REQUIRE(r.signal == SIGSEGV);
  auto traces = testing::read_run(dir.path());
  for (std::uint32_t t = 1; t < 3; ++t) {
    REQUIRE_FALSE(traces[t].error.has_value());
    CHECK(traces[t].ops.size() == 5);
    CHECK(traces[t].end->reason == "unsupported-limit");
  }
}

TEST_CASE("SIGTERM on a hanging harness flushes its traces and marks the run interrupted", "[crash]") {
  testing::ScratchDir dir;
  const std::string out = dir.path().string();
  std::vector<std::string> args{OMNILINK_CRASHING_HARNESS, "--threads", "2", "--ops", "1000", "--seed", "3",
                                "--clock", "counter", "--quiet", "--out", out, "--param", "how=hang",
                                "--param", "crash_at=100"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  REQUIRE(posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) == 0);
  // Wait until thread 1 finished (its end record is on disk) and thread 0 is hanging at op 100.
  const auto t1_file = dir.path() / "trace" / "thread-0001.msgpack";
  for (int i = 0; i < 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto t = trace::read_thread_trace(t1_file);
    if (t.end) break;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  kill(pid, SIGTERM);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);

  auto meta = trace::read_run_meta(dir.path() / "meta.json");
  CHECK(meta.exit_status == trace::ExitStatus::interrupted);
  CHECK(meta.crash_frames.empty());  // an interrupt strikes anywhere: no place to report
  auto traces = testing::read_run(dir.path());
  REQUIRE_FALSE(traces[0].error.has_value());
  REQUIRE(traces[0].ops.size() == 101);
  CHECK(traces[0].ops[100].kind == trace::RecordKind::pending);
  CHECK(traces[0].ops[100].field("n")->as<std::int64_t>() == 100);
  CHECK(traces[0].end->reason == "signal");
  REQUIRE_FALSE(traces[1].error.has_value());
  CHECK(traces[1].ops.size() == 1000);
  CHECK(traces[1].end->reason == "done");
}
