// Pending operations (Herlihy and Wing 1990: a pending invocation may be completed with any
// response the object allows, or removed) and consistent cuts, decided by a real TLC: the four
// queue histories of Herlihy and Wing's Figure 1, register histories with timed-out writes and
// CAS, results chosen from domains, the MC module's domain override, and runs cut short.
// SKIPPED (exit 77) when TLC or java is not found.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <fstream>

#include "support/campaign_support.hpp"
#include "support/checker_choice.hpp"
#include "support/trace_builder.hpp"
#include "checkers/validate.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
using testing::TraceBuilder;
using F = TraceBuilder;
namespace fs = std::filesystem;

const fs::path kSpecs = OMNILINK_SPECS_DIR;

results::ValidationResult validate(const fs::path& run, const fs::path& spec, std::optional<fs::path> mc = {}) {
  return testing::validate_with_test_checker(run, spec, std::move(mc));
}

// A queue trace whose Enqueue declares elem as its input and Dequeue has none (all results).
TraceBuilder queue_trace(std::uint32_t threads) {
  TraceBuilder b(threads);
  b.inputs("Enqueue", {"elem"}).inputs("Dequeue", {});
  return b;
}

const results::PendingOutcome& outcome_of(const results::ValidationResult& r, std::uint32_t thread) {
  for (const auto& p : r.pending_outcomes)
    if (p.op.thread == thread) return p;
  FAIL("no pending operation of thread " << thread);
  throw std::logic_error("unreachable");
}

std::string argument(const results::PendingOutcome& p, const std::string& name) {
  for (const auto& [param, text] : p.arguments)
    if (param == name) return text;
  return "(none)";
}

// Herlihy and Wing, Figure 1, written from the paper's event sequences: each invocation and
// response is one tick of a counter clock; x, y, z are 1, 2, 3; A, B, C are threads 0, 1, 2.
constexpr std::int64_t x = 1, y = 2, z = 3;

}  // namespace

TEST_CASE("Herlihy and Wing's Figure 1: (a) and (c) are linearizable, (b) and (d) are not", "[pending][tlc]") {
  testing::ScratchDir dir;
  const fs::path spec = kSpecs / "LinearizableQueue.tla";

  // H1: A E(x); B E(y); B Ok; A Ok; B D(); B Ok(x); A D(); A Ok(y); A E(z), still pending.
  TraceBuilder h1 = queue_trace(2);
  h1.op(0, "Enqueue", 1, 4, F::fields("elem", x)).op(0, "Dequeue", 7, 8, F::fields("elem", y, "ok", true));
  h1.pending(0, "Enqueue", 9, F::fields("elem", z));
  h1.op(1, "Enqueue", 2, 3, F::fields("elem", y)).op(1, "Dequeue", 5, 6, F::fields("elem", x, "ok", true));
  h1.write(dir / "h1");
  const auto a = validate(dir / "h1", spec);
  INFO(a.summary());
  CHECK(a.verdict == Verdict::pass);
  CHECK(a.pending == 1);

  // H2: A E(x); A Ok; B E(y); A D(); B Ok; A Ok(y). x was enqueued before y began: D() = y is wrong.
  TraceBuilder h2 = queue_trace(2);
  h2.op(0, "Enqueue", 1, 2, F::fields("elem", x)).op(0, "Dequeue", 4, 6, F::fields("elem", y, "ok", true));
  h2.op(1, "Enqueue", 3, 5, F::fields("elem", y));
  h2.write(dir / "h2");
  const auto b = validate(dir / "h2", spec);
  INFO(b.summary());
  CHECK(b.verdict == Verdict::fail);

  // H3: A E(x), pending; B D(); B Ok(x). Linearizable only by completing A's enqueue.
  TraceBuilder h3 = queue_trace(2);
  h3.pending(0, "Enqueue", 1, F::fields("elem", x));
  h3.op(1, "Dequeue", 2, 3, F::fields("elem", x, "ok", true));
  h3.write(dir / "h3");
  const auto c = validate(dir / "h3", spec);
  INFO(c.summary());
  CHECK(c.verdict == Verdict::pass);
  REQUIRE(c.pending_outcomes.size() == 1);
  CHECK(c.pending_outcomes[0].linearized);
  CHECK(argument(c.pending_outcomes[0], "elem") == "1");
  const auto json = nlohmann::json::parse(std::ifstream(dir / "h3" / "validation" / "result.json"));
  CHECK(json["pending_operations"][0]["linearized"] == true);
  CHECK(json["pending_operations"][0]["arguments"]["elem"] == "1");

  // H4: A E(x); B E(y); A Ok; B Ok; A D(); C D(); A Ok(y); C Ok(y). y is dequeued twice.
  TraceBuilder h4 = queue_trace(3);
  h4.op(0, "Enqueue", 1, 3, F::fields("elem", x)).op(0, "Dequeue", 5, 7, F::fields("elem", y, "ok", true));
  h4.op(1, "Enqueue", 2, 4, F::fields("elem", y));
  h4.op(2, "Dequeue", 6, 8, F::fields("elem", y, "ok", true));
  h4.write(dir / "h4");
  const auto d = validate(dir / "h4", spec);
  INFO(d.summary());
  CHECK(d.verdict == Verdict::fail);
}

