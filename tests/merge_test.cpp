// Shards and `omnilink merge` (docs/scale-out.md), through the real CLI with the demo campaign
// natively (rr off) and the native checker: the shards of a campaign merged are the campaign run in
// one piece (the same runs and seeds, every run once, the deterministic target's verdicts alike);
// shards merged as they finish (--into); every kind of conflict refused with nothing moved; a merge
// that died finished by running it again; the shards of a sweep merged into one sweep, which the
// next sweep follows; and 100,000 synthetic runs merged.
#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <map>
#include <set>

#include "campaign/campaign_file.hpp"
#include "maintenance/merge.hpp"
#include "store/outcome.hpp"
#include "campaign/run_plan.hpp"
#include "store/store.hpp"
#include "support/campaign_support.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
using Catch::Matchers::Contains;
using nlohmann::json;
using testing::ScratchDir;
namespace fs = std::filesystem;

const fs::path kDemo = testing::example_campaign("demo.json");

// `omnilink campaign demo.json --rr off --store STORE ARGS...`; its exit code (1: the racy queue failed).
int demo(const fs::path& store, const std::vector<std::string>& args = {}) {
  std::vector<std::string> argv{"campaign", kDemo.string(), "--rr", "off", "--checker", "native", "--store", store.string(), "--plain"};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessResult r = testing::omnilink_cli(argv);
  INFO(r.describe() << "\n" << r.out << r.err);
  REQUIRE((r.exit_code == 0 || r.exit_code == 1));
  return r.exit_code;
}

ProcessResult merge(const std::vector<std::string>& args) {
  std::vector<std::string> argv{"merge"};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing::omnilink_cli(argv);
}

}  // namespace

TEST_CASE("the shards of a campaign, merged, are the campaign run in one piece") {
  ScratchDir dir;
  demo(dir / "local");
  for (int i = 0; i < 3; ++i) demo(dir / ("shard" + std::to_string(i)), {"--shard", std::to_string(i) + "/3"});
  // Each shard ran only its share: 12 runs in 3 shards of 4.
  for (int i = 0; i < 3; ++i) CHECK(testing::runs_by_id(dir / ("shard" + std::to_string(i)), "demo-1").size() == 4);

  const ProcessResult merged =
      merge({(dir / "merged").string(), (dir / "shard2").string(), (dir / "shard0").string(), (dir / "shard1").string()});
  INFO(merged.describe() << "\n" << merged.out << merged.err);
  REQUIRE(merged.exit_code == 0);
  CHECK_THAT(merged.out, Contains("as campaign demo-1 (new): 12 run(s) moved in; every shard of 3 merged"));

  const auto local = testing::runs_by_id(dir / "local", "demo-1");
  const auto whole = testing::runs_by_id(dir / "merged", "demo-1");
  REQUIRE(whole.size() == local.size());
  for (const auto& [id, run] : local) {
    INFO(id);
    REQUIRE(whole.contains(id));
    const auto& m = whole.at(id);
    CHECK(m.seed == run.seed);
    CHECK(m.status == store::RunStatus::ok);
    REQUIRE(m.validation);
    if (run.target == "locked-queue") CHECK(m.validation->verdict == Verdict::pass);  // deterministic: as locally
    else CHECK((m.validation->verdict == Verdict::pass || m.validation->verdict == Verdict::fail));
    // The run directory came along whole, into the merged store.
    CHECK(m.dir == store::run_directory(dir / "merged", "demo-1", id).string());
    CHECK(fs::is_regular_file(fs::path(m.dir) / "meta.json"));
    CHECK(fs::is_regular_file(fs::path(m.dir) / "validation" / "result.json"));
  }
  auto store = store::Store::open_read_only(dir / "merged");
  CHECK(store.campaign("demo-1")->status == store::CampaignStatus::finished);
  // The merged campaign is the whole plan: it has no shard, and `show` reads its runs.
  CHECK_FALSE(json::parse(store.campaign("demo-1")->config_json).contains("shard"));
  const ProcessResult shown = testing::omnilink_cli({"show", "demo-1/racy-queue.t3.o2000.r001", "--store", (dir / "merged").string()});
  CHECK(shown.exit_code == 0);
  // The shards keep their index and say where they went; their run directories moved.
  for (int i = 0; i < 3; ++i) {
    const fs::path shard = dir / ("shard" + std::to_string(i));
    const json marker = json::parse(std::ifstream(maintenance::merged_marker(shard, "demo-1")));
    CHECK(marker.at("complete") == true);
    CHECK(marker.at("campaign") == "demo-1");
    CHECK(marker.at("shard") == std::to_string(i) + "/3");
    CHECK_FALSE(fs::exists(shard / "demo-1" / "locked-queue.t2.o300.r001"));
  }
}

