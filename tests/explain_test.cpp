// Failing cores (explain/failing_core.hpp) and explanations (explain/explain.hpp): for histories
// built here and for real failing runs of the injected bugs, the racy queue and a correct relaxed
// queue checked against the strict FIFO spec. Every core must be small, rejected on its own (its
// history file fails `validate`), and one-minimal: with any one of its operations made optional
// like the run's others, the search accepts. Native only: nothing here needs TLC.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>

#include "explain/explain.hpp"
#include "explain/searched_beginning.hpp"
#include "platform/code_under_test.hpp"
#include "platform/json_file.hpp"
#include "replay/rr_events.hpp"
#include "replay/schedule_probe.hpp"
#include "platform/subprocess.hpp"
#include "report/explanation_text.hpp"
#include "support/test_support.hpp"
#include "support/trace_builder.hpp"
#include "history/history_file.hpp"
#include "checkers/native_search.hpp"
#include "checkers/validate.hpp"
#include "checkers/projection.hpp"
#include "checkers/spec_cache.hpp"
#include "history/spec_declarations.hpp"

namespace {

using namespace omnilink;
using results::Verdict;
namespace fs = std::filesystem;

const fs::path kSpecs = OMNILINK_SPECS_DIR;

explain::ExplainOptions options_for(const fs::path& run, const std::string& spec, const std::string& mc = "") {
  explain::ExplainOptions o;
  o.validate.run_dir = run;
  o.validate.spec = kSpecs / spec;
  if (!mc.empty()) o.validate.mc = kSpecs / mc;
  o.validate.checker = checkers::Checker::native;
  o.validate.confirm_failures = false;
  return o;
}

/// The core's own claim, asked again here: the run's operations with `core` required and the
/// others optional. True if the search rejects that. The question is cut as the header of
/// failing_core.hpp argues it may be: nothing that starts after the core's last end; for a spec
/// closed under projection, nothing on values no core operation logged; for a partitioned one,
/// nothing of another part.
bool rejected_with_others_optional(const explain::ExplainOptions& o, const std::vector<results::StoredOperation>& core) {
  checkers::ReadSpec& read = checkers::read_spec(o.validate);
  language::LoadedSpec& spec = *read.loaded;
  history::History history = history::read_run_or_history_file(o.validate.run_dir);
  const history::Problem problem = history::make_problem(std::move(history), read.interface, spec);
  const auto in_core = [&](const history::ProblemOp& p) {
    return std::any_of(core.begin(), core.end(), [&](const auto& c) { return c.thread == p.op->thread && c.index == p.op->index; });
  };
  checkers::NativeSearchOptions search;
  search.max_states = 5'000'000;
  search.data_independent = history::data_independent_fields(spec, problem);
  const bool closed = history::projectable(spec, search.data_independent);
  const std::optional<std::string> part = history::partition_field(spec);
  std::uint64_t last_end = 0;
  std::set<std::string> values, keys;
  for (const auto& thread : problem.threads)
    for (const history::ProblemOp& p : thread)
      if (in_core(p)) {
        last_end = std::max(last_end, p.op->end);
        bool unknown = false;
        for (const std::string& v : checkers::logged_atoms(p, search.data_independent, unknown)) values.insert(v);
        if (part) keys.insert(trace::to_tla(*p.op->field(*part)));
      }
  const auto asked = [&](const history::ProblemOp& p) {
    if (in_core(p)) return true;
    if (p.op->start > last_end) return false;
    if (closed && !checkers::kept_by_projection(p, search.data_independent, values)) return false;
    return !part || keys.count(trace::to_tla(*p.op->field(*part))) > 0;
  };
  std::vector<history::Problem> question = history::split_problem(
      problem, 2, [&](const history::ProblemOp& p) -> std::size_t { return asked(p) ? 0 : 1; },
      [&](const history::ProblemOp& p) { return history::MadeOptional{!in_core(p), 0}; });
  const auto report = checkers::search_linearization(question[0], spec, search);
  REQUIRE(report.outcome != checkers::SearchReport::Outcome::limit);
  return report.outcome == checkers::SearchReport::Outcome::rejected;
}

/// What every core must be: at most `most` operations, its history file rejected by `validate` on
/// its own, rejected with the run's other operations optional, and one-minimal there. (Its file
/// without one operation need not pass: the file's context holds the operations that logged the
/// core's values, not every one the run had; an Insert that found its key present needs an earlier
/// insert of a key thousands of operations logged. CI saw that core once, of the striped map.)
void require_good_core(const explain::ExplainOptions& o, const explain::Explanation& e, std::size_t most) {
  INFO(report::explanation_text(e, "core.jsonl", ""));
  CHECK(!e.core.empty());
  CHECK(e.core.size() <= most);
  CHECK(e.minimal);
  REQUIRE(e.refused.has_value());
  CHECK(e.find(e.refused->op) != nullptr);

  checkers::ValidateOptions alone = o.validate;
  alone.run_dir = explain::explanation_dir(o.validate.run_dir) / e.core_file;
  const auto verdict = checkers::validate_run(alone);
  INFO(verdict.summary());
  CHECK(verdict.verdict == Verdict::fail);
  // The core file requires the core and, for a core proven given the past (a late failure in a
  // long run), that past as the run logged it (explain.cpp): nothing else.
  const history::History file = history::read_history_file(alone.run_dir);
  std::size_t completed = 0, past = 0;
  for (std::size_t t = 0; t < file.threads.size(); ++t)
    for (std::size_t k = 0; k < file.threads[t].size(); ++k) {
      const trace::Operation& op = file.threads[t][k];
      if (op.optional) continue;
      if (e.given && e.given->holds(op)) ++past;
      else ++completed;
    }
  CHECK(completed == e.core.size());
  if (e.given) CHECK(past >= e.given->operations);  // the file holds every part's past, the count one part's
  else CHECK(past == 0);

  CHECK(rejected_with_others_optional(o, e.core));
  for (std::size_t k = 0; k < e.core.size(); ++k) {
    std::vector<results::StoredOperation> fewer = e.core;
    fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(k));
    INFO("without " << e.core[k].id());
    CHECK_FALSE(rejected_with_others_optional(o, fewer));
  }
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), {}};
}

/// A history file: one line per operation ("process op start end fields-json").
void write_history(const fs::path& file, const std::vector<std::string>& lines) {
  std::ofstream out(file);
  out << R"({"format": "omnilink-history", "version": 1})" << "\n";
  for (const auto& line : lines) out << line << "\n";
}

std::string enq(int process, std::int64_t v, std::uint64_t start, std::uint64_t end) {
  return R"({"process": )" + std::to_string(process) + R"(, "op": "Enqueue", "fields": {"elem": )" + std::to_string(v) +
         R"(}, "start": )" + std::to_string(start) + R"(, "end": )" + std::to_string(end) + R"(, "outcome": "ok"})";
}

