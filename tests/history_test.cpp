// Reading a run into the history a checker decides on, without a checker: run-directory
// integrity against meta.json (each damage is an error, never a silent pass), the reader's exact
// header integers and per-thread timestamp order, version 1 traces, the consistent cut of a run
// cut short, and the domains of pending operations' unknown fields.
#include <catch2/catch.hpp>

#include <fstream>

#include "platform/printable_text.hpp"
#include "support/test_support.hpp"
#include "support/trace_builder.hpp"
#include "checkers/validate.hpp"
#include "history/history.hpp"
#include "history/history_file.hpp"
#include "history/pending_domains.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
using testing::TraceBuilder;
using F = TraceBuilder;
namespace fs = std::filesystem;

// The verdict `omnilink validate` gives; damaged runs are refused before any checker runs.
results::ValidationResult validate(const fs::path& run) {
  checkers::ValidateOptions o;
  o.run_dir = run;
  o.spec = fs::path(OMNILINK_SPECS_DIR) / "LinearizableQueue.tla";
  o.checker = checkers::Checker::native;  // a run that gets this far gets a verdict, not `error`
  return checkers::validate_run(o);
}

TraceBuilder two_threads() {
  TraceBuilder b(2);
  b.inputs("Enqueue", {"elem"}).inputs("Dequeue", {});
  b.op(0, "Enqueue", 1, 2, F::fields("elem", 1)).op(0, "Enqueue", 5, 6, F::fields("elem", 2));
  b.op(1, "Dequeue", 3, 4, F::fields("elem", 1, "ok", true)).op(1, "Dequeue", 7, 8, F::fields("elem", 2, "ok", true));
  return b;
}

// The run is refused (verdict error) with a reason naming each part.
void refused(const fs::path& run, const std::string& part, const std::string& other_part = "") {
  const auto r = validate(run);
  CHECK(r.verdict == Verdict::error);
  CHECK_THAT(r.reason, Catch::Contains(part) && Catch::Contains(other_part));
}

void set_meta(const fs::path& run, const std::string& key, const nlohmann::json& value) {
  auto meta = nlohmann::json::parse(std::ifstream(run / "meta.json"));
  meta[key] = value;
  std::ofstream(run / "meta.json", std::ios::trunc) << meta.dump();
}

// A thread file whose header is packed by hand (for values the harness never writes).
void write_header_only(const fs::path& file, std::uint64_t version, std::uint64_t thread) {
  msgpack::sbuffer buf;
  msgpack::packer<msgpack::sbuffer> pk(buf);
  pk.pack_map(6);
  pk.pack("k"), pk.pack("header"), pk.pack("format"), pk.pack("omnilink-trace");
  pk.pack("version"), pk.pack_uint64(version), pk.pack("thread"), pk.pack_uint64(thread);
  pk.pack("clock"), pk.pack("counter"), pk.pack("in"), pk.pack_map(0);
  pk.pack_map(3), pk.pack("k"), pk.pack("end"), pk.pack("n"), pk.pack(0), pk.pack("reason"), pk.pack("done");
  std::ofstream(file, std::ios::binary | std::ios::trunc) << std::string(buf.data(), buf.size());
}

}  // namespace

TEST_CASE("a consistent run directory validates as far as the checker", "[history]") {
  testing::ScratchDir dir;
  two_threads().write(dir / "run");
  const auto r = validate(dir / "run");
  CHECK(r.verdict == Verdict::pass);  // not refused as damaged
  CHECK(r.operations == 4);
}

TEST_CASE("meta.json says 2 threads but one thread file is there: an error", "[history][integrity]") {
  testing::ScratchDir dir;
  two_threads().write(dir / "run");
  fs::remove(dir / "run" / "trace" / TraceBuilder::thread_file(1));
  refused(dir / "run", "says 2 thread(s)", "has 1 thread file(s)");
}

