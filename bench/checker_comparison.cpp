// The native checker against TLC on the same traces, side by side in one run: each scenario's
// traces are validated by `omnilink validate --checker native` and `--checker tlc` as child
// processes (end to end: process start, reading the run, the check), and the table gives both
// wall times, both peak RSS (each result's peak_rss_kb: the native process's, TLC's JVM's) and the
// ratio. Ratios measured in one run are what to quote; absolute times depend on the machine.
//
// Scenarios:
//   queue-3x3000     a campaign's typical run: locked-queue, 3 threads x 3000 operations, perturbed
//   queue-5x100k     a long run: locked-queue, 5 threads x 100000 operations (500k)
//   register-100     100 generated register histories (5-10 threads, ~100 operations, CAS, some
//                    pending, some not linearizable) in one `validate` invocation each
//   kv-10x800        a 10-client key-value history of 800 operations over 10 keys (Map.tla), checked
//                    natively key by key (/key) and whole (/whole); TLC checks it whole
//   msqueue-3x3000   an unbounded Michael-Scott queue, 3 threads x 3000 operations, perturbed
//   msqueue-chaos    the same queue recorded under `rr record --chaos` (-W where rr needs it) with a
//                    2000-tick timeslice, seeds 1-3 (--chaos-seeds N: 1-N), one row each: enqueues
//                    overlap widely and their order shows only in later dequeues (skipped where rr
//                    cannot record)
// Usage: checker_comparison [--only NAME]... [--native-repeats N] [--tlc-timeout S] [--keep 1] [--skip-tlc 1]
//                           [--chaos-seeds N]
//   --keep 1 leaves the traces in $TMPDIR/omnilink-bench-checkers; --skip-tlc 1 measures native only.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "campaign/recording.hpp"
#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"
#include "support/history_generator.hpp"

namespace fs = std::filesystem;
using omnilink::run_process;