std::string deq(int process, std::int64_t v, std::uint64_t start, std::uint64_t end) {
  const bool ok = v != 0;
  return R"({"process": )" + std::to_string(process) + R"(, "op": "Dequeue", "fields": {"elem": )" + std::to_string(v) +
         R"(, "ok": )" + (ok ? "true" : "false") + R"(}, "start": )" + std::to_string(start) + R"(, "end": )" + std::to_string(end) +
         R"(, "outcome": "ok"})";
}

/// 200 overlapping queue operations of three processes, FIFO throughout except where `swap` makes
/// the dequeues of elements 101 and 102 come in the wrong order, long after both were enqueued.
std::vector<std::string> queue_history(bool swap) {
  std::vector<std::string> lines;
  std::uint64_t t = 10;
  // Neighbours overlap, except the first two enqueues: their order is known.
  for (int k = 1; k <= 100; ++k, t += 10) lines.push_back(enq(k % 3, 100 + k, t, t + (k <= 2 ? 5 : 15)));
  t += 20;  // each process's operations are sequential
  for (int k = 1; k <= 100; ++k, t += 10) {
    std::int64_t v = 100 + k;
    if (swap && k == 1) v = 102;
    if (swap && k == 2) v = 101;
    lines.push_back(deq(k % 3, v, t, t + 5));
  }
  return lines;
}

/// A WiredTigerKV history of one thread's transactions, one after another, each putting one key
/// and committing it at a timestamp (Begin, Put, CommitAt; 5 ns each, 10 ns apart).
struct OneThreadsTransactions {
  std::vector<std::string> lines{
      R"({"format": "omnilink-history", "version": 3, "inputs": {"Begin": ["txn"], "Put": ["txn", "key", "value"], "CommitAt": ["txn", "commit_ts"]}})"};
  std::uint64_t now = 0;  // when the next operation starts

  void put(int txn, int key, int commit_ts) {
    const std::string id = "\"txn\": " + std::to_string(txn);
    call("Begin", id);
    call("Put", id + ", \"key\": " + std::to_string(key) + ", \"value\": " + std::to_string(1000 + txn) + R"(, "status": "ok")");
    call("CommitAt", id + ", \"commit_ts\": " + std::to_string(commit_ts) + R"(, "status": "ok")");
  }
  void call(const std::string& op, const std::string& fields) {
    lines.push_back(R"({"process": 0, "op": ")" + op + "\", \"fields\": {" + fields + "}, \"start\": " + std::to_string(now) +
                    ", \"end\": " + std::to_string(now + 5) + R"(, "outcome": "ok"})");
    now += 10;
  }
  void write(const fs::path& file) const {
    std::ofstream out(file);
    for (const auto& line : lines) out << line << "\n";
  }
};

}  // namespace

TEST_CASE("a FIFO violation's core is the two dequeues, with their enqueues as context", "[explain]") {
  testing::ScratchDir dir;
  const fs::path file = dir.path() / "h.jsonl";
  write_history(file, queue_history(true));
  const auto o = options_for(file, "LinearizableQueue.tla");
  const explain::Explanation e = explain::explain_run(o);
  require_good_core(o, e, 4);
  CHECK_FALSE(e.given.has_value());  // proven on its own: its questions are decided well within budget
  CHECK(e.run_operations == 200);
  // The context: the enqueues of the two dequeued elements, which the core fails with or without.
  std::vector<std::string> context;
  for (const auto& op : e.context) context.push_back(op.call());
  CHECK(context == std::vector<std::string>{"Enqueue(elem = 101)", "Enqueue(elem = 102)"});
  const std::string text = report::explanation_text(e, "core.jsonl", "");
  CHECK_THAT(text, Catch::Contains("Head(queue) = elem"));
  CHECK_THAT(text, Catch::Contains("one-minimal"));
}

TEST_CASE("a core narrowed by presumption is proven before it is returned: a wrong presumption falls back to questions decided in full",
          "[explain]") {
  testing::ScratchDir dir;
  const fs::path file = dir.path() / "h.jsonl";
  write_history(file, queue_history(true));
  auto explained = [&](std::optional<explain::Presumption> presumption) {
    explain::ExplainOptions o = options_for(file, "LinearizableQueue.tla");
    o.reuse = false;
    o.core.presumption = presumption;
    explain::Explanation e = explain::explain_run(o);
    require_good_core(o, e, 4);
    std::vector<std::string> core;
    for (const auto& op : e.core) core.push_back(op.call());
    return std::make_pair(core, e.questions);
  };
  const auto [decided, decided_questions] = explained(std::nullopt);
  const auto [presumed, presumed_questions] = explained(explain::Presumption{});
  CHECK(presumed == decided);
  // Every question presumed rejected after its first state: the core narrows to one operation,
  // which is not rejected when asked in full; the minimisation starts again without presumption.
  const auto [misled, misled_questions] = explained(explain::Presumption{1, 0});
  CHECK(misled == decided);
  CHECK(misled_questions > decided_questions);
}

TEST_CASE("a core whose own question cannot be decided is proven given the past, and says so", "[explain][wiredtiger]") {
  // Twenty transactions each write a key at a timestamp of their own, one after another; then two
  // commit key 1 at one timestamp, which MCWiredTigerStrictTimestamps.tla refuses. With the twenty
  // optional, each subset of them leaves another chain of updates (no oldest timestamp cuts it):
  // a million states, past any budget. Taken as logged, they leave one.
  testing::ScratchDir dir;
  const fs::path file = dir.path() / "h.jsonl";
  OneThreadsTransactions run;
  for (int txn = 1; txn <= 20; ++txn) run.put(txn, 1 + txn % 2, txn);
  const std::uint64_t second_last_begins = run.now;
  run.put(21, 1, 50);
  run.put(22, 1, 50);
  run.write(file);
  const explain::ExplainOptions o = options_for(file, "WiredTigerKV.tla", "MCWiredTigerStrictTimestamps.tla");
  const explain::Explanation e = explain::explain_run(o);
  REQUIRE(e.given.has_value());
  CHECK(e.given->before == second_last_begins);
  CHECK(e.given->operations == 60);
  CHECK(e.minimal);
  CHECK(!e.core.empty());
  CHECK(e.core.size() <= 3);
  for (const auto& op : e.core) CHECK((op.call().find("txn = 21") != std::string::npos || op.call().find("txn = 22") != std::string::npos));
  REQUIRE(e.refused.has_value());
  CHECK_THAT(e.refused->conjunct, Catch::Contains("TimestampsInOrder"));
  const std::string text = report::explanation_text(e, "core.jsonl", "");
  CHECK_THAT(text, Catch::Contains("are rejected given the 60 operations that ended before T0.60 started, as the run logged them (they pass on their own)"));
  CHECK_THAT(text, Catch::Contains("lets the rest pass given that past"));
  // The core's history file holds that past, required: it fails as it is.
  checkers::ValidateOptions alone = o.validate;
  alone.run_dir = explain::explanation_dir(o.validate.run_dir) / e.core_file;
  CHECK(checkers::validate_run(alone).verdict == Verdict::fail);
  std::size_t required = 0;
  for (const auto& thread : history::read_history_file(alone.run_dir).threads)
    for (const auto& op : thread) required += op.optional ? 0 : 1;
  CHECK(required == 60 + e.core.size());
  // explanation.json keeps it.
  const nlohmann::json j = explain::to_json(e);
  CHECK(j.at("given").at("operations") == 60);
  const explain::Explanation back = explain::parse_explanation(j, "x");
  REQUIRE(back.given.has_value());
  CHECK(back.given->before == e.given->before);
  CHECK(explain::to_json(back) == j);
}