TEST_CASE("shards merged as they finish: --into continues the campaign, which says what is missing") {
  ScratchDir dir;
  for (int i = 0; i < 3; ++i) demo(dir / ("shard" + std::to_string(i)), {"--shard", std::to_string(i) + "/3"});
  const ProcessResult first = merge({(dir / "merged").string(), (dir / "shard1").string()});
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.out, Contains("shards still missing: 0/3 2/3 (merge them with --into demo-1)"));
  CHECK_THAT(first.out, Contains("8 run(s) without a final result"));
  {
    auto store = store::Store::open_read_only(dir / "merged");
    CHECK(store.campaign("demo-1")->status == store::CampaignStatus::interrupted);
    CHECK(store.runs("demo-1", store::RunStatus::pending).size() == 8);
  }
  const ProcessResult rest = merge({(dir / "merged").string(), (dir / "shard0").string(), (dir / "shard2").string(), "--into", "demo-1"});
  INFO(rest.out << rest.err);
  REQUIRE(rest.exit_code == 0);
  CHECK_THAT(rest.out, Contains("every shard of 3 merged"));
  auto store = store::Store::open_read_only(dir / "merged");
  CHECK(store.campaign("demo-1")->status == store::CampaignStatus::finished);
  CHECK(store.runs("demo-1", store::RunStatus::ok).size() == 12);
  CHECK(store.campaigns().size() == 1);
}

TEST_CASE("a merge that would lose or duplicate a run is refused, naming why, and moves nothing") {
  ScratchDir dir;
  demo(dir / "local");
  demo(dir / "a0", {"--shard", "0/2"});
  demo(dir / "a1", {"--shard", "1/2"});
  demo(dir / "third", {"--shard", "1/3"});
  demo(dir / "fewer", {"--shard", "1/2", "--runs", "1"});
  demo(dir / "again0", {"--shard", "0/2"});
  // A shard whose finished run lost its directory.
  fs::copy(dir / "a1", dir / "broken", fs::copy_options::recursive);
  REQUIRE(fs::remove_all(dir / "broken" / "demo-1" / "locked-queue.t3.o300.r001") > 0);
  // The store's database, and each campaign's .lock, whose holder's pid a refused merge writes there
  // too (informational: a pid of another length once made this fail), are not what a merge moves.
  const std::vector<std::string> not_moved{"omnilink.db", ".lock"};
  const auto before = testing::file_listing(dir.path(), not_moved);

  struct Refusal {
    std::vector<std::string> shards;
    std::string why;
  };
  const std::vector<Refusal> refusals{
      {{"a0", "a0"}, "a0 is given twice"},
      {{"a0", "again0"}, "shard 0/2 is given twice"},
      {{"a0", "fewer"}, "its targets differ"},
      {{"a0", "third"}, "the plan was split into 3 shards there, 2 here"},
      {{"a0", "local"}, "no shard campaign in this store"},
      {{"a0", "missing"}, "missing"},
      {{"a0", "broken"}, "run locked-queue.t3.o300.r001 has no run directory"},
  };
  for (const auto& r : refusals) {
    std::vector<std::string> args{(dir / "merged").string()};
    for (const auto& s : r.shards) args.push_back((dir / s).string());
    const ProcessResult refused = merge(args);
    INFO(r.why << "\n" << refused.out << refused.err);
    CHECK(refused.exit_code == 3);
    CHECK_THAT(refused.err, Contains(r.why));
  }
  CHECK(testing::file_listing(dir.path(), not_moved) == before);  // nothing moved, in the shards or elsewhere
  CHECK_FALSE(fs::exists(dir / "merged" / "demo-1"));  // nor a campaign made
  CHECK(store::Store::open_read_only(dir / "merged").campaigns().empty());

  // Merged once; then the same shard again, and another run of the same shard into that campaign.
  REQUIRE(merge({(dir / "merged").string(), (dir / "a0").string()}).exit_code == 0);
  const ProcessResult twice = merge({(dir / "merged").string(), (dir / "a0").string(), "--into", "demo-1"});
  CHECK(twice.exit_code == 3);
  CHECK_THAT(twice.err, Contains("was merged already, into " + (dir / "merged").string()));
  const ProcessResult same_index = merge({(dir / "merged").string(), (dir / "again0").string(), "--into", "demo-1"});
  CHECK(same_index.exit_code == 3);
  CHECK_THAT(same_index.err, Contains("shard 0/2 was merged into"));
  CHECK_THAT(same_index.err, Contains("would bring its runs twice"));
  const ProcessResult wrong_campaign = merge({(dir / "merged").string(), (dir / "third").string(), "--into", "demo-1"});
  CHECK(wrong_campaign.exit_code == 3);
  CHECK_THAT(wrong_campaign.err, Contains("is not the campaign these shards are of"));
  CHECK(fs::exists(dir / "again0" / "demo-1" / "locked-queue.t2.o300.r001"));
  // A bad --shard is a usage error.
  const ProcessResult bad = testing::omnilink_cli({"campaign", kDemo.string(), "--store", (dir / "x").string(), "--shard", "2/2"});
  CHECK(bad.exit_code == 3);
  CHECK_THAT(bad.err, Contains("--shard 2/2: not a shard"));
}

