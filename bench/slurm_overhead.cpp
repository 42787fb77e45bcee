// What running a campaign through Slurm costs against running it here, and what that projects to on
// a cluster (docs/scale-out.md). Needs a running Slurm whose nodes see this machine's paths: on one
// machine, a one-node cluster started as tests/support/slurm_cluster.hpp does, SLURM_CONF naming it.
//
// The campaign: the demo's correct queue (locked-queue, 2 configurations) with rr off and the native
// checker, R runs per configuration. It runs once locally (`omnilink campaign`, jobs 2) and once per
// batch size through Slurm (`--executor slurm --slurm-batch B`, the node's CPUs deciding how many
// tasks run at once), side by side in one invocation. For each it prints the wall time, the sum of
// the runs' harness and validation times (the same work everywhere), the overhead per run against
// local, and the coordinator's own CPU time per run (user + system, its sbatch/squeue children
// included): 1 / that is how many runs per second one coordinator can take in before it, and not
// the cluster, sets the pace.
//
// The projection: a 100-node x 64-core cluster for 8 hours, each core doing runs of the measured
// mean length plus the measured per-run Slurm overhead at each batch size, against what the
// coordinator keeps up with.
//
// A sweep, then: the same queue swept for S seconds locally (jobs = the machine's cores) and through
// Slurm (as many tasks as cores, jobs 1 each), side by side. It prints the runs each swept per
// second, and how long the Slurm sweep took past its deadline: its tasks deliver at the deadline,
// so the coordinator merges everything then. From that merge's measured time per run it projects
// how long the 100-node night's report waits for its merge.
//
// Usage: slurm_overhead [--runs R] [--batches 1,8,64] [--sweep-seconds S] [--dir SCRATCH] [--keep]
//   --runs R            runs per configuration (default 32: 64 runs)
//   --batches LIST      batch sizes to measure (default 1,8,64)
//   --sweep-seconds S   the sweeps' budget (default 20; 0: no sweeps)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "store/outcome.hpp"
#include "store/store.hpp"

namespace fs = std::filesystem;
using namespace omnilink;

