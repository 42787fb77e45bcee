// Failure signatures (campaign/failure_signature.hpp) from real native validations of small queue
// histories: the refused operation and conjunct land in result.json, one fault seen at different
// positions, values and times keeps one signature, and different faults get different ones.
#include <catch2/catch.hpp>

#include <set>

#include "campaign/failure_signature.hpp"
#include "support/test_support.hpp"
#include "support/trace_builder.hpp"
#include "validation/validate.hpp"

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

nlohmann::json validate(const std::vector<Step>& steps, std::uint64_t first_time = 1) {
  testing::ScratchDir dir;
  TraceBuilder b(2);
  std::uint64_t t = first_time;
  for (const Step& s : steps) {
    if (std::string(s.name) == "Enqueue") b.op(s.thread, s.name, t, t + 1, F::fields("elem", s.elem));
    else b.op(s.thread, s.name, t, t + 1, F::fields("elem", s.elem, "ok", s.ok));
    t += 2;
  }
  b.write(dir / "run");
  validation::ValidateOptions o;
  o.run_dir = dir / "run";
  o.spec = fs::path(OMNILINK_SPECS_DIR) / "LinearizableQueue.tla";
  o.checker = validation::Checker::native;
  o.confirm_failures = false;
  const auto r = validation::validate_run(o);
  INFO(r.summary());
  REQUIRE(r.verdict == "fail");
  return r.to_json();
}

std::string signature(const nlohmann::json& result) {
  const auto s = campaign::failure_signature("queue", result);
  REQUIRE(s);
  INFO(s->key);
  CHECK(s->id.size() == 12);
  return s->id;
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

TEST_CASE("one fault keeps one signature; different faults get different ones", "[native][signature]") {
  const std::string overtaken = signature(validate({{0, "Enqueue", 1}, {0, "Enqueue", 2}, {1, "Dequeue", 2}}));
  // The same fault later in a longer run, other values, other threads, other times.
  const std::string overtaken_again = signature(validate(
      {{1, "Enqueue", 40}, {0, "Dequeue", 40}, {1, "Enqueue", 7}, {1, "Enqueue", 8}, {0, "Dequeue", 8}}, 1000));
  CHECK(overtaken == overtaken_again);

  const std::string twice = signature(validate({{0, "Enqueue", 1}, {1, "Dequeue", 1}, {1, "Dequeue", 1}}));
  const std::string never_enqueued = signature(validate({{0, "Enqueue", 1}, {1, "Dequeue", 9}}));
  const std::string empty_but_not = signature(validate({{0, "Enqueue", 1}, {1, "Dequeue", 0, false}}));
  const std::set<std::string> distinct{overtaken, twice, never_enqueued, empty_but_not};
  CHECK(distinct.size() == 4);
  // `queue = <<>>` mentions no value of the dequeue: its placeholder element, logged by another
  // empty dequeue here, ties nothing, so the signature does not depend on how many there were.
  CHECK(signature(validate({{1, "Dequeue", 0, false}, {0, "Enqueue", 1}, {1, "Dequeue", 0, false}})) == empty_but_not);

  const auto s = campaign::failure_signature("queue", validate({{0, "Enqueue", 1}, {1, "Dequeue", 1}, {1, "Dequeue", 1}}));
  REQUIRE(s);
  // The second Dequeue(1) finds the queue empty; `queue # <<>>` mentions none of its values.
  CHECK(s->title == "Dequeue refused by Dequeue: queue # <<>>");
  // A different target is a different bug, whatever the frontier.
  CHECK(campaign::failure_signature("stack", validate({{0, "Enqueue", 1}, {1, "Dequeue", 9}}))->id != never_enqueued);
}

TEST_CASE("a TLC-decided failure gets the coarser signature of its stuck operations", "[signature]") {
  const nlohmann::json result{{"frontier", {{"pending", {{{"name", "Pop"}, {"viable", true}}, {{"name", "Push"}, {"viable", false}}}}}}};
  const auto s = campaign::failure_signature("stack", result);
  REQUIRE(s);
  CHECK(s->key == "stack|stuck|Pop");
  CHECK(s->title.find("TLC decided") != std::string::npos);
  CHECK_FALSE(campaign::failure_signature("stack", nlohmann::json{{"verdict", "pass"}}));
}
