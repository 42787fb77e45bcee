// Our own concurrent structures with injected bugs (examples/injected-bugs), end to end: each
// structure's shipped campaign, rr off, through the real CLI and a real TLC. The correct variants'
// runs must all pass; the MS queue's bug must fail within its seed budget. SKIPPED (77) without TLC.
//
// Natively these races are found only when the harness's threads overlap and one of them is
// interrupted inside the bug's window, so detection per run is a rate, measured here (2 cores,
// loaded) with the campaign's own settings; budgets are chosen so that missing a bug that is there
// has probability below 1e-4.
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

}  // namespace

TEST_CASE("ms-queue: the correct queue passes, the missing re-check is found", "[injected-bugs][tlc]") {
  omnilink::testing::require_tlc();
  ScratchDir dir;
  // Measured: ms-queue-bug failed 8 of 16 runs of the shipped configuration (rr off); 0.5^14 < 1e-4.
  const int budget = 14;
  const auto r = run_shipped("ms-queue", dir, budget, 1);
  INFO(r.output);
  CHECK(r.exit_code == 1);
  require_all_pass(r, "ms-queue", 1);
  const std::size_t first = r.first_failure("ms-queue-bug");
  CHECK(first >= 1);
  std::cout << "ms-queue-bug: first failure at run " << first << ", " << r.count("ms-queue-bug", "fail") << " of "
            << budget << " runs failed\n";
}

// The stack's and the map's bugs are not asserted here: natively their detection rates are too
// low for a bounded test (treiber-stack-bug: 3 of 16 runs failed; striped-map-bug: none of 33).
TEST_CASE("treiber-stack: the correct stack passes", "[injected-bugs][tlc]") {
  omnilink::testing::require_tlc();
  ScratchDir dir;
  const auto r = run_shipped("treiber-stack", dir, 1, 2);
  INFO(r.output);
  require_all_pass(r, "treiber-stack", 2);
}

TEST_CASE("striped-map: the correct map passes", "[injected-bugs][tlc]") {
  omnilink::testing::require_tlc();
  ScratchDir dir;
  const auto r = run_shipped("striped-map", dir, 1, 2);
  INFO(r.output);
  require_all_pass(r, "striped-map", 2);
}