TEST_CASE("a thread file from another run is an error, not a pass", "[history][integrity]") {
  testing::ScratchDir dir;
  two_threads().write(dir / "run");
  SECTION("an extra file") {
    fs::copy_file(dir / "run" / "trace" / TraceBuilder::thread_file(0), dir / "run" / "trace" / TraceBuilder::thread_file(2));
    refused(dir / "run", "has 3 thread file(s)");
  }
  SECTION("a file on another clock than the run's") {
    set_meta(dir / "run", "clock", "monotonic");  // the files say counter, as another run's would
    refused(dir / "run", "clock 'counter'", "'monotonic'");
  }
  SECTION("a file whose header names another thread") {
    fs::copy_file(dir / "run" / "trace" / TraceBuilder::thread_file(0), dir / "run" / "trace" / TraceBuilder::thread_file(1),
                  fs::copy_options::overwrite_existing);
    refused(dir / "run", "header says thread 0, its name thread 1");
  }
  SECTION("another trace version than meta.json says") {
    set_meta(dir / "run", "trace_version", 1);
    refused(dir / "run", "trace format version 2", "says 1");
  }
}

TEST_CASE("thread files must be thread 0 to N-1, one each, whatever their names' digits", "[history][integrity]") {
  testing::ScratchDir dir;
  two_threads().write(dir / "run");
  // thread-0001 and thread-01 both name thread 1; thread 0 is missing though the count is right.
  fs::rename(dir / "run" / "trace" / TraceBuilder::thread_file(0), dir / "run" / "trace" / "thread-01.msgpack");
  refused(dir / "run", "where thread 0 was expected");
}

TEST_CASE("a thread file cut short while meta.json says the run ended ok: the directory is damaged", "[history][integrity]") {
  testing::ScratchDir dir;
  TraceBuilder b = two_threads();
  b.cut_short(1).status("ok");
  b.write(dir / "run");
  const auto r = validate(dir / "run");
  CHECK(r.verdict == Verdict::error);
  CHECK(r.corrupt_trace);
  CHECK_THAT(r.reason, Catch::Contains("no end record") && Catch::Contains("the run directory is damaged"));

  // The same file behind a run that never finished (killed: meta.json still says running) is a cut.
  set_meta(dir / "run", "exit", {{"status", "running"}});
  const auto cut = validate(dir / "run");
  CHECK(cut.verdict == Verdict::pass);
  REQUIRE(cut.cut.has_value());
}

TEST_CASE("header integers beyond 32 bits are errors, never truncated", "[history][reader]") {
  testing::ScratchDir dir;
  two_threads().write(dir / "run");
  const fs::path file = dir / "run" / "trace" / TraceBuilder::thread_file(0);
  SECTION("thread 2^32 is not thread 0") {
    write_header_only(file, 2, std::uint64_t{1} << 32);
    const auto t = trace::read_thread_trace(file);
    REQUIRE(t.error.has_value());
    CHECK_THAT(t.error->message, Catch::Contains("'thread' is 4294967296, above the 32-bit range"));
    CHECK(validate(dir / "run").verdict == Verdict::error);
  }
  SECTION("version 2^32 + 1 is not version 1") {
    write_header_only(file, (std::uint64_t{1} << 32) + 1, 0);
    const auto t = trace::read_thread_trace(file);
    REQUIRE(t.error.has_value());
    CHECK_THAT(t.error->message, Catch::Contains("'version' is 4294967297"));
    CHECK(validate(dir / "run").verdict == Verdict::error);
  }
}

TEST_CASE("an input declared twice is an error", "[history][reader]") {
  testing::ScratchDir dir;
  TraceBuilder b(1);
  b.inputs("Insert", {"key", "key"});
  b.op(0, "Insert", 1, 2, F::fields("key", 1, "value", 2, "inserted", true));
  b.write(dir / "run");
  const auto t = trace::read_thread_trace(dir / "run" / "trace" / TraceBuilder::thread_file(0));
  REQUIRE(t.error.has_value());
  CHECK_THAT(t.error->message, Catch::Contains("input 'key' is declared twice"));
}

TEST_CASE("an operation that starts before its thread's previous one ended is an error", "[history][reader]") {
  testing::ScratchDir dir;
  TraceBuilder b(1);
  b.op(0, "Enqueue", 1, 5, F::fields("elem", 1)).op(0, "Enqueue", 4, 6, F::fields("elem", 2));
  b.write(dir / "run");
  refused(dir / "run", "starts (4) before the thread's previous operation ended (5)");
}

