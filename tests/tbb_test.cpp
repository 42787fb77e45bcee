// The shipped oneTBB campaign (examples/campaigns/tbb.json), shortened, with rr off: every run of
// tbb::concurrent_queue and tbb::concurrent_hash_map passes validation, and the traces hold the
// cases that make a pass meaningful (empty pops; finds that hit and miss; refused inserts).
#include <catch2/catch.hpp>

#include <string>

#include "support/campaign_support.hpp"

using namespace omnilink::testing;

TEST_CASE("the tbb campaign passes, with empty pops and finds that hit and miss in its traces") {
  ScratchDir dir;
  // 2 runs of each of the file's 3 thread counts, 500 operations per thread: 12 runs.
  const auto r = run_campaign(example_campaign("tbb.json"), dir,
                              {"--set", "rr=off", "--runs", "2", "--set", "targets.*.ops=500"});
  INFO(r.output);
  CHECK(r.exit_code == 0);
  for (const std::string target : {"tbb-concurrent-queue", "tbb-concurrent-hash-map"}) {
    INFO(target);
    CHECK(r.outcomes(target).size() == 6);
    CHECK(r.count(target, "pass") == 6);
  }
  // The queue starts empty and its length wanders around zero: both kinds of pop occur in every
  // run. The map has 8 keys, each inserted, erased and looked up about every 16 operations
  // of a thread: every outcome of every operation occurs hundreds of times.
  CHECK(r.count_logged("tbb-concurrent-queue", "Dequeue", "ok", true) > 0);
  CHECK(r.count_logged("tbb-concurrent-queue", "Dequeue", "ok", false) > 0);
  for (const bool outcome : {true, false}) {
    INFO("outcome " << outcome);
    CHECK(r.count_logged("tbb-concurrent-hash-map", "Find", "found", outcome) > 0);
    CHECK(r.count_logged("tbb-concurrent-hash-map", "Insert", "inserted", outcome) > 0);
    CHECK(r.count_logged("tbb-concurrent-hash-map", "Erase", "erased", outcome) > 0);
  }
}
