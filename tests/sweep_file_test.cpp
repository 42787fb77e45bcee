// The sweep file's reading (sweep/sweep_file), the allocator's sharing of runs, and the arithmetic
// behind "fixed" (sweep/signature_history): unit tests, no harness runs.
#include <catch2/catch.hpp>

#include <fstream>

#include "sweep/allocator.hpp"
#include "sweep/retention.hpp"
#include "sweep/signature_history.hpp"
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

  campaign::RunRecord run;
  run.id = "q.t3.o100.r00012";
  CHECK(sweep::configuration_of(plain, run) == &plain.configurations[1]);
  run.id = "q.t4.o100.r00012";
  CHECK(sweep::configuration_of(plain, run) == nullptr);
  run.id = "q.t3.o100.rx";
  CHECK(sweep::configuration_of(plain, run) == nullptr);
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
  d["sweep"]["store_quota"] = "lots";
  CHECK_THAT(f.error(d), Contains(": sweep.store_quota: 'lots' is not a size"));
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

TEST_CASE("the allocator gives every configuration its minimum, then favours those that find something") {
  sweep::Allocator allocator(3, 2);
  std::vector<int> first;
  for (int i = 0; i < 6; ++i) {
    const auto c = allocator.next();
    first.push_back(static_cast<int>(c));
    allocator.started(c);
  }
  CHECK(first == std::vector<int>{0, 1, 2, 0, 1, 2});
  for (std::size_t c = 0; c < 3; ++c)
    for (int i = 0; i < 2; ++i) allocator.finished(c, c == 1);  // only configuration 1 finds anything
  std::vector<int> picks(3, 0);
  for (int i = 0; i < 200; ++i) {
    const auto c = allocator.next();
    ++picks[c];
    allocator.started(c);
    allocator.finished(c, c == 1);
  }
  CHECK(picks[1] > picks[0] * 3);
  CHECK(picks[1] > picks[2] * 3);
  CHECK(picks[0] > 0);  // the others keep getting some
  CHECK(picks[2] > 0);
}

TEST_CASE("fixed: runs without a signature that its measured failure rate would not have passed") {
  // The Wilson interval of 0 successes in 10 at 95% is about 0 to 0.278.
  CHECK(sweep::wilson_upper(0, 10, 0.95) == Approx(0.2775).margin(0.001));
  CHECK(sweep::wilson_lower(5, 10, 0.95) == Approx(0.2366).margin(0.001));
  CHECK(sweep::wilson_lower(0, 0, 0.95) == 0);
  // At a rate of one half, 5 clean runs leave a 1/32 chance: below 5%, so 5 runs.
  CHECK(sweep::runs_to_rule_out(0.5, 0.95) == 5);
  CHECK(sweep::runs_to_rule_out(0.01, 0.95) == 299);
  CHECK(sweep::runs_to_rule_out(0, 0.95) == 0);
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
