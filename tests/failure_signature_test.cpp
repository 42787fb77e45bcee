// Failure signatures (findings/failure_signature.hpp) from real native validations of small queue
// histories: the refused operation and conjunct land in result.json, one fault seen at different
// positions, values and times keeps one signature, and different faults get different ones; a
// transactional run is signed by its failing core.
#include <catch2/catch.hpp>

#include <set>

#include "explain/broken_rules.hpp"
#include "explain/explain.hpp"
#include "findings/failure_signature.hpp"
#include "platform/code_under_test.hpp"
#include "support/test_support.hpp"
#include "support/trace_builder.hpp"
#include "checkers/validate.hpp"
#include "history/history_file.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
using testing::TraceBuilder;
using F = TraceBuilder;
namespace fs = std::filesystem;

/// Queue operations on one thread each, every one after the previous: (thread, name, elem, ok).
struct Step {
  std::uint32_t thread;
  const char* name;
  std::int64_t elem;
  bool ok = true;
};

/// The native checker's result.json for a trace that must fail against `spec` (in tla/specs).
nlohmann::json validate_failing(const TraceBuilder& trace, const std::string& spec) {
  testing::ScratchDir dir;
  trace.write(dir / "run");
  checkers::ValidateOptions o;
  o.run_dir = dir / "run";
  o.spec = fs::path(OMNILINK_SPECS_DIR) / spec;
  o.checker = checkers::Checker::native;
  o.confirm_failures = false;
  const auto r = checkers::validate_run(o);
  INFO(r.summary());
  REQUIRE(r.verdict == Verdict::fail);
  return r.to_json();
}

nlohmann::json validate(const std::vector<Step>& steps, std::uint64_t first_time = 1) {
  TraceBuilder b(2);
  std::uint64_t t = first_time;
  for (const Step& s : steps) {
    if (std::string(s.name) == "Enqueue") b.op(s.thread, s.name, t, t + 1, F::fields("elem", s.elem));
    else b.op(s.thread, s.name, t, t + 1, F::fields("elem", s.elem, "ok", s.ok));
    t += 2;
  }
  return validate_failing(b, "LinearizableQueue.tla");
}

// The signature of a validation, as campaigns sign it: from result.json as the reader reads it.
std::optional<findings::FailureSignature> sign(const std::string& target, const nlohmann::json& result) {
  return findings::failure_signature(target, results::parse_result(result, "result.json"));
}

/// A validation's signature id and symptom id.
struct Signed {
  std::string signature, symptom;
};

Signed signature(const nlohmann::json& result) {
  const auto s = sign("queue", result);
  REQUIRE(s);
  INFO(s->key << " / " << s->symptom.key);
  CHECK(s->id.size() == 12);
  CHECK(s->symptom.id.size() == 12);
  return {s->id, s->symptom.id};
}

}  // namespace

TEST_CASE("result.json names the refused operation, its conjunct and what it is tied to", "[native][signature]") {
  // Enqueue(1), Enqueue(2), then a Dequeue returns 2: overtaken.
  const auto overtaken = validate({{0, "Enqueue", 1}, {0, "Enqueue", 2}, {1, "Dequeue", 2}});
  const auto& refused = overtaken["frontier"]["refused"];
  CHECK(refused["name"] == "Dequeue");
  CHECK(refused["thread"] == 1);
  CHECK(refused["index"] == 0);
  CHECK(refused["action"] == "Dequeue");
  CHECK(refused["conjunct"] == "Head(queue) = elem");
  CHECK(refused["at"].get<std::string>().find("LinearizableQueue.tla:20:") != std::string::npos);
  REQUIRE(refused["related"].size() == 1);
  CHECK(refused["related"][0]["name"] == "Enqueue");
  CHECK(refused["related"][0]["linearized"] == true);
  CHECK(refused["unmatched"].empty());

  const auto never_enqueued = validate({{0, "Enqueue", 1}, {1, "Dequeue", 9}});
  CHECK(never_enqueued["frontier"]["refused"]["unmatched"] == nlohmann::json::array({"elem"}));
  CHECK(never_enqueued["frontier"]["refused"]["related"].empty());
}

