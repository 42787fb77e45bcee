// What `omnilink explain` costs on a recorded failing run, split into the core search and the
// recording's analysis (the interleaving: the seek index, rr's event log, the boundary and stack
// probes), measured side by side on the same runs through the CLI. For each injected bug, a
// campaign records 3 threads x 3000 operations under `rr record --chaos` until `--runs` runs fail;
// each failing run is explained with --no-interleaving (the core alone), then again reusing that
// core (the recording's analysis alone), its seek index already built by a first replay, timed
// apart. Needs an rr that records here (rr.soft with -W on these machines).
//
// Usage: explain_recorded [--runs 3]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/rr_probe.hpp"
#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"

namespace fs = std::filesystem;
using namespace omnilink;
using nlohmann::json;

namespace {

struct Bug {
  std::string campaign, target;
};

ProcessResult cli(const std::vector<std::string>& args) {
  ProcessOptions options;
  options.timeout = std::chrono::minutes(20);
  return run_process(OMNILINK_CLI, args, options);
}

double seconds(const ProcessResult& r) { return static_cast<double>(r.duration.count()) / 1000.0; }

}  // namespace

int main(int argc, char** argv) {
  int wanted = 3;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--runs") wanted = std::stoi(argv[i + 1]);
  const ToolLocation rr = find_rr();
  if (!rr.found() || !probe_rr(*rr.path).can_record()) {
    std::printf("rr cannot record here (see omnilink doctor): nothing to measure\n");
    return 77;
  }
  const fs::path scratch = fs::temp_directory_path() / ("omnilink-explain-recorded-" + std::to_string(::getpid()));
  std::printf("%-18s %-48s %6s %9s %10s %11s %9s %8s\n", "bug", "run", "core", "core s", "index s", "analysis s", "analysis/core", "switches");
  for (const Bug& bug : {Bug{"ms-queue.json", "ms-queue-bug"}, Bug{"treiber-stack.json", "treiber-stack-bug"},
                         Bug{"striped-map.json", "striped-map-bug"}}) {
    const fs::path dir = scratch / bug.target;
    fs::create_directories(dir);
    std::ifstream in(fs::path(OMNILINK_SOURCE_DIR) / "examples" / "campaigns" / bug.campaign);
    json file = json::parse(in);
    json targets = json::array();
    for (auto& t : file.at("targets"))
      if (t.at("name") == bug.target) {
        t["runs"] = wanted + 2;
        t["threads"] = json::array({3});
        t["ops"] = json::array({3000});
        targets.push_back(t);
      }
    file["targets"] = targets;
    file["rr"] = "chaos";
    file["validation"] = {{"checker", "native"}, {"confirm_failures", 0}};
    std::ofstream(dir / "campaign.json") << file.dump(2);
    const std::string store = (dir / "store").string();
    cli({"campaign", (dir / "campaign.json").string(), "--store", store, "--plain", "--json", (dir / "summary.json").string()});
    std::ifstream summary_in(dir / "summary.json");
    const json summary = json::parse(summary_in, nullptr, false);
    if (!summary.is_object()) continue;
    int measured = 0;
    for (const auto& run : summary.at("runs")) {
      if (run.at("outcome") != "fail" || measured == wanted) continue;
      const std::string key = run.at("run").get<std::string>();
      const ProcessResult core = cli({"explain", key, "--store", store, "--fresh", "--no-interleaving", "--json"});
      if (!core.ok()) continue;
      const auto core_ops = json::parse(core.out).at("core").size();
      // The seek index is built once per recording (omnilink replay builds the same one): timed apart.
      const json first = json::parse(core.out).at("core").at(0);
      const std::string op = "T" + std::to_string(first.at("thread").get<int>()) + "." + std::to_string(first.at("index").get<int>());
      const ProcessResult index = cli({"replay", key, "--store", store, "--batch", op});
      const ProcessResult analysis = cli({"explain", key, "--store", store, "--json"});
      if (!analysis.ok()) continue;
      const json e = json::parse(analysis.out);
      const std::size_t switches = e.contains("interleaving") ? e.at("interleaving").at("switches").get<std::size_t>() : 0;
      std::printf("%-18s %-48s %6zu %9.2f %10.2f %11.2f %13.2f %8zu\n", bug.target.c_str(), key.c_str(), core_ops, seconds(core),
                  seconds(index), seconds(analysis), seconds(analysis) / seconds(core), switches);
      ++measured;
    }
  }
  fs::remove_all(scratch);
  return 0;
}
