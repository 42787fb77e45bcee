// The results document (report/results_doc): escaping of everything taken from traces and files,
// the generated explanation of a failure from its frontier, the verdict table, and the hunt table's
// runs and times to the first failure, a target's crashes by where they struck, and a sweep's
// exploration, from synthetic store records.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "campaign/campaign_file.hpp"
#include "explain/explanation.hpp"
#include "findings/crash_site.hpp"
#include "report/escape.hpp"
#include "report/results_doc.hpp"
#include "support/test_support.hpp"
#include "support/trace_builder.hpp"
#include "sweep/exploration.hpp"


using namespace omnilink;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A campaign stored as omnilink stores one (CampaignConfig::to_json), with targets given by the
// fields a test cares about.
store::CampaignRecord stored_campaign_record(const std::string& id, const json& targets) {
  store::CampaignRecord c;
  c.id = id;
  c.name = id.substr(0, id.rfind('-'));
  omnilink::campaign::CampaignConfig config;
  config.name = c.name;
  config.store = "/store";
  for (const json& t : targets) {
    omnilink::campaign::TargetConfig target;
    target.name = t.at("name").get<std::string>();
    target.description = t.value("description", "");
    target.harness = t.value("harness", "/build/harness");
    target.args = t.value("args", std::vector<std::string>{});
    target.spec = t.value("spec", "/specs/S.tla");
    target.threads = t.value("threads", std::vector<std::uint32_t>{2});
    target.ops = t.value("ops", std::vector<std::uint64_t>{10});
    target.runs = t.value("runs", 1u);
    config.targets.push_back(std::move(target));
  }
  c.config_json = config.to_json().dump();
  c.created_ms = 1'000'000;
  return c;
}

store::RunRecord run(const std::string& campaign_id, const std::string& target, const std::string& verdict, const fs::path& dir,
              std::int64_t harness_ms = 1000, std::int64_t validation_ms = 2000, std::int64_t verdict_at_ms = 0) {
  store::RunRecord r;
  r.campaign = campaign_id;
  r.target = target;
  r.id = target + ".t2.o10.r001";
  r.threads = 2;
  r.ops = 10;
  r.status = store::RunStatus::ok;
  r.rr_mode = store::RecordingMode::off;
  r.dir = dir.string();
  r.harness_ms = harness_ms;
  store::ValidationRecord v;
  v.verdict = *omnilink::results::parse_verdict(verdict);
  v.duration_ms = validation_ms;
  v.created_ms = verdict_at_ms;
  if (verdict == "fail") v.frontier_summary = "FAIL: no order\n  spec state there: <<7, 8>>";
  r.validation = v;
  return r;
}

void write_result(const fs::path& dir, const json& frontier) {
  fs::create_directories(dir / "validation");
  std::ofstream(dir / "validation" / "result.json")
      << json{{"format", "omnilink-validation-result"}, {"version", 5}, {"verdict", "fail"}, {"frontier", frontier}}.dump();
}

}  // namespace

TEST_CASE("markdown escaping: HTML specials, table pipes, Markdown specials, code spans and blocks") {
  CHECK(report::markdown_text("<script>a|b</script> & \"x\"") == "&lt;script&gt;a\\|b&lt;/script&gt; &amp; \"x\"");
  CHECK(report::markdown_text("a_b*c`d[e]\nf") == "a\\_b\\*c\\`d\\[e\\] f");
  CHECK(report::markdown_code("plain") == "`plain`");
  CHECK(report::markdown_code("has ` one") == "``has ` one``");
  CHECK(report::markdown_code("`edge") == "`` `edge ``");
  // No line of a block's content can close its fence, however it starts.
  const std::string block = report::markdown_block("```\n~~~\nok");
  CHECK(block.find("\n      ```\n") != std::string::npos);
  CHECK(block.rfind("  ```\n") == block.size() - 6);
}

TEST_CASE("hunt lanes are named from the rr mode and the harness's last perturbation options") {
  CHECK(report::hunt_lane(store::RecordingMode::chaos, {"--perturb", "mixed"}, 2000) == "rr chaos, timeslice 2000 ticks");
  CHECK(report::hunt_lane(store::RecordingMode::off, {}, 2000) == "native");
  CHECK(report::hunt_lane(store::RecordingMode::off, {"--perturb", "mixed", "--perturb-rate", "0.05"}, 2000) == "native + perturb mixed 0.05");
  CHECK(report::hunt_lane(store::RecordingMode::off, {"--perturb", "mixed", "--perturb", "none"}, 2000) == "native");
  CHECK(report::hunt_lane(store::RecordingMode::off, {"--perturb", "yield"}, 2000) == "native + perturb yield 0.1");
}

