// What `omnilink campaign` costs beyond the harness runs themselves, measured on the real CLI (run as
// a child process, as a user runs it) with validation made instant, so only orchestration is timed:
//
//  1. Orchestration overhead per run: a campaign of N short atomic-counter runs (1 thread x 200
//     operations) with rr off and jobs 1. overhead/run = (campaign wall time - sum of harness_ms over
//     the runs) / N, harness_ms being the store's wall time of each harness process. The part before
//     the first run starts (process start, loading the file, creating the store; no rr probe with rr
//     off) is once per campaign and is shown separately, as is the tail after the last run (reports,
//     exit), and the median gap between one run's harness ending and the next one starting.
//     Target: <= 50 ms per run.
//  2. Harness-phase throughput: R CPU-bound single-threaded atomic-counter runs of about 0.5 s each
//     (the operation count is calibrated once at start), the same campaign with --jobs 1 and with
//     --jobs 2; speed-up = wall(jobs 1) / wall(jobs 2). Target: >= 1.7 on a 2-core machine.
//
// How validation is made instant: the CLI runs with OMNILINK_TLC_JAR naming a file that does not
// exist, so no TLC starts and every validation ends with verdict "unknown". A validation still
// converts the trace for TLC first, which is negligible for 200 operations but not for a 0.5 s run
// (millions of operations; converting takes many times longer than the run did), so measurement 2
// also names a next-state operator the spec lacks ("next": "NoSuchNext"): the validation then stops
// at reading the spec, before touching the trace, with verdict "error". --convert-traces leaves that
// out, to see what trace conversion costs a campaign (slow: minutes).
//
// Each measurement is repeated (--repeat, default 3) and the median is reported, with the raw
// numbers of every repeat. Exit status 0 unless something failed to run (then 1, with the reason);
// a number missing its target is reported, not an error.
//
// Run it on an idle machine. The kernel's autogroup scheduling gives each busy session an equal
// share of the CPUs whatever the processes' nice values, so on a shared 2-core machine where another
// session is compiling, a benchmark gets about one core and jobs 2 cannot beat jobs 1. There, give it
// its own session with a higher autogroup priority (as root):
//   setsid sh -c 'echo -15 > /proc/self/autogroup && exec build/bench/campaign_overhead'
// The load average at start and end is printed with the results.
//
// Usage: campaign_overhead [--runs N] [--parallel-runs R] [--repeat K] [--quick] [--convert-traces]
//                          [--seconds S] [--dir SCRATCH] [--keep]
//   --runs N            runs of measurement 1 (default 40)
//   --parallel-runs R   runs of measurement 2 (default 8)
//   --repeat K          repeats of each measurement (default 3)
//   --seconds S         target length of one measurement-2 harness run (default 0.5)
//   --quick             small numbers for a smoke test: --runs 5 --parallel-runs 4 --repeat 1 --seconds 0.1
//   --dir SCRATCH       scratch directory (default $TMPDIR/omnilink-bench-campaign-PID; removed unless --keep)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <sched.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "platform/subprocess.hpp"

namespace fs = std::filesystem;
using omnilink::store::RunRecord;

namespace {

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::int64_t epoch_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

unsigned nproc() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<unsigned>(CPU_COUNT(&set));
  return static_cast<unsigned>(sysconf(_SC_NPROCESSORS_ONLN));
}

// One `omnilink campaign` invocation and what the store says about it.
struct CampaignResult {
  double wall_ms = 0;              // the CLI process, spawn to exit, as this program sees it
  std::int64_t spawn_epoch_ms = 0;  // just before spawning it (same clock as the store's timestamps)
  std::int64_t exit_epoch_ms = 0;
  omnilink::store::CampaignRecord campaign;
  std::vector<RunRecord> runs;

