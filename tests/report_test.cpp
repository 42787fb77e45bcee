// Campaign reports from store records, each read once as a RunReport: outcomes and exit codes, the
// summary table, the --json summary and the JUnit XML (escaped), failures grouped by signature, the
// replay hint, without running anything.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "report/campaign_report.hpp"
#include "report/escape.hpp"
#include "store/outcome.hpp"
#include "support/test_support.hpp"

namespace {

using namespace omnilink;

store::RunRecord run(const std::string& id, const std::string& status, const std::optional<std::string>& verdict,
              const std::string& target = "queue") {
  store::RunRecord r;
  r.campaign = "c-1";
  r.id = id;
  r.target = target;
  r.threads = 2;
  r.ops = 10;
  r.status = *store::parse_run_status(status);
  r.rr_mode = store::RecordingMode::off;
  r.dir = "/nonexistent/" + id;
  if (verdict) {
    r.validation = store::ValidationRecord{};
    r.validation->verdict = *omnilink::results::parse_verdict(*verdict);
    r.validation->reason = *verdict == "fail" ? "no order <is> accepted & \"so\" on" : "";
    r.validation->frontier_summary = *verdict == "fail" ? "FAIL: T0.1 Deq(elem = \"<x>\")" : "";
  }
  return r;
}

TEST_CASE("store::outcomes fold the newest verdict into the run status, and give the exit code") {
  CHECK(store::outcome(run("a", "ok", "pass")) == store::Outcome::pass);
  CHECK(store::outcome(run("a", "ok", "unknown")) == store::Outcome::unknown);
  CHECK(store::outcome(run("a", "crashed", "fail")) == store::Outcome::fail);  // a crashed run's prefix failing is a bug found
  CHECK(store::outcome(run("a", "crashed", "pass")) == store::Outcome::crashed);
  CHECK(store::outcome(run("a", "ok", std::nullopt)) == store::Outcome::interrupted);
  CHECK(store::outcome(run("a", "pending", std::nullopt)) == store::Outcome::interrupted);
  CHECK(store::outcome(run("a", "bad-trace", "error")) == store::Outcome::bad_trace);

  CHECK(store::exit_code_for({}) == 0);
  CHECK(store::exit_code_for({run("a", "ok", "pass"), run("b", "ok", "pass")}) == 0);
  CHECK(store::exit_code_for({run("a", "ok", "pass"), run("b", "timeout", "pass")}) == 2);
  CHECK(store::exit_code_for({run("a", "timeout", "pass"), run("b", "ok", "fail")}) == 1);
}

TEST_CASE("run statuses and outcomes are their names at the text and JSON edges, and every name reads back") {
  for (const store::RunStatus s : store::kRunStatuses) {
    CHECK(store::parse_run_status(store::to_string(s)) == s);
    CHECK(nlohmann::json(s) == store::to_string(s));  // not the enum's number
  }
  CHECK(store::to_string(store::RunStatus::bad_trace) == "bad-trace");
  CHECK_FALSE(store::parse_run_status("finished"));  // a campaign's status, not a run's
  CHECK(nlohmann::json(store::Outcome::bad_trace) == "bad-trace");
  CHECK(nlohmann::json{{"o", store::Outcome::fail}}.dump() == R"({"o":"fail"})");
  const nlohmann::json summary = report::summary_json(store::CampaignRecord{}, report::read_run_reports({run("a", "bad-trace", "error")}));
  CHECK(summary["runs"][0]["status"] == "bad-trace");
  CHECK(summary["runs"][0]["outcome"] == "bad-trace");
}

TEST_CASE("the summary table counts each configuration's outcomes") {
  const std::string table = report::summary_table(report::read_run_reports(
      {run("a", "ok", "pass"), run("b", "ok", "fail"), run("c", "crashed", "pass"), run("d", "ok", "pass", "stack")}));
  CHECK(table.find("queue t2 o10") != std::string::npos);
  CHECK(table.find("stack t2 o10") != std::string::npos);
  std::istringstream lines(table);
  std::string header, queue;
  std::getline(lines, header);
  std::getline(lines, queue);
  std::istringstream cells(queue.substr(queue.find("o10") + 3));
  std::vector<std::string> counts{std::istream_iterator<std::string>(cells), {}};
  // runs pass fail unknown crashed timeout bad-trace error interrupted
  CHECK(counts == std::vector<std::string>{"3", "1", "1", ".", "1", ".", ".", ".", "."});
}

TEST_CASE("the JSON summary and the JUnit XML carry every run, escaped") {
  store::CampaignRecord c;
  c.id = "c-1";
  c.name = "c";
  c.status = store::CampaignStatus::finished;
  const auto runs = report::read_run_reports({run("a", "ok", "pass"), run("b<&>", "ok", "fail"), run("c", "timeout", "pass"),
                                              run("d", "pending", std::nullopt)});
  const nlohmann::json j = report::summary_json(c, runs);
  CHECK(j["exit_code"] == 1);
  CHECK(j["counts"]["pass"] == 1);
  CHECK(j["counts"]["fail"] == 1);
  CHECK(j["counts"]["timeout"] == 1);
  CHECK(j["counts"]["interrupted"] == 1);
  CHECK(j["runs"].size() == 4);
  CHECK(j["runs"][1]["replay"].get<std::string>().find("not recorded (rr off)") != std::string::npos);

  const std::string xml = report::junit_xml(c, runs);
  CHECK(xml.find("tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\"") != std::string::npos);
  CHECK(xml.find("name=\"b&lt;&amp;&gt;\"") != std::string::npos);
  CHECK(xml.find("no order &lt;is&gt; accepted &amp; &quot;so&quot; on") != std::string::npos);
  CHECK(xml.find("Deq(elem = &quot;&lt;x&gt;&quot;)") != std::string::npos);
  CHECK(xml.find("<error type=\"timeout\"") != std::string::npos);
  CHECK(xml.find("<skipped") != std::string::npos);
  CHECK(xml.find("<x>") == std::string::npos);  // nothing unescaped
  CHECK(report::xml_escape(std::string("a\x01" "b\tc")) == "ab\tc");
}

}  // namespace

