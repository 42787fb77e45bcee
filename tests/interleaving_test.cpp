// A failing core's interleaving, read from its rr chaos recording (explain/interleaving.hpp), end to
// end through the CLI. For each injected bug: a recorded failing run is explained; under rr one
// thread runs at a time, so the bug's race shows as a core operation switched out inside the buggy
// function while another core operation ran: the interleaving names that function among its switch
// points and an atomicity hint names a line in it. The same explanation read twice from the same
// recording is identical, and `omnilink replay --core` stops at every core operation in the
// interleaving's order. The campaign itself reads the interleaving of each signature's first run,
// and its summary shows the hints. SKIPPED (77) without an rr that records here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <set>

#include "support/campaign_support.hpp"

namespace {

using namespace omnilink;
using namespace omnilink::testing;
namespace fs = std::filesystem;
using nlohmann::json;

json read_json(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

struct Bug {
  std::string campaign;  // examples/campaigns/ file
  std::string target;
  std::string function;  // holds the injected bug, as a stack names it (namespaces aside)
  std::string source;    // its file
};

/// A failing run of `bug` under rr chaos whose interleaving the campaign read after its runs (its
/// signature's first), as the store names it ("CAMPAIGN/RUN"); empty when none of the runs failed.
std::string recorded_failure(const Bug& bug, const ScratchDir& dir) {
  json file = read_json(example_campaign(bug.campaign));
  json targets = json::array();
  for (auto& t : file.at("targets"))
    if (t.at("name") == bug.target) {
      t["runs"] = 6;
      targets.push_back(t);
    }
  file["targets"] = targets;
  file["rr"] = "chaos";
  file["validation"] = {{"checker", "native"}, {"confirm_failures", 0}, {"interleavings", 1}};
  std::ofstream(dir / "campaign.json") << file.dump(2);
  const CampaignResult r = run_campaign(dir / "campaign.json", dir);
  INFO(r.output);
  std::string first_failure;
  std::size_t read = 0, failed = 0;
  for (const auto& run : r.summary.at("runs")) {
    if (run.at("outcome") != "fail" || run.at("rr_mode") == "off") continue;
    ++failed;
    const std::string key = run.at("run").get<std::string>();
    const json e = read_json(dir / "store" / key / "explain" / "explanation.json");
    if (e.contains("interleaving")) {
      ++read;
      if (first_failure.empty()) first_failure = key;
    } else {  // not the first of its signature: said why, and left to omnilink explain
      CHECK(e.at("no_interleaving").get<std::string>().find("validation.interleavings") != std::string::npos);
    }
  }
  // One signature per bug here, so exactly one of its failing runs is read, and the summary says so.
  if (failed > 0) {
    CHECK(read == 1);
    CHECK(r.output.find("interleavings: read 1 of 1 evidence run's recording") != std::string::npos);
    CHECK(r.output.find("atomicity hint: ") != std::string::npos);
  }
  return first_failure;
}

json explain_json(const std::string& run, const ScratchDir& dir, bool fresh) {
  std::vector<std::string> args{"explain", run, "--store", (dir / "store").string(), "--json"};
  if (fresh) args.push_back("--fresh");
  const ProcessResult r = omnilink_cli(args, 900);
  INFO(r.describe() << "\n" << r.out << r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

bool names(const json& location, const Bug& bug) {
  return location.at("function").get<std::string>().ends_with(bug.function) &&
         fs::path(location.at("file").get<std::string>()).filename() == bug.source && location.at("line").get<int>() > 0;
}

/// A switch point or hint names the bug's function: where it stopped, or a call around it (the
/// bug's function may have called an inlined helper that the thread stopped in).
bool names_bug(const json& where, const json& callers, const Bug& bug) {
  return names(where, bug) || std::any_of(callers.begin(), callers.end(), [&](const json& c) { return names(c, bug); });
}

void check_interleaving(const Bug& bug) {
  require_rr_chaos();
  ScratchDir dir;
  const std::string run = recorded_failure(bug, dir);
  REQUIRE_FALSE(run.empty());
  INFO(run);
  // omnilink explain shows what the campaign kept.
  const json kept = read_json(dir / "store" / run / "explain" / "explanation.json");
  const json e = explain_json(run, dir, false);
  INFO(e.dump(2));
  REQUIRE(e.contains("interleaving"));
  CHECK(e.at("interleaving") == kept.at("interleaving"));
  const json& in = e.at("interleaving");
  // Everything placed and located, but what is over the limit of located switches.
  const std::string note = in.at("note").get<std::string>();
  CHECK((note.empty() || note.find("counted, not located") != std::string::npos));
  // Every core operation starts and ends in the window, once each, start before end.
  std::map<std::string, std::vector<std::string>> seen;
  for (const auto& step : in.at("steps"))
    if (step.at("kind") != "switched_out") seen[step.at("op").get<std::string>()].push_back(step.at("kind").get<std::string>());
  CHECK(seen.size() == e.at("core").size());
  for (const auto& [op, kinds] : seen) CHECK(kinds == std::vector<std::string>{"start", "end"});
  // The buggy function among the switch points, and a hint in it.
  bool switched_in_bug = false, hint_in_bug = false;
  for (const auto& step : in.at("steps"))
    if (step.at("kind") == "switched_out" && step.contains("where")) switched_in_bug |= names_bug(step.at("where"), step.at("callers"), bug);
  // One hint per operation and place.
  std::set<std::string> hinted;
  for (const auto& hint : in.at("hints")) {
    CHECK_FALSE(hint.at("between").empty());
    CHECK(hinted.insert(hint.at("op").get<std::string>() + " " + hint.at("at").dump()).second);
    hint_in_bug |= names_bug(hint.at("at"), hint.at("callers"), bug);
  }
  CHECK(switched_in_bug);
  CHECK(hint_in_bug);
  // Read again from the same recording: the same.
  const json again = explain_json(run, dir, true);
  CHECK(again.at("interleaving") == in);
  CHECK(again.at("core") == e.at("core"));

  // The text says it, and replay --core stops at each core operation, in the interleaving's order.
  const ProcessResult text = omnilink_cli({"explain", run, "--store", (dir / "store").string()});
  CHECK(text.out.find("How the recording ran it") != std::string::npos);
  CHECK(text.out.find("Atomicity hints") != std::string::npos);
  const ProcessResult replay = omnilink_cli({"replay", run, "--core", "--batch", "--store", (dir / "store").string()}, 900);
  INFO(replay.out << replay.err);
  CHECK(replay.exit_code == 0);
  std::vector<std::string> order;
  for (const auto& step : in.at("steps"))
    if (step.at("kind") == "start") order.push_back(step.at("op").get<std::string>());
  std::size_t at = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::string stop = "omnilink: core stop " + std::to_string(k + 1) + " of " + std::to_string(order.size()) +
                             "\nomnilink: stopped at operation " + order[k] + " ";
    const std::size_t found = replay.out.find(stop, at);
    INFO(stop);
    CHECK(found != std::string::npos);
    if (found != std::string::npos) at = found;
  }
}

}  // namespace

TEST_CASE("ms-queue-bug: the overwritten link is an enqueue switched out in enqueue", "[interleaving]") {
  check_interleaving({"ms-queue.json", "ms-queue-bug", "MsQueue::enqueue", "ms_queue.cpp"});
}

TEST_CASE("treiber-stack-bug: the element attached late is a push switched out in push", "[interleaving]") {
  check_interleaving({"treiber-stack.json", "treiber-stack-bug", "TreiberStack::push", "treiber_stack.cpp"});
}

TEST_CASE("striped-map-bug: the unlocked find", "[interleaving]") {
  check_interleaving({"striped-map.json", "striped-map-bug", "StripedMap::find", "striped_map.cpp"});
}
