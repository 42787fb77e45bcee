// moodycamel::ConcurrentQueue (examples/moodycamel-queue) end to end: the shipped campaign, rr off,
// passes, and its traces cover every call the harness makes; hand-made traces pin down what
// PerProducerQueue.tla accepts for the paper's bulk-dequeue anomaly, try_dequeue_from_producer and
// size_approx. Through the real CLI; SKIPPED (77) without TLC.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>

#include "support/campaign_support.hpp"
#include "support/trace_builder.hpp"

namespace {

using namespace omnilink;
using omnilink::testing::ScratchDir;
using omnilink::testing::TraceBuilder;
using F = TraceBuilder;
using Elems = std::vector<std::int64_t>;
namespace fs = std::filesystem;

// `omnilink validate RUN --spec PerProducerQueue.tla`'s verdict, from its exit code.
std::string verdict(const fs::path& run) {
  const ProcessResult r = testing::omnilink_cli(
      {"validate", run.string(), "--spec", std::string(OMNILINK_SPECS_DIR) + "/PerProducerQueue.tla", "--heap", "1g"});
  INFO(r.describe() << "\n" << r.out << r.err);
  switch (r.exit_code) {
    case 0: return "pass";
    case 1: return "fail";
    default: FAIL("validate exited " << r.exit_code); return "";
  }
}

std::string verdict(const TraceBuilder& trace, const ScratchDir& dir, const std::string& name) {
  trace.write(dir / name);
  return verdict(dir / name);
}

}  // namespace

TEST_CASE("the shipped campaign passes, rr off, and covers every call", "[moodycamel][tlc]") {
  ScratchDir dir;
  // Three runs (2, 3 and 4 threads) of 200 operations per thread.
  const auto result = testing::run_campaign(testing::example_campaign("moodycamel-queue.json"), dir,
                                            {"--set", "rr=off", "--runs", "1", "--set", "targets.moodycamel-queue.ops=200"});
  INFO(result.output);
  CHECK(result.exit_code == 0);
  CHECK(result.outcomes("moodycamel-queue") == std::vector<std::string>{"pass", "pass", "pass"});

  // What the validated traces hold: every run directory's operations, by name and fields.
  std::set<std::string> seen;
  std::size_t traces = 0;
  auto integer = [](const trace::Operation& op, const char* field) { return op.field(field)->as<std::int64_t>(); };
  for (const auto& entry : fs::recursive_directory_iterator(dir / "store")) {
    if (entry.path().filename() != "meta.json" || !fs::is_directory(entry.path().parent_path() / "trace")) continue;
    ++traces;
    for (const auto& thread : testing::read_run(entry.path().parent_path()))
      for (const auto& op : thread.ops) {
        const std::string& name = op.name;
        seen.insert(name);
        if (name == "Enqueue" || name == "EnqueueBulk") seen.insert(name + (integer(op, "producer") >= 1000 ? " token" : " implicit"));
        if (name == "Dequeue" || name == "DequeueFromProducer") seen.insert(name + (op.field("ok")->as<bool>() ? " ok" : " empty"));
        if (name == "DequeueBulk") {
          const std::size_t n = op.field("elems")->as<trace::Tuple>().items.size();
          seen.insert(name + (n == 0 ? " empty" : n > 1 ? " several" : " one"));
        }
        if (name == "SizeApprox" && integer(op, "size") > 0) seen.insert("SizeApprox nonzero");
      }
  }
  CHECK(traces == 3);
  for (const char* kind : {"Enqueue implicit", "Enqueue token", "EnqueueBulk implicit", "EnqueueBulk token", "Dequeue ok",
                           "Dequeue empty", "DequeueFromProducer ok", "DequeueFromProducer empty", "DequeueBulk empty",
                           "DequeueBulk one", "DequeueBulk several", "SizeApprox", "SizeApprox nonzero"}) {
    INFO(kind);
    CHECK(seen.count(kind) == 1);
  }
}

