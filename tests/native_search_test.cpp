// The native search's order and restarts (checkers/native_search.hpp), on queue histories built
// so that the earliest-end-first guess is wrong and the mistake shows only after many independent
// choices: trying first what unblocks the most urgent operation avoids one such guess; a restart
// that learns which enqueue must come first recovers from another with a small fraction of the
// states chronological backtracking needs; a rejected history keeps its verdict and frontier.
#include <catch2/catch.hpp>

#include <fstream>

#include "support/test_support.hpp"
#include "support/trace_builder.hpp"
#include "checkers/dead_values.hpp"
#include "checkers/native_search.hpp"
#include "checkers/spec_cache.hpp"
#include "checkers/validate.hpp"
#include "history/history_file.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
using testing::TraceBuilder;
using F = TraceBuilder;
namespace fs = std::filesystem;

constexpr int kPairs = 10;  // overlapping enqueue pairs between the mistake and its discovery

// T0's Enqueue(1000) spans T1's Enqueue(1..5): ending last, it is tried last, but the dequeues
// show it came first. In between, kPairs enqueues of T1 and T2 overlap two by two, each pair in the
// order earliest-end-first guesses. `dequeue_order_ok` false swaps two of T1's own elements in the
// dequeue order, which no linearization allows.
void write_history(const fs::path& dir, bool dequeue_order_ok) {
  TraceBuilder b(3);
  b.op(0, "Enqueue", 1, 20, F::fields("elem", 1000));
  for (std::int64_t e = 1; e <= 5; ++e) b.op(1, "Enqueue", static_cast<std::uint64_t>(1 + e), static_cast<std::uint64_t>(1 + e), F::fields("elem", e));
  for (int k = 0; k < kPairs; ++k) {
    const auto at = static_cast<std::uint64_t>(30 + 4 * k);
    b.op(1, "Enqueue", at, at, F::fields("elem", 100 + k));
    b.op(2, "Enqueue", at - 1, at + 1, F::fields("elem", 200 + k));
  }
  std::vector<std::int64_t> order{1000, 1, 2, 3, 4, 5};
  if (!dequeue_order_ok) std::swap(order[2], order[3]);
  for (int k = 0; k < kPairs; ++k) order.push_back(100 + k), order.push_back(200 + k);
  std::uint64_t t = 100 + 4 * kPairs;
  for (std::int64_t e : order) b.op(0, "Dequeue", t, t, F::fields("elem", e, "ok", true)), ++t;
  b.write(dir);
}

results::ValidationResult validate(const fs::path& run, std::uint64_t restart_budget) {
  checkers::ValidateOptions o;
  o.run_dir = run;
  o.spec = fs::path(OMNILINK_SPECS_DIR) / "LinearizableQueue.tla";
  o.checker = checkers::Checker::native;
  o.confirm_failures = false;
  o.restart_budget = restart_budget;
  auto r = checkers::validate_run(o);
  INFO(r.summary());
  return r;
}

constexpr std::uint64_t kNever = 1'000'000'000;  // a budget no attempt reaches: no restarts

/// One history validated without restarts and with them (every 100 stalled states).
struct Searches {
  results::ValidationResult backtracking, restarting;
  std::uint64_t states_without() const { return backtracking.states_generated.value_or(0); }
  std::uint64_t states_with() const { return restarting.states_generated.value_or(0); }
};