TEST_CASE("the verdict table comes from the store, and a failure is shown as the campaign report shows it: its core, else its frontier") {
  omnilink::testing::ScratchDir dir;
  const json targets = json::array({{{"name", "q"}, {"description", "A <queue> | with a bug"}, {"spec", "/specs/Q.tla"},
                                     {"threads", {2, 3}}, {"ops", {10}}, {"runs", 2}, {"args", {"--perturb", "mixed"}}}});
  report::ResultsInput input;
  input.store = "store";
  report::CampaignRuns c{stored_campaign_record("c-1", targets), {}};
  c.runs.push_back(run("c-1", "q", "pass", dir / "r1"));
  c.runs.push_back(run("c-1", "q", "fail", dir / "r2"));
  c.runs.back().id = "q.t2.o10.r002";
  write_result(dir / "r2", {{"linearized", 5},
                            {"total", 20},
                            {"spec_state", "<<7, 8>>"},
                            {"pending",
                             {{{"thread", 1}, {"index", 4}, {"name", "Dequeue"}, {"viable", true}, {"fields", {{"elem", "9"}, {"ok", "TRUE"}}}},
                              {{"thread", 0}, {"index", 6}, {"name", "Enqueue"}, {"viable", false}, {"fields", {{"elem", "8"}}}}}}});
  input.results.push_back(c);
  const std::string doc = report::results_markdown(input);
  CHECK_THAT(doc, Contains("| c-1 | q | threads 2, 3; ops 10; 2 runs each; args --perturb mixed | off | 2 | 1 | 1 | - | median 2.00 s, max 2.00 s |"));
  CHECK_THAT(doc, Contains("A &lt;queue&gt; \\| with a bug"));
  CHECK_THAT(doc, Contains("1 of 2 runs failed validation"));
  // Not explained: its validation's frontier.
  CHECK_THAT(doc, Contains("      FAIL: no order\n        spec state there: <<7, 8>>\n"));
  CHECK(doc.find("Failing core") == std::string::npos);

  // Explained against the spec it was validated against: its core, as the campaign report has it.
  input.results[0].runs[1].validation->spec = "/specs/Q.tla";
  explain::Explanation e;
  e.spec = "/specs/Q.tla";
  e.run_operations = 20;
  e.minimal = true;
  e.core = {{1, 4, "Dequeue", {{"elem", "9"}, {"ok", "TRUE"}}, 10, 12}, {0, 2, "Enqueue", {{"elem", "8"}}, 1, 3}};
  explain::CoreRefusal refusal;
  refusal.op = "T1.4";
  refusal.action = "Dequeue";
  refusal.at = "/specs/Q.tla:22:17";
  refusal.conjunct = "Head(q) = elem";
  e.refused = refusal;
  fs::create_directories(dir / "r2" / "explain");
  explain::write_explanation(dir / "r2" / "explain", e);
  const std::string explained = report::results_markdown(input);
  CHECK_THAT(explained, Contains("Failing core: 2 of 20 operations are rejected on their own"));
  CHECK_THAT(explained, Contains("every order stops at T1.4 Dequeue(elem = 9, ok = TRUE)"));
  CHECK_THAT(explained, Contains("(why: omnilink explain c-1/q.t2.o10.r002; the search's frontier: omnilink show c-1/q.t2.o10.r002)"));
  CHECK(explained.find("FAIL: no order") == std::string::npos);
  // One of another spec (the run revalidated since) is not this failure's: the frontier again.
  input.results[0].runs[1].validation->spec = "/specs/Other.tla";
  CHECK(report::results_markdown(input) == doc);
  input.results[0].runs[1].validation->spec = "/specs/Q.tla";
  std::ofstream(dir / "r2" / "explain" / "explanation.json") << "{\"format\": \"omnilink-explanation\"";
  CHECK_THAT(report::results_markdown(input), Contains("FAIL: no order") && Contains("its failing core cannot be shown"));
  fs::remove_all(dir / "r2" / "explain");

  // Made for the repository: no path of the machine it was made on. A refusal names its spec's
  // file (here under the scratch directory, as the repository's specs are under the repository).
  input.results[0].runs[1].validation->frontier_summary += "\n  refused: by Dequeue (" + (dir / "specs" / "Q.tla").string() + ":22:17)";
  CHECK(report::results_markdown(input).find(dir.path().string() + "/specs/Q.tla:22:17") != std::string::npos);
  input.relative_to = dir.path().string();
  const std::string relative = report::results_markdown(input);
  CHECK(relative.find(dir.path().string()) == std::string::npos);
  CHECK_THAT(relative, Contains("(specs/Q.tla:22:17)"));
}