TEST_CASE("a shard run again continues its campaign, so its store holds one") {
  ScratchDir dir;
  demo(dir / "s0", {"--shard", "0/2"});
  const ProcessResult again = testing::omnilink_cli(
      {"campaign", kDemo.string(), "--rr", "off", "--store", (dir / "s0").string(), "--plain", "--shard", "0/2"});
  INFO(again.out << again.err);
  CHECK_THAT(again.out, Contains("shard 0/2 has a campaign in this store already: continuing demo-1"));
  auto store = store::Store::open_read_only(dir / "s0");
  CHECK(store.campaigns().size() == 1);
  // Another shard's store is not continued as this one: a campaign of another shard is refused.
  const ProcessResult other = testing::omnilink_cli(
      {"campaign", kDemo.string(), "--rr", "off", "--store", (dir / "s0").string(), "--plain", "--shard", "1/2", "--resume"});
  CHECK(other.exit_code == 3);
  CHECK_THAT(other.err, Contains("another shard of the plan"));
}

TEST_CASE("a merge that died is finished by running it again") {
  ScratchDir dir;
  demo(dir / "s0", {"--shard", "0/2"});
  demo(dir / "s1", {"--shard", "1/2"});
  REQUIRE(merge({(dir / "merged").string(), (dir / "s0").string()}).exit_code == 0);
  // What a merge of s1 into demo-1 leaves when it dies after marking s1 and moving two of its runs.
  const fs::path merged = fs::absolute(dir / "merged");
  std::ofstream(maintenance::merged_marker(dir / "s1", "demo-1"))
      << json{{"format", "omnilink-merged"}, {"version", 1}, {"into", merged.string()}, {"campaign", "demo-1"}, {"shard", "1/2"}, {"complete", false}}.dump();
  std::vector<std::string> moved;
  for (const auto& [id, run] : testing::runs_by_id(dir / "s1", "demo-1")) {
    if (moved.size() == 2) break;
    fs::rename(dir / "s1" / "demo-1" / id, merged / "demo-1" / id);
    moved.push_back(id);
  }
  // Without --into: the marker says where it was going.
  const ProcessResult again = merge({merged.string(), (dir / "s1").string()});
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK_THAT(again.out, Contains("6 run(s) moved in; every shard of 2 merged"));
  const auto runs = testing::runs_by_id(merged, "demo-1");
  CHECK(runs.size() == 12);
  for (const auto& [id, run] : runs) {
    INFO(id);
    CHECK(run.status == store::RunStatus::ok);
    CHECK(run.validation.has_value());
    CHECK(fs::is_regular_file(fs::path(run.dir) / "meta.json"));
  }
  auto store = store::Store::open_read_only(merged);
  CHECK(store.campaign("demo-1")->status == store::CampaignStatus::finished);
}