// T2's Dequeue(2) must wait for T0's long Dequeue(1); of the other viable operations, T1's
// Enqueue(1000) ends sooner, but the dequeues show it came after T2's Enqueue(2000), and kPairs
// overlapping pairs lie between the guess and its discovery.
void write_blocked_dequeue_history(const fs::path& dir) {
  TraceBuilder b(3);
  b.op(0, "Enqueue", 1, 1, F::fields("elem", 1));
  b.op(0, "Enqueue", 2, 2, F::fields("elem", 2));
  b.op(0, "Dequeue", 9, 40, F::fields("elem", 1, "ok", true));
  b.op(1, "Enqueue", 5, 20, F::fields("elem", 1000));
  b.op(2, "Dequeue", 10, 10, F::fields("elem", 2, "ok", true));
  b.op(2, "Enqueue", 11, 11, F::fields("elem", 2000));
  for (int k = 0; k < kPairs; ++k) {
    const auto at = static_cast<std::uint64_t>(50 + 4 * k);
    b.op(1, "Enqueue", at, at, F::fields("elem", 100 + k));
    b.op(2, "Enqueue", at - 1, at + 1, F::fields("elem", 200 + k));
  }
  std::vector<std::int64_t> order{2000, 1000};
  for (int k = 0; k < kPairs; ++k) order.push_back(100 + k), order.push_back(200 + k);
  std::uint64_t t = 100 + 4 * kPairs;
  for (std::int64_t e : order) b.op(0, "Dequeue", t, t, F::fields("elem", e, "ok", true)), ++t;
  b.write(dir);
}

constexpr std::int64_t kNarrow = 200;  // the enqueues a wide one spans

// T0's Enqueue(1000) spans all of T1's kNarrow enqueues, one at a time (a thread descheduled in
// the middle of its operation, as rr's chaos mode does); the dequeues show its element went in
// after the first half. Earliest end first places it after the last; the refused dequeue compares
// 1000 with the head, kNarrow / 2 + 1.
void write_wide_enqueue_history(const fs::path& dir) {
  TraceBuilder b(3);
  b.op(0, "Enqueue", 1, static_cast<std::uint64_t>(kNarrow + 2), F::fields("elem", 1000));
  for (std::int64_t e = 1; e <= kNarrow; ++e) b.op(1, "Enqueue", static_cast<std::uint64_t>(1 + e), static_cast<std::uint64_t>(1 + e), F::fields("elem", e));
  std::vector<std::int64_t> order;
  for (std::int64_t e = 1; e <= kNarrow; ++e) {
    order.push_back(e);
    if (e == kNarrow / 2) order.push_back(1000);
  }
  std::uint64_t t = kNarrow + 10;
  for (std::int64_t e : order) b.op(2, "Dequeue", t, t, F::fields("elem", e, "ok", true)), ++t;
  b.write(dir);
}

Searches search_both(bool dequeue_order_ok) {
  testing::ScratchDir dir;
  write_history(dir / "run", dequeue_order_ok);
  return {validate(dir / "run", kNever), validate(dir / "run", 100)};
}

}  // namespace

TEST_CASE("a blocked operation: what unblocks it is tried before what merely ends sooner", "[native][order]") {
  testing::ScratchDir dir;
  write_blocked_dequeue_history(dir / "run");
  const auto r = validate(dir / "run", kNever);
  REQUIRE(r.verdict == Verdict::pass);
  // 3 + 1 + 2 + 2 * kPairs + 2 + 2 * kPairs = 48 operations. Trying Enqueue(1000) first would cost
  // both orders of every pair, over 2^10 states, before backtracking to it.
  INFO("states " << r.states_generated.value_or(0));
  CHECK(r.states_generated.value_or(0) < 200);
}

TEST_CASE("a wrong early guess found late: a restart learns the enqueue that came first", "[native][restarts]") {
  const Searches s = search_both(true);
  REQUIRE(s.backtracking.verdict == Verdict::pass);
  REQUIRE(s.restarting.verdict == Verdict::pass);
  INFO("states without restarts " << s.states_without() << ", with " << s.states_with());
  // Backtracking tries both orders of every pair, 2^10 placements, before it moves Enqueue(1000).
  CHECK(s.states_without() > 1024);
  CHECK(s.states_with() > 0);
  CHECK(s.states_with() * 10 < s.states_without());
}

TEST_CASE("a rejected history: restarts keep the verdict and the frontier, and explore about as much", "[native][restarts]") {
  const Searches s = search_both(false);
  REQUIRE(s.backtracking.verdict == Verdict::fail);
  REQUIRE(s.restarting.verdict == Verdict::fail);
  CHECK(s.restarting.linearized == s.backtracking.linearized);
  CHECK(s.restarting.frontier.size() == s.backtracking.frontier.size());
  INFO("states without restarts " << s.states_without() << ", with " << s.states_with());
  CHECK(s.states_without() > 1024);
  // States an abandoned attempt finished stay visited: the restarts repeat little.
  CHECK(s.states_with() < 2 * s.states_without());
}

