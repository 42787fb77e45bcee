// result.json (results/result_file.hpp): what ValidationResult::to_json writes, the reader reads
// back field for field; older versions read as they were written; a file of another format or
// version, or a field of the wrong type, is an error naming the file and the field.
#include <catch2/catch.hpp>

#include <fstream>
#include <functional>

#include <nlohmann/json.hpp>

#include "support/test_support.hpp"
#include "results/result.hpp"
#include "results/result_file.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
using results::ResultFileError;
using results::StoredOperation;
namespace fs = std::filesystem;

trace::Operation operation(std::uint32_t thread, std::uint64_t index, const std::string& name, std::int64_t value) {
  trace::Operation op;
  op.thread = thread;
  op.index = index;
  op.name = name;
  op.fields = {{"elem", trace::Value(value)}};
  op.start = 100 + index;
  op.end = 200 + index;
  return op;
}

// A failure with every part the format has.
results::ValidationResult full_failure() {
  results::ValidationResult r;
  r.verdict = Verdict::fail;
  r.reason = "no order of the operations is accepted by the spec";
  r.checker = results::DecidedBy::native;
  r.operations = 4;
  r.dropped_failed = 1;
  r.pending = 1;
  r.cut = history::Cut{5000, {1}, 2, 1};
  r.clock = "tsc";
  r.caveats = {"a caveat"};
  r.linearized = 2;
  r.frontier = {{operation(0, 2, "Enqueue", 3), true}, {operation(1, 1, "Dequeue", 7), false}};
  r.frontier[1].op.kind = trace::RecordKind::pending;
  r.spec_state = "<<1, 2>>";
  r.spec_variables = {{"queue", "<<1, 2>>"}};
  results::RefusedOp refused;
  refused.op = operation(1, 1, "Dequeue", 7);
  refused.action = "Dequeue";
  refused.at = "/specs/Queue.tla:20:5";
  refused.conjunct = "Head(queue) = elem";
  refused.related = {{operation(0, 0, "Enqueue", 7), true}};
  refused.unmatched = {"ok"};
  refused.lost = results::RefusedOp::Held{"5", {{operation(0, 1, "Enqueue", 5), true}}};
  refused.in_place = results::RefusedOp::Held{"5", {{operation(0, 1, "Enqueue", 5), true}, {operation(1, 3, "Dequeue", 5), false}}};
  r.refused = refused;
  results::PendingOutcome p;
  p.op = operation(1, 2, "Enqueue", 9);
  p.op.kind = trace::RecordKind::pending;
  p.op.inputs_known = true;
  p.linearized = true;
  p.arguments = {{"elem", "9"}};
  r.pending_outcomes = {p};
  r.partitions = results::PartitionSummary{"key", 3, "key = 2"};
  r.states_generated = 120;
  r.states_distinct = 80;
  r.peak_rss_kb = 4096;
  r.duration = std::chrono::milliseconds(1234);
  r.tlc_exit_code = 12;
  r.tlc_command = {"java", "-jar", "tla2tools.jar"};
  return r;
}

void check_operation(const StoredOperation& read, const trace::Operation& written) {
  CHECK(read.thread == written.thread);
  CHECK(read.index == written.index);
  CHECK(read.name == written.name);
}

}  // namespace