TEST_CASE("failed runs are grouped by signature in the summary and the JSON, with their symptoms", "[signature]") {
  omnilink::testing::ScratchDir dir;
  store::CampaignRecord c;
  c.id = "c-1";
  c.name = "c";
  c.status = store::CampaignStatus::finished;
  // Runs refused (result.json as the native checker writes it): three Dequeues, two of them the same
  // way, and a Bulk.
  auto failed = [&](const std::string& id, const std::string& name, const std::string& conjunct) {
    store::RunRecord r = run(id, "ok", "fail");
    r.dir = (dir.path() / id).string();
    std::filesystem::create_directories(dir.path() / id / "validation");
    const nlohmann::json result{{"format", "omnilink-validation-result"}, {"version", 5}, {"verdict", "fail"},
                                {"frontier", {{"pending", nlohmann::json::array()},
                                              {"refused", {{"thread", 1}, {"index", 0}, {"name", name}, {"action", name},
                                                           {"at", "Queue.tla:20:5"}, {"conjunct", conjunct},
                                                           {"related", nlohmann::json::array()}, {"unmatched", nlohmann::json::array()}}}}}};
    std::ofstream(dir.path() / id / "validation" / "result.json") << result.dump();
    return r;
  };
  const auto runs = report::read_run_reports({failed("a", "Dequeue", "Head(queue) = elem"), run("b", "ok", "pass"),
                                              failed("c", "Bulk", "Len(queue) >= n"), failed("d", "Dequeue", "Head(queue)  =  elem"),
                                              failed("e", "Dequeue", "queue = <<>>")});
  const nlohmann::json j = report::summary_json(c, runs);
  CHECK(j["version"] == 3);
  REQUIRE(j["signatures"].size() == 2);
  const auto& dequeue = j["signatures"][0];
  CHECK(dequeue["runs"] == nlohmann::json::array({"c-1/a", "c-1/d", "c-1/e"}));
  CHECK(dequeue["title"] == "Dequeue refused by Dequeue");
  REQUIRE(dequeue["symptoms"].size() == 2);
  CHECK(dequeue["symptoms"][0]["title"] == "Head(queue) = elem");  // whitespace does not split it
  CHECK(dequeue["symptoms"][0]["runs"] == 2);
  CHECK(dequeue["symptoms"][0]["first"] == "c-1/a");
  CHECK(dequeue["symptoms"][1]["title"] == "queue = <<>>");
  CHECK(j["runs"][0]["signature"] == dequeue["id"]);
  CHECK(j["runs"][3]["signature"] == dequeue["id"]);
  CHECK(j["runs"][4]["signature"] == dequeue["id"]);
  CHECK(j["runs"][3]["symptom"] == j["runs"][0]["symptom"]);
  CHECK(j["runs"][4]["symptom"] != j["runs"][0]["symptom"]);
  CHECK(j["runs"][2]["signature"] == j["signatures"][1]["id"]);
  CHECK_FALSE(j["runs"][1].contains("signature"));
  const std::string summary = report::signature_summary(runs);
  CHECK(summary.find("2 distinct failures") == 0);
  CHECK(summary.find("3 runs  queue: Dequeue refused by Dequeue  (first: c-1/a)") != std::string::npos);
  CHECK(summary.find("2 runs  Head(queue) = elem  (first: c-1/a)") != std::string::npos);
  CHECK(summary.find("1 run   queue = <<>>  (first: c-1/e)") != std::string::npos);
}