TEST_CASE("a wide operation's place in its window: a restart learns from the refused comparison what it precedes", "[native][restarts]") {
  testing::ScratchDir dir;
  write_wide_enqueue_history(dir / "run");
  const Searches s{validate(dir / "run", kNever), validate(dir / "run", 100)};
  REQUIRE(s.backtracking.verdict == Verdict::pass);
  REQUIRE(s.restarting.verdict == Verdict::pass);
  INFO("states without restarts " << s.states_without() << ", with " << s.states_with());
  // Backtracking moves Enqueue(1000) back one enqueue at a time, replaying those after it: about
  // (kNarrow / 2)^2 / 2 states. Learning that it precedes the head's enqueue places it at once;
  // preferring it (and then each element a failure names) would take kNarrow / 2 restarts.
  constexpr std::uint64_t operations = 2 * kNarrow + 2;
  CHECK(s.states_without() > 10 * operations);
  CHECK(s.states_with() < 4 * operations);
}

namespace {

// kPairs pushes of T1 and T2 overlapping two by two (elements 100 + k and 200 + k), before time 90:
// each pair's two orders leave two stacks.
void push_overlapping_pairs(TraceBuilder& b) {
  for (int k = 0; k < kPairs; ++k) {
    const auto at = static_cast<std::uint64_t>(10 + 4 * k);
    b.op(1, "Push", at, at + 1, F::fields("elem", 100 + k));
    b.op(2, "Push", at, at + 1, F::fields("elem", 200 + k));
  }
}

// The pairs, whose elements no operation pops, then T0's pop that finds the stack empty (no order
// allows it).
void write_lost_pushes_history(const fs::path& dir) {
  TraceBuilder b(3);
  push_overlapping_pairs(b);
  b.op(0, "Pop", 100, 101, F::fields("elem", 0, "ok", false));
  b.write(dir);
}

results::ValidationResult validate_stack(const fs::path& run, const std::optional<fs::path>& mc) {
  checkers::ValidateOptions o;
  o.run_dir = run;
  o.spec = fs::path(OMNILINK_SPECS_DIR) / "Stack.tla";
  o.mc = mc;
  o.checker = checkers::Checker::native;
  o.confirm_failures = false;
  auto r = checkers::validate_run(o);
  INFO(r.summary());
  return r;
}

}  // namespace

TEST_CASE("data independence: stacks that differ only in elements no later operation logs are searched once", "[native][dead]") {
  testing::ScratchDir dir;
  write_lost_pushes_history(dir / "run");
  // Stack.tla declares OmniLinkDataIndependent == {"elem"}; an MC module may take it back (and
  // the projection that needs it).
  std::ofstream(dir / "MCNoDeclaration.tla") << "---- MODULE MCNoDeclaration ----\n"
                                                "OmniLinkDataIndependent == {}\nOmniLinkProjectable == FALSE\n====\n";
  const auto declared = validate_stack(dir / "run", std::nullopt);
  const auto undeclared = validate_stack(dir / "run", dir / "MCNoDeclaration.tla");
  REQUIRE(declared.verdict == Verdict::fail);
  REQUIRE(undeclared.verdict == Verdict::fail);
  CHECK(declared.linearized == undeclared.linearized);
  const auto with = declared.states_distinct.value_or(0), without = undeclared.states_distinct.value_or(0);
  INFO("distinct states with the declaration " << with << ", without " << without);
  // Without it every order of the pairs is a different stack: over 2^kPairs states at the end.
  CHECK(without > (1u << kPairs));
  CHECK(with > 0);
  CHECK(with < 8 * 2 * kPairs);
}