TEST_CASE("result.json reads back what ValidationResult wrote, field for field", "[result]") {
  const results::ValidationResult written = full_failure();
  const auto r = results::parse_result(nlohmann::json::parse(written.to_json().dump()), "result.json");
  CHECK(r.version == results::kResultFileVersion);
  CHECK(r.verdict == Verdict::fail);
  CHECK(r.reason == written.reason);
  CHECK(r.checker == results::DecidedBy::native);
  CHECK(r.operations == 4);
  CHECK(r.dropped_failed == 1);
  CHECK(r.pending == 1);
  REQUIRE(r.cut);
  CHECK(r.cut->at == 5000);
  CHECK(r.cut->clock == "tsc");
  CHECK(r.cut->cut_short_threads == std::vector<std::uint32_t>{1});
  CHECK(r.cut->dropped == 2);
  CHECK(r.cut->made_pending == 1);
  CHECK(r.caveats == written.caveats);
  CHECK(r.duration_ms == 1234);
  CHECK(r.peak_rss_kb == 4096);
  CHECK(r.states_generated == std::optional<std::uint64_t>(120));
  CHECK(r.states_distinct == std::optional<std::uint64_t>(80));
  CHECK(r.linearized == std::optional<std::int64_t>(2));
  REQUIRE(r.partitions);
  CHECK(r.partitions->by == "key");
  CHECK(r.partitions->count == 3);
  CHECK(r.partitions->failed == "key = 2");
  CHECK(r.tlc_exit_code == std::optional<int>(12));
  CHECK(r.tlc_command == written.tlc_command);

  REQUIRE(r.pending_operations.size() == 1);
  const auto& p = r.pending_operations[0];
  check_operation(p.op, written.pending_outcomes[0].op);
  CHECK(p.op.start == std::optional<std::uint64_t>(102));
  CHECK(p.inputs_known);
  CHECK(p.linearized);
  CHECK(p.op.fields == std::vector<std::pair<std::string, std::string>>{{"elem", "9"}});
  CHECK(p.arguments == std::vector<std::pair<std::string, std::string>>{{"elem", "9"}});

  REQUIRE(r.frontier);
  CHECK(r.frontier->linearized == 2);
  CHECK(r.frontier->total == 4);
  CHECK(r.frontier->spec_state == "<<1, 2>>");
  REQUIRE(r.frontier->next.size() == 2);
  check_operation(r.frontier->next[0], written.frontier[0].op);
  CHECK(r.frontier->next[0].viable);
  CHECK_FALSE(r.frontier->next[0].pending);
  CHECK(r.frontier->next[0].fields == std::vector<std::pair<std::string, std::string>>{{"elem", "3"}});
  CHECK(r.frontier->next[0].start == std::optional<std::uint64_t>(102));
  CHECK(r.frontier->next[0].end == std::optional<std::uint64_t>(202));
  CHECK(r.frontier->next[1].pending);
  CHECK_FALSE(r.frontier->next[1].end);  // a pending operation never ended
  REQUIRE(r.frontier->refused);
  const auto& refused = *r.frontier->refused;
  check_operation(refused.op, written.refused->op);
  CHECK(refused.action == "Dequeue");
  CHECK(refused.at == "/specs/Queue.tla:20:5");
  CHECK(refused.conjunct == "Head(queue) = elem");
  REQUIRE(refused.related.size() == 1);
  check_operation(refused.related[0].op, written.refused->related[0].op);
  CHECK(refused.related[0].linearized);
  CHECK(refused.unmatched == std::vector<std::string>{"ok"});
  REQUIRE(refused.lost);
  CHECK(refused.lost->value == "5");
  REQUIRE(refused.lost->logged_by.size() == 1);
  CHECK(refused.lost->logged_by[0].op.name == "Enqueue");
  CHECK(refused.lost->logged_by[0].linearized);
  REQUIRE(refused.in_place);
  REQUIRE(refused.in_place->logged_by.size() == 2);
  CHECK(refused.in_place->logged_by[1].op.name == "Dequeue");
  CHECK_FALSE(refused.in_place->logged_by[1].linearized);
  CHECK(r.frontier->variables == std::vector<std::pair<std::string, std::string>>{{"queue", "<<1, 2>>"}});

  // A pass has no frontier; a run never validated has no file.
  results::ValidationResult pass;
  pass.verdict = Verdict::pass;
  const auto read_pass = results::parse_result(pass.to_json(), "result.json");
  CHECK(read_pass.verdict == Verdict::pass);
  CHECK_FALSE(read_pass.frontier);
  testing::ScratchDir dir;
  CHECK_FALSE(results::read_result_file(dir.path()));
}

TEST_CASE("result.json of an older version reads as it was written, and a bad one is an error naming the field", "[result]") {
  // Version 1 called pending operations aborted, and had no checker.
  const nlohmann::json v1{{"format", "omnilink-validation-result"}, {"version", 1}, {"verdict", "unknown"}, {"reason", "TLC not found"},
                          {"operations", 10}, {"aborted", 2}};
  const auto old = results::parse_result(v1, "result.json");
  CHECK(old.version == 1);
  CHECK(old.pending == 2);
  CHECK(old.checker == results::DecidedBy::none);

  nlohmann::json j = full_failure().to_json();
  auto refused_with = [&](const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json bad = j;
    change(bad);
    return [bad] { results::parse_result(bad, "RUN/result.json"); };
  };
  CHECK_THROWS_MATCHES(refused_with([](auto& b) { b["format"] = "omnilink-run"; })(), ResultFileError,
                       Catch::Message("RUN/result.json: format: not omnilink-validation-result"));
  CHECK_THROWS_MATCHES(refused_with([](auto& b) { b["version"] = 7; })(), ResultFileError,
                       Catch::Message("RUN/result.json: version: version 7; this omnilink reads versions 1 to 6"));
  CHECK_THROWS_MATCHES(refused_with([](auto& b) { b["version"] = "5"; })(), ResultFileError,
                       Catch::Message("RUN/result.json: version: not an integer"));
  CHECK_THROWS_MATCHES(refused_with([](auto& b) { b["verdict"] = "maybe"; })(), ResultFileError,
                       Catch::Message("RUN/result.json: verdict: 'maybe' is no verdict"));
  CHECK_THROWS_MATCHES(refused_with([](auto& b) { b["checker"] = "jvm"; })(), ResultFileError,
                       Catch::Message("RUN/result.json: checker: 'jvm' is no checker: native or tlc"));
  CHECK_THROWS_MATCHES(refused_with([](auto& b) { b["frontier"]["pending"][1]["thread"] = "1"; })(), ResultFileError,
                       Catch::Message("RUN/result.json: frontier: pending[1]: thread: not a non-negative integer"));
  CHECK_THROWS_MATCHES(refused_with([](auto& b) { b["frontier"]["refused"]["lost"]["logged_by"] = 5; })(), ResultFileError,
                       Catch::Message("RUN/result.json: frontier: refused: lost: logged_by: not a list"));
  CHECK_THROWS_MATCHES(refused_with([](auto& b) { b["caveats"] = {1}; })(), ResultFileError,
                       Catch::Message("RUN/result.json: caveats: not a list of strings"));

  testing::ScratchDir dir;
  fs::create_directories(dir / "validation");
  std::ofstream(dir / "validation" / "result.json") << "{\"format\": ";
  CHECK_THROWS_MATCHES(results::read_result_file(dir.path()), ResultFileError,
                       Catch::Message((dir / "validation" / "result.json").string() + ": not JSON"));
}