TEST_CASE("the paper's anomaly: one producer's <<1..5>> taken as <<3, 4, 5>>, then <<1, 2>>", "[moodycamel][tlc]") {
  ScratchDir dir;
  auto trace = [](const Elems& first, const Elems& second) {
    TraceBuilder b(3);
    b.op(0, "EnqueueBulk", 1, 2, F::fields("producer", 1000, "elems", Elems{1, 2, 3, 4, 5}));
    b.op(1, "DequeueBulk", 3, 4, F::fields("elems", first));
    b.op(2, "DequeueBulk", 5, 6, F::fields("elems", second));
    return b;
  };
  CHECK(verdict(trace({3, 4, 5}, {1, 2}), dir, "anomaly") == "fail");
  CHECK(verdict(trace({1, 2}, {3, 4, 5}), dir, "in-order") == "pass");
}

TEST_CASE("try_dequeue_from_producer takes the head of that producer's stream only", "[moodycamel][tlc]") {
  ScratchDir dir;
  auto trace = [](std::int64_t producer, std::int64_t elem, bool ok) {
    TraceBuilder b(2);
    b.op(0, "Enqueue", 1, 2, F::fields("producer", 0, "elem", 1)).op(0, "Enqueue", 3, 4, F::fields("producer", 1000, "elem", 2));
    b.op(0, "Enqueue", 5, 6, F::fields("producer", 1000, "elem", 3));
    b.op(1, "DequeueFromProducer", 7, 8, F::fields("producer", producer, "elem", elem, "ok", ok));
    return b;
  };
  CHECK(verdict(trace(1000, 2, true), dir, "head") == "pass");
  CHECK(verdict(trace(1000, 0, false), dir, "spurious-failure") == "pass");  // the header allows it
  CHECK(verdict(trace(1000, 3, true), dir, "not-head") == "fail");
  CHECK(verdict(trace(1000, 1, true), dir, "other-producer") == "fail");
}

TEST_CASE("size_approx: exact when nothing changes, bounded when things do", "[moodycamel][tlc]") {
  ScratchDir dir;
  // Quiescent: three items queued by two producers, then size_approx alone.
  auto quiet = [](std::int64_t size) {
    TraceBuilder b(2);
    b.op(0, "Enqueue", 1, 2, F::fields("producer", 0, "elem", 1));
    b.op(0, "EnqueueBulk", 3, 4, F::fields("producer", 1000, "elems", Elems{2, 3}));
    b.op(1, "SizeApprox", 5, 6, F::fields("call", 7, "size", size));
    return b;
  };
  CHECK(verdict(quiet(3), dir, "quiet-3") == "pass");
  CHECK(verdict(quiet(2), dir, "quiet-2") == "fail");
  CHECK(verdict(quiet(4), dir, "quiet-4") == "fail");

  // During size_approx, thread 1 moves producer 0's only item to its own producer 1: the queue
  // never holds two items, but reading producer 0 before the move and producer 1 after it sums to
  // 2, a legal result; 3 is not (each producer's tail - head bounded by the call's start and end).
  auto moved = [](std::int64_t size) {
    TraceBuilder b(3);
    b.op(0, "Enqueue", 1, 2, F::fields("producer", 0, "elem", 1));
    b.op(1, "Dequeue", 4, 5, F::fields("elem", 1, "ok", true)).op(1, "Enqueue", 6, 7, F::fields("producer", 1, "elem", 1000001));
    b.op(2, "SizeApprox", 3, 8, F::fields("call", 9, "size", size));
    return b;
  };
  CHECK(verdict(moved(2), dir, "moved-2") == "pass");
  CHECK(verdict(moved(0), dir, "moved-0") == "pass");  // producer 0 read after the move, producer 1 before it
  CHECK(verdict(moved(3), dir, "moved-3") == "fail");
}
