// Validation wall time and TLC's peak RSS for accepted and rejected 5-thread queue traces of
// growing length. Traces come from the real locked-queue harness; the rejected ones use its
// --param bad_last=1 (thread 0's last dequeue reports an element nobody enqueued), so TLC must
// linearize everything before it first. Wall time is omnilink's whole validation: reading the
// trace, writing TLC's input, TLC itself.
//
// Usage: validation_scaling [--sizes 500,1000,10000,100000,500000] [--heap 2g]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"
#include "checkers/validate.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  std::vector<std::uint64_t> sizes{500, 1000, 10000, 100000, 500000};
  std::string heap = "2g";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--sizes") {
      sizes.clear();
      std::stringstream list(argv[i + 1]);
      for (std::string n; std::getline(list, n, ',');) sizes.push_back(std::stoull(n));
    } else if (flag == "--heap") {
      heap = argv[i + 1];
    }
  }
  if (!omnilink::find_tlc_jar().found()) {
    std::printf("TLC not found (%s): nothing to measure\n", omnilink::find_tlc_jar().explain_missing().c_str());
    return 1;
  }
  const fs::path scratch = fs::temp_directory_path() / "omnilink-bench-validation";
  std::printf("validation of 5-thread locked-queue traces against LinearizableQueue.tla (TLC heap %s)\n", heap.c_str());
  std::printf("%10s  %-9s %8s %10s %12s %12s\n", "operations", "trace", "verdict", "wall s", "TLC peak MiB", "states");
  for (std::uint64_t n : sizes) {
    for (bool bad : {false, true}) {
      fs::remove_all(scratch);
      std::vector<std::string> args{"--threads", "5", "--ops", std::to_string(n / 5), "--seed", "1", "--quiet", "--out", scratch.string()};
      if (bad) args.insert(args.end(), {"--param", "bad_last=1"});
      omnilink::ProcessOptions po;
      po.timeout = std::chrono::minutes(10);
      const auto harness = omnilink::run_process(OMNILINK_LOCKED_QUEUE, args, po);
      if (!harness.ok()) {
        std::printf("harness failed: %s\n", harness.describe().c_str());
        return 1;
      }
      omnilink::checkers::ValidateOptions o;
      o.run_dir = scratch;
      o.spec = OMNILINK_QUEUE_SPEC;
      o.heap = heap;
      o.timeout = std::chrono::minutes(20);
      const auto begin = std::chrono::steady_clock::now();
      o.checker = omnilink::checkers::Checker::tlc;  // this benchmark measures TLC; checker_comparison compares
      const auto r = omnilink::checkers::validate_run(o);
      const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - begin;
      std::printf("%10llu  %-9s %8s %10.2f %12llu %12llu\n", static_cast<unsigned long long>(r.operations),
                  bad ? "rejected" : "accepted", to_string(r.verdict).c_str(), wall.count(),
                  static_cast<unsigned long long>(r.peak_rss_kb / 1024),
                  static_cast<unsigned long long>(r.states_generated.value_or(0)));
      std::fflush(stdout);
    }
  }
  fs::remove_all(scratch);
  return 0;
}