TEST_CASE("one operation's refusals are one signature, and how each run showed it is its symptom", "[native][signature]") {
  // Overtaken: 2 is dequeued before 1, which a later dequeue takes out.
  const Signed overtaken = signature(validate({{0, "Enqueue", 1}, {0, "Enqueue", 2}, {1, "Dequeue", 2}, {1, "Dequeue", 1}}));
  // The same fault later in a longer run, other values, other threads, other times.
  const Signed overtaken_again = signature(validate(
      {{1, "Enqueue", 40}, {0, "Dequeue", 40}, {1, "Enqueue", 7}, {1, "Enqueue", 8}, {0, "Dequeue", 8}, {0, "Dequeue", 7}}, 1000));
  CHECK(overtaken.symptom == overtaken_again.symptom);

  const Signed twice = signature(validate({{0, "Enqueue", 1}, {1, "Dequeue", 1}, {1, "Dequeue", 1}}));
  const Signed never_enqueued = signature(validate({{0, "Enqueue", 1}, {1, "Dequeue", 9}}));
  const Signed empty_but_not = signature(validate({{0, "Enqueue", 1}, {1, "Dequeue", 0, false}}));
  // Every one is a Dequeue the Dequeue action refuses: one signature, four symptoms.
  for (const Signed* s : {&overtaken_again, &twice, &never_enqueued, &empty_but_not}) CHECK(s->signature == overtaken.signature);
  const std::set<std::string> symptoms{overtaken.symptom, twice.symptom, never_enqueued.symptom, empty_but_not.symptom};
  CHECK(symptoms.size() == 4);
  // `queue = <<>>` mentions no value of the dequeue: its placeholder element, logged by another
  // empty dequeue here, ties nothing, so the symptom does not depend on how many there were.
  CHECK(signature(validate({{1, "Dequeue", 0, false}, {0, "Enqueue", 1}, {1, "Dequeue", 0, false}})).symptom == empty_but_not.symptom);

  // Lost: 1 is enqueued and never dequeued. The dequeue after it shows the loss as an empty
  // dequeue on a non-empty queue, or as a dequeue of the element after it: one symptom.
  const auto lost_empty = validate({{0, "Enqueue", 1}, {1, "Dequeue", 0, false}});
  const auto lost_next = validate({{0, "Enqueue", 1}, {0, "Enqueue", 2}, {1, "Dequeue", 2}}, 500);
  CHECK(lost_empty["frontier"]["refused"]["conjunct"] != lost_next["frontier"]["refused"]["conjunct"]);
  for (const auto* result : {&lost_empty, &lost_next}) {
    const auto& lost = (*result)["frontier"]["refused"]["lost"];
    CHECK(lost["value"] == "1");
    REQUIRE(lost["logged_by"].size() == 1);
    CHECK(lost["logged_by"][0]["name"] == "Enqueue");
    CHECK(lost["logged_by"][0]["linearized"] == true);
  }
  CHECK(signature(lost_empty).symptom == signature(lost_next).symptom);
  CHECK(signature(lost_next).symptom == empty_but_not.symptom);
  const auto lost = sign("queue", lost_next);
  REQUIRE(lost);
  CHECK(lost->key == "queue|refused|Dequeue|Dequeue");
  CHECK(lost->title == "Dequeue refused by Dequeue");
  CHECK(lost->symptom.key == "queue|refused|Dequeue|Dequeue|lost|by:Enqueue");
  CHECK(lost->symptom.title == "the state holds a value that only Enqueue logged (linearized) and no operation takes out");
  // An overtaken element is taken out later, a twice-dequeued one was taken out already: not lost.
  CHECK_FALSE(validate({{0, "Enqueue", 1}, {0, "Enqueue", 2}, {1, "Dequeue", 2}, {1, "Dequeue", 1}})["frontier"]["refused"].contains("lost"));
  // A dequeue of an element never enqueued is that, first, though 1 is never dequeued either.
  CHECK_FALSE(validate({{0, "Enqueue", 1}, {1, "Dequeue", 9}})["frontier"]["refused"].contains("lost"));

  const auto s = sign("queue", validate({{0, "Enqueue", 1}, {1, "Dequeue", 1}, {1, "Dequeue", 1}}));
  REQUIRE(s);
  // The second Dequeue(1) finds the queue empty; `queue # <<>>` mentions none of its values.
  CHECK(s->symptom.title == "queue # <<>>");
  // A different target is a different bug, whatever the frontier; so is another operation.
  CHECK(sign("stack", validate({{0, "Enqueue", 1}, {1, "Dequeue", 9}}))->id != never_enqueued.signature);
}