namespace {

bool g_skip_tlc = false;

struct Measure {
  double wall_s = 0;
  double peak_mib = 0;
  std::string verdicts;  // "pass 3" or "pass 80 fail 20"
  bool ok = false;
};

// `omnilink validate RUNS... --checker CHECKER --json`, timed as a whole.
Measure validate(const std::vector<fs::path>& runs, const std::string& spec, const std::string& checker, int timeout_s,
                 const std::string& mc = "") {
  if (checker == "tlc" && g_skip_tlc) return {};
  std::vector<std::string> args{"validate"};
  for (const auto& r : runs) args.push_back(r.string());
  args.insert(args.end(), {"--spec", spec, "--checker", checker, "--no-confirm", "--json", "--timeout", std::to_string(timeout_s)});
  if (!mc.empty()) args.insert(args.end(), {"--mc", mc});
  omnilink::ProcessOptions po;
  po.timeout = std::chrono::seconds(timeout_s * static_cast<int>(runs.size()) + 60);
  const auto begin = std::chrono::steady_clock::now();
  const auto p = run_process(OMNILINK_CLI, args, po);
  Measure m;
  m.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (!p.started || p.exit_code > 2) {
    m.verdicts = "(" + p.describe() + ")";
    return m;
  }
  nlohmann::json results = nlohmann::json::parse(p.out, nullptr, false);
  if (results.is_object()) results = nlohmann::json::array({results});
  std::map<std::string, int> counts;
  for (const auto& r : results) {
    ++counts[r.value("verdict", "?")];
    m.peak_mib = std::max(m.peak_mib, r.value("peak_rss_kb", 0.0) / 1024);
  }
  for (const auto& [verdict, n] : counts) m.verdicts += (m.verdicts.empty() ? "" : " ") + verdict + " " + std::to_string(n);
  m.ok = true;
  return m;
}

bool run_harness(const char* harness, const fs::path& out, std::vector<std::string> args) {
  fs::remove_all(out);
  args.insert(args.end(), {"--quiet", "--out", out.string()});
  omnilink::ProcessOptions po;
  po.timeout = std::chrono::minutes(10);
  const auto p = run_process(harness, args, po);
  if (!p.ok()) std::printf("harness %s failed: %s\n", harness, p.describe().c_str());
  return p.ok();
}

void row(const char* name, std::size_t operations, const Measure& native, const Measure& tlc) {
  const double ratio = native.ok && tlc.ok && native.wall_s > 0 ? tlc.wall_s / native.wall_s : 0;
  std::printf("%-15s %9zu  %9.3f %8.1f  %9.2f %8.1f  %8.1fx   %s | %s\n", name, operations, native.wall_s, native.peak_mib, tlc.wall_s,
              tlc.peak_mib, ratio, native.verdicts.c_str(), tlc.verdicts.c_str());
  std::fflush(stdout);
}

// The median of `repeats` native measurements (they are short, and the machine is shared), after
// one that is dropped: the first run after building the trace reads it and the binary cold.
Measure native_median(const std::vector<fs::path>& runs, const std::string& spec, int repeats, const std::string& mc = "") {
  validate(runs, spec, "native", 300, mc);
  std::vector<Measure> all;
  for (int k = 0; k < repeats; ++k) all.push_back(validate(runs, spec, "native", 300, mc));
  std::sort(all.begin(), all.end(), [](const Measure& a, const Measure& b) { return a.wall_s < b.wall_s; });
  return all[all.size() / 2];
}

// One row: the native checker first (so that it never runs in what the JVM leaves behind), then TLC.
void compare(const char* name, std::size_t operations, const std::vector<fs::path>& runs, const std::string& spec, int repeats,
             int tlc_timeout) {
  const Measure native = native_median(runs, spec, repeats);
  row(name, operations, native, validate(runs, spec, "tlc", tlc_timeout));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> only;
  int repeats = 5, tlc_timeout = 300;
  std::uint64_t chaos_seeds = 3;
  bool keep = false, skip_tlc = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--only") only.push_back(argv[i + 1]);
    else if (flag == "--native-repeats") repeats = std::stoi(argv[i + 1]);
    else if (flag == "--tlc-timeout") tlc_timeout = std::stoi(argv[i + 1]);
    else if (flag == "--keep") keep = std::string(argv[i + 1]) == "1";
    else if (flag == "--skip-tlc") skip_tlc = std::string(argv[i + 1]) == "1";
    else if (flag == "--chaos-seeds") chaos_seeds = std::stoull(argv[i + 1]);
  }
  g_skip_tlc = skip_tlc;
  auto wanted = [&](const std::string& name) { return only.empty() || std::find(only.begin(), only.end(), name) != only.end(); };
  if (!skip_tlc && !omnilink::find_tlc_jar().found()) {
    std::printf("TLC not found (%s): nothing to compare with\n", omnilink::find_tlc_jar().explain_missing().c_str());
    return 1;
  }
  const fs::path scratch = fs::temp_directory_path() / "omnilink-bench-checkers";
  fs::remove_all(scratch);
  const std::string specs = OMNILINK_SPECS_DIR;
  std::printf("native checker vs TLC, end to end (omnilink validate as a child process); native: median of %d\n", repeats);
  std::printf("%-15s %9s  %9s %8s  %9s %8s  %9s   %s\n", "scenario", "ops", "native s", "MiB", "TLC s", "MiB", "TLC/native",
              "verdicts native | TLC");