TEST_CASE("a replay hint offers --rerun only for a run it re-executes the same: one thread and the counter clock") {
  omnilink::testing::ScratchDir dir;
  auto unrecorded = [&](const std::string& id, std::uint32_t threads, const std::string& clock) {
    store::RunRecord r = run(id, "ok", "fail");
    r.threads = threads;
    r.rr_mode = store::RecordingMode::off;
    r.dir = (dir.path() / id).string();
    std::filesystem::create_directories(r.dir);
    std::ofstream(dir.path() / id / "meta.json")
        << nlohmann::json{{"format", "omnilink-run"}, {"version", 1}, {"seed", 1}, {"threads", threads}, {"ops_per_thread", 10},
                          {"clock", clock}, {"exit", {{"status", "ok"}, {"code", 0}}}}.dump();
    return r;
  };
  const auto replay_hint = [](store::RunRecord r) { return report::read_run_report(std::move(r)).replay; };
  CHECK_THAT(replay_hint(unrecorded("counter", 1, "counter")), Catch::Contains("--rerun"));
  // One thread on the tsc clock: re-executed, it need not do the same; --rerun refuses it.
  const std::string tsc = replay_hint(unrecorded("tsc", 1, "tsc"));
  CHECK_THAT(tsc, !Catch::Contains("--rerun") && Catch::Contains("not recorded (rr off)") && Catch::Contains("--rr chaos"));
  CHECK_THAT(replay_hint(unrecorded("two", 2, "counter")), !Catch::Contains("--rerun"));
  // Recorded once, its recording gone since: not "rr off".
  store::RunRecord pruned = unrecorded("pruned", 2, "tsc");
  pruned.rr_mode = store::RecordingMode::chaos;
  CHECK_THAT(replay_hint(pruned), Catch::Contains("recording is gone"));
  // A passing run is read no further: nothing to replay, no signature.
  store::RunRecord passed = unrecorded("passed", 1, "counter");
  passed.validation->verdict = results::Verdict::pass;
  const report::RunReport quiet = report::read_run_report(passed);
  CHECK(quiet.outcome == store::Outcome::pass);
  CHECK(quiet.replay.empty());
  CHECK(quiet.failure.empty());
  CHECK_FALSE(quiet.signature);
  // Nor a run that timed out, though its directory holds an explanation.json that does not read: only
  // a failure's explanation is read (a damaged one would show in kept.damaged), only a failure or a
  // crash gets a replay hint.
  store::RunRecord late = unrecorded("late", 1, "counter");
  late.status = store::RunStatus::timeout;
  late.validation.reset();
  std::filesystem::create_directories(dir.path() / "late" / "explain");
  std::ofstream(dir.path() / "late" / "explain" / "explanation.json") << "{ not json";
  const report::RunReport timed_out = report::read_run_report(late);
  CHECK(timed_out.outcome == store::Outcome::timeout);
  CHECK(timed_out.kept.damaged.empty());
  CHECK(timed_out.replay.empty());
  // The same directory read as a failure's: its damaged explanation is reported, and a hint given.
  late.status = store::RunStatus::ok;
  late.validation = store::ValidationRecord{};
  late.validation->verdict = results::Verdict::fail;
  const report::RunReport failed = report::read_run_report(late);
  CHECK(failed.outcome == store::Outcome::fail);
  CHECK_FALSE(failed.kept.damaged.empty());
  CHECK_THAT(failed.replay, Catch::Contains("--rerun"));
}
