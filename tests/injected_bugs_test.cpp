// Our own concurrent structures with injected bugs (examples/injected-bugs), end to end: each
// structure's shipped campaign through the real CLI and a real TLC. The correct variants' runs must
// all pass (rr off); every bug must fail within its budget of runs under rr chaos, the campaigns'
// own mode (SKIPPED where rr cannot record), and the MS queue's also natively. SKIPPED (77)
// without TLC.
//
// A race is found only when a thread is interrupted inside the bug's window, so detection per run
// is a rate, measured (2 cores, loaded) with the settings each case uses; budgets are chosen so that
// missing a bug that is there has probability below 1e-4.
#include <catch2/catch.hpp>

#include <iostream>

#include "support/campaign_support.hpp"

namespace {

using omnilink::testing::CampaignResult;
using omnilink::testing::ScratchDir;

CampaignResult run_shipped(const std::string& structure, const ScratchDir& dir, int bug_runs, int correct_runs) {
  return omnilink::testing::run_campaign(
      omnilink::testing::example_campaign(structure + ".json"), dir,
      {"--set", "rr=off", "--set", "targets." + structure + "-bug.runs=" + std::to_string(bug_runs), "--set",
       "targets." + structure + ".runs=" + std::to_string(correct_runs)});
}

void require_all_pass(const CampaignResult& r, const std::string& target, std::size_t runs) {
  CHECK(r.outcomes(target) == std::vector<std::string>(runs, "pass"));
}

// The campaign found BUG (exit 1, a failed run among its `budget`); prints after how many runs.
void require_found(const CampaignResult& r, const std::string& bug, int budget, const std::string& lane) {
  CHECK(r.exit_code == 1);
  const std::size_t first = r.first_failure(bug);
  CHECK(first >= 1);
  std::cout << bug << " " << lane << ": first failure at run " << first << ", " << r.count(bug, "fail") << " of "
            << budget << " runs failed\n";
}

// Runs STRUCTURE's shipped campaign under rr chaos without perturbation, its bug target only, for
// `budget` runs, and asserts a failure among them; prints how many runs it took.
void require_found_under_rr(const std::string& structure, int budget) {
  omnilink::testing::require_rr_chaos();
  ScratchDir dir;
  const std::string bug = structure + "-bug";
  const auto r = omnilink::testing::run_campaign(omnilink::testing::example_campaign(structure + ".json"), dir,
                                                 {"--rr", "chaos", "--only", bug, "--set",
                                                  "targets." + bug + ".runs=" + std::to_string(budget),
                                                  "--harness-arg=--perturb", "--harness-arg=none"});
  INFO(r.output);
  require_found(r, bug, budget, "under rr chaos");
}

// Runs STRUCTURE's shipped campaign natively (rr off, the file's perturbation): its correct target
// once, its bug target `budget` times; the correct run must pass and a bug run must fail.
void require_found_natively(const std::string& structure, int budget) {
  ScratchDir dir;
  const std::string bug = structure + "-bug";
  const auto r = run_shipped(structure, dir, budget, 1);
  INFO(r.output);
  require_all_pass(r, structure, 1);
  require_found(r, bug, budget, "natively");
}

}  // namespace

// Natively, with the files' sleep perturbation: ms-queue-bug failed 17 of 20 runs, treiber-stack-bug
// 15 of 20 (bench/bug_hunt); before the harness's start latch, on a loaded machine, 8 of 16 and 3 of
// 16. Budgets assume 0.5 for the queue (0.5^14 < 1e-4) and 0.4 for the stack (0.6^20 < 1e-4).
// striped-map-bug failed 2 of 20: too rare for a bounded native test.
TEST_CASE("ms-queue: the correct queue passes, the missing re-check is found natively", "[injected-bugs][tlc]") {
  require_found_natively("ms-queue", 14);
}

TEST_CASE("treiber-stack: the correct stack passes, publishing before initialising is found natively",
          "[injected-bugs][tlc]") {
  require_found_natively("treiber-stack", 20);
}

TEST_CASE("striped-map: the correct map passes", "[injected-bugs][tlc]") {
  ScratchDir dir;
  const auto r = run_shipped("striped-map", dir, 1, 2);
  INFO(r.output);
  require_all_pass(r, "striped-map", 2);
}

// Budgets: bench/bug_hunt's rr chaos lane, which these cases run (the campaigns' default timeslice of
// 2000 ticks, no perturbation), found every bug in 20 of 20 runs; in CI, under ctest -j2, the queue
// and the stack failed 5 of 5 every time, the map once only 4 of 5. Assumed per-run rates: 0.85 for
// the queue and the stack (0.15^5 < 1e-4), 0.75 for the map (0.25^7 < 1e-4). The files' own sleep
// perturbation lowers the map's rate under rr (7 of 8 in docs/results.md), so it is turned off here.
TEST_CASE("ms-queue: the missing re-check is found under rr chaos", "[injected-bugs][tlc][rr]") {
  require_found_under_rr("ms-queue", 5);
}

TEST_CASE("treiber-stack: publishing before initialising is found under rr chaos", "[injected-bugs][tlc][rr]") {
  require_found_under_rr("treiber-stack", 5);
}

TEST_CASE("striped-map: the unlocked reader is found under rr chaos", "[injected-bugs][tlc][rr]") {
  require_found_under_rr("striped-map", 7);
}