TEST_CASE("a given past's beginning: the operations of the past every order takes first, searched once", "[explain]") {
  // T0 writes 1, 2, then 3; T1 writes 4, then 5. The past is what ended before 22. Its operations
  // that end before anything else starts are the beginning: every order takes them first.
  const auto beginning = [](std::uint64_t second_write_of_t1_starts, bool t2_pending) {
    testing::ScratchDir dir;
    testing::TraceBuilder b(t2_pending ? 3 : 2);
    using F = testing::TraceBuilder;
    b.op(0, "Write", 1, 3, F::fields("value", 1)).op(0, "Write", 5, 6, F::fields("value", 2)).op(0, "Write", 20, 30, F::fields("value", 3));
    b.op(1, "Write", 2, 4, F::fields("value", 4)).op(1, "Write", second_write_of_t1_starts, 25, F::fields("value", 5));
    if (t2_pending) b.pending(2, "Write", 0);
    b.write(dir.path());
    checkers::ValidateOptions o;
    o.run_dir = dir.path();
    o.spec = kSpecs / "Register.tla";
    checkers::ReadSpec& read = checkers::read_spec(o);
    const history::Problem base = history::make_problem(history::read_run_or_history_file(dir.path()), read.interface, *read.loaded);
    const explain::GivenPast past{22, 3};
    const explain::SearchedBeginning searched(base, past, *read.loaded, checkers::NativeSearchOptions{});
    std::vector<std::uint32_t> positions;
    std::vector<std::vector<language::Value>> states;
    if (searched.start()) positions = searched.start()->positions, states = searched.start()->states;
    return std::make_tuple(searched.operations(), positions, states);
  };
  // T1's 5 starts at 7, after T0's 2 ended: the whole past, which leaves 2 (T0's write of it is last).
  const auto [all, all_positions, all_states] = beginning(7, false);
  CHECK(all == 3);
  CHECK(all_positions == std::vector<std::uint32_t>{2, 1});
  CHECK(all_states == std::vector<std::vector<language::Value>>{{language::Value::integer(2)}});
  // It starts at 5, while T0's 2 is under way: only the writes of 1 and 4, in either order.
  const auto [two, two_positions, two_states] = beginning(5, false);
  CHECK(two == 2);
  CHECK(two_positions == std::vector<std::uint32_t>{1, 1});
  CHECK(two_states.size() == 2);
  // A write under way from the first: no beginning.
  const auto [none, none_positions, none_states] = beginning(7, true);
  CHECK(none == 0);
  CHECK(none_positions.empty());
}

TEST_CASE("a wrong presumption late in a run whose failure recurs: the core is the run's first failure, given the past before it",
          "[explain][wiredtiger]") {
  // Two transactions commit key 1 at timestamp 50 after ten others (MCWiredTigerStrictTimestamps.tla
  // refuses the second), and two more at 100 after ten more: the failure recurs. With every question
  // presumed rejected after its first state (and "decided" after its first state too), the presumed
  // core is one operation, undecided on its own and accepted given its past. The run's first
  // failure, found by bisecting its prefixes with each question decided in full, is the core: its
  // last transaction given the 33 operations before it (which pass), not the later recurrence.
  testing::ScratchDir dir;
  const fs::path file = dir.path() / "h.jsonl";
  OneThreadsTransactions run;
  for (int txn = 1; txn <= 10; ++txn) run.put(txn, 1 + txn % 2, txn);
  run.put(11, 1, 50);
  const std::uint64_t second_begins = run.now;
  run.put(12, 1, 50);
  for (int txn = 13; txn <= 22; ++txn) run.put(txn, 1 + txn % 2, 38 + txn);
  run.put(23, 1, 100);
  run.put(24, 1, 100);
  run.write(file);
  explain::ExplainOptions o = options_for(file, "WiredTigerKV.tla", "MCWiredTigerStrictTimestamps.tla");
  o.core.presumption = explain::Presumption{1, 0, 1};
  const explain::Explanation e = explain::explain_run(o);
  INFO(report::explanation_text(e, "core.jsonl", ""));
  CHECK(e.seed == "the run's first failure");
  REQUIRE(e.given.has_value());
  CHECK(e.given->before == second_begins);
  CHECK(e.given->operations == 33);
  CHECK(e.minimal);
  REQUIRE(!e.core.empty());
  for (const auto& op : e.core) CHECK_THAT(op.call(), Catch::Contains("txn = 12"));
  REQUIRE(e.refused.has_value());
  CHECK_THAT(e.refused->conjunct, Catch::Contains("TimestampsInOrder"));
  // The usual presumption is right here: its core (given the past too) is the same failure, found
  // without the fallback.
  o.core.presumption = explain::Presumption{};
  o.reuse = false;
  const explain::Explanation usual = explain::explain_run(o);
  CHECK(usual.seed != e.seed);
  CHECK(usual.minimal);
  for (const auto& op : usual.core)
    CHECK((op.call().find("txn = 11") != std::string::npos || op.call().find("txn = 12") != std::string::npos));
}