  std::int64_t harness_sum_ms() const {
    std::int64_t sum = 0;
    for (const auto& r : runs) sum += r.harness_ms;
    return sum;
  }
  std::int64_t first_start_ms() const {
    std::int64_t first = runs.front().started_ms;
    for (const auto& r : runs) first = std::min(first, r.started_ms);
    return first;
  }
  std::int64_t last_finish_ms() const {
    std::int64_t last = 0;
    for (const auto& r : runs) last = std::max(last, r.finished_ms);
    return last;
  }
  // The end of the last harness process (started_ms is taken just before the fork).
  std::int64_t last_harness_end_ms() const {
    std::int64_t last = 0;
    for (const auto& r : runs) last = std::max(last, r.started_ms + r.harness_ms);
    return last;
  }
  // Between one harness ending and the next starting, in plan order (meaningful with jobs 1).
  std::vector<double> gaps_ms() const {
    std::vector<double> gaps;
    for (std::size_t i = 1; i < runs.size(); ++i)
      gaps.push_back(static_cast<double>(runs[i].started_ms - (runs[i - 1].started_ms + runs[i - 1].harness_ms)));
    return gaps;
  }
};

struct Setup {
  fs::path scratch;
  fs::path missing_jar;
  bool keep = false;
  int campaigns = 0;
};

// Writes the campaign file, runs the CLI on a fresh store, checks every run ended as expected
// (status ok, the expected verdict), and reads the store. Throws Failure saying what went wrong.
CampaignResult run_campaign(Setup& setup, const nlohmann::json& file, unsigned jobs, omnilink::results::Verdict expected_verdict) {
  const std::string tag = "c" + std::to_string(++setup.campaigns);
  const fs::path campaign_file = setup.scratch / (tag + ".json");
  const fs::path store_dir = setup.scratch / (tag + "-store");
  const fs::path summary_file = setup.scratch / (tag + "-summary.json");
  std::ofstream(campaign_file, std::ios::trunc) << file.dump(2) << "\n";

  omnilink::ProcessOptions po;
  po.timeout = std::chrono::minutes(30);
  po.env_overrides["OMNILINK_TLC_JAR"] = setup.missing_jar.string();
  const std::vector<std::string> args{"campaign", campaign_file.string(), "--store", store_dir.string(), "--jobs", std::to_string(jobs),
                                      "--rr",     "off",                  "--plain", "--json",           summary_file.string()};
  CampaignResult result;
  result.spawn_epoch_ms = epoch_ms();
  const auto begin = std::chrono::steady_clock::now();
  const omnilink::ProcessResult p = omnilink::run_process(OMNILINK_CLI, args, po);
  result.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  result.exit_epoch_ms = epoch_ms();

  const auto fail = [&](const std::string& why) -> Failure {
    return Failure(std::string(OMNILINK_CLI) + " campaign " + campaign_file.string() + ": " + why + " (" + p.describe() +
                   ")\n  stderr: " + omnilink::summarize_output(p.err, 5) + "\n  stdout: " + omnilink::summarize_output(p.out, 8));
  };
  // Every run without a pass verdict: the CLI exits 2 when all runs are unknown or error.
  if (!p.started || p.timed_out || p.signal != 0 || p.exit_code != 2) throw fail("expected exit 2 (no run has a pass verdict)");
  try {
    auto store = omnilink::store::Store::open_existing(store_dir);
    const auto campaigns = store.campaigns();
    if (campaigns.size() != 1) throw fail("expected one campaign in the store, found " + std::to_string(campaigns.size()));
    result.campaign = campaigns.front();
    result.runs = store.runs(result.campaign.id);
  } catch (const omnilink::store::StoreError& e) {
    throw fail(std::string("reading the store: ") + e.what());
  }
  if (result.runs.empty()) throw fail("the store has no runs");
  for (const auto& r : result.runs) {
    if (r.status != omnilink::store::RunStatus::ok) throw fail("run " + r.key() + " has status " + omnilink::store::to_string(r.status) + ": " + r.detail);
    if (!r.validation || r.validation->verdict != expected_verdict)
      throw fail("run " + r.key() + ": expected verdict " + to_string(expected_verdict) + ", got " +
                 (r.validation ? to_string(r.validation->verdict) + ": " + r.validation->reason : std::string("none")));
  }
  // The --json summary must agree with the store on the harness times.
  std::ifstream summary_in(summary_file);
  const nlohmann::json summary = nlohmann::json::parse(summary_in, nullptr, false);
  if (summary.is_discarded() || !summary.contains("runs")) throw fail("no readable --json summary at " + summary_file.string());
  std::int64_t summary_sum = 0;
  for (const auto& r : summary["runs"]) summary_sum += r.value("harness_ms", std::int64_t{0});
  if (summary_sum != result.harness_sum_ms()) throw fail("the --json summary's harness_ms disagree with the store's");

  if (!setup.keep) {
    std::error_code ec;
    fs::remove_all(store_dir, ec);  // measurement 2's traces are large
    fs::remove(summary_file, ec);
  }
  return result;
}