TEST_CASE("an operation the spec refuses is its own signature", "[native][signature]") {
  // A register whose read returned a value never written: Read refused, not Write.
  TraceBuilder b(2);
  b.op(0, "Write", 1, 2, F::fields("value", std::int64_t{5})).op(1, "Read", 3, 4, F::fields("value", std::int64_t{6}));
  const auto read = sign("register", validate_failing(b, "Register.tla"));
  REQUIRE(read);
  CHECK(read->key == "register|refused|Read|Read");
  CHECK(read->symptom.title.find("no other operation logged its value") != std::string::npos);
}

TEST_CASE("a TLC-decided failure gets the coarser signature of its stuck operations", "[signature]") {
  results::StoredResult result;
  result.verdict = Verdict::fail;
  result.frontier.emplace();
  results::StoredOperation pop, push;
  pop.name = "Pop";
  pop.viable = true;
  push.name = "Push";
  result.frontier->next = {pop, push};
  const auto s = findings::failure_signature("stack", result);
  REQUIRE(s);
  CHECK(s->key == "stack|stuck|Pop");
  CHECK(s->title.find("TLC decided") != std::string::npos);
  results::StoredResult passed;
  passed.verdict = Verdict::pass;
  CHECK_FALSE(findings::failure_signature("stack", passed));
}

// Crash sites as addr2line names them (findings/crash_site.hpp): libc without line information,
// a libstdc++ header, omnilink's harness header, then the code under test.
findings::CrashSite crash_in(const std::string& function, const std::string& file, int line, int signal = 11) {
  findings::CrashSite site;
  site.signal = signal;
  site.signal_name = signal == 11 ? "SIGSEGV" : "SIGABRT";
  site.frames = {{"0x4ff5eb", "__pthread_kill_implementation", "pthread_kill.o", 0},
                 {"0x4e7602", "raise", "??", 0},
                 {"0x4068dd", "abort", "./stdlib/abort.c", 79},
                 {"0x401591", "std::vector<int>::at(unsigned long)", "/usr/include/c++/12/bits/stl_vector.h", 1123},
                 {"0x401600", function, file, line},
                 {"0x401700", "void omnilink::Harness<Config>::perform<Step>(Step&)", "/src/harness/include/omnilink/harness.hpp", 290}};
  return site;
}