TEST_CASE("version 1 traces still read: an abort record is a pending operation without inputs", "[history][reader]") {
  testing::ScratchDir dir;
  TraceBuilder b(2);
  b.version(1);
  b.op(0, "Enqueue", 1, 2, F::fields("elem", 1)).pending(0, "Dequeue", 3);
  b.op(1, "Dequeue", 2, 4, F::fields("elem", 1, "ok", true));
  b.write(dir / "run");
  const auto history = history::read_history(trace::RunDir::open(dir / "run"));
  REQUIRE(history.threads[0].size() == 2);
  const trace::Operation& pending = history.threads[0][1];
  CHECK(pending.pending());
  CHECK_FALSE(pending.inputs_known);
  CHECK(history.inputs.empty());
  CHECK(history.pending_operations() == 1);
}

TEST_CASE("the consistent cut: kept before C, pending at C, dropped after", "[history][cut]") {
  testing::ScratchDir dir;
  TraceBuilder b(3);
  b.inputs("Enqueue", {"elem"});  // Dequeue declares nothing: made pending, all its fields are unknown
  // Thread 0, cut short: last logged end 10. Thread 1, cut short: last logged end 20. C = 10.
  b.op(0, "Enqueue", 1, 2, F::fields("elem", 1)).op(0, "Enqueue", 8, 10, F::fields("elem", 2)).cut_short(0);
  b.op(1, "Enqueue", 3, 20, F::fields("elem", 3)).cut_short(1);
  // Thread 2, whole: before C, across C, after C.
  b.op(2, "Dequeue", 4, 5, F::fields("elem", 1, "ok", true)).op(2, "Dequeue", 9, 12, F::fields("elem", 2, "ok", true));
  b.op(2, "Dequeue", 13, 14, F::fields("elem", 3, "ok", true));
  b.write(dir / "run");
  const auto h = history::read_history(trace::RunDir::open(dir / "run"));
  REQUIRE(h.cut.has_value());
  CHECK(h.cut->at == 10);
  CHECK(h.cut->cut_short_threads == std::vector<std::uint32_t>{0, 1});
  CHECK(h.cut->dropped == 1);       // thread 2's Dequeue at [13, 14]
  CHECK(h.cut->made_pending == 3);  // Enqueue(2) ending at C, Enqueue(3) and thread 2's second Dequeue across it
  CHECK_FALSE(h.threads[0][0].pending());
  CHECK(h.threads[0][1].pending());
  CHECK(h.threads[0][1].inputs_known);
  REQUIRE(h.threads[0][1].field("elem") != nullptr);
  CHECK(h.threads[0][1].field("elem")->as<std::int64_t>() == 2);
  REQUIRE(h.threads[2].size() == 2);
  CHECK(h.threads[2][1].pending());
  CHECK_FALSE(h.threads[2][1].inputs_known);  // undeclared: its logged results are forgotten, not trusted
  CHECK(h.threads[2][1].fields.empty());
  CHECK_THAT(h.caveats[0], Catch::Contains("consistent cut at counter time 10") && Catch::Contains("1 operation(s) that started after it dropped"));
}

TEST_CASE("a torn last record or an empty file is a cut short, a bad byte inside is corruption", "[history][cut]") {
  testing::ScratchDir dir;
  TraceBuilder b = two_threads();
  b.cut_short(1);
  b.write(dir / "run");
  const fs::path file = dir / "run" / "trace" / TraceBuilder::thread_file(1);
  SECTION("torn") {
    fs::resize_file(file, fs::file_size(file) - 3);  // the last Dequeue, cut mid-record
    const auto h = history::read_history(trace::RunDir::open(dir / "run"));
    REQUIRE(h.cut.has_value());
    CHECK(h.cut->at == 4);  // thread 1's last whole record ends at 4
  }
  SECTION("empty") {
    fs::resize_file(file, 0);
    const auto h = history::read_history(trace::RunDir::open(dir / "run"));
    REQUIRE(h.cut.has_value());
    CHECK(h.cut->at == 0);  // it may have done anything from the start: nothing completed survives
    CHECK(validate(dir / "run").verdict == Verdict::unknown);
  }
  SECTION("corrupt") {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(file) / 2));
    f.put(static_cast<char>(0xc1));
    f.close();
    CHECK_THROWS_AS(history::read_history(trace::RunDir::open(dir / "run")), history::HistoryError);
  }
}