nlohmann::json campaign_file(const std::string& name, std::uint64_t ops, unsigned runs, bool skip_conversion) {
  nlohmann::json target{{"name", "ac"},  {"harness", OMNILINK_ATOMIC_COUNTER}, {"spec", OMNILINK_SPECS_DIR "/AtomicCounter.tla"},
                        {"threads", {1}}, {"ops", {ops}},                        {"runs", runs},
                        {"seed_base", 1}};
  if (skip_conversion) target["next"] = "NoSuchNext";
  return {{"format", 1},
          {"name", name},
          {"rr", "off"},
          {"jobs", 1},
          {"run_timeout_s", 600},
          {"tlc", {{"heap", "256m"}, {"timeout_s", 60}, {"jobs", 1}}},
          {"targets", {target}}};
}

// Wall time of one direct harness run (no campaign), in seconds.
double harness_seconds(const fs::path& dir, std::uint64_t ops) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  omnilink::ProcessOptions po;
  po.timeout = std::chrono::minutes(5);
  const auto begin = std::chrono::steady_clock::now();
  const auto p = omnilink::run_process(OMNILINK_ATOMIC_COUNTER,
                                       {"--threads", "1", "--ops", std::to_string(ops), "--seed", "1", "--quiet", "--out", dir.string()}, po);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - begin;
  fs::remove_all(dir, ec);
  if (!p.ok()) throw Failure(std::string(OMNILINK_ATOMIC_COUNTER) + ": " + p.describe() + ": " + omnilink::summarize_output(p.err, 3));
  return wall.count();
}

// "0.12 0.30 0.41" (1, 5, 15 minutes), or "?".
std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  if (!(in >> one >> five >> fifteen)) return "?";
  return one + " " + five + " " + fifteen;
}

const char* verdict_mark(bool met) { return met ? "met" : "MISSED"; }

}  // namespace