TEST_CASE("a read's context holds the transaction that wrote its value, however many others read it", "[explain][wiredtiger]") {
  // Under snapshot isolation: transaction 1 puts 500 and commits; four transactions read 500 (with the
  // Put, six operations log 500: it identifies none of them); transaction 9 reads 500, then reads key 1
  // as not found in the same snapshot. The core is transaction 9's (the Put may be taken or not,
  // its second read fails either way); the Put, the only operation that logged 500 as an input, and
  // its transaction are its context, the other readers are not.
  testing::ScratchDir dir;
  const fs::path file = dir.path() / "h.jsonl";
  std::vector<std::string> lines{
      R"({"format": "omnilink-history", "version": 3, "inputs": {"Begin": ["txn"], "Put": ["txn", "key", "value"], "Search": ["txn", "key"], "Commit": ["txn"]}})"};
  std::uint64_t t = 0;
  auto call = [&](int process, const std::string& op, const std::string& fields) {
    lines.push_back("{\"process\": " + std::to_string(process) + ", \"op\": \"" + op + "\", \"fields\": {" + fields + "}, \"start\": " +
                    std::to_string(t) + ", \"end\": " + std::to_string(t + 5) + ", \"outcome\": \"ok\"}");
    t += 10;
  };
  call(0, "Begin", R"("txn": 1)");
  call(0, "Put", R"("txn": 1, "key": 1, "value": 500, "status": "ok")");
  call(0, "Commit", R"("txn": 1, "status": "ok")");
  for (int reader = 2; reader <= 5; ++reader) {
    const std::string txn = "\"txn\": " + std::to_string(reader);
    call(1, "Begin", txn);
    call(1, "Search", txn + R"(, "key": 1, "value": 500, "status": "ok")");
    call(1, "Commit", txn + R"(, "status": "ok")");
  }
  call(2, "Begin", R"("txn": 9)");
  call(2, "Search", R"("txn": 9, "key": 1, "value": 500, "status": "ok")");
  call(2, "Search", R"("txn": 9, "key": 1, "value": 0, "status": "not_found")");
  std::ofstream out(file);
  for (const auto& line : lines) out << line << "\n";
  out.close();
  const auto o = options_for(file, "WiredTigerKV.tla", "MCWiredTigerSnapshot.tla");
  const explain::Explanation e = explain::explain_run(o);
  require_good_core(o, e, 3);
  std::set<std::string> core, context;
  for (const auto& op : e.core) core.insert(op.call());
  for (const auto& op : e.context) context.insert(op.call());
  CHECK(core.count(R"(Search(key = 1, status = "not_found", txn = 9, value = 0))") == 1);
  CHECK(core.count(R"(Search(key = 1, status = "ok", txn = 9, value = 500))") == 1);
  CHECK(core.count(R"(Put(key = 1, status = "ok", txn = 1, value = 500))") == 0);
  for (const std::string writer : {"Begin(txn = 1)", R"(Put(key = 1, status = "ok", txn = 1, value = 500))", R"(Commit(status = "ok", txn = 1))"})
    CHECK(context.count(writer) == 1);
  for (const auto& op : e.context) {
    const bool writer_or_reader = op.call().find("txn = 9") != std::string::npos || op.call().find("txn = 1)") != std::string::npos ||
                                  op.call().find("txn = 1,") != std::string::npos;
    CHECK(writer_or_reader);
  }
}

TEST_CASE("a linearizable history has nothing to explain", "[explain]") {
  testing::ScratchDir dir;
  const fs::path file = dir.path() / "h.jsonl";
  write_history(file, queue_history(false));
  CHECK_THROWS_AS(explain::explain_run(options_for(file, "LinearizableQueue.tla")), explain::NothingToExplain);
  CHECK_FALSE(fs::exists(explain::explanation_dir(file)));
}

TEST_CASE("an explanation is reused for the same spec and found again for a changed one", "[explain]") {
  testing::ScratchDir dir;
  const fs::path file = dir.path() / "h.jsonl";
  write_history(file, queue_history(true));
  fs::copy_file(kSpecs / "LinearizableQueue.tla", dir.path() / "LinearizableQueue.tla");
  explain::ExplainOptions o = options_for(file, "LinearizableQueue.tla");
  o.validate.spec = dir.path() / "LinearizableQueue.tla";
  const explain::Explanation first = explain::explain_run(o);
  const fs::path saved = explain::explanation_dir(file) / "explanation.json";
  const auto written = fs::last_write_time(saved);
  const explain::Explanation again = explain::explain_run(o);
  CHECK(fs::last_write_time(saved) == written);
  CHECK(explain::to_json(again) == explain::to_json(first));

  std::ofstream(o.validate.spec, std::ios::app) << "\\* a comment: another text, another digest\n";
  const explain::Explanation changed = explain::explain_run(o);
  CHECK(changed.spec_digest != first.spec_digest);
  CHECK(explain::read_explanation(explain::explanation_dir(file))->spec_digest == changed.spec_digest);
}

TEST_CASE("a transaction is a thread's consecutive operations of one txn, and one that failed without effect neither joins nor splits it", "[explain]") {
  history::History h;
  h.threads.resize(2);
  const auto op = [&](std::uint32_t thread, std::optional<std::int64_t> txn, bool failed = false) {
    trace::Operation o;
    o.thread = thread;
    o.index = h.threads[thread].size();
    if (txn) o.fields.emplace_back("txn", trace::Value(*txn));
    o.failed = failed;
    h.threads[thread].push_back(o);
  };
  op(0, 7);
  op(0, std::nullopt, true);  // failed, logging no txn: inside transaction 7 all the same
  op(0, 7);
  op(0, std::nullopt);  // a completed operation of none ends it
  op(0, 7);
  op(1, 7);  // another thread's: another transaction
  const auto groups = explain::transaction_groups(h, "txn");
  CHECK(groups[0] == std::vector<std::uint64_t>{1, 0, 1, 0, 2});
  CHECK(groups[1] == std::vector<std::uint64_t>{3});
  const explain::TransactionOf by_op = explain::transactions_by_operation(h, "txn");
  CHECK(by_op.size() == 4);
  CHECK(by_op.count({0, 1}) == 0);
  CHECK(by_op.at({0, 2}) == 1);
  CHECK(explain::transaction_groups(h, std::nullopt)[0] == std::vector<std::uint64_t>(5, 0));
}

