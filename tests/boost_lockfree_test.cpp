// The shipped Boost.Lockfree campaign (examples/campaigns/boost-lockfree.json), shortened, with rr
// off: every run of boost::lockfree::queue and boost::lockfree::stack passes validation, and the
// traces hold the cases that make a pass meaningful (empty pops, refused pushes).
#include <catch2/catch.hpp>

#include <string>

#include "support/campaign_support.hpp"

namespace {

using namespace omnilink::testing;

// How many of TARGET's logged operations are NAME with boolean field FIELD equal to VALUE.
std::size_t count_ops(const CampaignResult& result, const std::string& target, const std::string& name,
                      const std::string& field, bool value) {
  std::size_t n = 0;
  for (const auto& run : result.summary.at("runs")) {
    if (run.at("target") != target) continue;
    for (const auto& thread : read_run(run.at("dir").get<std::string>()))
      for (const auto& op : thread.ops) {
        const auto* v = op.field(field);
        n += op.name == name && !op.failed && v != nullptr && v->is<bool>() && v->as<bool>() == value;
      }
  }
  return n;
}

// How many of TARGET's logged operations named NAME failed without effect.
std::size_t count_refused(const CampaignResult& result, const std::string& target, const std::string& name) {
  std::size_t n = 0;
  for (const auto& run : result.summary.at("runs")) {
    if (run.at("target") != target) continue;
    for (const auto& thread : read_run(run.at("dir").get<std::string>()))
      for (const auto& op : thread.ops) n += op.name == name && op.failed;
  }
  return n;
}

}  // namespace

TEST_CASE("the boost-lockfree campaign passes, with empty pops and refused pushes in its traces") {
  require_tlc();
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
  CHECK(count_ops(r, "boost-lockfree-queue", "Dequeue", "ok", true) > 0);
  CHECK(count_ops(r, "boost-lockfree-queue", "Dequeue", "ok", false) > 0);
  CHECK(count_ops(r, "boost-lockfree-stack", "Pop", "ok", true) > 0);
  CHECK(count_ops(r, "boost-lockfree-stack", "Pop", "ok", false) > 0);
  CHECK(count_refused(r, "boost-lockfree-stack", "Push") > 0);
}