TEST_CASE("a pending Enq(x) with a completed Deq() = x after it is linearizable", "[pending][tlc]") {
  testing::ScratchDir dir;
  TraceBuilder b = queue_trace(2);
  b.pending(0, "Enqueue", 1, F::fields("elem", 7));
  b.op(1, "Dequeue", 10, 11, F::fields("elem", 7, "ok", true)).op(1, "Dequeue", 12, 13, F::fields("elem", 0, "ok", false));
  b.write(dir / "run");
  const auto r = validate(dir / "run", kSpecs / "LinearizableQueue.tla");
  INFO(r.summary());
  CHECK(r.verdict == Verdict::pass);
  CHECK(outcome_of(r, 0).linearized);
}

TEST_CASE("register: a history that needs a timed-out write to have happened passes, one no completion saves fails",
          "[pending][tlc]") {
  testing::ScratchDir dir;
  const fs::path spec = kSpecs / "Register.tla";
  auto register_trace = [](std::uint32_t threads) {
    TraceBuilder b(threads);
    b.inputs("Write", {"value"}).inputs("CAS", {"expected", "new"}).inputs("Read", {});
    return b;
  };

  // Write(1) timed out; later a read sees 1, a CAS(1 -> 2) succeeds and a read sees 2.
  TraceBuilder needs_write = register_trace(3);
  needs_write.pending(0, "Write", 1, F::fields("value", 1));
  needs_write.op(1, "Read", 5, 6, F::fields("value", 1)).op(1, "Read", 9, 10, F::fields("value", 2));
  needs_write.op(2, "CAS", 7, 8, F::fields("expected", 1, "new", 2, "ok", true));
  needs_write.write(dir / "needs-write");
  const auto pass = validate(dir / "needs-write", spec);
  INFO(pass.summary());
  CHECK(pass.verdict == Verdict::pass);
  CHECK(outcome_of(pass, 0).linearized);
  CHECK(argument(outcome_of(pass, 0), "value") == "1");

  // Write(1) timed out; CAS(0 -> 5) succeeded, a read then saw 1 and a later read 5 again: the
  // write would have to come both after the CAS and before the last read. Nothing completes it.
  TraceBuilder hopeless = register_trace(3);
  hopeless.pending(0, "Write", 1, F::fields("value", 1));
  hopeless.op(1, "CAS", 2, 3, F::fields("expected", 0, "new", 5, "ok", true)).op(1, "Read", 6, 7, F::fields("value", 5));
  hopeless.op(2, "Read", 4, 5, F::fields("value", 1));
  hopeless.write(dir / "hopeless");
  const auto fail = validate(dir / "hopeless", spec);
  INFO(fail.summary());
  CHECK(fail.verdict == Verdict::fail);

  // A timed-out CAS(0 -> 7) whose result is unknown: a later read of 7 needs it to have succeeded,
  // so its ok is chosen from BOOLEAN (the annotation types it Bool).
  TraceBuilder cas = register_trace(2);
  cas.pending(0, "CAS", 1, F::fields("expected", 0, "new", 7));
  cas.op(1, "Read", 3, 4, F::fields("value", 7));
  cas.write(dir / "cas");
  const auto chosen = validate(dir / "cas", spec);
  INFO(chosen.summary());
  CHECK(chosen.verdict == Verdict::pass);
  CHECK(argument(outcome_of(chosen, 0), "ok") == "TRUE");
}