TEST_CASE("explanation.json round-trips, and a damaged one names its field", "[explain]") {
  testing::ScratchDir dir;
  const fs::path file = dir.path() / "h.jsonl";
  write_history(file, queue_history(true));
  const explain::Explanation e = explain::explain_run(options_for(file, "LinearizableQueue.tla"));
  const nlohmann::json j = explain::to_json(e);
  CHECK(explain::to_json(explain::parse_explanation(j, "x")) == j);
  nlohmann::json bad = j;
  bad["core"][0]["start"] = "soon";
  CHECK_THROWS_WITH(explain::parse_explanation(bad, "E.json"), Catch::Contains("E.json: core[0]: start"));
  bad = j;
  bad["version"] = explain::kExplanationVersion + 1;
  CHECK_THROWS_WITH(explain::parse_explanation(bad, "E.json"), Catch::Contains("version " + std::to_string(explain::kExplanationVersion + 1)));
  // Version 2 (before broken rules) reads without them, and explain makes such a file again
  // rather than reuse it, so that signatures read the rules.
  nlohmann::json v2 = j;
  v2["version"] = 2;
  v2["broken_rules"] = nlohmann::json::array({{{"module", "M"}, {"name", "R"}, {"at", "M.tla:1:1"}}});
  const explain::Explanation old = explain::parse_explanation(v2, "x");
  CHECK(old.version == 2);
  CHECK(old.broken_rules.empty());
  platform::write_json_file<explain::ExplanationFileError>(explain::explanation_dir(file) / "explanation.json", v2);
  CHECK(explain::read_explanation(explain::explanation_dir(file))->version == 2);
  CHECK(explain::explain_run(options_for(file, "LinearizableQueue.tla")).version == explain::kExplanationVersion);
  CHECK(explain::read_explanation(explain::explanation_dir(file))->version == explain::kExplanationVersion);
  // Version 5 (a hint per switch) is reused as it is: its core and rules are today's, and only its
  // interleaving, none here, would be read again from a recording.
  nlohmann::json v5 = j;
  v5["version"] = 5;
  v5["core_ms"] = 123456;  // not what a new search would take
  platform::write_json_file<explain::ExplanationFileError>(explain::explanation_dir(file) / "explanation.json", v5);
  CHECK(explain::explain_run(options_for(file, "LinearizableQueue.tla")).core_ms == 123456);
  // Version 3 (each rule alone) reads with its rules, and is made again too.
  nlohmann::json v3 = v2;
  v3["version"] = 3;
  CHECK(explain::parse_explanation(v3, "x").broken_rules.size() == 1);
  // Version 1 (before interleavings) still reads.
  nlohmann::json v1 = j;
  v1["version"] = 1;
  CHECK(explain::parse_explanation(v1, "x").core.size() == e.core.size());

  // With an interleaving: every field round-trips, and a bad step kind names its field.
  explain::Explanation with = e;
  explain::Interleaving in;
  in.first_event = 10;
  in.last_event = 20;
  in.switches = 3;
  in.located = 1;
  explain::ScheduleStep out;
  out.kind = explain::ScheduleStep::Kind::switched_out;
  out.thread = 1;
  out.op = "T1.4";
  out.call = "Enqueue(elem = 5)";
  out.event = 12;
  out.where = explain::CodeLocation{"Queue::enqueue", "/src/queue.cpp", 88};
  out.callers = {{"run", "/src/main.cpp", 9}};
  out.stopped_at = "SCHED";
  out.next_thread = 2;
  in.steps = {{explain::ScheduleStep::Kind::start, 1, "T1.4", "", 11, {}, {}, "", {}}, out};
  in.hints = {{"T1.4", "Enqueue", *out.where, out.callers, {"T2.7", "T2.8"}, {"Enqueue"}, 2}};
  in.note = "1 switch point(s) not located";
  with.interleaving = in;
  const nlohmann::json wj = explain::to_json(with);
  const explain::Explanation back = explain::parse_explanation(wj, "x");
  REQUIRE(back.interleaving.has_value());
  CHECK(*back.interleaving == in);
  CHECK(explain::to_json(back) == wj);
  bad = wj;
  bad["interleaving"]["steps"][1]["kind"] = "paused";
  CHECK_THROWS_WITH(explain::parse_explanation(bad, "E.json"), Catch::Contains("E.json: interleaving: steps[1]: kind"));
  // The text says how many times; a hint of version 5 (one per switch) reads as one switch.
  CHECK_THAT(report::explanation_text(back, "core.jsonl", ""), Catch::Contains("T1.4 Enqueue was switched out 2 times in Queue::enqueue at queue.cpp:88"));
  nlohmann::json v5_hints = wj;
  v5_hints["version"] = 5;
  v5_hints["interleaving"]["hints"][0].erase("switches");
  CHECK(explain::parse_explanation(v5_hints, "x").interleaving->hints.at(0).switches == 1);
}

TEST_CASE("where no core operation was switched out in its middle, the explanation says so instead of hinting", "[explain][interleaving]") {
  explain::Explanation e;
  e.core = {results::StoredOperation{1, 4, "Put", {}, 100, 110}, results::StoredOperation{2, 7, "Put", {}, 105, 120}};
  explain::Interleaving in;
  explain::ScheduleStep outside;
  outside.kind = explain::ScheduleStep::Kind::switched_out;
  outside.thread = 0;
  outside.op = "T0.3";  // not a core operation: a transaction waiting between its operations
  outside.where = explain::CodeLocation{"pselect6", "", 0};
  in.steps = {{explain::ScheduleStep::Kind::start, 1, "T1.4", "", 11, {}, {}, "", {}}, outside,
              {explain::ScheduleStep::Kind::end, 1, "T1.4", "", 14, {}, {}, "", {}}};
  e.interleaving = in;
  CHECK_FALSE(explain::core_switched_out(in, e.core));
  CHECK_THAT(report::explanation_text(e, "core.jsonl", ""), Catch::Contains(report::kNoCoreSwitchText));

  explain::ScheduleStep inside = outside;
  inside.thread = 2;
  inside.op = "T2.7";
  e.interleaving->steps.insert(e.interleaving->steps.begin() + 1, inside);
  CHECK(explain::core_switched_out(*e.interleaving, e.core));
  CHECK_THAT(report::explanation_text(e, "core.jsonl", ""), !Catch::Contains(report::kNoCoreSwitchText));
}

TEST_CASE("a summary of a core the minimisation did not finish shows the rows before where it stops, and a few hints", "[explain]") {
  explain::Explanation e;
  for (std::uint64_t i = 0; i < 300; ++i) e.core.push_back(results::StoredOperation{0, i, "Put", {}, 10 * i, 10 * i + 5});
  e.refused.emplace();
  e.refused->op = "T0.200";
  e.refused->action = "Put";
  explain::Interleaving in;
  for (std::uint64_t i = 0; i < 9; ++i) in.hints.push_back(explain::AtomicityHint{"T0." + std::to_string(i), "Put", {"f", "f.cpp", 1}, {}, {}, {}, 1});
  e.interleaving = in;
  const std::string summary = report::core_summary(e);
  INFO(summary);
  // 24 rows: the refused operation's and the 3 after it, the 20 before; the others counted.
  CHECK_THAT(summary, Catch::Contains("... 180 earlier operations") && Catch::Contains("... 96 later operations"));
  CHECK_THAT(summary, Catch::Contains("T0.180 ") && Catch::Contains("T0.203 ") && !Catch::Contains("T0.179 ") && !Catch::Contains("T0.204 "));
  CHECK(std::count(summary.begin(), summary.end(), '\n') < 40);
  CHECK_THAT(summary, Catch::Contains("... 4 more atomicity hints"));
  // A small core shows whole.
  e.core.resize(5);
  e.refused->op = "T0.4";
  CHECK_THAT(report::core_summary(e), !Catch::Contains("earlier operations") && !Catch::Contains("later operations") && Catch::Contains("T0.0 "));
}