TEST_CASE("data independence: states equal up to renaming their dead values, in sets and function keys too, share a fingerprint, and no others do", "[native][dead]") {
  using language::Value;
  // Atoms 10..13 are logged by T0's operations 0..3 and 20 by T1's 0: with two of T0's and none
  // of T1's linearized, 10 and 11 are dead, 12, 13 and 20 alive. 99 is no declared field's value.
  checkers::DeadValues dead;
  for (std::uint32_t k = 0; k < 4; ++k) dead.add_use({0, k}, Value::integer(10 + k));
  dead.add_use({1, 0}, Value::integer(20));
  const std::vector<std::uint32_t> linearized{2, 0};
  auto i = [](std::int64_t v) { return Value::integer(v); };
  // A state of three variables: a set, a function keyed by atoms, and a sequence.
  auto state = [&](Value set, Value function, Value seq) { return std::vector<Value>{std::move(set), std::move(function), std::move(seq)}; };
  auto fp = [&](const std::vector<Value>& s) { return dead.fingerprint(s, linearized, {7, 7}); };
  const auto a = state(Value::set({i(10), i(12)}), Value::function({i(10), i(11)}, {i(20), i(99)}), Value::seq({i(11), i(10)}));
  // 10 and 11 swapped everywhere: the same up to renaming, though the set and the function's keys
  // sort their elements differently once renamed.
  const auto swapped = state(Value::set({i(11), i(12)}), Value::function({i(11), i(10)}, {i(20), i(99)}), Value::seq({i(10), i(11)}));
  CHECK(fp(a) == fp(swapped));
  // Not a renaming: 10 in place of 11 in the sequence maps two dead values to one.
  CHECK_FALSE(fp(a) == fp(state(Value::set({i(10), i(12)}), Value::function({i(10), i(11)}, {i(20), i(99)}), Value::seq({i(10), i(10)}))));
  // A live value is never renamed: 12 for 13 in the set, or 20 for 12 as a value.
  CHECK_FALSE(fp(a) == fp(state(Value::set({i(10), i(13)}), Value::function({i(10), i(11)}, {i(20), i(99)}), Value::seq({i(11), i(10)}))));
  CHECK_FALSE(fp(a) == fp(state(Value::set({i(10), i(12)}), Value::function({i(10), i(11)}, {i(12), i(99)}), Value::seq({i(11), i(10)}))));
  // The renaming is one for the whole state: 10 and 11 swapped in the set and the function only.
  CHECK_FALSE(fp(a) == fp(state(Value::set({i(11), i(12)}), Value::function({i(11), i(10)}, {i(20), i(99)}), Value::seq({i(11), i(10)}))));
  // A dead value for a live one, and the state with nothing dead is fingerprinted as it is.
  CHECK_FALSE(fp(a) == fp(state(Value::set({i(13), i(12)}), Value::function({i(10), i(11)}, {i(20), i(99)}), Value::seq({i(11), i(10)}))));
  const auto live = state(Value::set({i(12), i(13)}), Value::function({i(12)}, {i(20)}), Value::seq({i(99)}));
  CHECK(fp(live) == language::fingerprint(live, {7, 7}));
}