namespace {

struct Measured {
  std::string mode;
  double wall_s = 0;
  double cpu_s = 0;  // the coordinator's (or the local campaign's) user + system time
  double work_s = 0; // sum of harness_ms + validation duration over the runs
  std::size_t runs = 0, passed = 0;
  nlohmann::json coordinator = nlohmann::json::object();  // STORE/<id>/slurm/state.json's "coordinator" (Slurm only)
};

/// The coordinator's counts from STORE/<id>/slurm/state.json; an empty object without one.
nlohmann::json coordinator_stats(const fs::path& store, const std::string& id) {
  std::ifstream state(store / id / "slurm" / "state.json");
  const auto saved = state ? nlohmann::json::parse(state, nullptr, false) : nlohmann::json();
  return saved.is_object() ? saved.value("coordinator", nlohmann::json::object()) : nlohmann::json::object();
}

/// Runs `argv` with output to `log`; its exit code, wall and CPU time.
int run_timed(const std::vector<std::string>& argv, const fs::path& log, double& wall_s, double& cpu_s) {
  std::vector<std::string> copy = argv;
  std::vector<char*> args;
  for (auto& a : copy) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = -1;
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) return -1;
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
          static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Measured measure(const std::string& mode, const fs::path& store, std::vector<std::string> argv, const fs::path& log) {
  Measured m;
  m.mode = mode;
  const int code = run_timed(argv, log, m.wall_s, m.cpu_s);
  if (code != 0) {
    std::fprintf(stderr, "slurm_overhead: %s: exit %d (see %s)\n", mode.c_str(), code, log.c_str());
    std::exit(1);
  }
  m.coordinator = coordinator_stats(store, "demo-1");
  auto s = store::Store::open_read_only(store);
  for (const auto& run : s.runs("demo-1")) {
    ++m.runs;
    m.passed += store::outcome(run) == store::Outcome::pass;
    m.work_s += static_cast<double>(run.harness_ms + (run.validation ? run.validation->duration_ms : 0)) / 1000;
  }
  return m;
}

/// A sweep file of the demo's locked-queue target (a sweep takes no runs or seed_base), `seconds` long.
fs::path write_sweep_file(const fs::path& dir, int seconds, const std::string& rr) {
  std::ifstream in(OMNILINK_DEMO);
  const nlohmann::json demo = nlohmann::json::parse(in);
  nlohmann::json target;
  for (const auto& t : demo.at("targets"))
    if (t.at("name") == "locked-queue") target = t;
  target.erase("runs");
  target.erase("seed_base");
  const nlohmann::json sweep{{"format", 1},
                             {"name", "bench-sweep"},
                             {"rr", rr},
                             {"validation", {{"checker", "native"}, {"confirm_failures", 0}}},
                             {"sweep", {{"for", std::to_string(seconds) + "s"}, {"min_runs", 1}}},
                             {"targets", {target}}};
  const fs::path file = dir / "sweep.json";
  std::ofstream(file) << sweep.dump(2);
  return file;
}

struct SweepMeasured {
  double wall_s = 0, cpu_s = 0;
  std::size_t runs = 0;
  nlohmann::json coordinator = nlohmann::json::object();
};

SweepMeasured measure_sweep(const std::string& mode, const fs::path& store, const std::vector<std::string>& argv, const fs::path& log) {
  SweepMeasured m;
  const int code = run_timed(argv, log, m.wall_s, m.cpu_s);
  if (code != 0 && code != 1) {  // 1 would be a signature: the correct queue should show none, but it is a report
    std::fprintf(stderr, "slurm_overhead: %s: exit %d (see %s)\n", mode.c_str(), code, log.c_str());
    std::exit(1);
  }
  auto s = store::Store::open_read_only(store);
  m.runs = s.runs("bench-sweep-1").size();
  m.coordinator = coordinator_stats(store, "bench-sweep-1");
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 32;
  std::vector<unsigned> batches{1, 8, 64};
  fs::path dir = fs::temp_directory_path() / ("omnilink-bench-slurm-" + std::to_string(::getpid()));
  bool keep = false;
  std::string rr = "auto";
  int sweep_seconds = 20;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (a == "--batches" && i + 1 < argc) {
      batches.clear();
      std::stringstream list(argv[++i]);
      for (std::string b; std::getline(list, b, ',');) batches.push_back(static_cast<unsigned>(std::stoul(b)));
    } else if (a == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (a == "--keep") keep = true;
    else if (a == "--rr" && i + 1 < argc) rr = argv[++i];
    else if (a == "--sweep-seconds" && i + 1 < argc) sweep_seconds = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: slurm_overhead [--runs R] [--batches 1,8,64] [--rr auto|off|chaos] [--sweep-seconds S] [--dir SCRATCH] [--keep]\n");
      return 3;
    }
  }
  if (std::getenv("SLURM_CONF") == nullptr) std::fprintf(stderr, "slurm_overhead: SLURM_CONF is not set: using Slurm's default configuration\n");
  fs::create_directories(dir);
  const auto campaign = [&](const fs::path& store) {
    return std::vector<std::string>{OMNILINK_CLI, "campaign", OMNILINK_DEMO, "--only", "locked-queue", "--rr", rr, "--checker", "native",
                                    "--runs", std::to_string(runs), "--jobs", "2", "--store", store.string(), "--plain"};
  };
  std::vector<Measured> results;
  results.push_back(measure("local", dir / "local", campaign(dir / "local"), dir / "local.log"));
  for (unsigned b : batches) {
    const std::string name = "slurm-batch-" + std::to_string(b);
    auto args = campaign(dir / name);
    args.insert(args.end(), {"--executor", "slurm", "--slurm-batch", std::to_string(b), "--slurm-tasks", "0"});
    results.push_back(measure(name, dir / name, args, dir / (name + ".log")));
  }

  const Measured& local = results.front();
  const double here_cores = static_cast<double>(::sysconf(_SC_NPROCESSORS_ONLN));
  std::printf("campaign: locked-queue, %zu runs, rr %s, native checker; machine: %.0f cores\n\n", local.runs, rr.c_str(), here_cores);
  std::printf("%-16s %8s %9s %9s %13s %13s %14s %12s\n", "mode", "wall s", "vs local", "work s", "overhead/run", "coord CPU/run",
              "merge ms/run", "ms per poll");
  for (const Measured& m : results) {
    const double n = static_cast<double>(m.runs);
    const auto& c = m.coordinator;
    const double merge_ms = c.value("merged_runs", 0) > 0 ? c.value("merge_s", 0.0) * 1000 / c.value("merged_runs", 1) : 0;
    const double poll_ms = c.value("polls", 0) > 0 ? c.value("poll_s", 0.0) * 1000 / c.value("polls", 1) : 0;
    std::printf("%-16s %8.1f %8.2fx %9.1f %10.0f ms %10.1f ms %14.2f %12.1f\n", m.mode.c_str(), m.wall_s, m.wall_s / local.wall_s, m.work_s,
                (m.wall_s - local.wall_s) / n * 1000, m.cpu_s / n * 1000, merge_ms, poll_ms);
    if (m.passed != m.runs) std::printf("  (%zu of %zu runs passed: the correct queue should pass every run)\n", m.passed, m.runs);
  }

