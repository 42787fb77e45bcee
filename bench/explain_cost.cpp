// What `omnilink explain` costs beside the validation that found the failure, measured side by
// side on the same failing runs: for each injected bug (and the racy queue), 3 threads x 3000
// operations (the striped map: 8 keys, checked key by key), the native validation's wall time, the
// failing core's (minimisation, then the core and its context checked), the ratio, and the core's
// size. Runs are found by seed from 1 until `--runs` of each fail natively. The recording's
// analysis (the interleaving) is measured by bench/explain_recorded, on recorded runs.
//
// Usage: explain_cost [--runs 5]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "explain/explain.hpp"
#include "platform/subprocess.hpp"
#include "validation/validate.hpp"
#include "median.hpp"

namespace fs = std::filesystem;
using namespace omnilink;
using Clock = std::chrono::steady_clock;

namespace {

struct Target {
  std::string name, harness, spec, mc;
  std::vector<std::string> args;
};

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  for (int i = 1; i + 1 < argc; i += 2)
    if (std::string(argv[i]) == "--runs") runs = std::stoi(argv[i + 1]);
  const std::string specs = OMNILINK_SPECS_DIR;
  const std::vector<Target> targets{
      {"ms-queue-bug", OMNILINK_MS_QUEUE_BUG, "LinearizableQueue.tla", "", {"--threads", "3", "--ops", "3000", "--perturb", "sleep", "--perturb-rate", "0.02", "--param", "max_len=16"}},
      {"treiber-stack-bug", OMNILINK_TREIBER_STACK_BUG, "Stack.tla", "", {"--threads", "3", "--ops", "3000", "--perturb", "sleep", "--perturb-rate", "0.02"}},
      {"striped-map-bug", OMNILINK_STRIPED_MAP_BUG, "Map.tla", "MCMapPartitioned.tla", {"--threads", "3", "--ops", "3000", "--perturb", "mixed", "--perturb-rate", "0.1", "--param", "keys=8"}},
      {"racy-queue", OMNILINK_RACY_QUEUE, "LinearizableQueue.tla", "", {"--threads", "3", "--ops", "3000", "--perturb", "mixed", "--perturb-rate", "0.05"}},
  };
  const fs::path scratch = fs::temp_directory_path() / "omnilink-bench-explain";
  std::printf("explain beside validation, native, %d failing runs each (medians)\n", runs);
  std::printf("%-18s %6s %12s %10s %8s %10s %10s\n", "target", "seeds", "validate s", "core s", "core/val", "core ops", "largest");
  for (const Target& t : targets) {
    std::vector<double> validate_s, core_s, ratios, sizes;
    int seed = 0;
    while (static_cast<int>(core_s.size()) < runs && seed < 40 * runs) {
      ++seed;
      const fs::path run = scratch / (t.name + "-" + std::to_string(seed));
      fs::remove_all(run);
      std::vector<std::string> args = t.args;
      for (const std::string& a : {std::string("--seed"), std::to_string(seed), std::string("--quiet"), std::string("--out"), run.string()})
        args.push_back(a);
      if (!run_process(t.harness, args).ok()) continue;
      explain::ExplainOptions o;
      o.validate.run_dir = run;
      o.validate.spec = specs + "/" + t.spec;
      if (!t.mc.empty()) o.validate.mc = specs + "/" + t.mc;
      o.validate.checker = validation::Checker::native;
      o.validate.confirm_failures = false;
      o.reuse = false;
      const auto validating = Clock::now();
      const auto verdict = validation::validate_run(o.validate);
      const double v = seconds_since(validating);
      if (verdict.verdict != validation::Verdict::fail) continue;
      const auto explaining = Clock::now();
      const explain::Explanation e = explain::explain_run(o);
      const double c = seconds_since(explaining);
      validate_s.push_back(v);
      core_s.push_back(c);
      ratios.push_back(c / v);
      sizes.push_back(static_cast<double>(e.core.size()));
    }
    std::printf("%-18s %6d %12.3f %10.3f %8.2f %10.0f %10.0f\n", t.name.c_str(), seed, median(validate_s), median(core_s), median(ratios),
                median(sizes), sizes.empty() ? 0.0 : *std::max_element(sizes.begin(), sizes.end()));
  }
  fs::remove_all(scratch);
  return 0;
}
