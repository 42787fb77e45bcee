// moodycamel::ConcurrentQueue (examples/moodycamel-queue) end to end: the shipped campaign, rr off,
// passes, and its traces cover every call the harness makes, in its default and its paper
// configuration; the workload's parameters are checked; hand-made traces pin down what
// PerProducerQueue.tla accepts for the paper's bulk-dequeue anomaly, bulk dequeues with and
// without a consumer token, try_dequeue_from_producer and size_approx. Through the real CLI;
// SKIPPED (77) without TLC.
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
                                            {"--set", "rr=off", "--runs", "1", "--set", "targets.moodycamel-queue.ops=200",
                                             "--set", "targets.moodycamel-queue-paper.ops=200"});
  INFO(result.output);
  CHECK(result.exit_code == 0);
  CHECK(result.outcomes("moodycamel-queue") == std::vector<std::string>{"pass", "pass", "pass"});
  CHECK(result.outcomes("moodycamel-queue-paper") == std::vector<std::string>{"pass", "pass", "pass"});

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
          seen.insert(name + (op.field("token")->as<bool>() ? " token" : " no token"));
        }
        if (name == "SizeApprox" && integer(op, "size") > 0) seen.insert("SizeApprox nonzero");
      }
  }
  CHECK(traces == 6);
  for (const char* kind : {"Enqueue implicit", "Enqueue token", "EnqueueBulk implicit", "EnqueueBulk token", "Dequeue ok",
                           "Dequeue empty", "DequeueFromProducer ok", "DequeueFromProducer empty", "DequeueBulk empty",
                           "DequeueBulk one", "DequeueBulk several", "DequeueBulk token", "DequeueBulk no token", "SizeApprox",
                           "SizeApprox nonzero"}) {
    INFO(kind);
    CHECK(seen.count(kind) == 1);
  }
}

TEST_CASE("the paper's anomaly: one producer's <<1..5>> taken as <<3, 4, 5>>, then <<1, 2>>", "[moodycamel][tlc]") {
  ScratchDir dir;
  auto trace = [](const Elems& first, const Elems& second, bool token) {
    TraceBuilder b(3);
    b.op(0, "EnqueueBulk", 1, 2, F::fields("producer", 1000, "elems", Elems{1, 2, 3, 4, 5}));
    b.op(1, "DequeueBulk", 3, 4, F::fields("elems", first, "token", token));
    b.op(2, "DequeueBulk", 5, 6, F::fields("elems", second, "token", token));
    return b;
  };
  CHECK(verdict(trace({3, 4, 5}, {1, 2}, false), dir, "anomaly") == "fail");
  CHECK(verdict(trace({3, 4, 5}, {1, 2}, true), dir, "anomaly-token") == "fail");
  CHECK(verdict(trace({1, 2}, {3, 4, 5}, false), dir, "in-order") == "pass");
}

TEST_CASE("a bulk dequeue takes a run per producer visit: once per producer without a token", "[moodycamel][tlc]") {
  // Producer 1000 queues 1..4; two overlapping bulk dequeues return <<1, 3>> and <<2, 4>>: each
  // took from the producer twice in a row, with the other's item in between. One fetch_add per
  // visit claims consecutive items; the token-less call visits a producer once, and the call with
  // a token never takes from the producer it just took from: impossible either way.
  ScratchDir dir;
  auto split = [](bool token) {
    TraceBuilder b(3);
    b.op(0, "EnqueueBulk", 1, 2, F::fields("producer", 1000, "elems", Elems{1, 2, 3, 4}));
    b.op(1, "DequeueBulk", 3, 10, F::fields("elems", Elems{1, 3}, "token", token));
    b.op(2, "DequeueBulk", 4, 11, F::fields("elems", Elems{2, 4}, "token", token));
    return b;
  };
  CHECK(verdict(split(false), dir, "split-without-token") == "fail");
  CHECK(verdict(split(true), dir, "split-with-token") == "fail");
  // The call with a token goes round again after taking from another producer: it takes 1 from
  // producer 1000, 4 from 1001, then 2, which 1000 queued meanwhile. Without a token, never.
  auto revisit = [](bool token) {
    TraceBuilder b(3);
    b.op(0, "Enqueue", 1, 2, F::fields("producer", 1000, "elem", 1)).op(2, "Enqueue", 1, 2, F::fields("producer", 1001, "elem", 4));
    b.op(1, "DequeueBulk", 3, 10, F::fields("elems", Elems{1, 4, 2}, "token", token));
    b.op(0, "Enqueue", 4, 5, F::fields("producer", 1000, "elem", 2));
    return b;
  };
  CHECK(verdict(revisit(true), dir, "revisit-with-token") == "pass");
  CHECK(verdict(revisit(false), dir, "revisit-without-token") == "fail");
}