TEST_CASE("rr's event log: events, their threads and kinds, and the thread switches between them", "[explain][interleaving]") {
  // As `rr dump` (rr.soft 5.9) prints three events, registers cut short.
  const std::string dump =
      "{\n"
      "  real_time:2131.707399 global_time:260, event:`SYSCALL: getppid' (state:EXITING_SYSCALL) tid:11275, ticks:68\n"
      "rax:0x2bb9 rbx:0x12c08480 rip:0x543179 eflags:0x246\n"
      "}\n"
      "{\n"
      "  real_time:2131.707547 global_time:261, event:`SCHED' tid:11275, ticks:151\n"
      "rax:0x10490 rsp:0x7ffec7d51f90 rip:0x50b543 eflags:0x202\n"
      "}\n"
      "{\n"
      "  real_time:2131.707703 global_time:262, event:`SYSCALL: sched_yield' (state:EXITING_SYSCALL) tid:11274, ticks:57\n"
      "}\n";
  const auto events = replay::parse_rr_dump(dump);
  REQUIRE(events.size() == 3);
  CHECK(events[0].event == 260);
  CHECK(events[0].kind == "SYSCALL: getppid");
  CHECK(events[1].kind == "SCHED");
  CHECK(events[1].tid == 11275);
  CHECK(events[1].ticks == 151);
  CHECK(events[1].rip == 0x50b543);
  CHECK_FALSE(events[2].rip.has_value());
  const auto switches = replay::thread_switches(events);
  REQUIRE(switches.size() == 1);
  CHECK(switches[0].after == 261);
  CHECK(switches[0].from == 11275);
  CHECK(switches[0].to == 11274);
  CHECK(switches[0].kind == "SCHED");
}

TEST_CASE("the schedule probes' output: boundaries, threads, stacks, and what they could not reach", "[explain][interleaving]") {
  const auto boundaries = replay::parse_boundary_probe(
      "omnilink-thread 1 501\nomnilink-boundary start 1 4 501 30 1\nomnilink-boundary start 2 9 502 31 0\n"
      "omnilink-boundary end 1 4 501 33 1\nomnilink-done 0\n",
      1);
  CHECK(boundaries.complete);
  CHECK(boundaries.note.empty());
  REQUIRE(boundaries.boundaries.size() == 3);
  CHECK(boundaries.boundaries[1].target == false);
  CHECK(boundaries.boundaries[2].kind == replay::OpBoundary::Kind::end);
  CHECK(boundaries.boundaries[2].completed_event == 33);
  CHECK(boundaries.threads.at(501) == 1);
  const auto old_harness = replay::parse_boundary_probe("omnilink-no-end-hook\nomnilink-boundary start 1 4 501 30 1\nomnilink-done 1\n", 1);
  CHECK_FALSE(old_harness.complete);
  CHECK(old_harness.note.find("omnilink_op_end") != std::string::npos);

  const auto stacks = replay::parse_stack_probe(
      "omnilink-frame 261 11368 0 0 0x50c1f9\t??\tmalloc\n"
      "omnilink-frame 261 11368 1 64 0x40a806\t/src/ms_queue.cpp\t(anonymous namespace)::MsQueue::enqueue\n"
      "omnilink-stack-end 261 11368\n"
      "omnilink-unreached 270 the replay stopped after event 271\nomnilink-done 0\n");
  REQUIRE(stacks.stacks.size() == 1);
  CHECK(stacks.stacks[0].at.event == 261);
  REQUIRE(stacks.stacks[0].frames.size() == 2);
  CHECK(stacks.stacks[0].frames[1].file == "/src/ms_queue.cpp");
  CHECK(stacks.stacks[0].frames[1].line == 64);
  CHECK(stacks.stacks[0].frames[1].function == "(anonymous namespace)::MsQueue::enqueue");
  CHECK(stacks.stacks[0].frames[0].function == "malloc");
  CHECK(stacks.stacks[0].frames[0].file == "??");
  CHECK(stacks.note.find("1 switch point(s) not located") != std::string::npos);
  CHECK(plain_function_name(stacks.stacks[0].frames[1].function) == "MsQueue::enqueue");
  CHECK(plain_function_name("Op<int>::operator()(int) const") == "Op::operator()");
  CHECK(in_code_under_test("/src/ms_queue.cpp", 64));
  CHECK_FALSE(in_code_under_test("/usr/include/c++/12/bits/invoke.h", 61));
  CHECK_FALSE(in_code_under_test("/repo/harness/include/omnilink/harness.hpp", 290));
}

TEST_CASE("atomicity hints of several runs are ranked by how many runs show the same place and operations", "[explain][interleaving]") {
  const explain::CodeLocation push{"Stack::push", "/src/stack.cpp", 55}, pop{"Stack::pop", "/src/stack.cpp", 70};
  const explain::AtomicityHint a{"T0.3", "Push", push, {}, {"T1.2"}, {"Pop"}};
  const explain::AtomicityHint a_again{"T2.9", "Push", push, {}, {"T0.1", "T0.2"}, {"Pop"}};  // other ids, same place and operations
  const explain::AtomicityHint b{"T1.5", "Pop", pop, {}, {"T0.4"}, {"Push"}};
  const auto ranked = explain::rank_hints({{b, a}, {a_again}, {a, a_again}});
  REQUIRE(ranked.size() == 2);
  CHECK(ranked[0].example.at == push);
  CHECK(ranked[0].runs == 3);  // once per run, however often a run shows it
  CHECK(ranked[1].example.at == pop);
  CHECK(ranked[1].runs == 1);
}

