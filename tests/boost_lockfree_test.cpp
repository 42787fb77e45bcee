// The shipped Boost.Lockfree campaign (examples/campaigns/boost-lockfree.json), shortened, with rr
// off: every run of boost::lockfree::queue and boost::lockfree::stack passes validation, and the
// traces hold the cases that make a pass meaningful (empty pops, refused pushes).
#include <catch2/catch.hpp>

#include <string>

#include "support/campaign_support.hpp"

using namespace omnilink::testing;

TEST_CASE("the boost-lockfree campaign passes, with empty pops and refused pushes in its traces") {
  ScratchDir dir;
  // 2 runs of each of the file's 3 thread counts, 500 operations per thread: 12 runs.
  const auto r = run_campaign(example_campaign("boost-lockfree.json"), dir,
                              {"--set", "rr=off", "--runs", "2", "--set", "targets.*.ops=500"});
  INFO(r.output);
  CHECK(r.exit_code == 0);
  for (const std::string target : {"boost-lockfree-queue", "boost-lockfree-stack"}) {
    INFO(target);
    CHECK(r.outcomes(target).size() == 6);
    CHECK(r.count(target, "pass") == 6);
  }
  // Each queue and stack starts empty and its length wanders around zero, so successful and
  // empty dequeues/pops occur in every run. The stack's capacity is 16, which these walks reach:
  // measured over 100 runs of each thread count (500 operations, the file's perturbation), runs
  // without a refused push were 3/100 with 2 threads and 0/100 with 3 or 4 (at least 5 and 10
  // refusals), so all 6 runs lacking one is far below 1e-6.
  CHECK(r.count_logged("boost-lockfree-queue", "Dequeue", "ok", true) > 0);
  CHECK(r.count_logged("boost-lockfree-queue", "Dequeue", "ok", false) > 0);
  CHECK(r.count_logged("boost-lockfree-stack", "Pop", "ok", true) > 0);
  CHECK(r.count_logged("boost-lockfree-stack", "Pop", "ok", false) > 0);
  CHECK(r.count_logged("boost-lockfree-stack", [](const omnilink::trace::Operation& op) { return op.name == "Push" && op.failed; }) > 0);
}
