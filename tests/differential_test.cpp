// The two checkers against each other: for every shipped spec, seeded generated histories (a
// correct object's, with overlapping timeboxes, some mutated, some with a pending operation, bulk
// operations taking several steps) are validated by the native checker and by TLC, which must
// agree on the verdict and, for a FAIL, on how far the search got; the native one also when it
// restarts every few states. One case per spec; each needs TLC (SKIPPED without it).
#include <catch2/catch.hpp>


#include "support/campaign_support.hpp"
#include "support/history_generator.hpp"
#include "checkers/validate.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
using namespace omnilink::testing;
namespace fs = std::filesystem;

struct Agreement {
  int pass = 0, fail = 0, skipped = 0;
};

Agreement compare(const std::string& spec, const std::optional<std::string>& mc, const std::function<Model()>& make_model,
                  std::uint64_t seed, int histories) {
  testing::require_tlc();
  testing::ScratchDir dir;
  std::mt19937_64 rng(seed);
  Agreement seen;
  for (int h = 0; h < histories; ++h) {
    const Shape shape{static_cast<std::uint32_t>(pick(rng, 2, 4)), static_cast<std::size_t>(pick(rng, 8, 24)),
                      static_cast<std::uint64_t>(std::array<int, 4>{0, 12, 25, 45}[static_cast<std::size_t>(pick(rng, 0, 3))]),
                      pick(rng, 0, 1) == 1, pick(rng, 0, 2) == 0};
    const fs::path run = dir / ("h" + std::to_string(h));
    generate(make_model(), shape, rng, run);
    checkers::ValidateOptions o;
    o.run_dir = run;
    o.spec = fs::path(OMNILINK_SPECS_DIR) / spec;
    if (mc) o.mc = fs::path(OMNILINK_SPECS_DIR) / *mc;
    o.heap = "1g";
    o.timeout = std::chrono::seconds(120);
    o.confirm_failures = false;
    o.checker = checkers::Checker::native;
    const auto native = checkers::validate_run(o);
    // The same search restarting every few states (native_search.hpp): what it keeps across
    // restarts must not change the verdict or the frontier.
    o.restart_budget = 4;
    const auto restarting = checkers::validate_run(o);
    o.checker = checkers::Checker::tlc;
    const auto tlc = checkers::validate_run(o);
    INFO("history " << h << " (seed " << seed << "): " << shape.threads << " threads, " << shape.operations << " operations, overlap "
                    << shape.overlap << (shape.mutate ? ", mutated" : "") << (shape.pending ? ", pending" : "") << "\nnative: "
                    << native.summary() << "\nnative, restarting: " << restarting.summary() << "\nTLC: " << tlc.summary());
    // A generator keeps a spec's data-independence promise, so that it is what runs against TLC (a
    // mutated result may break it: a read of 0 turned into 2, a key).
    if (!shape.mutate)
      for (const std::string& caveat : native.caveats) CHECK_THAT(caveat, !Catch::Contains("OmniLinkDataIndependent"));
    CHECK(restarting.verdict == native.verdict);
    CHECK(restarting.linearized == native.linearized);
    if (tlc.verdict == Verdict::unknown) {
      ++seen.skipped;
      continue;
    }
    CHECK(native.checker == results::DecidedBy::native);
    REQUIRE(native.verdict == tlc.verdict);
    CHECK((native.verdict == Verdict::pass || native.verdict == Verdict::fail));
    if (native.verdict == Verdict::fail) CHECK(native.linearized == tlc.linearized);
    CHECK(native.pending_outcomes.size() == tlc.pending_outcomes.size());
    ++(native.verdict == Verdict::pass ? seen.pass : seen.fail);
  }
  // Both verdicts occur, and TLC decided nearly every history.
  CHECK(seen.pass >= histories / 5);
  CHECK(seen.fail >= histories / 5);
  CHECK(seen.skipped <= histories / 10);
  return seen;
}

}  // namespace

TEST_CASE("LinearizableQueue: native and TLC agree", "[differential]") { compare("LinearizableQueue.tla", {}, queue, 11, 40); }
TEST_CASE("Stack: native and TLC agree", "[differential]") { compare("Stack.tla", {}, stack, 12, 40); }
TEST_CASE("Register: native and TLC agree", "[differential]") { compare("Register.tla", {}, register_object, 13, 40); }
TEST_CASE("AtomicCounter: native and TLC agree", "[differential]") { compare("AtomicCounter.tla", {}, counter, 14, 40); }
TEST_CASE("Map (with MCMap): native and TLC agree", "[differential]") { compare("Map.tla", "MCMap.tla", [] { return map(); }, 15, 40); }
// KV.tla checked whole (TLC ignores MCKV.tla's partitioning, and the depths compared are the whole
// history's): tests/specs/MCKVWhole.tla gives its keys and nothing else.
TEST_CASE("KV (with MCKVWhole): native and TLC agree", "[differential]") {
  compare("KV.tla", std::string(OMNILINK_TEST_SPECS) + "/MCKVWhole.tla", [] { return key_value(); }, 17, 40);
}
TEST_CASE("PerProducerQueue: native and TLC agree", "[differential]") {
  compare("PerProducerQueue.tla", {}, per_producer_queue, 16, 40);
}
TEST_CASE("SnapshotKV (with MCSnapshotKV): native and TLC agree", "[differential]") {
  compare("SnapshotKV.tla", "MCSnapshotKV.tla", snapshot_kv, 17, 40);
}
TEST_CASE("SerializableKV (with MCSnapshotKV): native and TLC agree", "[differential]") {
  compare("SerializableKV.tla", "MCSnapshotKV.tla", snapshot_kv, 18, 40);
}
TEST_CASE("WiredTigerKV (with MCWiredTigerSnapshot): native and TLC agree", "[differential]") {
  compare("WiredTigerKV.tla", "MCWiredTigerSnapshot.tla", wiredtiger_kv, 19, 40);
}