TEST_CASE("the shards of a sweep merge into one sweep: each run once, numbered apart, and the next sweep follows it") {
  ScratchDir dir;
  const auto write = [&](const std::string& file, const json& content) {
    std::ofstream(dir / file) << content.dump(2);
    return (dir / file).string();
  };
  const std::string sweep_file = write("sweep.json", testing::stack_sweep());
  const auto shard = [&](const std::string& file, const std::string& store, const std::string& index, const std::string& verb = "sweep") {
    std::vector<std::string> argv{verb, file, "--store", (dir / store).string(), "--plain", "--shard", index};
    if (verb == "sweep") argv.insert(argv.end(), {"--max-runs", "3"});
    const ProcessResult r = testing::omnilink_cli(argv);
    INFO(r.out << r.err);
    REQUIRE((r.exit_code == 0 || r.exit_code == 1));
    return r;
  };
  shard(sweep_file, "s0", "0/2");
  shard(sweep_file, "s1", "1/2");
  // A shard started again in its store (a retried job) continues its sweep there.
  CHECK_THAT(shard(sweep_file, "s0", "0/2").out, Contains("shard 0/2 has a campaign in this store already: continuing nightly-1"));
  CHECK(store::Store::open_read_only(dir / "s0").campaigns().size() == 1);

  const ProcessResult merged = merge({(dir / "merged").string(), (dir / "s0").string(), (dir / "s1").string()});
  INFO(merged.out << merged.err);
  REQUIRE(merged.exit_code == 0);
  CHECK_THAT(merged.out, Contains("as campaign nightly-1 (new): 6 run(s) moved in; every shard of 2 merged"));
  const auto runs = testing::runs_by_id(dir / "merged", "nightly-1");
  REQUIRE(runs.size() == 6);
  std::set<std::uint64_t> seeds;
  std::multiset<std::uint32_t> parities;
  bool failed = false;
  for (const auto& [id, run] : runs) {
    INFO(id);
    seeds.insert(run.seed);
    parities.insert(run.number % 2);
    CHECK(fs::is_regular_file(fs::path(run.dir) / "validation" / "result.json"));
    failed |= store::outcome(run) == store::Outcome::fail || store::outcome(run) == store::Outcome::crashed;  // a signature either way
  }
  CHECK(seeds.size() == 6);
  CHECK(parities.count(1) == 3);  // shard 0: runs 1, 3, 5
  CHECK(parities.count(0) == 3);  // shard 1: runs 2, 4, 6
  auto store = store::Store::open_read_only(dir / "merged");
  CHECK(store.campaign("nightly-1")->status == store::CampaignStatus::finished);
  const json config = json::parse(store.campaign("nightly-1")->config_json);
  CHECK(config.contains("sweep"));
  CHECK_FALSE(config.contains("shard"));

  // `sweep --report` reports the merged sweep as a sweep that ran here would be, running nothing.
  const ProcessResult reported = testing::omnilink_cli({"sweep", sweep_file, "--store", (dir / "merged").string(), "--plain", "--report",
                                                       "--json", (dir / "merged.json").string()});
  INFO(reported.out << reported.err);
  CHECK(reported.exit_code == (failed ? 1 : 0));  // a failure is a new signature: there was no sweep before
  const json merged_report = json::parse(std::ifstream(dir / "merged.json"));
  CHECK(merged_report.at("sweep") == "nightly-1");
  CHECK(merged_report.at("runs") == 6);
  CHECK(merged_report.at("stop_reason") == "tasks");
  CHECK(merged_report.at("spent_ms").get<std::int64_t>() > 0);  // the time its runs took, with no clock of its own
  std::uint64_t allocated = 0;
  for (const json& c : merged_report.at("configurations")) allocated += c.at("runs").get<std::uint64_t>();
  CHECK(allocated == 6);
  CHECK(testing::runs_by_id(dir / "merged", "nightly-1").size() == 6);  // nothing ran

  // The next sweep in the merged store is the next of its name, and knows what the merged one found.
  const ProcessResult next = testing::omnilink_cli({"sweep", sweep_file, "--store", (dir / "merged").string(), "--plain", "--max-runs", "1",
                                                   "--json", (dir / "next.json").string()});
  INFO(next.out << next.err);
  const json report = json::parse(std::ifstream(dir / "next.json"));
  CHECK(report.at("sweep") == "nightly-2");
  if (failed) {
    REQUIRE_FALSE(report.at("signatures").empty());
    CHECK(report.at("signatures").at(0).at("first_seen") == "nightly-1");
  }

  // Shards of other sweep configurations, or of a campaign of the same name and targets, are refused.
  json other = testing::stack_sweep();
  other["targets"][0]["perturb_rate"] = 0.1;
  shard(write("other.json", other), "other1", "1/2");
  json as_campaign = testing::stack_sweep();
  as_campaign.erase("sweep");
  for (const char* dimension : {"perturb", "perturb_rate"}) as_campaign["targets"][0].erase(dimension);
  shard(write("campaign.json", as_campaign), "campaign1", "1/2", "campaign");
  shard(sweep_file, "again0", "0/2");
  for (const auto& [shard_store, why] : std::vector<std::pair<std::string, std::string>>{
           {"other1", "its sweep configurations differ"}, {"campaign1", "one is a sweep, the other a campaign"}}) {
    const ProcessResult refused = merge({(dir / "refused").string(), (dir / "again0").string(), (dir / shard_store).string()});
    CHECK(refused.exit_code == 3);
    CHECK_THAT(refused.err, Contains(why));
  }
}