TEST_CASE("pending domains: Bool-typed or all-boolean fields are BOOLEAN, others every value of that name", "[history][domains]") {
  testing::ScratchDir dir;
  TraceBuilder b(2);
  b.op(0, "Enqueue", 1, 2, F::fields("elem", 5)).op(0, "Enqueue", 3, 4, F::fields("elem", 6));
  b.op(1, "Dequeue", 5, 6, F::fields("elem", 5, "ok", true)).pending(1, "Dequeue", 7);
  b.write(dir / "run");
  const auto h = history::read_history(trace::RunDir::open(dir / "run"));
  std::map<std::string, history::OperationParams> params;
  params["Enqueue"] = {{"elem"}, {false}, {false}};
  params["Dequeue"] = {{"elem", "ok"}, {false, false}, {false, false}};
  std::vector<std::string> caveats;
  auto domains = history::pending_domains(h, params, caveats);
  REQUIRE(domains.count("Dequeue") == 1);
  REQUIRE(domains["Dequeue"].size() == 2);
  REQUIRE(domains["Dequeue"][0].has_value());
  CHECK(domains["Dequeue"][0]->values == std::vector<trace::Value>{std::int64_t{5}, std::int64_t{6}});  // Enqueue's elem too
  REQUIRE(domains["Dequeue"][1].has_value());
  CHECK(domains["Dequeue"][1]->boolean);
  CHECK(domains.count("Enqueue") == 0);  // no pending Enqueue: no domain needed
  CHECK(caveats.empty());

  // Defined by the MC module: no values computed; nothing logged under a name: a caveat says so.
  params["Dequeue"] = {{"elem", "flag"}, {false, false}, {true, false}};
  domains = history::pending_domains(h, params, caveats);
  CHECK(domains["Dequeue"][0]->defined);
  CHECK(domains["Dequeue"][1]->values.empty());
  REQUIRE(caveats.size() == 1);
  CHECK_THAT(caveats[0], Catch::Contains("OmniLinkDomain_Dequeue_flag"));
}