TEST_CASE("a crash is signed by its signal and innermost frame in the code under test, not by its line", "[signature][crash]") {
  const auto site = crash_in("lockfree::Stack<Node<int> >::pop(int&) [clone .cold]", "/src/stack/stack.hpp", 42);
  REQUIRE(site.innermost_under_test() != nullptr);
  CHECK(site.innermost_under_test()->line == 42);
  CHECK(omnilink::plain_function_name(site.innermost_under_test()->function) == "lockfree::Stack::pop");
  const auto s = findings::crash_signature("stack", site);
  CHECK(s.title == "SIGSEGV in lockfree::Stack::pop (stack.hpp:42)");
  CHECK(s.crash);  // reports replay it to its signal (omnilink replay --crash)
  // The same crash after an edit above it in the file; another function; another signal.
  CHECK(findings::crash_signature("stack", crash_in("lockfree::Stack<Node<long> >::pop(long&)", "/src/stack/stack.hpp", 45)).id == s.id);
  CHECK(findings::crash_signature("stack", crash_in("lockfree::Stack<Node<int> >::push(int)", "/src/stack/stack.hpp", 42)).id != s.id);
  CHECK(findings::crash_signature("stack", crash_in("lockfree::Stack<Node<int> >::pop(int&)", "/src/stack/stack.hpp", 42, 6)).id != s.id);
  CHECK(findings::crash_signature("other-target", site).id != s.id);
}

TEST_CASE("a crash in a lambda is signed by its line, one without a frame under test by its signal", "[signature][crash]") {
  const auto lambda = crash_in("std::_Function_handler<void (Worker&), main::{lambda(Config&)#1}>::_M_invoke(std::_Any_data const&)",
                               "/src/workload.cpp", 67);
  const auto s = findings::crash_signature("w", lambda);
  CHECK(s.title.find("at workload.cpp:67 (a lambda") == 0 + std::string("SIGSEGV ").size());
  CHECK(findings::crash_signature("w", crash_in(lambda.frames[4].function, "/src/workload.cpp", 68)).id != s.id);

  findings::CrashSite bare = crash_in("f", "??", 0);
  bare.frames.erase(bare.frames.begin() + 4);
  bare.note = "addr2line (binutils) is not installed: the frames are not named";
  CHECK(bare.innermost_under_test() == nullptr);
  const auto b = findings::crash_signature("w", bare);
  CHECK(b.key == "w|crashed|SIGSEGV");
  CHECK(b.title.find("addr2line") != std::string::npos);
}

namespace {

enum class Anomaly { dirty_read, lost_update, both, dirty_write_and_removal };

/// A run of WiredTiger transactions where transaction `a` writes `value` to key 1 and commits
/// late, and transaction `b`, begun before that commit, reads it (a dirty read under snapshot
/// isolation), amid `noise` transactions of thread 2 on key 2; or, a lost update, where `b`
/// writes key 1 too and both commit; or both, `a` writing key 3 too and `b` reading it there; or
/// the lost update with `b` removing key 3 instead of reading it (found: a removal of a value it
/// may not see). Its failing core is found (explain/) and the run signed as a campaign signs it.
findings::FailureSignature sign_transactions(const fs::path& run, std::int64_t a, std::int64_t b, std::int64_t value, int noise,
                                             Anomaly anomaly = Anomaly::dirty_read) {
  TraceBuilder t(3);
  std::uint64_t at = 1;
  const auto ok = std::string("ok");
  for (int k = 0; k < noise; ++k, at += 6) {
    const std::int64_t txn = 1000 + k;
    t.op(2, "Begin", at, at + 1, F::fields("txn", txn));
    t.op(2, "Put", at + 2, at + 3, F::fields("txn", txn, "key", std::int64_t{2}, "value", txn, "status", ok));
    t.op(2, "Commit", at + 4, at + 5, F::fields("txn", txn, "status", ok));
  }
  const bool removal = anomaly == Anomaly::dirty_write_and_removal;
  const std::int64_t read_key = anomaly == Anomaly::both || removal ? 3 : 1;
  t.op(0, "Begin", at, at + 1, F::fields("txn", a));
  t.op(0, "Put", at + 2, at + 3, F::fields("txn", a, "key", std::int64_t{1}, "value", value, "status", ok));
  if (read_key == 3) t.op(0, "Put", at + 4, at + 5, F::fields("txn", a, "key", read_key, "value", value, "status", ok));
  t.op(1, "Begin", at + 6, at + 7, F::fields("txn", b));
  if (anomaly != Anomaly::dirty_read) t.op(1, "Put", at + 8, at + 9, F::fields("txn", b, "key", std::int64_t{1}, "value", value + 1, "status", ok));
  if (removal) t.op(1, "Remove", at + 10, at + 11, F::fields("txn", b, "key", read_key, "status", ok));
  else if (anomaly != Anomaly::lost_update) t.op(1, "Search", at + 10, at + 11, F::fields("txn", b, "key", read_key, "value", value, "status", ok));
  t.op(1, "Commit", at + 12, at + 13, F::fields("txn", b, "status", ok));
  t.op(0, "Commit", at + 20, at + 21, F::fields("txn", a, "status", ok));
  t.write(run);

  explain::ExplainOptions o;
  o.validate.run_dir = run;
  o.validate.spec = fs::path(OMNILINK_SPECS_DIR) / "WiredTigerKV.tla";
  o.validate.mc = fs::path(OMNILINK_SPECS_DIR) / "MCWiredTigerSnapshot.tla";
  o.validate.checker = checkers::Checker::native;
  o.validate.confirm_failures = false;
  const explain::Explanation e = explain::explain_run(o);
  INFO(e.core.size() << " core operations");
  CHECK(e.minimal);
  store::RunRecord record;
  record.target = "wiredtiger-read-committed-as-snapshot";
  record.dir = run.string();
  record.status = store::RunStatus::ok;
  record.validation.emplace();
  record.validation->verdict = Verdict::fail;
  record.validation->spec = e.spec;
  const auto signature = findings::failure_signature(record);
  REQUIRE(signature);
  return *signature;
}

}  // namespace