TEST_CASE("data independence: a history that logs a declared field's value in another field is searched without it", "[native][dead]") {
  // `id` is declared data-independent, and `key` is not: a history whose ids are also keys breaks
  // the promise. Renamed once the ids are dead, last = 5 and last = 7 would be one state, and the
  // search would keep whichever order of the two writes it met first: one of the two checks below
  // would then be refused.
  testing::ScratchDir dir;
  std::ofstream(dir / "LastWrite.tla") << "---- MODULE LastWrite ----\nEXTENDS Integers\nVARIABLE last\n"
                                          "\\* @type: (Int) => Bool; @inputs: id;\nTag(id) == UNCHANGED last\n"
                                          "\\* @type: (Int) => Bool; @inputs: key;\nWrite(key) == last' = key\n"
                                          "\\* @type: (Int) => Bool; @inputs: key;\nCheck(key) == last = key /\\ UNCHANGED last\n"
                                          "Init == last = 0\nNext == \\E id, key \\in Int : Tag(id) \\/ Write(key) \\/ Check(key)\n"
                                          "OmniLinkDataIndependent == {\"id\"}\n====\n";
  auto validate = [&](std::int64_t first_id, std::int64_t checked) {
    TraceBuilder b(3);
    b.op(0, "Tag", 1, 2, F::fields("id", first_id)).op(0, "Tag", 3, 4, F::fields("id", first_id + 2));
    b.op(1, "Write", 10, 20, F::fields("key", 5)).op(2, "Write", 10, 20, F::fields("key", 7));
    b.op(0, "Check", 30, 31, F::fields("key", checked));
    const fs::path run = dir / ("run-" + std::to_string(first_id) + "-" + std::to_string(checked));
    b.write(run);
    checkers::ValidateOptions o;
    o.run_dir = run;
    o.spec = dir / "LastWrite.tla";
    o.checker = checkers::Checker::native;
    o.confirm_failures = false;
    auto r = checkers::validate_run(o);
    INFO(r.summary());
    return r;
  };
  for (const std::int64_t checked : {5, 7}) {
    const auto shared = validate(5, checked);  // ids 5 and 7: the keys
    CHECK(shared.verdict == Verdict::pass);
    REQUIRE(shared.caveats.size() == 1);
    // The first operation (by thread, then position) with such a value, T0's check, and the tag
    // that logged it as an id.
    CHECK_THAT(shared.caveats[0], Catch::Contains("OmniLinkDataIndependent was not used: " + std::to_string(checked) + " is T0.2's key and a value of a declared field too (T0." +
                                                  (checked == 5 ? "0" : "1") + ")"));
    const auto apart = validate(100, checked);  // ids 100 and 102
    CHECK(apart.verdict == Verdict::pass);
    CHECK(apart.caveats.empty());
  }
}

TEST_CASE("data independence: a declaration that names no parameter, or is no set of names, is an error", "[native][dead]") {
  testing::ScratchDir dir;
  write_lost_pushes_history(dir / "run");
  std::ofstream(dir / "MCMisspelt.tla") << "---- MODULE MCMisspelt ----\nOmniLinkDataIndependent == {\"element\"}\n====\n";
  std::ofstream(dir / "MCNotASet.tla") << "---- MODULE MCNotASet ----\nOmniLinkDataIndependent == \"elem\"\n====\n";
  const auto misspelt = validate_stack(dir / "run", dir / "MCMisspelt.tla");
  CHECK(misspelt.verdict == Verdict::error);
  CHECK_THAT(misspelt.reason, Catch::Contains("\"element\", which is no operation's parameter"));
  const auto not_a_set = validate_stack(dir / "run", dir / "MCNotASet.tla");
  CHECK(not_a_set.verdict == Verdict::error);
  CHECK_THAT(not_a_set.reason, Catch::Contains("must be a set of field names"));
}

namespace {

// The pairs, whose elements are popped only at the end (alive all along: the renaming of dead
// values cannot merge their orders), T0's Push(7), then a pop that finds the stack empty though 7
// was never popped. The projection on {0, 7} fails on its own.
void write_late_pops_history(const fs::path& dir) {
  TraceBuilder b(3);
  push_overlapping_pairs(b);
  b.op(0, "Push", 90, 91, F::fields("elem", 7));
  b.op(0, "Pop", 100, 101, F::fields("elem", 0, "ok", false));
  std::uint64_t t = 200;
  for (int k = kPairs - 1; k >= 0; --k) {
    b.op(1, "Pop", t, t + 1, F::fields("elem", 200 + k, "ok", true)), t += 2;
    b.op(1, "Pop", t, t + 1, F::fields("elem", 100 + k, "ok", true)), t += 2;
  }
  b.write(dir);
}

}  // namespace