  const std::vector<std::string> perturbed{"--perturb", "mixed", "--perturb-rate", "0.05", "--seed", "7"};
  if (wanted("queue-3x3000")) {
    std::vector<std::string> args{"--threads", "3", "--ops", "3000"};
    args.insert(args.end(), perturbed.begin(), perturbed.end());
    if (run_harness(OMNILINK_LOCKED_QUEUE, scratch / "q3", args))
      compare("queue-3x3000", 9000, {scratch / "q3"}, specs + "/LinearizableQueue.tla", repeats, tlc_timeout);
  }
  if (wanted("queue-5x100k") && run_harness(OMNILINK_LOCKED_QUEUE, scratch / "q5", {"--threads", "5", "--ops", "100000", "--seed", "1"}))
    compare("queue-5x100k", 500000, {scratch / "q5"}, specs + "/LinearizableQueue.tla", std::min(repeats, 3), tlc_timeout);
  if (wanted("register-100")) {
    std::mt19937_64 rng(2024);
    std::vector<fs::path> runs;
    for (int h = 0; h < 100; ++h) {
      using omnilink::testing::pick;
      const omnilink::testing::Shape shape{static_cast<std::uint32_t>(pick(rng, 5, 10)), static_cast<std::size_t>(pick(rng, 85, 115)), 30,
                                           pick(rng, 0, 3) == 0, pick(rng, 0, 2) == 0};
      runs.push_back(scratch / "reg" / std::to_string(h));
      omnilink::testing::generate(omnilink::testing::register_object(), shape, rng, runs.back());
    }
    compare("register-100", 100 * 100, runs, specs + "/Register.tla", repeats, tlc_timeout);
  }
  if (wanted("kv-10x800")) {
    // Porcupine's key-value case: 10 clients, ~800 operations over 10 keys. Natively once checked
    // key by key (OmniLinkPartitionBy, tla/specs/MCMapPartitioned.tla) and once whole (MCMap).
    std::mt19937_64 rng(99);
    const fs::path run = scratch / "kv";
    omnilink::testing::generate(omnilink::testing::map(10), {10, 800, 30, false, true}, rng, run);
    const Measure by_key = native_median({run}, specs + "/Map.tla", repeats, specs + "/MCMapPartitioned.tla");
    const Measure whole = native_median({run}, specs + "/Map.tla", repeats, specs + "/MCMap.tla");
    const Measure tlc = validate({run}, specs + "/Map.tla", "tlc", tlc_timeout, specs + "/MCMap.tla");
    row("kv-10x800/key", 800, by_key, tlc);
    row("kv-10x800/whole", 800, whole, tlc);
  }
  if (wanted("msqueue-3x3000")) {
    std::vector<std::string> args{"--threads", "3", "--ops", "3000"};
    args.insert(args.end(), perturbed.begin(), perturbed.end());
    if (run_harness(OMNILINK_MS_QUEUE, scratch / "ms", args))
      compare("msqueue-3x3000", 9000, {scratch / "ms"}, specs + "/LinearizableQueue.tla", repeats, tlc_timeout);
  }
  if (wanted("msqueue-chaos")) {
    using namespace omnilink::campaign;
    const Recording recording = resolve_recording(RrMode::chaos, kDefaultRrTimesliceTicks);
    if (!recording.error.empty()) {
      std::printf("msqueue-chaos skipped: %s\n", recording.error.c_str());
    } else {
      TargetConfig target;
      target.harness = OMNILINK_MS_QUEUE;
      for (std::uint64_t seed = 1; seed <= chaos_seeds; ++seed) {
        const fs::path run = scratch / ("ms-chaos-" + std::to_string(seed));
        fs::remove_all(run);
        fs::create_directories(run);  // rr creates only the recording's own directory
        const RunCommand command = run_command(recording, target, 3, 3000, seed, run);
        omnilink::ProcessOptions po;
        po.timeout = std::chrono::minutes(10);
        const auto p = run_process(command.exe, command.args, po);
        if (!p.ok()) {
          std::printf("msqueue-chaos seed %llu: recording failed: %s\n%s\n", static_cast<unsigned long long>(seed), p.describe().c_str(), p.err.c_str());
          continue;
        }
        const std::string name = "ms-chaos-" + std::to_string(seed);
        compare(name.c_str(), 9000, {run}, specs + "/LinearizableQueue.tla", std::min(repeats, 3), tlc_timeout);
      }
    }
  }
  if (!keep) fs::remove_all(scratch);
  return 0;
}
