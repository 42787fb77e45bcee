#include "slurm/slurm_task.hpp"

#include <cstdio>
#include <cstdlib>
#include <ostream>

#include "store/outcome.hpp"
#include "store/store.hpp"
#include "platform/fnv1a.hpp"
#include "platform/stop_request.hpp"
#include "platform/subprocess.hpp"
#include "slurm/task_spec.hpp"

namespace omnilink::slurm {
namespace fs = std::filesystem;

namespace {

/// A decimal number from the environment, or nullopt.
std::optional<std::uint64_t> env_number(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0' || std::string(value).size() > 18) return std::nullopt;
  for (const char* c = value; *c; ++c)
    if (*c < '0' || *c > '9') return std::nullopt;
  return std::stoull(value);
}

/// Runs of the shard store's campaign still without a result.
std::size_t unfinished_runs(const fs::path& shard_store) {
  auto store = store::Store::open_read_only(shard_store);
  std::size_t unfinished = 0;
  for (const auto& c : store.campaigns())
    for (const auto& run : store.runs(c.id)) unfinished += !store::has_outcome(run);
  return unfinished;
}

/// Copies the shard store to the delivery directory whole: aside first, then renamed into place.
/// False when another attempt of the same task delivered first.
bool deliver(const fs::path& shard_store, const fs::path& delivery_dir, std::uint32_t index, std::uint64_t job) {
  fs::create_directories(delivery_dir);
  const fs::path aside = delivery_dir / ("shard-" + std::to_string(index) + ".part-" + std::to_string(job));
  fs::remove_all(aside);
  fs::copy(shard_store, aside, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  std::error_code ec;
  fs::rename(aside, delivered_shard(delivery_dir, index), ec);
  if (!ec) return true;
  fs::remove_all(aside);
  if (fs::exists(delivered_shard(delivery_dir, index))) return false;
  throw fs::filesystem_error("cannot rename into place", aside, delivered_shard(delivery_dir, index), ec);
}

}  // namespace

fs::path scratch_store(const TaskSpec& spec, std::uint64_t job, std::uint32_t task) {
  const char* tmp = std::getenv("TMPDIR");
  char coordinator[17];
  std::snprintf(coordinator, sizeof coordinator, "%016llx", static_cast<unsigned long long>(fnv1a64(spec.delivery_dir.string())));
  return fs::path(tmp != nullptr && *tmp == '/' ? tmp : "/tmp") /
         ("omnilink-slurm-" + std::string(coordinator) + "-" + std::to_string(job) + "-" + std::to_string(task));
}

int run_slurm_task(const fs::path& spec_file, std::ostream& log) {
  TaskSpec spec;
  try {
    spec = read_task_spec(spec_file);
  } catch (const TaskSpecError& e) {
    log << "omnilink slurm-task: " << e.what() << "\n";
    return 3;
  }
  const auto index = env_number("SLURM_ARRAY_TASK_ID");
  // The array's job id, as the coordinator knows it (each task has a SLURM_JOB_ID of its own).
  const auto job = env_number("SLURM_ARRAY_JOB_ID");
  if (!index || !job || *index >= spec.shard_count) {
    log << "omnilink slurm-task: SLURM_ARRAY_TASK_ID (a task index below " << spec.shard_count
        << ") and SLURM_ARRAY_JOB_ID must be set: this runs as a task of the array `omnilink campaign --executor slurm` submits\n";
    return 3;
  }
  const auto task = static_cast<std::uint32_t>(*index);
  const std::string shard = std::to_string(task) + "/" + std::to_string(spec.shard_count);
  if (fs::exists(delivered_shard(spec.delivery_dir, task))) {
    log << "task " << shard << ": delivered already by an earlier attempt\n";
    return 0;
  }

  std::vector<std::string> args{to_string(spec.kind)};
  args.insert(args.end(), spec.arguments.begin(), spec.arguments.end());
  if (spec.sweep()) {
    // A sweep's tasks share its budget: each runs until the sweep's deadline, however late Slurm
    // started it.
    const std::int64_t left_s = (*spec.deadline_ms - store::now_ms()) / 1000;
    if (left_s < 1) {
      log << "task " << shard << " of sweep " << spec.campaign << ": its budget ended before this task started; nothing to run\n";
      return 0;
    }
    args.insert(args.end(), {"--for", std::to_string(left_s) + "s"});
  }

  const fs::path scratch = scratch_store(spec, *job, task);
  args.insert(args.end(), {"--shard", shard, "--store", scratch.string()});

  // Slurm's SIGTERM (time limit, preemption, scancel) reaches the campaign too; this process only
  // needs to outlive it to clean up the node's disk.
  const StopRequest stop;
  log << "task " << shard << " of " << to_string(spec.kind) << " " << spec.campaign << ": " << shell_command_line(args) << "\n" << std::flush;
  ProcessOptions options;
  options.timeout = std::chrono::hours(24 * 365);  // Slurm's time limit is the one that counts
  options.cancel = &stop.flag();
  options.own_process_group = true;
  const ProcessResult shard_run = run_process(spec.omnilink, args, options);
  log << shard_run.out << shard_run.err;
  const bool stopped = stop.requested() || shard_run.cancelled;
  int code = stopped ? kTaskStopped : 0;
  try {
    // A campaign's shard is delivered whole or not at all (a retry runs it again); a sweep's runs
    // are not a plan, so what a stopped sweep finished is delivered too: its other runs never were.
    if (stopped && !spec.sweep()) {
      log << "task " << shard << ": stopped by a signal; nothing delivered\n";
    } else if (!shard_run.started || !fs::exists(scratch / "omnilink.db")) {
      log << "task " << shard << ": the " << to_string(spec.kind) << " did not run (" << shard_run.describe() << "); nothing delivered\n";
      code = kTaskIncomplete;
    } else if (const std::size_t unfinished = spec.sweep() ? 0 : unfinished_runs(scratch); unfinished > 0) {
      log << "task " << shard << ": " << unfinished << " run(s) without a result (" << shard_run.describe() << "); nothing delivered\n";
      code = kTaskIncomplete;
    } else if (deliver(scratch, spec.delivery_dir, task, *job)) {
      log << "task " << shard << ": delivered to " << delivered_shard(spec.delivery_dir, task).string() << "\n";
    } else {
      log << "task " << shard << ": another attempt delivered first; this one's results are dropped\n";
    }
  } catch (const std::exception& e) {  // a full or unreachable shared file system, a damaged shard store
    log << "task " << shard << ": " << e.what() << "; nothing delivered\n";
    code = kTaskIncomplete;
  }
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  return code;
}

}  // namespace omnilink::slurm