TEST_CASE("projection: a search out of room proves the failure on the values its deepest refusal involves", "[native][projection]") {
  testing::ScratchDir dir;
  write_late_pops_history(dir / "run");
  checkers::ValidateOptions o;
  o.run_dir = dir / "run";
  o.spec = fs::path(OMNILINK_SPECS_DIR) / "Stack.tla";
  o.checker = checkers::Checker::native;
  o.confirm_failures = false;
  o.projection_after = 100;  // the whole search needs over 2^kPairs states
  const auto projected = checkers::validate_run(o);
  INFO(projected.summary());
  REQUIRE(projected.verdict == Verdict::fail);
  REQUIRE(!projected.caveats.empty());
  CHECK_THAT(projected.caveats.back(), Catch::Contains("operations on the values {0, 7} alone"));
  CHECK(projected.states_distinct.value_or(0) < 10);
  REQUIRE(projected.refused);
  CHECK(projected.refused->conjunct.find("stack = <<>>") != std::string::npos);
  // Without the declaration the whole search decides the same, with every order of the pairs.
  std::ofstream(dir / "MCWhole.tla") << "---- MODULE MCWhole ----\nOmniLinkProjectable == FALSE\n====\n";
  o.mc = dir / "MCWhole.tla";
  const auto whole = checkers::validate_run(o);
  INFO(whole.summary());
  REQUIRE(whole.verdict == Verdict::fail);
  CHECK(whole.states_distinct.value_or(0) > (1u << kPairs));
  CHECK(whole.refused->conjunct == projected.refused->conjunct);
}

TEST_CASE("projection: a declaration without the value fields is an error", "[native][projection]") {
  testing::ScratchDir dir;
  write_late_pops_history(dir / "run");
  std::ofstream(dir / "MCNoFields.tla") << "---- MODULE MCNoFields ----\nOmniLinkDataIndependent == {}\n====\n";
  const auto r = validate_stack(dir / "run", dir / "MCNoFields.tla");
  CHECK(r.verdict == Verdict::error);
  CHECK_THAT(r.reason, Catch::Contains("OmniLinkProjectable needs OmniLinkDataIndependent"));
}

namespace {

constexpr std::uint32_t kIdlePending = 12;

// T0 writes and reads back 1..10 on a register, and its last read returns what was never written.
// Threads 1..kIdlePending each have a pending CAS(7, 8) from the start: the register never holds
// 7, so each one can only fail, which changes nothing.
void write_idle_pending_history(const fs::path& dir) {
  TraceBuilder b(kIdlePending + 1);
  b.inputs("CAS", {"expected", "new"});
  for (std::uint32_t t = 1; t <= kIdlePending; ++t) b.pending(t, "CAS", 1, F::fields("expected", 7, "new", 8));
  for (std::int64_t v = 1; v <= 10; ++v) {
    const auto at = static_cast<std::uint64_t>(10 * v);
    b.op(0, "Write", at, at + 1, F::fields("value", v));
    b.op(0, "Read", at + 2, at + 3, F::fields("value", v == 10 ? 99 : v));
  }
  b.status("crashed");
  b.write(dir);
}

/// The run in `dir` against Register.tla, natively, a failure not confirmed by TLC.
checkers::ValidateOptions register_run(const fs::path& dir) {
  checkers::ValidateOptions o;
  o.run_dir = dir;
  o.spec = fs::path(OMNILINK_SPECS_DIR) / "Register.tla";
  o.checker = checkers::Checker::native;
  o.confirm_failures = false;
  return o;
}

}  // namespace

TEST_CASE("pending operations that would change nothing are left out, not searched: no doubling per pending operation",
          "[native][pending]") {
  testing::ScratchDir dir;
  write_idle_pending_history(dir.path());
  checkers::ValidateOptions o = register_run(dir.path());
  const auto r = checkers::validate_run(o);
  INFO(r.summary());
  CHECK(r.verdict == Verdict::fail);
  // Each failed CAS, taken or not, would double the states: 2^12 times the ~20 of T0 alone.
  CHECK(r.states_distinct.value_or(0) > 0);
  CHECK(r.states_distinct.value_or(0) < 200);
}

