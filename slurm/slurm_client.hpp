// The Slurm commands omnilink drives: `sbatch` submits a job array, `squeue` (and `sacct`, where the
// cluster keeps accounting) say what became of each array task, `scancel` cancels. Each is run as
// an argument vector, with the caller's environment (SLURM_CONF and the like pass through). This
// file owns how their output is read; what to do about a task is the executor's (slurm_executor).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace omnilink::slurm {

/// A Slurm command that failed: its name and what it printed.
class SlurmError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One array task as Slurm reports it.
struct TaskState {
  std::string state;   // PENDING, RUNNING, COMPLETED, FAILED, TIMEOUT, NODE_FAIL, PREEMPTED, CANCELLED, ...
  std::string reason;  // squeue's reason (e.g. "Resources", "NonZeroExitCode"); "" when there is none
  /// Whether the task has ended, one way or another (COMPLETING is not the end: its epilog runs).
  bool ended() const;
};

/// "0-3,5,9-10" (sbatch's --array syntax) for `indices`, ascending and each once.
std::string array_ranges(const std::vector<std::uint32_t>& indices);

/// squeue's `--format=%K|%T|%r` lines with --array (one task per line) for one job: task index to
/// state. A line whose %K is N/A is the job's own record (what is left of an array whose tasks were
/// cancelled before they started): its state is given to each of `indices` without a line of its own.
std::map<std::uint32_t, TaskState> parse_squeue(const std::string& output, const std::vector<std::uint32_t>& indices);
/// sacct's `--parsable2 --format=JobID,State` lines for one job: array task "JOB_I" to state
/// ("CANCELLED by 0" is CANCELLED); the job's steps (JOB_I.batch) are left out.
std::map<std::uint32_t, TaskState> parse_sacct(const std::string& output, const std::string& job_id);

struct ArraySubmission {
  std::filesystem::path script;              // a batch script (#! first), run once per task
  std::vector<std::uint32_t> indices;        // SLURM_ARRAY_TASK_ID of each task
  unsigned concurrency = 0;                  // at most this many at once (sbatch's %N); 0: Slurm decides
  std::string job_name;
  std::filesystem::path output;              // sbatch --output pattern (%A job, %a task)
  std::vector<std::string> extra_args;       // the user's, after ours: theirs win (--slurm-arg)
};

class SlurmClient {
 public:
  /// The commands on PATH; nullopt with `why` naming the one missing.
  static std::optional<SlurmClient> find(std::string& why);

  /// Submits the array; returns its job id. Throws SlurmError with sbatch's message.
  std::string submit(const ArraySubmission& submission) const;
  /// What Slurm knows of job `job_id`'s tasks `indices`: squeue's view (it keeps ended jobs for MinJobAge),
  /// and sacct's for a job squeue no longer lists, where accounting is kept. Tasks neither knows
  /// are missing from the map.
  std::map<std::uint32_t, TaskState> tasks(const std::string& job_id, const std::vector<std::uint32_t>& indices) const;
  /// Cancels the jobs (scancel); what scancel says about a job already gone is ignored.
  void cancel(const std::vector<std::string>& job_ids) const;

 private:
  std::filesystem::path sbatch_, squeue_, scancel_;
  std::optional<std::filesystem::path> sacct_;
};

}  // namespace omnilink::slurm