TEST_CASE("merge keeps up with 100,000 runs") {
  // Synthetic: a shard campaign of 100,000 finished runs, each with a run directory holding a small
  // meta.json and a verdict, as the store indexes them; merged into an empty store.
  ScratchDir dir;
  constexpr std::uint32_t kRuns = 100'000;
  json file{{"format", 1},
            {"name", "big"},
            {"targets", {{{"name", "counter"}, {"harness", OMNILINK_EXAMPLE_ATOMIC_COUNTER}, {"spec", "AtomicCounter.tla"}, {"threads", 2},
                          {"ops", 10}, {"runs", kRuns}}}}};
  std::ofstream(dir / "big.json") << file.dump();
  campaign::LoadOptions load;
  load.store = dir / "shard";
  load.spec_dirs = {OMNILINK_SPECS_DIR};
  campaign::CampaignConfig config = campaign::load_campaign(dir / "big.json", load);
  config.shard = campaign::Shard{0, 1};
  {
    auto shard = store::Store::open(dir / "shard");
    const std::string id = shard.create_campaign(store::CampaignKind::campaign, "big", (dir / "big.json").string(), config.to_json().dump());
    REQUIRE(id == "big-1");
    auto runs = campaign::planned_records(config, id, dir / "shard");
    REQUIRE(runs.size() == kRuns);
    shard.add_runs(runs);
    for (auto& run : runs) {
      fs::create_directories(run.dir);
      std::ofstream(fs::path(run.dir) / "meta.json") << "{}";
      run.status = store::RunStatus::ok;
      run.rr_mode = store::RecordingMode::off;
      run.validation = store::ValidationRecord{Verdict::pass, "", "AtomicCounter.tla", 1, 1, std::nullopt, std::nullopt, 20, 20, "", 1};
    }
    shard.import_runs(runs);
  }
  const auto started = std::chrono::steady_clock::now();
  const auto report = maintenance::merge_shards(dir / "merged", {dir / "shard"}, std::nullopt);
  const auto took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "merged " << report.runs.size() << " runs in " << took << " s (" << static_cast<double>(report.runs.size()) / took << " runs/s)\n";
  CHECK(report.runs.size() == kRuns);
  CHECK(report.pending == 0);
  auto merged = store::Store::open_read_only(dir / "merged");
  const auto runs = merged.runs(report.campaign, store::RunStatus::ok);
  CHECK(runs.size() == kRuns);
  std::set<std::string> ids;
  std::size_t passed = 0;
  for (const auto& run : runs) {
    ids.insert(run.id);
    passed += run.validation && run.validation->verdict == Verdict::pass;
  }
  CHECK(ids.size() == kRuns);
  CHECK(passed == kRuns);
  CHECK(fs::is_regular_file(store::run_directory(dir / "merged", report.campaign, runs.back().id) / "meta.json"));
}
