// A sweep of the injected-bug targets for a fixed time on this machine, through the real CLI
// (`omnilink sweep examples/sweeps/injected-bugs.json`, rr as `auto` finds it), and what it did:
//
//  - runs, runs per hour, and the share of each outcome;
//  - where the time went, from the store: the harness runs (under rr: `rr record`), `rr pack`, and
//    validation, each summed over runs, against the harness slots the sweep had (wall time x jobs);
//    what is left of the slots is orchestration and waiting for validation (new runs wait while
//    validations queue up);
//  - how far past its budget it ended (the runs in flight finish);
//  - store growth per 1000 runs without retention (the sweep keeps every recording:
//    keep_passing_recordings and keep_failing_recordings), with the default retention (after
//    `omnilink gc`, which drops every recording that is not evidence, as a sweep does by default),
//    and at the floor a store quota can reach (`omnilink gc --quota 1`: evidence and every run's
//    verdict), measured on the same store one after another.
//
// Usage: sweep_throughput [--minutes M] [--rr auto|off|chaos] [--dir SCRATCH] [--keep]
//   --minutes M   the sweep's budget (default 10)
//   --rr MODE     the sweep's rr mode (default auto)
//   --dir SCRATCH scratch directory (default $TMPDIR/omnilink-bench-sweep-PID; removed unless --keep)
// Exit status 0 unless something failed to run (then 1, with the reason).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "store/outcome.hpp"
#include "store/store.hpp"
#include "platform/subprocess.hpp"
#include "sweep/retention.hpp"

namespace {

namespace fs = std::filesystem;
using namespace omnilink;

double load_average() {
  double load = 0;
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &load) != 1) load = 0;
    std::fclose(f);
  }
  return load;
}

