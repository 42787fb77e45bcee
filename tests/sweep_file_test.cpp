// The sweep file's reading (sweep/sweep_file), the sizes and durations it takes, and the budget a
// resumed sweep goes on with (sweep/sweep_clock): unit tests, no harness runs.
#include <catch2/catch.hpp>

#include <fstream>

#include "sweep/retention.hpp"
#include "sweep/sweep_clock.hpp"
#include "sweep/sweep_file.hpp"
#include "support/test_support.hpp"

namespace {

using namespace omnilink;
using Catch::Matchers::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

json minimal_sweep() {
  return {{"format", 1},
          {"sweep", {{"for", "10m"}}},
          {"targets", {{{"name", "q"}, {"harness", "/bin/true"}, {"spec", "Q.tla"}, {"threads", {2, 3}}, {"ops", 100}}}}};
}

struct Fixture {
  testing::ScratchDir dir;
  Fixture() { std::ofstream(dir / "Q.tla") << "---- MODULE Q ----\n====\n"; }

  sweep::SweepConfig load(const json& document, const sweep::BudgetOverride& budget = {}) {
    std::ofstream(dir / "s.json") << document.dump(2);
    campaign::LoadOptions options;
    options.store = dir / "store";
    return sweep::load_sweep(dir / "s.json", options, budget);
  }
  std::string error(const json& document, const sweep::BudgetOverride& budget = {}) {
    try {
      load(document, budget);
    } catch (const campaign::CampaignFileError& e) {
      return e.what();
    }
    return "(no error)";
  }
};

TEST_CASE("a sweep's configurations are every combination of each target's lists, named for run ids") {
  Fixture f;
  json d = minimal_sweep();
  d["targets"][0]["perturb"] = {"none", "sleep"};
  d["targets"][0]["perturb_rate"] = 0.05;
  d["targets"][0]["rr_timeslice_ticks"] = {{"from", 1000}, {"to", 100000}, {"times", 10}};
  const auto config = f.load(d);
  REQUIRE(config.configurations.size() == 2 * 2 * 3);
  CHECK(config.configurations.front().name == "q.t2.o100.pnone.pr0.05.ts1000");
  CHECK(config.configurations.back().name == "q.t3.o100.psleep.pr0.05.ts100000");
  CHECK(config.sweep.budget.duration == std::chrono::seconds(600));
  CHECK(config.sweep.min_runs == 3);
  CHECK_FALSE(config.sweep.keep_passing_recordings);

  // Dimensions not listed are left to the target's own arguments, and do not show in names.
  const auto plain = f.load(minimal_sweep());
  REQUIRE(plain.configurations.size() == 2);
  CHECK(plain.configurations[1].name == "q.t3.o100");
  CHECK_FALSE(plain.configurations[1].perturb);

  store::RunRecord run;
  run.id = "q.t3.o100.r00012";
  CHECK(sweep::configuration_of(plain, run) == &plain.configurations[1]);
  run.id = "q.t4.o100.r00012";
  CHECK(sweep::configuration_of(plain, run) == nullptr);
  run.id = "q.t3.o100.rx";
  CHECK(sweep::configuration_of(plain, run) == nullptr);
}

TEST_CASE("a stored sweep reads back with its settings and configurations and a campaign's as none") {
  Fixture f;
  json d = minimal_sweep();
  d["sweep"]["max_runs"] = 40;
  d["sweep"]["evidence_runs"] = 5;
  d["sweep"]["fixed_confidence"] = 0.99;
  d["sweep"]["keep_failing_recordings"] = true;
  const sweep::SweepConfig config = f.load(d);
  const auto stored = sweep::stored_sweep(config.to_json(), "stored");
  REQUIRE(stored);
  CHECK(stored->settings.budget.duration == std::chrono::seconds(600));
  CHECK(stored->settings.max_runs == std::optional<std::uint64_t>(40));
  CHECK_FALSE(stored->settings.max_failures);
  CHECK(stored->settings.evidence_runs == 5);
  CHECK(stored->settings.fixed_confidence == 0.99);
  CHECK(stored->settings.keep_failing_recordings);
  CHECK(stored->configurations == std::vector<std::string>{"q.t2.o100", "q.t3.o100"});
  CHECK(sweep::plan_difference(config.to_json(), config.to_json()).empty());

  CHECK_FALSE(sweep::stored_sweep(config.campaign.to_json(), "stored"));  // a campaign's
  json older = config.to_json();  // a store written before evidence_runs: the default
  older["sweep"].erase("evidence_runs");
  CHECK(sweep::stored_sweep(older, "stored")->settings.evidence_runs == sweep::SweepSettings{}.evidence_runs);
  json damaged = config.to_json();
  damaged["sweep"]["configurations"] = "q.t2.o100";
  CHECK_THROWS_AS(sweep::stored_sweep(damaged, "store/nightly-1/campaign.json"), campaign::CampaignFileError);
  CHECK_THROWS_WITH(sweep::stored_sweep(damaged, "store/nightly-1/campaign.json"),
                    Catch::Matchers::StartsWith("store/nightly-1/campaign.json: the stored sweep is not one this omnilink wrote"));
}

TEST_CASE("the sweep file is read as strictly as the campaign file") {
  Fixture f;
  json d = minimal_sweep();
  d["targets"][0]["runs"] = 5;
  CHECK_THAT(f.error(d), Contains(": targets[0] (q).runs: not in a sweep file"));
  d = minimal_sweep();
  d["sweep"]["for"] = "8 hours";
  CHECK_THAT(f.error(d), Contains(": sweep.for: '8 hours' is not a duration"));
  d = minimal_sweep();
  d["sweep"].erase("for");
  CHECK_THAT(f.error(d), Contains(": sweep: a sweep needs a time budget"));
  CHECK(f.load(d, {"90m", std::nullopt}).sweep.budget.duration == std::chrono::seconds(5400));
  CHECK(f.load(d, {std::nullopt, "06:30"}).sweep.budget.until == "06:30");
  CHECK_THAT(f.error(d, {std::nullopt, "25:00"}), Contains("--until: '25:00' is not a time of day"));
  d["sweep"]["for"] = "1h";
  d["sweep"]["until"] = "06:00";
  CHECK_THAT(f.error(d), Contains(": sweep.until: give for or until, not both"));
  d = minimal_sweep();
  d["sweep"]["max_run"] = 3;
  CHECK_THAT(f.error(d), Contains(": sweep.max_run: unknown field"));
  d = minimal_sweep();
  d["targets"][0]["perturb"] = {"sleep", "nap"};
  CHECK_THAT(f.error(d), Contains(": targets[0] (q).perturb[1]: 'nap' is not a perturbation mode"));
  d = minimal_sweep();
  d["targets"][0]["perturb_rate"] = {0.1, 1.5};
  CHECK_THAT(f.error(d), Contains(": targets[0] (q).perturb_rate[1]: must be a number above 0 and at most 1"));
  d = minimal_sweep();
  d["sweep"]["fixed_confidence"] = 1;
  CHECK_THAT(f.error(d), Contains(": sweep.fixed_confidence: must be at least 0.5 and below 1"));
  // A campaign file does not take a sweep's fields.
  d = minimal_sweep();
  d.erase("sweep");
  d["targets"][0]["perturb"] = {"sleep"};
  std::ofstream(f.dir / "c.json") << d.dump();
  campaign::LoadOptions options;
  options.store = f.dir / "store";
  CHECK_THROWS_WITH(campaign::load_campaign(f.dir / "c.json", options), Contains(": targets[0] (q).perturb: unknown field"));
}

TEST_CASE("store sizes for the quota") {
  CHECK(sweep::parse_size("4096") == 4096u);
  CHECK(sweep::parse_size("500m") == 500ull << 20);
  CHECK(sweep::parse_size("20G") == 20ull << 30);
  CHECK(sweep::parse_size("1t") == 1ull << 40);
  for (const char* bad : {"", "g", "1.5g", "10gb", "-1", "99999999999999999999", "20000000000t"}) CHECK_FALSE(sweep::parse_size(bad));
  Fixture f;
  json d = minimal_sweep();
  d["sweep"]["store_quota"] = "20g";
  CHECK(f.load(d).sweep.store_quota == 20ull << 30);
  CHECK(sweep::size_text(20ull << 30) == "20.0 GiB");
  CHECK(sweep::size_text(1536) == "1.5 KiB");
  CHECK(sweep::size_text(12) == "12 bytes");
  d["sweep"]["store_quota"] = "lots";
  CHECK_THAT(f.error(d), Contains(": sweep.store_quota: 'lots' is not a size"));
  // Without one, a sweep's quota is its store's size plus half of what is free (give or take what
  // the machine's other writers did in between).
  std::ofstream(f.dir / "trace.bin", std::ios::binary) << std::string(100'000, 'x');
  const std::uint64_t expected = sweep::disk_size(f.dir.path()) + fs::space(f.dir.path()).available / 2;
  const std::uint64_t quota = sweep::default_store_quota(f.dir.path());
  CHECK(quota >= 100'000u);
  CHECK(quota + (64u << 20) >= expected);
  CHECK(quota <= expected + (64u << 20));
}

TEST_CASE("durations and times of day") {
  CHECK(sweep::parse_duration("8h") == std::chrono::seconds(8 * 3600));
  CHECK(sweep::parse_duration("1h30m") == std::chrono::seconds(5400));
  CHECK(sweep::parse_duration("45s") == std::chrono::seconds(45));
  for (const char* bad : {"", "h", "10", "1m1h", "1h1h", "-5m", "0s", "5d"}) CHECK_FALSE(sweep::parse_duration(bad));
  CHECK(sweep::parse_time_of_day("06:00") == 360);
  CHECK(sweep::parse_time_of_day("23:59") == 23 * 60 + 59);
  for (const char* bad : {"6:00", "24:00", "06:60", "0600", "ab:cd"}) CHECK_FALSE(sweep::parse_time_of_day(bad));
}

}  // namespace

TEST_CASE("a resumed sweep goes on within what is left, unless --for or --until is given again, which sets what is left",
          "[sweep][clock]") {
  Fixture f;
  const fs::path file = f.dir / "sweep-clock.json";
  auto saved = [&](std::int64_t spent_ms, std::int64_t budget_ms) {
    std::ofstream(file) << json{{"format", "omnilink-sweep-clock"}, {"version", 1}, {"spent_ms", spent_ms}, {"budget_ms", budget_ms}}.dump();
  };
  using std::chrono::milliseconds;
  using std::chrono::seconds;
  sweep::Budget ten_minutes{seconds(600), std::nullopt};
  saved(50'000, 60'000);
  const auto kept = sweep::SweepClock::start(file, ten_minutes, /*resume=*/true);
  CHECK(kept.left() <= milliseconds(10'000));
  CHECK(kept.left() > milliseconds(9'000));
  saved(50'000, 60'000);
  const auto restated = sweep::SweepClock::start(file, sweep::Budget{seconds(5), std::nullopt}, true, /*restated=*/true);
  CHECK(restated.left() <= milliseconds(5'000));
  CHECK(restated.left() > milliseconds(4'000));
  CHECK(restated.spent() >= milliseconds(50'000));  // the time spent stays spent
  CHECK(sweep::SweepClock::read(file).left() > milliseconds(4'000));  // and it is saved
  saved(50'000, 60'000);
  const auto until = sweep::SweepClock::start(file, sweep::Budget{std::nullopt, "23:59"}, true, true);
  CHECK(until.left() > milliseconds(0));
  CHECK(json::parse(std::ifstream(file)).contains("deadline_ms"));
  CHECK_FALSE(json::parse(std::ifstream(file)).contains("budget_ms"));
  // Resuming, the file need not name a budget: the clock has it.
  json no_budget = minimal_sweep();
  no_budget["sweep"].erase("for");
  CHECK_THAT(f.error(no_budget), Contains("a sweep needs a time budget"));
  sweep::BudgetOverride resuming;
  resuming.resuming = true;
  CHECK(f.error(no_budget, resuming) == "(no error)");
}