TEST_CASE("a pending operation's results come from the values logged under the field's name", "[pending][tlc]") {
  testing::ScratchDir dir;
  // The pending Dequeue must have taken 5 for the later Dequeue to find the queue empty; 5 was
  // logged as Enqueue's elem, and elem is also Dequeue's field.
  TraceBuilder b = queue_trace(2);
  b.op(0, "Enqueue", 1, 2, F::fields("elem", 5)).op(0, "Dequeue", 5, 6, F::fields("elem", 0, "ok", false));
  b.pending(1, "Dequeue", 3, F::fields());
  b.write(dir / "run");
  const auto r = validate(dir / "run", kSpecs / "LinearizableQueue.tla");
  INFO(r.summary());
  CHECK(r.verdict == Verdict::pass);
  CHECK(argument(outcome_of(r, 1), "elem") == "5");
  CHECK(argument(outcome_of(r, 1), "ok") == "TRUE");

  // Inputs unknown (a version 1 abort record, or an operation that declares none): every argument
  // is chosen, and the history is still judged.
  TraceBuilder v1(2);
  v1.version(1);
  v1.pending(0, "Enqueue", 1);
  v1.op(1, "Dequeue", 2, 3, F::fields("elem", 4, "ok", true));
  v1.write(dir / "v1");
  const auto old = validate(dir / "v1", kSpecs / "LinearizableQueue.tla");
  INFO(old.summary());
  CHECK(old.verdict == Verdict::pass);
  CHECK(argument(outcome_of(old, 0), "elem") == "4");
}

TEST_CASE("a pending multi-step operation takes its steps with the arguments it chose", "[pending][tlc]") {
  testing::ScratchDir dir;
  // A bulk dequeue in flight when the run died took both elements of a bulk enqueue (in one
  // step, or two), or the later Dequeue could not have found 6 at the head of producer 1's stream. Its
  // elems, a result, come from the values logged under "elems"; it need not have finished.
  TraceBuilder b(2);
  b.inputs("EnqueueBulk", {"producer", "elems"}).inputs("Enqueue", {"producer", "elem"}).inputs("DequeueBulk", {"token"}).inputs("Dequeue", {});
  b.op(0, "EnqueueBulk", 1, 2, F::fields("producer", 1, "elems", std::vector<std::int64_t>{4, 5}));
  b.op(0, "Enqueue", 4, 5, F::fields("producer", 1, "elem", 6));
  b.op(0, "Dequeue", 6, 7, F::fields("elem", 6, "ok", true));
  b.pending(1, "DequeueBulk", 3, F::fields("token", false));
  b.write(dir / "run");
  const auto r = validate(dir / "run", kSpecs / "PerProducerQueue.tla");
  INFO(r.summary());
  CHECK(r.verdict == Verdict::pass);
  CHECK(outcome_of(r, 1).linearized);
  CHECK(argument(outcome_of(r, 1), "elems") == "<<4, 5>>");
}

TEST_CASE("a FAIL that may come from a result missing from its domain is unknown unless the prefix before it fails",
          "[pending][tlc]") {
  testing::ScratchDir dir;
  const fs::path spec = kSpecs / "AtomicCounter.tla";
  auto counter_trace = [] {
    TraceBuilder b(3);
    b.inputs("Increment", {"by"}).inputs("Read", {});
    return b;
  };
  // A's Increment(1) was in flight (and had taken effect: fetch_add returned 0) when the run died.
  // No operation logged 0 under "old", so its real result is not in its domain, and without it B's
  // old = 1 and the read of 3 are unexplained: a FAIL on a correct run, were it not certified.
  TraceBuilder correct = counter_trace();
  correct.pending(0, "Increment", 10, F::fields("by", 1));
  correct.op(1, "Increment", 12, 13, F::fields("by", 2, "old", 1));
  correct.op(2, "Read", 40, 50, F::fields("value", 3));
  correct.write(dir / "correct");
  const auto u = validate(dir / "correct", spec);
  INFO(u.summary());
  CHECK(u.verdict == Verdict::unknown);
  CHECK_THAT(u.reason, Catch::Contains("OmniLinkDomain_"));

  // The same, after a read of 5 from a counter that starts at 0, before anything else began: that
  // fails on its own, whatever the pending increment returned.
  TraceBuilder buggy = counter_trace();
  buggy.op(2, "Read", 1, 2, F::fields("value", 5)).op(2, "Read", 40, 50, F::fields("value", 3));
  buggy.pending(0, "Increment", 10, F::fields("by", 1));
  buggy.op(1, "Increment", 12, 13, F::fields("by", 2, "old", 1));
  buggy.write(dir / "buggy");
  const auto f = validate(dir / "buggy", spec);
  INFO(f.summary());
  CHECK(f.verdict == Verdict::fail);
  CHECK(f.linearized == 0);
  REQUIRE_FALSE(f.frontier.empty());
  CHECK(f.frontier[0].op.name == "Read");
  if (testing::testing_tlc()) CHECK(fs::exists(dir / "buggy" / "validation" / "certify" / "frontier.json"));
}