int fail(const std::string& why) {
  std::fprintf(stderr, "sweep_throughput: %s\n", why.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  int minutes = 10;
  std::string rr = "auto";
  fs::path dir = fs::temp_directory_path() / ("omnilink-bench-sweep-" + std::to_string(::getpid()));
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--minutes" && i + 1 < argc) minutes = std::stoi(argv[++i]);
    else if (a == "--rr" && i + 1 < argc) rr = argv[++i];
    else if (a == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (a == "--keep") keep = true;
    else return fail("usage: sweep_throughput [--minutes M] [--rr auto|off|chaos] [--dir SCRATCH] [--keep]");
  }
  fs::create_directories(dir);
  const fs::path store_dir = dir / "store";
  const double load_start = load_average();

  ProcessOptions options;
  options.timeout = std::chrono::minutes(minutes + 30);
  const std::string budget = std::to_string(minutes) + "m";
  const ProcessResult sweep = run_process(OMNILINK_CLI, {"sweep", OMNILINK_SWEEP_FILE, "--for", budget, "--rr", rr, "--plain", "--store",
                                                         store_dir.string(), "--json", (dir / "report.json").string(), "--set",
                                                         "sweep.keep_passing_recordings=true", "--set", "sweep.keep_failing_recordings=true"},
                                          options);
  if (!sweep.started || sweep.timed_out || sweep.signal != 0 || sweep.exit_code > 2)
    return fail("the sweep did not run: " + sweep.describe() + "\n" + sweep.err);
  std::ifstream in(dir / "report.json");
  const nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  if (!report.is_object()) return fail("no report.json");

  auto store = store::Store::open_read_only(store_dir);
  const auto campaign = store.campaign(report.at("sweep").get<std::string>());
  const nlohmann::json config = nlohmann::json::parse(campaign->config_json);
  const auto runs = store.runs(campaign->id);
  double harness_s = 0, pack_s = 0, validation_s = 0;
  std::map<std::string, std::size_t> outcomes;
  for (const auto& run : runs) {
    harness_s += static_cast<double>(run.harness_ms) / 1000;
    pack_s += static_cast<double>(run.pack_ms) / 1000;
    if (run.validation) validation_s += static_cast<double>(run.validation->duration_ms) / 1000;
    ++outcomes[store::to_string(store::outcome(run))];
  }
  const double wall_s = static_cast<double>(sweep.duration.count()) / 1000;
  const auto jobs = config.at("jobs").get<double>();
  const double slots_s = wall_s * jobs;
  const double n = static_cast<double>(runs.size());
  const std::uint64_t size_kept = sweep::disk_size(store_dir);

  const ProcessResult gc = run_process(OMNILINK_CLI, {"gc", store_dir.string()}, options);
  if (!gc.ok()) return fail("omnilink gc: " + gc.describe() + "\n" + gc.err);
  const std::uint64_t size_pruned = sweep::disk_size(store_dir);
  // The floor a quota can reach: a quota of one byte prunes all but evidence, the verdicts and the
  // index (gc says it is still above the quota: exit 1).
  const ProcessResult floor_gc = run_process(OMNILINK_CLI, {"gc", store_dir.string(), "--quota", "1"}, options);
  if (!floor_gc.started || floor_gc.exit_code > 1) return fail("omnilink gc --quota 1: " + floor_gc.describe() + "\n" + floor_gc.err);
  const std::uint64_t size_floor = sweep::disk_size(store_dir);

  std::printf("sweep of %s for %s, rr %s (recorded: %s), jobs %.0f, on %ld cores; load %.2f at start, %.2f at end\n", OMNILINK_SWEEP_FILE,
              budget.c_str(), rr.c_str(), runs.empty() ? "-" : store::stored_name(runs.front().rr_mode).c_str(), jobs, sysconf(_SC_NPROCESSORS_ONLN),
              load_start, load_average());
  std::printf("\nruns            %zu in %.1f s of wall time: %.0f runs per hour\n", runs.size(), wall_s, n * 3600 / wall_s);
  for (const auto& [o, count] : outcomes) std::printf("  %-13s %zu (%.1f%%)\n", o.c_str(), count, 100.0 * static_cast<double>(count) / n);
  std::printf("past budget     %.1f s (runs in flight at the end finish)\n", wall_s - minutes * 60.0);
  std::printf("\nwhere the time went (harness slots: %.0f s = wall x jobs)\n", slots_s);
  std::printf("  harness (rr record)   %8.1f s  %5.1f%% of slots  %6.0f ms per run\n", harness_s, 100 * harness_s / slots_s, 1000 * harness_s / n);
  std::printf("  rr pack               %8.1f s  %5.1f%% of slots  %6.0f ms per run\n", pack_s, 100 * pack_s / slots_s, 1000 * pack_s / n);
  std::printf("  orchestration + wait  %8.1f s  %5.1f%% of slots  %6.0f ms per run\n", slots_s - harness_s - pack_s,
              100 * (slots_s - harness_s - pack_s) / slots_s, 1000 * (slots_s - harness_s - pack_s) / n);
  std::printf("  validation            %8.1f s  (beside the slots, %s)  %6.0f ms per run\n", validation_s,
              "in the validation pool", 1000 * validation_s / n);
  std::printf("\nstore growth per 1000 runs\n  without retention (every recording kept)   %8.1f MiB\n"
              "  with default retention (evidence recorded)  %8.1f MiB  (ratio %.1fx)\n",
              static_cast<double>(size_kept) / n * 1000 / 1048576, static_cast<double>(size_pruned) / n * 1000 / 1048576,
              size_pruned > 0 ? static_cast<double>(size_kept) / static_cast<double>(size_pruned) : 0.0);
  std::printf("  with a quota it cannot meet (evidence only)  %8.1f MiB  (ratio %.1fx)\n", static_cast<double>(size_floor) / n * 1000 / 1048576,
              size_floor > 0 ? static_cast<double>(size_kept) / static_cast<double>(size_floor) : 0.0);
  std::printf("\nsignatures: %zu; exit code %d\n", report.at("signatures").size(), sweep.exit_code);
  if (!keep) fs::remove_all(dir);
  return 0;
}