TEST_CASE("the history file writer: what it writes reads back as the same operations", "[explain][file]") {
  testing::ScratchDir dir;
  const fs::path in = dir.path() / "in.jsonl", out = dir.path() / "out.jsonl";
  write_history(in, {R"({"process": "a", "op": "Put", "fields": {"rec": {"k": 1, "v": [true, "x"]}, "s": {"$set": [1, 2]}, "m": {"$map": [[1, "one"]]}}, "start": 1, "end": 4, "outcome": "ok"})",
                     R"({"process": "b", "op": "Put", "fields": {"m": {"$map": [["$k", 2]]}}, "start": 2, "outcome": "pending"})"});
  const history::History read = history::read_history_file(in);
  history::write_history_file(out, read);
  const history::History again = history::read_history_file(out);
  REQUIRE(again.threads.size() == 2);
  for (std::size_t t = 0; t < 2; ++t) {
    REQUIRE(again.threads[t].size() == read.threads[t].size());
    for (std::size_t k = 0; k < read.threads[t].size(); ++k) {
      CHECK(again.threads[t][k].call() == read.threads[t][k].call());
      CHECK(again.threads[t][k].start == read.threads[t][k].start);
      CHECK(again.threads[t][k].pending() == read.threads[t][k].pending());
    }
  }

  // "optional" (a core's context) is version 2's: written and read back as such, refused in version 1.
  history::History with_optional = read;
  with_optional.threads[0][0].optional = true;
  history::write_history_file(out, with_optional);
  CHECK(history::read_history_file(out).threads[0][0].optional);
  CHECK_THAT(read_text(out), Catch::StartsWith(R"({"format":"omnilink-history","version":2})"));
  write_history(in, {R"({"process": "a", "op": "Put", "fields": {}, "start": 1, "end": 4, "outcome": "optional"})"});
  CHECK_THROWS_WITH(history::read_history_file(in), Catch::Contains("in.jsonl:2") && Catch::Contains("\"optional\" needs version 2"));

  // An optional operation's group (a transaction of a core's context) is version 3's.
  with_optional.threads[0][0].optional_group = 7;
  history::write_history_file(out, with_optional);
  CHECK(history::read_history_file(out).threads[0][0].optional_group == 7);
  CHECK_THAT(read_text(out), Catch::StartsWith(R"({"format":"omnilink-history","version":3})"));
  const auto refused = [&](int version, const std::vector<std::string>& lines) {
    std::ofstream file(in);
    file << R"({"format": "omnilink-history", "version": )" << version << "}\n";
    for (const auto& line : lines) file << line << "\n";
    file.close();
    CHECK_THROWS_WITH(history::read_history_file(in), Catch::Contains("in.jsonl:"));
    try {
      history::read_history_file(in);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string grouped = R"({"process": "a", "op": "Put", "fields": {}, "start": 1, "end": 4, "outcome": "optional", "group": 1})";
  CHECK_THAT(refused(2, {grouped}), Catch::Contains("in.jsonl:2") && Catch::Contains("group needs version 3"));
  CHECK_THAT(refused(3, {R"({"process": "a", "op": "Put", "fields": {}, "start": 1, "end": 4, "outcome": "ok", "group": 1})"}),
             Catch::Contains("in.jsonl:2: group: a positive integer, on an \"optional\" operation"));
  CHECK_THAT(refused(3, {R"({"process": "a", "op": "Put", "fields": {}, "start": 1, "end": 4, "outcome": "optional", "group": 0})"}),
             Catch::Contains("in.jsonl:2: group: a positive integer"));
  CHECK_THAT(refused(3, {grouped, R"({"process": "b", "op": "Put", "fields": {}, "start": 2, "end": 5, "outcome": "optional", "group": 1})"}),
             Catch::Contains("in.jsonl:3: group 1: its operations must be consecutive lines of one process"));
  CHECK_THAT(refused(3, {grouped, R"({"process": "a", "op": "Put", "fields": {}, "start": 5, "end": 6, "outcome": "ok"})",
                         R"({"process": "a", "op": "Put", "fields": {}, "start": 7, "end": 8, "outcome": "optional", "group": 1})"}),
             Catch::Contains("in.jsonl:4: group 1: its operations must be consecutive"));
}

TEST_CASE("optional operations of one group are taken all or none", "[explain][file]") {
  // Process 0 enqueues 1 then 2, both optional; process 1 then dequeues 2. On their own, leaving
  // out the enqueue of 1 explains the dequeue; as one group, both happened or neither did.
  testing::ScratchDir dir;
  const fs::path file = dir.path() / "grouped.jsonl";
  auto optional = [](std::string line, int group) {
    line.replace(line.find(R"("outcome": "ok")"), 15, R"("outcome": "optional")" + (group ? R"(, "group": )" + std::to_string(group) : ""));
    return line;
  };
  auto verdict = [&](int group) {
    std::ofstream out(file);
    out << R"({"format": "omnilink-history", "version": 3})" << "\n"
        << optional(enq(0, 1, 10, 20), group) << "\n"
        << optional(enq(0, 2, 30, 40), group) << "\n"
        << deq(1, 2, 50, 60) << "\n";
    out.close();
    checkers::ValidateOptions v = options_for(file, "LinearizableQueue.tla").validate;
    return checkers::validate_run(v).verdict;
  };
  CHECK(verdict(0) == Verdict::pass);
  CHECK(verdict(3) == Verdict::fail);
}

TEST_CASE("optional WiredTiger transactions leave states that merge whether taken or left out", "[explain][file][wiredtiger]") {
  // A core's question: two threads of n overlapping read-only transactions (Begin, Search,
  // Commit), each optional as a whole, then a required search of a value nobody wrote. The
  // search must try every choice of taken transactions before it refuses. A spec that counted
  // commits (a transaction remembering the count when it began) told those choices apart by how
  // many were taken: about 13 n^2 states (3,442 at n = 16). Remembering who committed since, and
  // only writers, they merge once the transactions end: about 11 n.
  testing::ScratchDir dir;
  const fs::path file = dir.path() / "optional-transactions.jsonl";
  const int n = 16;
  std::ofstream out(file);
  out << R"({"format": "omnilink-history", "version": 3})" << "\n";
  int group = 0;
  for (int thread = 0; thread < 2; ++thread)
    for (int i = 0; i < n; ++i) {
      const int txn = 2 * i + thread + 1, base = 100 * i + 30 * thread;
      ++group;
      const std::string calls[] = {"\"op\": \"Begin\", \"fields\": {\"txn\": " + std::to_string(txn) + "}",
                                   "\"op\": \"Search\", \"fields\": {\"txn\": " + std::to_string(txn) +
                                       ", \"key\": 1, \"value\": 0, \"status\": \"not_found\"}",
                                   "\"op\": \"Commit\", \"fields\": {\"txn\": " + std::to_string(txn) + ", \"status\": \"ok\"}"};
      for (int j = 0; j < 3; ++j)
        out << "{\"process\": " << thread << ", " << calls[j] << ", \"start\": " << base + 20 * j << ", \"end\": " << base + 20 * j + 15
            << R"(, "outcome": "optional", "group": )" << group << "}\n";
    }
  out << R"({"process": 2, "op": "Begin", "fields": {"txn": 9999}, "start": )" << 100 * n << ", \"end\": " << 100 * n + 5
      << R"(, "outcome": "ok"})" << "\n";
  out << R"({"process": 2, "op": "Search", "fields": {"txn": 9999, "key": 1, "value": 77, "status": "ok"}, "start": )" << 100 * n + 10
      << ", \"end\": " << 100 * n + 15 << R"(, "outcome": "ok"})" << "\n";
  out.close();
  const results::ValidationResult r = checkers::validate_run(options_for(file, "WiredTigerKV.tla", "MCWiredTigerSnapshot.tla").validate);
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.states_distinct.value_or(0) > 2 * n);
  CHECK(r.states_distinct.value_or(0) < 30 * n);
}

namespace {

/// Runs `harness` with `args` and seeds from `first` until a run fails validation natively, at
/// most `budget` runs; the failing run's directory, or empty.
fs::path first_failing_run(const testing::ScratchDir& dir, const std::string& harness, std::vector<std::string> args, int first, int budget,
                           const explain::ExplainOptions& o) {
  for (int seed = first; seed < first + budget; ++seed) {
    const fs::path run = dir.path() / ("run" + std::to_string(seed));
    std::vector<std::string> full = args;
    for (const std::string& a : {std::string("--seed"), std::to_string(seed), std::string("--quiet"), std::string("--out"), run.string()})
      full.push_back(a);
    const auto ran = run_process(harness, full);
    REQUIRE(ran.ok());
    checkers::ValidateOptions v = o.validate;
    v.run_dir = run;
    if (checkers::validate_run(v).verdict == Verdict::fail) {
      WARN(fs::path(harness).filename().string() << ": first native failure at seed " << seed << " (" << seed - first + 1 << " of "
                                                  << budget << " runs)");
      return run;
    }
  }
  return {};
}

/// Finds a failing run of `harness` within `budget` runs and checks its explanation.
void explain_first_failure(const std::string& harness, const std::vector<std::string>& args, int budget, const std::string& spec,
                           const std::string& mc, std::size_t most) {
  testing::ScratchDir dir;
  explain::ExplainOptions o = options_for("", spec, mc);
  const fs::path run = first_failing_run(dir, harness, args, 1, budget, o);
  REQUIRE(!run.empty());
  o.validate.run_dir = run;
  const explain::Explanation e = explain::explain_run(o);
  require_good_core(o, e, most);
  WARN(fs::path(harness).filename().string() << ": core of " << e.core.size() << " of " << e.run_operations << " operations in "
                                              << e.core_ms << " ms (" << e.questions << " searches)");
}

}  // namespace

// Budgets: ms-queue-bug failed 5 of 5 and treiber-stack-bug 4 of 4 seeds natively with the
// campaigns' settings (assumed 0.5: 0.5^14 < 1e-4); the racy queue 7 of 8 (validation_test),
// assumed 0.5. The striped map's unlocked reader needs a find inside an erase's shift, which a
// loaded machine rarely runs in parallel: 3 x 2000 operations on 4 keys failed 4 of 10 runs idle
// and 0 of 26 under ctest -j2; 3 x 20000 on 8 keys with mixed perturbation failed 5 of 8 with both
// cores busy (assumed 0.4: 0.6^18 < 1e-4). On 2026-12-02's VM it failed less often: the test found
// no failing run in 18 seeds twice in 40 tries, once under ctest -j2 and once beside a busy loop,
// and 30 seeds run one after another all passed (both checkers, before and after that day's
// evaluator change, agreed on each). Hence 40 seeds: a run that fails costs nothing more.
TEST_CASE("ms-queue-bug: the lost element's core", "[explain][examples]") {
  explain_first_failure(OMNILINK_MS_QUEUE_BUG, {"--threads", "3", "--ops", "3000", "--perturb", "sleep", "--perturb-rate", "0.02", "--param", "max_len=16"},
                        14, "LinearizableQueue.tla", "", 8);
}

TEST_CASE("treiber-stack-bug: the core", "[explain][examples]") {
  explain_first_failure(OMNILINK_TREIBER_STACK_BUG, {"--threads", "4", "--ops", "3000", "--perturb", "sleep", "--perturb-rate", "0.02"}, 14,
                        "Stack.tla", "", 8);
}

TEST_CASE("striped-map-bug: the core, key by key", "[explain][examples]") {
  explain_first_failure(OMNILINK_STRIPED_MAP_BUG, {"--threads", "3", "--ops", "20000", "--perturb", "mixed", "--perturb-rate", "0.1", "--param", "keys=8"},
                        40, "Map.tla", "MCMapPartitioned.tla", 8);
}

TEST_CASE("racy-queue: the duplicated element's core", "[explain][examples]") {
  explain_first_failure(OMNILINK_EXAMPLE_RACY_QUEUE, {"--threads", "3", "--ops", "4000", "--perturb", "mixed", "--perturb-rate", "0.05"}, 14,
                        "LinearizableQueue.tla", "", 8);
}

// A correct k-relaxed queue (segments of 4) against the strict FIFO spec: nearly every run fails,
// and the relaxation shows in at most 4 operations (two enqueues in order, their dequeues not).
TEST_CASE("a correct relaxed queue against the strict spec: a core of at most 4", "[explain][examples]") {
  explain_first_failure(OMNILINK_RELAXED_QUEUE, {"--threads", "3", "--ops", "2000"}, 5, "LinearizableQueue.tla", "", 4);
}

TEST_CASE("omnilink explain: the text, --json, and one line saying why when there is nothing to explain", "[explain][cli]") {
  testing::ScratchDir dir;
  const fs::path failing = dir.path() / "failing.jsonl", passing = dir.path() / "passing.jsonl";
  write_history(failing, queue_history(true));
  write_history(passing, queue_history(false));
  const std::string spec = (kSpecs / "LinearizableQueue.tla").string();
  const auto text = run_process(OMNILINK_CLI, {"explain", failing.string(), "--spec", spec});
  INFO(text.err);
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("Failing core: 2 of 200 operations"));
  CHECK_THAT(text.out, Catch::Contains("omnilink validate " + (explain::explanation_dir(failing) / "core.jsonl").string()));
  // The queue spec's actions compare inline and define no rule: the text says so, not nothing.
  CHECK_THAT(text.out, Catch::Contains("No rule is named: the spec has no rule that an action of the run reaches"));
  const auto json = run_process(OMNILINK_CLI, {"explain", failing.string(), "--spec", spec, "--json"});
  CHECK(json.exit_code == 0);
  CHECK(nlohmann::json::parse(json.out)["format"] == "omnilink-explanation");
  CHECK(nlohmann::json::parse(json.out)["broken_rules"].empty());
  CHECK_THAT(nlohmann::json::parse(json.out)["rules_unnamed"].get<std::string>(), Catch::StartsWith("the spec has no rule"));

  const auto nothing = run_process(OMNILINK_CLI, {"explain", passing.string(), "--spec", spec});
  CHECK(nothing.exit_code == 1);
  CHECK(nothing.err == "omnilink explain: nothing to explain: the run does not fail natively: pass\n");
  const auto no_spec = run_process(OMNILINK_CLI, {"explain", failing.string()});
  CHECK(no_spec.exit_code == 3);
  CHECK_THAT(no_spec.err, Catch::Contains("--spec names its spec"));
  const auto unknown = run_process(OMNILINK_CLI, {"explain", "nocampaign/run-1", "--store", (dir.path() / "store").string()});
  CHECK(unknown.exit_code == 3);
  CHECK(std::count(unknown.err.begin(), unknown.err.end(), '\n') == 1);
}
