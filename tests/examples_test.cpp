// The example workloads build with the harness and write readable traces whose contents make sense
// for the structure under test (full validation against a spec comes with the TLA+ layer).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "platform/subprocess.hpp"
#include "support/test_support.hpp"

namespace {

using namespace omnilink;

std::vector<trace::ThreadTrace> run_example(const std::string& exe, const std::filesystem::path& out,
                                            const std::string& threads, const std::string& ops,
                                            const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{"--threads", threads, "--ops", ops, "--seed", "11", "--out", out.string(), "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  ProcessResult r = run_process(exe, args);
  INFO(r.describe() << "\n" << r.err);
  REQUIRE(r.ok());
  auto traces = testing::read_run(out);
  REQUIRE(traces.size() == std::stoul(threads));
  for (const auto& t : traces) {
    INFO((t.error ? t.error->describe() : ""));
    REQUIRE_FALSE(t.error.has_value());
    REQUIRE(t.ops.size() == std::stoul(ops));
  }
  return traces;
}

}  // namespace

TEST_CASE("atomic-counter: fetch_add results are distinct and consistent", "[examples]") {
  testing::ScratchDir dir;
  auto traces = run_example(OMNILINK_EXAMPLE_ATOMIC_COUNTER, dir.path(), "4", "2000");
  std::set<std::int64_t> olds;
  std::int64_t total = 0;
  for (const auto& t : traces)
    for (const auto& op : t.ops)
      if (op.name == "Increment") {
        CHECK(olds.insert(op.field("old")->as<std::int64_t>()).second);
        total += op.field("by")->as<std::int64_t>();
      }
  // The old values are the prefix sums of the increments in linearization order: the largest is
  // total minus the last increment, so it is below the total.
  REQUIRE_FALSE(olds.empty());
  CHECK(*olds.begin() == 0);
  CHECK(*olds.rbegin() < total);
}

TEST_CASE("queue workloads: --param max_len keeps the queue at most that long, and reaches it", "[examples]") {
  // One thread: the trace's order is the queue's, so its length after every operation is known.
  const auto longest_queue = [](const std::vector<trace::ThreadTrace>& traces) {
    std::int64_t length = 0, longest = 0;
    for (const auto& op : traces[0].ops) {
      if (op.name == "Enqueue") ++length;
      if (op.name == "Dequeue" && op.field("ok")->as<bool>()) --length;
      longest = std::max(longest, length);
    }
    return longest;
  };
  testing::ScratchDir bounded, unbounded;
  CHECK(longest_queue(run_example(OMNILINK_EXAMPLE_LOCKED_QUEUE, bounded.path(), "1", "3000", {"--param", "max_len=4"})) == 4);
  CHECK(longest_queue(run_example(OMNILINK_EXAMPLE_LOCKED_QUEUE, unbounded.path(), "1", "3000")) > 4);

  const ProcessResult bad = run_process(OMNILINK_EXAMPLE_LOCKED_QUEUE, {"--param", "max_len=-1", "--out", (bounded / "bad").string()});
  CHECK(bad.exit_code == 3);
  CHECK(bad.err.find("max_len=-1") != std::string::npos);
}

TEST_CASE("locked-queue: every dequeued element was enqueued, and none twice", "[examples]") {
  testing::ScratchDir dir;
  auto traces = run_example(OMNILINK_EXAMPLE_LOCKED_QUEUE, dir.path(), "4", "5000");
  std::set<std::int64_t> enqueued, dequeued;
  for (const auto& t : traces)
    for (const auto& op : t.ops) {
      if (op.name == "Enqueue") CHECK(enqueued.insert(op.field("elem")->as<std::int64_t>()).second);
      if (op.name == "Dequeue" && op.field("ok")->as<bool>()) CHECK(dequeued.insert(op.field("elem")->as<std::int64_t>()).second);
    }
  for (std::int64_t v : dequeued) CHECK(enqueued.count(v) == 1);
}

TEST_CASE("racy-queue: writes a readable trace (its race shows as duplicate dequeues)", "[examples]") {
  // The race is probabilistic natively; validation (TLA+ layer) is what must catch it. Here we only
  // check the harness side and count duplicates, which may legitimately be zero on one run.
  testing::ScratchDir dir;
  auto traces = run_example(OMNILINK_EXAMPLE_RACY_QUEUE, dir.path(), "2", "20000");
  std::map<std::int64_t, int> times_dequeued;
  for (const auto& t : traces)
    for (const auto& op : t.ops)
      if (op.name == "Dequeue" && op.field("ok")->as<bool>()) ++times_dequeued[op.field("elem")->as<std::int64_t>()];
  int duplicates = 0;
  for (const auto& [v, n] : times_dequeued) duplicates += n > 1;
  WARN("racy-queue duplicate dequeues in this run: " << duplicates);
  CHECK(times_dequeued.size() > 0);
}

TEST_CASE("a workload parameter the harness does not take, or cannot read, ends it before it writes anything", "[examples][params]") {
  testing::ScratchDir dir;
  const std::filesystem::path out = dir / "run";
  for (const auto& [param, says] : std::vector<std::pair<std::string, std::string>>{
           {"max_len=abc", "--param max_len=abc: not an integer"},
           {"max_len=99999999999999999999", "--param max_len=99999999999999999999: out of range"},
           {"max_len=-1", "--param max_len=-1: must be 0 to"},
           {"capacityy=4", "--param capacityy=4: no such parameter; this harness takes max_len, bad_last"}}) {
    const ProcessResult r = run_process(OMNILINK_EXAMPLE_LOCKED_QUEUE, {"--threads", "2", "--ops", "10", "--out", out.string(), "--param", param});
    INFO(r.describe() << "\n" << r.err);
    CHECK(r.exit_code == 3);  // the harness's usage error, not a crash (abort would be 134)
    CHECK_THAT(r.err, Catch::Contains(says));
    CHECK_FALSE(std::filesystem::exists(out));  // no thread started, no file written
  }
  const ProcessResult twice = run_process(OMNILINK_EXAMPLE_LOCKED_QUEUE, {"--out", out.string(), "--param", "max_len=4", "--param", "max_len=5"});
  CHECK(twice.exit_code == 3);
  CHECK_THAT(twice.err, Catch::Contains("--param max_len: given twice"));
  const ProcessResult help = run_process(OMNILINK_EXAMPLE_LOCKED_QUEUE, {"--help"});
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("Workload parameters:") && Catch::Contains("--param max_len=0") &&
                           Catch::Contains("0 to 1000000000, default 0"));
}