  // 100 nodes x 64 cores for 8 hours. A core's time per run: the measured mean work plus Slurm's
  // overhead per run, in core seconds (this machine's cores ran tasks side by side). The coordinator
  // is one process: each second it polls Slurm once, and each run costs it the measured merge time.
  const double cores = 100 * 64, seconds = 8 * 3600;
  const double work_per_run = local.work_s / static_cast<double>(local.runs);
  std::printf("\nprojection: 100 nodes x 64 cores for 8 h; a run here is %.0f ms of harness and validation\n", work_per_run * 1000);
  std::printf("%-16s %12s %14s %14s %20s\n", "mode", "core s/run", "runs in 8 h", "runs/s needed", "coordinator can take");
  for (const Measured& m : results) {
    if (m.mode == "local") continue;
    const auto& c = m.coordinator;
    const double overhead = std::max(0.0, (m.wall_s - local.wall_s) / static_cast<double>(m.runs)) * here_cores;
    const double rate = cores / (work_per_run + overhead);
    const double merge_s = c.value("merge_s", 0.0) / std::max(1, c.value("merged_runs", 1));
    const double poll_share = std::min(0.99, c.value("poll_s", 0.0) / std::max(1, c.value("polls", 1)));  // of each second
    const double capacity = merge_s > 0 ? (1 - poll_share) / merge_s : 0;
    std::printf("%-16s %12.2f %14.3g %14.0f %13.0f runs/s%s\n", m.mode.c_str(), work_per_run + overhead, rate * seconds, rate, capacity,
                rate > capacity ? "  <- the coordinator is the bottleneck" : "");
  }

  if (sweep_seconds > 0) {
    const fs::path file = write_sweep_file(dir, sweep_seconds, rr);
    const std::string here = std::to_string(static_cast<int>(here_cores));
    const auto sweep = [&](const fs::path& store) {
      return std::vector<std::string>{OMNILINK_CLI, "sweep", file.string(), "--store", store.string(), "--plain"};
    };
    auto local_args = sweep(dir / "sweep-local");
    local_args.insert(local_args.end(), {"--jobs", here});
    const SweepMeasured local_sweep = measure_sweep("sweep-local", dir / "sweep-local", local_args, dir / "sweep-local.log");
    auto slurm_args = sweep(dir / "sweep-slurm");
    slurm_args.insert(slurm_args.end(), {"--jobs", "1", "--executor", "slurm", "--slurm-tasks", here});
    const SweepMeasured slurm_sweep = measure_sweep("sweep-slurm", dir / "sweep-slurm", slurm_args, dir / "sweep-slurm.log");
    const auto& c = slurm_sweep.coordinator;
    const double merge_per_run = c.value("merged_runs", 0) > 0 ? c.value("merge_s", 0.0) / c.value("merged_runs", 1) : 0;
    std::printf("\nsweep: locked-queue for %d s, rr %s; local --jobs %s against %s Slurm tasks of --jobs 1\n", sweep_seconds, rr.c_str(),
                here.c_str(), here.c_str());
    std::printf("%-12s %8s %8s %9s %9s %15s %14s\n", "mode", "runs", "wall s", "runs/s", "vs local", "past deadline", "merge ms/run");
    const double local_rate = static_cast<double>(local_sweep.runs) / sweep_seconds;
    for (const auto& [mode, m] : {std::pair{"local", &local_sweep}, std::pair{"slurm", &slurm_sweep}}) {
      const double rate = static_cast<double>(m->runs) / sweep_seconds;
      std::printf("%-12s %8zu %8.1f %9.1f %8.2fx %13.1f s %14.2f\n", mode, m->runs, m->wall_s, rate, local_rate > 0 ? rate / local_rate : 0,
                  m->wall_s - sweep_seconds, m == &slurm_sweep ? merge_per_run * 1000 : 0.0);
    }
    // Every task delivers at the deadline: the night's runs are merged after it, one after another.
    const double night_runs = 100 * 64 * 8 * 3600 * (static_cast<double>(slurm_sweep.runs) / sweep_seconds / here_cores);
    std::printf("projection: a 100 x 64-core night sweeps %.3g runs at this rate; merged at the deadline, its report waits %.0f min\n",
                night_runs, night_runs * merge_per_run / 60);
  }
  if (!keep) fs::remove_all(dir);
  return 0;
}