TEST_CASE("a transactional failure is signed by its failing core: two runs of one anomaly alike, another apart", "[native][signature][explain]") {
  testing::ScratchDir dir;
  const auto first = sign_transactions(dir / "first", 7, 8, 100, 0);
  const auto second = sign_transactions(dir / "second", 5003, 6001, 77777, 4);
  INFO(first.key << "\n" << first.symptom.key << "\n" << second.symptom.key);
  CHECK(first.id == second.id);
  CHECK(first.symptom.id == second.symptom.id);
  CHECK_FALSE(first.crash);
  // Signed by the rules the run breaks (explain/broken_rules.hpp); how the core showed it is the symptom.
  // ReadsWhatItMaySee is a facet of WiredTigerKV's `@guarantee: Visibility`.
  CHECK(first.title == "breaks Visibility (WiredTigerKV)");
  CHECK_THAT(first.symptom.title, Catch::StartsWith("breaks ReadsWhatItMaySee (WiredTigerKV); "));
  CHECK_THAT(first.symptom.title, Catch::Contains("Search refused by Search: ") && Catch::Contains("Visible(txn, key)") &&
                                      Catch::EndsWith("the failing core: Search"));

  const auto lost_update = sign_transactions(dir / "lost-update", 7, 8, 100, 2, Anomaly::lost_update);
  INFO(lost_update.symptom.title);
  CHECK(lost_update.id != first.id);
  CHECK(lost_update.title == "breaks FirstUpdaterWins (WiredTigerKV)");
  CHECK_THAT(lost_update.symptom.title, Catch::Contains("FirstUpdaterWins"));

  // Both in one run (read-committed taken for snapshot isolation does both): neither rule alone
  // lets it pass, the two together do, and the run is signed by both.
  const auto both = sign_transactions(dir / "both", 7, 8, 100, 2, Anomaly::both);
  CHECK(both.title == "breaks FirstUpdaterWins and Visibility (WiredTigerKV)");
  CHECK(both.id != first.id);
  CHECK(both.id != lost_update.id);

  // A run that breaks the other facet of Visibility (a removal of an uncommitted value) with the
  // dirty write breaks the same guarantees: the same signature, the rules it broke its symptom.
  const auto removal = sign_transactions(dir / "removal", 7, 8, 100, 2, Anomaly::dirty_write_and_removal);
  INFO(removal.symptom.title);
  CHECK(removal.id == both.id);
  CHECK(removal.title == both.title);
  CHECK(removal.symptom.id != both.symptom.id);
  CHECK_THAT(removal.symptom.title, Catch::StartsWith("breaks FirstUpdaterWins and RemovesWhatItMaySee (WiredTigerKV); "));
  CHECK_THAT(both.symptom.title, Catch::StartsWith("breaks FirstUpdaterWins and ReadsWhatItMaySee (WiredTigerKV); "));

  // The questions themselves: the rules in the order the spec reaches them; none named when
  // they are out of time, rather than a rule not proven.
  checkers::ValidateOptions v;
  v.run_dir = dir / "both";
  v.spec = fs::path(OMNILINK_SPECS_DIR) / "WiredTigerKV.tla";
  v.mc = fs::path(OMNILINK_SPECS_DIR) / "MCWiredTigerSnapshot.tla";
  v.checker = checkers::Checker::native;
  const history::History run = history::read_run_or_history_file(v.run_dir);
  std::vector<std::string> named;
  const explain::BrokenRules broken = explain::broken_rules(run, v, 200'000, std::chrono::seconds(60));
  for (const language::Rule& rule : broken.rules) named.push_back(rule.name.name);
  CHECK(named == std::vector<std::string>{"ReadsWhatItMaySee", "FirstUpdaterWins"});
  CHECK(broken.unnamed.empty());
  const explain::BrokenRules out_of_time = explain::broken_rules(run, v, 200'000, std::chrono::milliseconds(0));
  CHECK(out_of_time.rules.empty());
  CHECK_THAT(out_of_time.unnamed, Catch::StartsWith("a question was not decided within 200000 states"));
}

TEST_CASE("a core cut short by its time limit is a symptom by its size, not by the operations it still holds", "[native][signature][explain]") {
  testing::ScratchDir dir;
  const auto minimal = sign_transactions(dir / "run", 7, 8, 100, 2, Anomaly::both);
  const std::optional<explain::Explanation> read = explain::read_explanation(explain::explanation_dir(dir / "run"));
  REQUIRE(read);
  const explain::Explanation& kept = *read;
  REQUIRE(kept.minimal);
  store::RunRecord record;
  record.target = "wiredtiger-read-committed-as-snapshot";
  record.dir = (dir / "run").string();
  record.status = store::RunStatus::ok;
  record.validation.emplace();
  record.validation->verdict = Verdict::fail;
  record.validation->spec = kept.spec;
  // The same explanation as a search out of time would have left it: not minimal, and holding
  // operations of its context besides (which ones depends on where the time ran out).
  auto cut_short = [&](std::size_t extra) {
    explain::Explanation e = kept;
    e.minimal = false;
    e.not_minimal = "the time limit was reached";
    for (std::size_t i = 0; i < extra && i < kept.context.size(); ++i) e.core.push_back(kept.context[i]);
    const auto signature = findings::failure_signature(record, e, std::nullopt);
    REQUIRE(signature);
    return *signature;
  };
  REQUIRE(kept.context.size() >= 2);
  const auto one = cut_short(1), two = cut_short(2);
  INFO(one.symptom.title << "\n" << two.symptom.title);
  // Still signed by the rules it breaks; one symptom for both, whose title counts the operations.
  CHECK(one.id == minimal.id);
  CHECK(one.symptom.id == two.symptom.id);
  CHECK(one.symptom.id != minimal.symptom.id);
  CHECK_THAT(two.symptom.title, Catch::EndsWith("the failing core: " + std::to_string(kept.core.size() + 2) + " operations, not proven minimal"));
  CHECK_THAT(minimal.symptom.title, Catch::Contains("the failing core: ") && !Catch::Contains("not proven minimal"));
}