namespace {

// Writes a history file (docs/history-format.md): the header, then one line per operation.
fs::path history_file(const testing::ScratchDir& dir, const std::string& name, const std::vector<std::string>& lines,
                      const std::string& header = R"({"format": "omnilink-history", "version": 1})") {
  const fs::path file = dir / name;
  std::ofstream out(file);
  out << header << "\n";
  for (const auto& l : lines) out << l << "\n";
  return file;
}

std::string history_error(const fs::path& file) {
  try {
    history::read_history_file(file);
  } catch (const history::HistoryError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a history file validates like a run: Figure 2 with renamed operations and named processes", "[history][file]") {
  testing::ScratchDir dir;
  auto figure2 = [&](std::int64_t dequeued) {
    return history_file(dir, "fig2-" + std::to_string(dequeued) + ".jsonl",
                        {R"({"process": "p1", "op": "Enq", "fields": {"elem": 1}, "start": 1, "end": 3, "outcome": "ok"})",
                         R"({"process": 7, "op": "Enq", "fields": {"elem": 2}, "start": 2, "end": 4, "outcome": "ok"})",
                         R"({"process": "p1", "op": "Enq", "fields": {"elem": 3}, "start": 5, "end": 8, "outcome": "ok"})",
                         R"({"process": "p3", "op": "Deq", "fields": {"elem": )" + std::to_string(dequeued) +
                             R"(, "ok": true}, "start": 6, "end": 9, "outcome": "ok"})",
                         R"({"process": 7, "op": "Deq", "fields": {"elem": 0, "ok": false}, "start": 10, "end": 11, "outcome": "failed"})"},
                        R"({"format": "omnilink-history", "version": 1, "rename": {"Enq": "Enqueue", "Deq": "Dequeue"}})");
  };
  const auto pass = validate(figure2(2));
  CHECK(pass.verdict == Verdict::pass);
  CHECK(pass.operations == 4);
  CHECK(pass.dropped_failed == 1);
  CHECK(fs::exists(dir / "fig2-2.jsonl.validation" / "result.json"));
  const auto fail = validate(figure2(3));
  CHECK(fail.verdict == Verdict::fail);
  REQUIRE(fail.frontier.size() == 1);
  CHECK(fail.frontier[0].op.id() == "T2.0");  // processes become threads in order of first appearance
  CHECK(fail.frontier[0].op.name == "Dequeue");
}

TEST_CASE("a history file's pending operation has Herlihy and Wing's semantics", "[history][file]") {
  testing::ScratchDir dir;
  const auto r = validate(history_file(
      dir, "pending.jsonl",
      {R"({"process": 1, "op": "Enqueue", "fields": {"elem": 5}, "start": 1, "outcome": "pending"})",
       R"({"process": 2, "op": "Dequeue", "fields": {"elem": 5, "ok": true}, "start": 4, "end": 6, "outcome": "ok"})"}));
  CHECK(r.verdict == Verdict::pass);
  CHECK(r.pending == 1);
  REQUIRE(r.pending_outcomes.size() == 1);
  CHECK(r.pending_outcomes[0].linearized);
}

TEST_CASE("a history file's values: integers, strings, booleans, tuples, records, $set and $map", "[history][file]") {
  testing::ScratchDir dir;
  const auto h = history::read_history_file(history_file(
      dir, "values.jsonl",
      {R"({"process": 0, "op": "Op", "fields": {"t": [1, "a", true], "r": {"x": 1}, "s": {"$set": [2, 1]}, "m": {"$map": [[1, "one"]]}}, "start": 0, "end": 1, "outcome": "ok"})"}));
  REQUIRE(h.threads.size() == 1);
  const trace::Operation& op = h.threads[0][0];
  CHECK(trace::to_tla(*op.field("t")) == "<<1, \"a\", TRUE>>");
  CHECK(trace::to_tla(*op.field("r")) == "(\"x\" :> 1)");  // a record: a function on strings
  CHECK(op.field("s")->is<trace::Set>());
  CHECK(op.field("m")->is<trace::Map>());
}

TEST_CASE("a damaged history file is an error naming the line", "[history][file]") {
  testing::ScratchDir dir;
  const std::string ok = R"({"process": 1, "op": "Enqueue", "fields": {"elem": 1}, "start": 1, "end": 2, "outcome": "ok"})";
  CHECK_THAT(history_error(history_file(dir, "v.jsonl", {ok}, R"({"format": "omnilink-history", "version": 9})")),
             Catch::Contains("v.jsonl:1: history format version 9 is not supported"));
  CHECK_THAT(history_error(history_file(dir, "h.jsonl", {ok}, R"({"version": 1})")), Catch::Contains("h.jsonl:1: the first line must be the header"));
  CHECK_THAT(history_error(history_file(dir, "f.jsonl", {ok, R"({"process": 1, "op": "X", "start": 3, "end": 4, "outcome": "ok", "colour": 1})"})),
             Catch::Contains("f.jsonl:3: unknown field 'colour'"));
  CHECK_THAT(history_error(history_file(dir, "o.jsonl", {ok, R"({"process": 1, "op": "X", "start": 2, "end": 4, "outcome": "ok"})"})),
             Catch::Contains("o.jsonl:3: process 1: this operation starts at 2, not after its previous one ended (2)"));
  CHECK_THAT(history_error(history_file(dir, "p.jsonl", {R"({"process": 1, "op": "X", "start": 1, "outcome": "pending"})",
                                                        R"({"process": 1, "op": "X", "start": 5, "end": 6, "outcome": "ok"})"})),
             Catch::Contains("p.jsonl:3: process 1 has an operation after its pending one"));
  CHECK_THAT(history_error(history_file(dir, "e.jsonl", {R"({"process": 1, "op": "X", "start": 5, "end": 4, "outcome": "ok"})"})),
             Catch::Contains("e.jsonl:2: end 4 is before start 5"));
  CHECK_THAT(history_error(history_file(dir, "u.jsonl", {R"({"process": 1, "op": "X", "start": 5, "end": 6, "outcome": "maybe"})"})),
             Catch::Contains("u.jsonl:2: outcome:"));
  CHECK_THAT(history_error(history_file(dir, "j.jsonl", {"{not json"})), Catch::Contains("j.jsonl:2: invalid JSON at column 3: syntax error"));
  CHECK_THAT(history_error(history_file(dir, "a.jsonl", {"[1, 2]"})), Catch::Contains("a.jsonl:2: not a JSON object"));
  CHECK_THAT(history_error(history_file(dir, "n.jsonl", {R"({"process": 1, "op": "X", "start": -1, "end": 6, "outcome": "ok"})"})),
             Catch::Contains("n.jsonl:2: start: a non-negative integer"));
  // Bytes that are not printable UTF-8 are never echoed raw, whoever quotes them (here the JSON
  // parser's "last read: ..."): a terminal shows \xNN instead.
  const std::string bad_utf8 = history_error(history_file(dir, "b.jsonl", {"{\"process\": 1, \"op\": \"Wr\xffite\", \"start\": 1}"}));
  CHECK_THAT(bad_utf8, Catch::Contains("b.jsonl:2: invalid JSON") && Catch::Contains("Wr\\xff"));
  CHECK(bad_utf8.find('\xff') == std::string::npos);
  CHECK(platform::printable_text("caf\xc3\xa9 \x1b[31m\t\xed\xa0\x80\xc0\xaf!") == "caf\xc3\xa9 \\x1b[31m\\x09\\xed\\xa0\\x80\\xc0\\xaf!");
  // Validating it is an error too, nothing half-done.
  const auto r = validate(dir / "o.jsonl");
  CHECK(r.verdict == Verdict::error);
  CHECK(r.corrupt_trace);
}

TEST_CASE("a history file's types are strict: every mistake is an error naming FILE:LINE, never a crash or a guess",
          "[history][file]") {
  testing::ScratchDir dir;
  const std::string ok = R"({"process": 1, "op": "Enqueue", "fields": {"elem": 1}, "start": 1, "end": 2, "outcome": "ok"})";
  // The header's version is exactly the integer 1; its format a string.
  for (const char* version : {R"("1")", "[1]", "{}", "true", "1.0", "null"}) {
    INFO(version);
    CHECK_THAT(history_error(history_file(dir, "v.jsonl", {ok}, std::string(R"({"format": "omnilink-history", "version": )") + version + "}")),
               Catch::Contains("v.jsonl:1: history format version"));
  }
  CHECK_THAT(history_error(history_file(dir, "f.jsonl", {ok}, R"({"format": 5, "version": 1})")),
             Catch::Contains("f.jsonl:1: the first line must be the header"));
  // $set and $map exactly as documented, or an error; never a record.
  auto field = [&](const std::string& value) {
    return history_error(history_file(dir, "s.jsonl", {R"({"process": 1, "op": "Enqueue", "fields": {"elem": )" + value +
                                                        R"(}, "start": 1, "end": 2, "outcome": "ok"})"}));
  };
  CHECK_THAT(field(R"({"$set": 5})"), Catch::Contains("s.jsonl:2: fields.elem.$set: a list of elements, not number"));
  CHECK_THAT(field(R"({"$set": {"a": 1}})"), Catch::Contains("fields.elem.$set: a list of elements, not object"));
  CHECK_THAT(field(R"({"$map": "x"})"), Catch::Contains("fields.elem.$map: a list of [key, value] pairs, not string"));
  CHECK_THAT(field(R"({"$map": null})"), Catch::Contains("fields.elem.$map: a list of [key, value] pairs, not null"));
  CHECK_THAT(field(R"({"$set": [1], "x": 2})"), Catch::Contains("$set is the object's only key"));
  CHECK_THAT(field(R"({"$sett": [1]})"), Catch::Contains("fields.elem.$sett: a key starting with $"));
  CHECK(field(R"({"$set": [1, 2]})") == "no error");
  // A function maps each key once, and a set's elements or a function's keys are of one kind
  // (TLC cannot compare 1 with "a"): said at the line, not later as an error of the spec.
  CHECK_THAT(field(R"({"$map": [[1, 2], [1, 3]]})"), Catch::Contains("s.jsonl:2: fields.elem.$map: the key 1 is given twice"));
  CHECK_THAT(field(R"({"$set": [1, "a"]})"),
             Catch::Contains("s.jsonl:2: fields.elem.$set: elements of different kinds (an integer, 1, and a string, \"a\"), which TLC cannot compare"));
  CHECK_THAT(field(R"({"$map": [[1, 2], ["a", 3]]})"), Catch::Contains("fields.elem.$map: keys of different kinds"));
  CHECK(field(R"({"$set": [1, 1]})") == "no error");  // a set, not a list: a repeated element is the same element
  CHECK(field(R"({"$set": []})") == "no error");
  // A key given twice is an error, in a line or in a value.
  CHECK_THAT(history_error(history_file(dir, "d.jsonl", {R"({"process": 1, "process": 2, "op": "X", "start": 1, "end": 2, "outcome": "ok"})"})),
             Catch::Contains("d.jsonl:2: the key \"process\" is given twice"));
  CHECK_THAT(field(R"({"a": 1, "a": 2})"), Catch::Contains("the key \"a\" is given twice"));
  // Nesting is bounded: 20,000 deep is an error, not a stack overflow.
  CHECK_THAT(field(std::string(20000, '[') + std::string(20000, ']')), Catch::Contains("s.jsonl:2: a value nested more than 1000 deep"));
  CHECK(field(std::string(900, '[') + std::string(900, ']')) == "no error");
  // A name with a control character would be cut short wherever it is printed.
  CHECK_THAT(history_error(history_file(dir, "c.jsonl", {R"({"process": 1, "op": "Enq\u0000ueue", "start": 1, "end": 2, "outcome": "ok"})"})),
             Catch::Contains("c.jsonl:2: op: the operation's name (printable characters)"));
}

TEST_CASE("validating a history file: its operations' errors name FILE:LINE, and a path that is not there writes nothing",
          "[history][file]") {
  testing::ScratchDir dir;
  const auto unknown = validate(history_file(dir, "u.jsonl", {R"({"process": 1, "op": "Enqueue", "fields": {"elem": 1}, "start": 1, "end": 2, "outcome": "ok"})",
                                                              R"({"process": 1, "op": "Push", "fields": {"elem": 1}, "start": 3, "end": 4, "outcome": "ok"})"}));
  CHECK(unknown.verdict == Verdict::error);
  CHECK_THAT(unknown.reason, Catch::Contains("u.jsonl:3: T0.1 Push: the spec") && Catch::Contains("has no operation 'Push'"));
  const auto missing = validate(history_file(dir, "m.jsonl", {R"({"process": 1, "op": "Enqueue", "start": 1, "end": 2, "outcome": "ok"})"}));
  CHECK_THAT(missing.reason, Catch::Contains("m.jsonl:2: T0.0 Enqueue: no field 'elem'"));
  const auto absent = validate(dir / "absent.jsonl");
  CHECK(absent.verdict == Verdict::error);
  CHECK_THAT(absent.reason, Catch::Contains("absent.jsonl: no such run directory or history file"));
  CHECK_FALSE(fs::exists(dir / "absent.jsonl"));
  CHECK_FALSE(fs::exists(dir / "absent.jsonl.validation"));
}

TEST_CASE("a huge value is cut in reports: the summary and result.json stay small, saying how much was left out", "[history][file]") {
  testing::ScratchDir dir;
  const std::string huge(5'000'000, 'x');
  // A dequeue of an element never enqueued: the failure's report names the operation and its value.
  const fs::path file = history_file(dir, "huge.jsonl",
                                     {R"({"process": 1, "op": "Enqueue", "fields": {"elem": "a"}, "start": 1, "end": 2, "outcome": "ok"})",
                                      R"({"process": 2, "op": "Dequeue", "fields": {"elem": ")" + huge + R"(", "ok": true}, "start": 3, "end": 4, "outcome": "ok"})"});
  const auto r = validate(file);
  INFO(r.reason.substr(0, 500));
  REQUIRE(r.verdict == Verdict::fail);
  CHECK(r.summary().size() < 100'000);
  CHECK_THAT(r.summary(), Catch::Contains("more characters)"));
  CHECK(fs::file_size(fs::path(file.string() + ".validation") / "result.json") < 100'000);
}