int main(int argc, char** argv) {
  unsigned runs = 40, parallel_runs = 8, repeat = 3;
  double seconds = 0.5;
  bool convert_traces = false;
  Setup setup;
  setup.scratch = fs::temp_directory_path() / ("omnilink-bench-campaign-" + std::to_string(::getpid()));
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "campaign_overhead: %s needs a value\n", flag.c_str());
        std::exit(1);
      }
      return argv[++i];
    };
    try {
      if (flag == "--runs") runs = static_cast<unsigned>(std::stoul(value()));
      else if (flag == "--parallel-runs") parallel_runs = static_cast<unsigned>(std::stoul(value()));
      else if (flag == "--repeat") repeat = static_cast<unsigned>(std::stoul(value()));
      else if (flag == "--seconds") seconds = std::stod(value());
      else if (flag == "--dir") setup.scratch = value();
      else if (flag == "--keep") setup.keep = true;
      else if (flag == "--convert-traces") convert_traces = true;
      else if (flag == "--quick") runs = 5, parallel_runs = 4, repeat = 1, seconds = 0.1;
      else {
        std::fprintf(stderr, "campaign_overhead: unknown argument %s (see the comment at the top of bench/campaign_overhead.cpp)\n", flag.c_str());
        return 1;
      }
    } catch (const std::exception&) {
      std::fprintf(stderr, "campaign_overhead: %s: not a number\n", flag.c_str());
      return 1;
    }
  }
  if (runs < 1 || parallel_runs < 1 || repeat < 1 || !(seconds > 0)) {
    std::fprintf(stderr, "campaign_overhead: --runs, --parallel-runs, --repeat and --seconds must be positive\n");
    return 1;
  }
  std::error_code ec;
  fs::create_directories(setup.scratch, ec);
  if (ec) {
    std::fprintf(stderr, "campaign_overhead: cannot create %s: %s\n", setup.scratch.c_str(), ec.message().c_str());
    return 1;
  }
  setup.missing_jar = setup.scratch / "no-such-tla2tools.jar";
  const unsigned cores = nproc();

  std::printf("omnilink campaign overhead: %s\n", OMNILINK_CLI);
  std::printf("nproc: %u; load average at start: %s; scratch: %s\n", cores, load_average().c_str(), setup.scratch.c_str());
  std::printf("validation made instant: the CLI runs with OMNILINK_TLC_JAR=%s (no such file), so no TLC starts and\n"
              "every validation ends at once with verdict 'unknown' after converting the trace; rr off\n\n",
              setup.missing_jar.c_str());
  std::fflush(stdout);

  int status = 0;
  try {
    // --- 1. orchestration overhead per run ---------------------------------------------------
    constexpr std::uint64_t kSmallOps = 200;
    std::printf("1. orchestration overhead: atomic-counter, 1 thread x %llu ops, %u runs, jobs 1, %u repeat(s)\n",
                static_cast<unsigned long long>(kSmallOps), runs, repeat);
    std::printf("   (overhead/run = (wall - sum harness_ms) / runs; startup = CLI spawn to first run start, of which\n"
                "    'to campaign row' = spawn to the campaign's created_ms; tail = last run finished to CLI exit;\n"
                "    gap = one harness ending to the next starting; all store times in whole ms)\n");
    std::printf("   %6s %9s %11s %12s %10s %11s %8s %11s %11s %13s\n", "repeat", "wall ms", "harness ms", "overhead/run", "startup ms",
                "to cmp row", "tail ms", "gap med ms", "gap max ms", "in-loop /run");
    std::vector<double> overhead_per_run, startup, tail, in_loop, gap_median, harness_mean;
    for (unsigned k = 0; k < repeat; ++k) {
      const CampaignResult c = run_campaign(setup, campaign_file("overhead", kSmallOps, runs, false), 1, omnilink::results::Verdict::unknown);
      const double harness = static_cast<double>(c.harness_sum_ms());
      const double per_run = (c.wall_ms - harness) / runs;
      const double start = static_cast<double>(c.first_start_ms() - c.spawn_epoch_ms);
      const double to_row = static_cast<double>(c.campaign.created_ms - c.spawn_epoch_ms);
      const double end = static_cast<double>(c.exit_epoch_ms - c.last_finish_ms());
      const double loop = (static_cast<double>(c.last_finish_ms() - c.first_start_ms()) - harness) / runs;
      const auto gaps = c.gaps_ms();
      const double gmax = gaps.empty() ? 0 : *std::max_element(gaps.begin(), gaps.end());
      overhead_per_run.push_back(per_run);
      startup.push_back(start);
      tail.push_back(end);
      in_loop.push_back(loop);
      gap_median.push_back(median(gaps));
      harness_mean.push_back(harness / runs);
      std::printf("   %6u %9.1f %11.0f %12.2f %10.0f %11.0f %8.0f %11.1f %11.0f %13.2f\n", k + 1, c.wall_ms, harness, per_run, start, to_row,
                  end, median(gaps), gmax, loop);
      std::fflush(stdout);
    }
    std::printf("   mean harness_ms per run (median over repeats): %.2f\n\n", median(harness_mean));

    // --- 2. harness-phase throughput, jobs 2 vs jobs 1 ----------------------------------------
    const fs::path calibration_dir = setup.scratch / "calibration";
    const std::uint64_t probe_ops = seconds >= 0.3 ? 1'000'000 : 200'000;
    harness_seconds(calibration_dir, probe_ops);  // warm-up: page cache, binary
    const double probe_s = std::min(harness_seconds(calibration_dir, probe_ops), harness_seconds(calibration_dir, probe_ops));
    const auto ops = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(static_cast<double>(probe_ops) * seconds / probe_s), 1000, 100'000'000);
    const double run_s = harness_seconds(calibration_dir, ops);
    std::printf("2. harness-phase throughput: atomic-counter, 1 thread x %llu ops (calibrated: %llu ops took %.3f s; this count %.3f s\n"
                "   alone), %u runs, jobs 1 vs jobs 2, %u repeat(s); nproc %u\n",
                static_cast<unsigned long long>(ops), static_cast<unsigned long long>(probe_ops), probe_s, run_s, parallel_runs, repeat, cores);
    if (convert_traces)
      std::printf("   --convert-traces: each validation converts the whole trace for TLC, as a real campaign's does\n");
    else
      std::printf("   validation stops before reading the trace: the target names \"next\": \"NoSuchNext\", which the spec lacks,\n"
                  "   so every validation ends at once with verdict 'error' (converting a trace this long takes far longer than\n"
                  "   the run: --convert-traces measures that)\n");
    std::printf("   (harness span = first run start to last harness end, from the store; parallelism = sum harness_ms / span)\n");
    std::printf("   %6s %4s %9s %14s %15s %12s %11s\n", "repeat", "jobs", "wall ms", "harness span", "mean harness_ms", "parallelism", "speed-up");
    std::vector<double> wall1, wall2, ratios, span1, span2, h1, h2;
    const omnilink::results::Verdict verdict = convert_traces ? omnilink::results::Verdict::unknown : omnilink::results::Verdict::error;
    for (unsigned k = 0; k < repeat; ++k) {
      double wall_of[3] = {0, 0, 0};
      for (unsigned jobs : {1u, 2u}) {
        const CampaignResult c = run_campaign(setup, campaign_file("throughput", ops, parallel_runs, !convert_traces), jobs, verdict);
        const double span = static_cast<double>(c.last_harness_end_ms() - c.first_start_ms());
        const double harness = static_cast<double>(c.harness_sum_ms());
        wall_of[jobs] = c.wall_ms;
        (jobs == 1 ? wall1 : wall2).push_back(c.wall_ms);
        (jobs == 1 ? span1 : span2).push_back(span);
        (jobs == 1 ? h1 : h2).push_back(harness / parallel_runs);
        if (jobs == 1) {
          std::printf("   %6u %4u %9.0f %14.0f %15.1f %12.2f\n", k + 1, jobs, c.wall_ms, span, harness / parallel_runs, harness / span);
        } else {
          ratios.push_back(wall_of[1] / wall_of[2]);
          std::printf("   %6u %4u %9.0f %14.0f %15.1f %12.2f %11.2f\n", k + 1, jobs, c.wall_ms, span, harness / parallel_runs, harness / span,
                      ratios.back());
        }
        std::fflush(stdout);
      }
    }
    std::printf("   medians: wall %.0f / %.0f ms, harness span %.0f / %.0f ms, mean harness_ms %.1f / %.1f (jobs 1 / jobs 2);\n"
                "   harness-span speed-up %.2f\n\n",
                median(wall1), median(wall2), median(span1), median(span2), median(h1), median(h2), median(span1) / median(span2));

    // --- summary ------------------------------------------------------------------------------
    const double overhead = median(overhead_per_run);
    const double speedup = median(ratios);
    std::printf("summary (median of %u repeat(s))\n", repeat);
    std::printf("  %-52s %12s %10s %8s\n", "measurement", "value", "target", "");
    std::printf("  %-52s %9.2f ms %10s %8s\n", "orchestration overhead per run (wall - harness) / N", overhead, "<= 50 ms", verdict_mark(overhead <= 50));
    std::printf("  %-52s %9.2f ms %10s\n", "  of which in the run loop (first start..last finish)", median(in_loop), "");
    std::printf("  %-52s %9.0f ms %10s\n", "startup before the first run (once per campaign)", median(startup), "");
    std::printf("  %-52s %9.0f ms %10s\n", "tail after the last run (once per campaign)", median(tail), "");
    std::printf("  %-52s %9.2f    %10s %8s\n", "harness-phase speed-up, wall(jobs 1) / wall(jobs 2)", speedup, ">= 1.7", verdict_mark(speedup >= 1.7));
    std::printf("  (nproc %u%s; load average at end: %s)\n", cores, cores < 2 ? "; with one core no speed-up is possible" : "",
                load_average().c_str());
  } catch (const Failure& e) {
    std::fprintf(stderr, "campaign_overhead: %s\n", e.what());
    status = 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "campaign_overhead: %s\n", e.what());
    status = 1;
  }
  if (!setup.keep) fs::remove_all(setup.scratch, ec);
  else std::printf("kept %s\n", setup.scratch.c_str());
  return status;
}