TEST_CASE("the hunt table counts runs and times up to the first failure, or says none was found") {
  omnilink::testing::ScratchDir dir;
  const json targets = json::array({{{"name", "bug"}, {"args", json::array()}}});
  report::ResultsInput input;
  report::CampaignRuns found{stored_campaign_record("hunt-1", targets), {}};
  found.runs.push_back(run("hunt-1", "bug", "pass", dir / "a", 1000, 2000));
  found.runs.push_back(run("hunt-1", "bug", "pass", dir / "b", 1000, 2000));
  found.runs.push_back(run("hunt-1", "bug", "fail", dir / "c", 1500, 2500, 1'000'000 + 9'000));
  found.runs.push_back(run("hunt-1", "bug", "fail", dir / "d", 1000, 2000));
  report::CampaignRuns missed{stored_campaign_record("hunt2-1", targets), {}};
  missed.runs.push_back(run("hunt2-1", "bug", "pass", dir / "e", 1000, 2000));
  input.hunts = {found, missed};
  const std::string doc = report::results_markdown(input);
  // Runs 1-3: (1 + 2) + (1 + 2) + (1.5 + 2.5) = 10 s of run time; the verdict came 9 s after the start.
  CHECK_THAT(doc, Contains("| bug | native | 2 x 10 | 4 | 2 | 3 | 9.00 s | 10.0 s |"));
  CHECK_THAT(doc, Contains("| bug | native | 2 x 10 | 1 | 0 | not found | - | 3.00 s (all) |"));
}

TEST_CASE("a target without failures states its search budget, and rr runs show their timeslice") {
  omnilink::testing::ScratchDir dir;
  const json targets = json::array({{{"name", "q"}, {"spec", "/specs/Q.tla"}, {"threads", {2}}, {"ops", {10}}, {"runs", 3}}});
  report::CampaignRuns c{stored_campaign_record("c-1", targets), {}};
  json config = json::parse(c.campaign.config_json);
  config["rr_timeslice_ticks"] = 2000;
  c.campaign.config_json = config.dump();
  for (const char* verdict : {"pass", "pass", "unknown"}) {
    c.runs.push_back(run("c-1", "q", verdict, dir / verdict));
    c.runs.back().rr_mode = store::RecordingMode::chaos;
    c.runs.back().rr_soft_counters = true;
  }
  report::CampaignRuns older{stored_campaign_record("old-1", targets), {}};  // stored before rr_timeslice_ticks existed
  json old_config = json::parse(older.campaign.config_json);
  old_config.erase("rr_timeslice_ticks");
  older.campaign.config_json = old_config.dump();
  older.runs.push_back(run("old-1", "q", "pass", dir / "old"));
  older.runs.back().rr_mode = store::RecordingMode::chaos;
  report::ResultsInput input;
  input.results = {c, older};
  const std::string doc = report::results_markdown(input);
  CHECK_THAT(doc, Contains("| c-1 | q | threads 2; ops 10; 3 runs each | chaos (rr -W, timeslice 2000 ticks) | 3 | 2 | 0 | 1 unknown |"));
  CHECK_THAT(doc, Contains("| old-1 | q | threads 2; ops 10; 3 runs each | chaos (timeslice 2500000 ticks) | 1 | 1 | 0 |"));
  CHECK_THAT(doc, Contains("No violation found: 2 of 3 runs passed validation, 40 operations in all; the others have no verdict"));
  CHECK_THAT(doc, Contains("No violation found: 1 of 1 runs passed validation, 20 operations in all.\n"));
}

TEST_CASE("a sweep's section counts configurations, runs, operations and the distinct windows of its traces") {
  omnilink::testing::ScratchDir dir;
  using omnilink::testing::TraceBuilder;
  using F = TraceBuilder;
  // Two interleavings of the same operations: thread 1's Dequeue inside thread 0's Enqueue, or after it.
  auto trace = [](std::uint64_t dequeue_start) {
    TraceBuilder b(2);
    b.op(0, "Enqueue", 1, 10, F::fields("elem", 1)).op(0, "Enqueue", 11, 12, F::fields("elem", 2));
    b.op(1, "Dequeue", dequeue_start, dequeue_start + 1, F::fields("elem", 1, "ok", true));
    return b;
  };
  trace(5).write(dir / "inside");
  trace(20).write(dir / "after");
  trace(5).write(dir / "inside-again");
  sweep::ExplorationTally expected;  // what the three traces hold together
  for (const char* run_dir : {"inside", "after"}) expected.add(*sweep::explore_run(dir / run_dir));
  REQUIRE(expected.windows() > sweep::explore_run(dir / "inside")->windows.size());  // the two differ

  const json targets = json::array({{{"name", "q"}, {"harness", "/build/examples/q-harness"}, {"args", {"--param", "x=1"}},
                                     {"spec", "/specs/Q.tla"}, {"threads", {2}}, {"ops", {10}}}});
  report::CampaignRuns c{stored_campaign_record("qs-1", targets), {}};
  c.campaign.file = "/somewhere/qs.json";
  json config = json::parse(c.campaign.config_json);
  config["sweep"] = {{"budget", {{"for_s", 60}}}};
  c.campaign.config_json = config.dump();
  const std::vector<std::pair<const char*, const char*>> runs{
      {"q.t2.o10.pnone.r00001", "inside"}, {"q.t2.o10.pnone.r00002", "after"}, {"q.t2.o10.pmixed.r00001", "inside-again"},
      {"q.t2.o10.pmixed.r00002", "no-trace"}};
  for (const auto& [id, run_dir] : runs) {
    c.runs.push_back(run("qs-1", "q", "pass", dir / run_dir));
    c.runs.back().id = id;
    c.runs.back().rr_mode = store::RecordingMode::chaos;
    c.runs.back().rr_soft_counters = true;
  }
  report::ResultsInput input;
  input.sweeps.push_back({c, std::chrono::milliseconds(5'400'000)});
  const std::string doc = report::results_markdown(input);
  CHECK(doc.find("## Verdicts") == std::string::npos);  // no result campaign asked for
  CHECK_THAT(doc, Contains("### qs (qs-1)"));
  CHECK_THAT(doc, Contains("`qs.json`: 1.50 h of runs, 2 configurations, 4 runs, 80 operations; rr chaos (rr -W)."));
  CHECK_THAT(doc, Contains("| q | 2 | 4 | 80 | 4 | 0 | - | " + std::to_string(expected.windows()) + " (1 runs without a trace) |"));
  CHECK_THAT(doc, Contains("Harness `q-harness` `--param x=1`; threads 2; ops 10"));
  CHECK_THAT(doc, Contains("No violation found: 4 of 4 runs passed validation, 80 operations in all."));

  input.sweeps.front().spent.reset();  // merged from shards: no clock
  CHECK_THAT(report::results_markdown(input), Contains("time spent not recorded"));
}

TEST_CASE("a target's crashes are listed by where they struck, each place with its first run and how to replay it") {
  omnilink::testing::ScratchDir dir;
  const json targets = json::array({{{"name", "q"}}});
  report::CampaignRuns c{stored_campaign_record("c-1", targets), {}};
  // Three crashes at two places (two recorded runs at pop, one unrecorded at push), one without a
  // crash site, and one run that passed.
  auto crash_at = [&](const std::string& id, const std::string& function, bool recorded, bool sited = true) {
    const fs::path run_dir = dir / id;
    fs::create_directories(run_dir);
    if (recorded) fs::create_directories(run_dir / "rr");
    if (sited) {
      findings::CrashSite site;
      site.signal = 11;
      site.signal_name = "SIGSEGV";
      site.executable = "/build/q-harness";
      site.frames.push_back({"0x401000", function, "/src/queue.hpp", 42});
      findings::write_crash_site(run_dir, site);
    }
    c.runs.push_back(run("c-1", "q", "pass", run_dir));
    c.runs.back().id = id;
    c.runs.back().status = store::RunStatus::crashed;
    c.runs.back().exit_signal = 11;
    c.runs.back().rr_mode = recorded ? store::RecordingMode::chaos : store::RecordingMode::off;
  };
  crash_at("q.t2.o10.r001", "Queue::pop", true);
  crash_at("q.t2.o10.r002", "Queue::push", false);
  crash_at("q.t2.o10.r003", "Queue::pop", true);
  crash_at("q.t2.o10.r004", "", false, false);
  c.runs.push_back(run("c-1", "q", "pass", dir / "passed"));
  report::ResultsInput input;
  input.results = {c};
  const std::string doc = report::results_markdown(input);
  INFO(doc);
  CHECK_THAT(doc, Contains("No validation failure: 1 of 5 runs passed validation, 20 operations in all; 4 crashed (below).\n"));
  CHECK(doc.find("No violation found") == std::string::npos);
  CHECK_THAT(doc, Contains("4 of 5 runs crashed, at 2 places (by signature):"));
  const auto pop = doc.find("- **SIGSEGV in Queue::pop (queue.hpp:42)**"), push = doc.find("- **SIGSEGV in Queue::push (queue.hpp:42)**");
  REQUIRE(pop != std::string::npos);
  REQUIRE(push != std::string::npos);
  CHECK(pop < push);  // in order of first appearance
  CHECK_THAT(doc.substr(pop, push - pop), Contains("), 2 runs; the first: c-1/q.t2.o10.r001 (2 threads x 10 operations"));
  CHECK_THAT(doc.substr(pop, push - pop), Contains("replay: omnilink replay c-1/q.t2.o10.r001 --crash"));
  CHECK_THAT(doc.substr(push), Contains("), 1 run; the first: c-1/q.t2.o10.r002"));
  CHECK_THAT(doc.substr(push), Contains("not recorded (rr off)"));
  CHECK_THAT(doc, Contains("1 crash has no signature (no crash site was recorded): `omnilink ls c-1 --status crashed`."));
}