TEST_CASE("the native search's memory limit: past it the verdict is unknown, naming the limit, never pass or fail", "[native][memory]") {
  // 14 writes of distinct values, all at once, then a read of a value none wrote: every subset of
  // the writes and each last value is a state (over 100k), all searched to reject it.
  testing::ScratchDir dir;
  TraceBuilder b(15);
  for (std::uint32_t t = 0; t < 14; ++t) b.op(t, "Write", 1, 2, F::fields("value", static_cast<std::int64_t>(t + 1)));
  b.op(14, "Read", 3, 4, F::fields("value", 99));
  b.write(dir.path());
  checkers::ValidateOptions o = register_run(dir.path());
  o.max_memory_mb = 1;  // the process holds more than that already: the first check stops it
  const auto limited = checkers::validate_run(o);
  INFO(limited.summary());
  CHECK(limited.verdict == Verdict::unknown);
  CHECK_THAT(limited.reason, Catch::Contains("memory limit of 1 MiB"));
  o.max_memory_mb = 0;  // half the machine's
  CHECK(checkers::validate_run(o).verdict == Verdict::fail);
}

TEST_CASE("a searched beginning: every state its orders end in, and a search from them decides as one from Init", "[native][beginning]") {
  // Three writes at once, then, once they all ended, a read: the writes leave the register holding
  // any of the three values, and only the state holding 2 lets the read go on.
  testing::ScratchDir dir;
  TraceBuilder b(3);
  for (std::uint32_t t = 0; t < 3; ++t) b.op(t, "Write", 1, 2, F::fields("value", static_cast<std::int64_t>(t + 1)));
  b.op(0, "Read", 5, 6, F::fields("value", 2));
  b.write(dir.path());
  checkers::ReadSpec& read = checkers::read_spec(register_run(dir.path()));
  language::LoadedSpec& spec = *read.loaded;
  const history::Problem problem = history::make_problem(history::read_run_or_history_file(dir.path()), read.interface, spec);
  const std::vector<history::Problem> parts =
      history::split_problem(problem, 2, [](const history::ProblemOp& p) -> std::size_t { return p.op->start < 5 ? 0 : 1; });
  checkers::NativeSearchOptions search;
  const checkers::EndStates writes = checkers::search_end_states(parts[0], spec, search);
  CHECK(writes.complete);
  REQUIRE(writes.states.size() == 3);
  // The whole history ends in one state only: the read saw 2, so 2 was written last.
  const checkers::EndStates all = checkers::search_end_states(problem, spec, search);
  CHECK(all.complete);
  REQUIRE(all.states.size() == 1);
  CHECK(all.states[0] == std::vector<language::Value>{language::Value::integer(2)});

  using Outcome = checkers::SearchReport::Outcome;
  const auto from = [&](std::vector<std::uint32_t> positions, std::vector<std::vector<language::Value>> states) {
    checkers::NativeSearchOptions started = search;
    started.start = std::make_shared<checkers::StartAfter>(checkers::StartAfter{std::move(positions), std::move(states)});
    return checkers::search_linearization(problem, spec, started);
  };
  CHECK(checkers::search_linearization(problem, spec, search).outcome == Outcome::accepted);
  const checkers::SearchReport after = from({1, 1, 1}, writes.states);
  CHECK(after.outcome == Outcome::accepted);
  CHECK(after.linearized == 4);  // the beginning counts as linearized
  CHECK(after.states_distinct <= 4);  // the three it starts in and the read's: the writes are not searched again
  int accepting = 0;
  for (const auto& state : writes.states) accepting += from({1, 1, 1}, {state}).outcome == Outcome::accepted ? 1 : 0;
  CHECK(accepting == 1);
  CHECK(from({1, 1, 1}, {}).outcome == Outcome::no_initial_state);
  // T2's write is under way while T0's and T1's are: they are no beginning without it.
  CHECK_THROWS_WITH(from({1, 1, 0}, writes.states), Catch::Contains("not quiescent"));
  // Nor is an operation of the read's thread past the ones it has.
  CHECK_THROWS_WITH(from({3, 1, 1}, writes.states), Catch::Contains("past thread 0"));

  // No order at all: the search of every order ends, with no state.
  testing::ScratchDir none;
  TraceBuilder c(1);
  c.op(0, "Read", 1, 2, F::fields("value", 9));
  c.write(none.path());
  const history::Problem refused = history::make_problem(history::read_run_or_history_file(none.path()), read.interface, spec);
  const checkers::EndStates nothing = checkers::search_end_states(refused, spec, search);
  CHECK(nothing.complete);
  CHECK(nothing.states.empty());
}