TEST_CASE("an MC module's OmniLinkDomain_<Op>_<field> replaces the default domain", "[pending][tlc]") {
  testing::ScratchDir dir;
  TraceBuilder b(2);
  b.pending(0, "Enqueue", 1);  // its element unknown
  b.op(1, "Dequeue", 2, 3, F::fields("elem", 4, "ok", true));
  b.write(dir / "run");
  // The MC module says an Enqueue can only have enqueued 7: then nothing explains the 4.
  std::ofstream(dir / "MCQueue.tla") << "---- MODULE MCQueue ----\nEXTENDS OmniLinkTrace\nOmniLinkDomain_Enqueue_elem == {7}\n====\n";
  const auto r = validate(dir / "run", kSpecs / "LinearizableQueue.tla", dir / "MCQueue.tla");
  INFO(r.summary());
  CHECK(r.verdict == Verdict::fail);
  std::ofstream(dir / "MCQueue.tla", std::ios::trunc) << "---- MODULE MCQueue ----\nEXTENDS OmniLinkTrace\nOmniLinkDomain_Enqueue_elem == {4, 7}\n====\n";
  CHECK(validate(dir / "run", kSpecs / "LinearizableQueue.tla", dir / "MCQueue.tla").verdict == Verdict::pass);
}

TEST_CASE("a run cut short is validated on its consistent cut: lost records cause no FAIL, real bugs still do",
          "[pending][cut][tlc]") {
  testing::ScratchDir dir;
  const fs::path spec = kSpecs / "LinearizableQueue.tla";
  // Thread 0 was killed after its buffer last reached the disk at Enqueue(2); what it did next
  // (Enqueue(3)) is lost. Thread 1's file is whole, and it dequeued 1, 2 and then the lost 3.
  TraceBuilder lost = queue_trace(2);
  lost.op(0, "Enqueue", 1, 2, F::fields("elem", 1)).op(0, "Enqueue", 3, 6, F::fields("elem", 2)).cut_short(0);
  lost.op(1, "Dequeue", 4, 5, F::fields("elem", 1, "ok", true)).op(1, "Dequeue", 7, 8, F::fields("elem", 2, "ok", true));
  lost.op(1, "Dequeue", 9, 10, F::fields("elem", 3, "ok", true));
  lost.write(dir / "lost");
  const auto r = validate(dir / "lost", spec);
  INFO(r.summary());
  CHECK(r.verdict == Verdict::pass);
  REQUIRE(r.cut.has_value());
  CHECK(r.cut->at == 6);
  CHECK(r.cut->cut_short_threads == std::vector<std::uint32_t>{0});
  CHECK(r.cut->dropped == 2);       // the dequeues that started after 6
  CHECK(r.cut->made_pending == 1);  // Enqueue(2), in flight at 6
  CHECK_THAT(r.caveats[0], Catch::Contains("consistent cut"));
  const auto json = nlohmann::json::parse(std::ifstream(dir / "lost" / "validation" / "result.json"));
  CHECK(json["cut"]["dropped"] == 2);

  // A violation before the cut is still found: Dequeue() = 2 before Enqueue(2) began.
  TraceBuilder bug = queue_trace(2);
  bug.op(0, "Enqueue", 1, 2, F::fields("elem", 1)).op(0, "Enqueue", 5, 6, F::fields("elem", 2));
  bug.op(0, "Enqueue", 10, 11, F::fields("elem", 3)).cut_short(0);
  bug.op(1, "Dequeue", 3, 4, F::fields("elem", 2, "ok", true));
  bug.write(dir / "bug");
  const auto f = validate(dir / "bug", spec);
  INFO(f.summary());
  CHECK(f.verdict == Verdict::fail);

  // A cut that keeps nothing completed decides nothing: unknown, never pass.
  TraceBuilder nothing = queue_trace(2);
  nothing.cut_short(0);
  nothing.op(1, "Enqueue", 1, 2, F::fields("elem", 1));
  nothing.write(dir / "nothing");
  const auto u = validate(dir / "nothing", spec);
  INFO(u.summary());
  CHECK(u.verdict == Verdict::unknown);
}

int main(int argc, char* argv[]) { return omnilink::testing::run_validation_tests(argc, argv); }