TEST_CASE("the paper's configuration: small traits, bulks of 0 to 10, at most 16 items queued", "[moodycamel]") {
  ScratchDir dir;
  // One thread: its operations happen in their logged order, so the count of queued items can be
  // followed exactly, and must never pass the cap.
  const auto run = dir / "paper";
  const ProcessResult r = run_process(OMNILINK_EXAMPLE_CQ_SMALL, {"--threads", "1", "--ops", "2000", "--seed", "7", "--param",
                                                                  "mix=paper", "--quiet", "--out", run.string()});
  INFO(r.describe() << "\n" << r.err);
  REQUIRE(r.ok());
  std::int64_t queued = 0, most = 0;
  std::set<std::string> names;
  std::set<std::size_t> enqueue_sizes, dequeue_sizes;
  for (const auto& thread : testing::read_run(run))
    for (const auto& op : thread.ops) {
      names.insert(op.name);
      if (op.name == "EnqueueBulk") {
        CHECK(op.field("producer")->as<std::int64_t>() == 1000);  // through the thread's token
        const std::size_t n = op.field("elems")->as<trace::Tuple>().items.size();
        enqueue_sizes.insert(n);
        queued += static_cast<std::int64_t>(n);
      } else if (op.name == "DequeueBulk") {
        CHECK_FALSE(op.field("token")->as<bool>());
        const std::size_t n = op.field("elems")->as<trace::Tuple>().items.size();
        dequeue_sizes.insert(n);
        queued -= static_cast<std::int64_t>(n);
      }
      most = std::max(most, queued);
    }
  CHECK(names == std::set<std::string>{"DequeueBulk", "EnqueueBulk", "SizeApprox"});
  CHECK(most == 16);  // reached, never passed
  CHECK(enqueue_sizes.count(0) == 1);
  CHECK(*enqueue_sizes.rbegin() == 10);
  CHECK(*dequeue_sizes.rbegin() == 10);

  // Each parameter overrides the mix's default.
  const auto tuned = dir / "tuned";
  REQUIRE(run_process(OMNILINK_EXAMPLE_CQ_SMALL, {"--threads", "1", "--ops", "500", "--seed", "7", "--param", "mix=paper", "--param",
                                                  "max_bulk=3", "--param", "weight.size_approx=0", "--param", "elem_cap=5",
                                                  "--quiet", "--out", tuned.string()})
              .ok());
  queued = most = 0;
  names.clear();
  for (const auto& thread : testing::read_run(tuned))
    for (const auto& op : thread.ops) {
      names.insert(op.name);
      const std::int64_t n = op.name == "SizeApprox" ? 0 : static_cast<std::int64_t>(op.field("elems")->as<trace::Tuple>().items.size());
      CHECK(n <= 3);
      queued += op.name == "EnqueueBulk" ? n : -n;
      most = std::max(most, queued);
    }
  CHECK(names == std::set<std::string>{"DequeueBulk", "EnqueueBulk"});
  CHECK(most <= 5);
}

TEST_CASE("the workload's parameters are checked, and a bad one is named", "[moodycamel]") {
  ScratchDir dir;
  auto error = [&](std::vector<std::string> params) {
    std::vector<std::string> args{"--threads", "1", "--ops", "10", "--quiet", "--out", (dir / "bad").string()};
    for (auto& p : params) args.insert(args.end(), {"--param", p});
    const ProcessResult r = run_process(OMNILINK_EXAMPLE_CQ_SMALL, args);
    CHECK(r.exit_code == 3);
    return r.err;
  };
  CHECK_THAT(error({"mix=fifo"}), Catch::Contains("--param mix=fifo: must be all or paper"));
  CHECK_THAT(error({"max_bulk=0"}), Catch::Contains("--param max_bulk=0: must be 1 to 64"));
  CHECK_THAT(error({"min_bulk=5", "max_bulk=4"}), Catch::Contains("--param min_bulk=5: must be 0 to max_bulk (4)"));
  CHECK_THAT(error({"elem_cap=-1"}), Catch::Contains("--param elem_cap=-1"));
  CHECK_THAT(error({"weight.size_approx=1001"}), Catch::Contains("--param weight.size_approx=1001: must be 0 to 1000"));
  CHECK_THAT(error({"mix=paper", "weight.enqueue_bulk_token=0", "weight.dequeue_bulk=0", "weight.size_approx=0"}),
             Catch::Contains("no operation to run"));
  CHECK_THAT(error({"max_bulk=x"}), Catch::Contains("--param max_bulk=x: not an integer"));
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
