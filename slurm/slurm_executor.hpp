// `omnilink campaign FILE --executor slurm` (docs/scale-out.md, "Slurm"): the campaign's plan split
// into tasks of a few runs each (shards of the plan, --shard I/N with N = runs / batch), submitted
// as one Slurm job array with a limit on the tasks running at once. This process, the coordinator,
// is the only one that writes the campaign's SQLite: tasks run on the compute nodes into stores on
// their own disks and deliver each whole shard store to STORE/<campaign-id>/slurm/delivered/
// (slurm_task.hpp); the coordinator merges each delivery into the campaign as it appears
// (maintenance/merge.hpp), so progress and the summary read as a local campaign's.
//
// A task that ends without delivering (time limit, node failure, preemption, a crash) is submitted
// again, up to `attempts` times; after that its runs are recorded as `error` with what Slurm said,
// never lost and never a verdict. Ctrl-C or SIGTERM cancels the array (scancel) and leaves the
// campaign for `--resume`, which submits only the tasks not merged yet and keeps watching those a
// killed coordinator left running. The split (N) is fixed when the campaign starts.
//
// A sweep (`omnilink sweep FILE --executor slurm`) is split the same way into as many tasks as may
// run at once, each a shard of the sweep (its own draws, run numbers interleaved with the other
// shards') that runs until the sweep's deadline and delivers what it finished. A task that ends
// without delivering is run again while budget is left; its runs are reported missing otherwise.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "campaign/executor.hpp"
#include "campaign/progress.hpp"
#include "campaign/run_source.hpp"
#include "slurm/slurm_client.hpp"
#include "slurm/task_spec.hpp"

namespace omnilink::slurm {

struct SlurmSettings {
  unsigned batch = 8;         // runs per task: short runs must not drown the controller in tiny jobs
  unsigned concurrency = 64;  // tasks at once (sbatch --array=...%N); 0: as many as Slurm starts
  unsigned attempts = 3;      // per task, counting the first
  std::vector<std::string> sbatch_args;  // --slurm-arg, passed to sbatch after omnilink's own
  std::chrono::milliseconds poll{1000};
  // How long a task Slurm says has ended may take to show its delivery: a shared file system's
  // directory cache can hide a new entry for a few seconds (NFS's acdirmin is 30 s at most).
  std::chrono::milliseconds delivery_grace{15'000};
};

class SlurmExecutor final : public campaign::Executor {
 public:
  /// Coordinates the session's campaign (holding its lock for as long as it runs) with runs from
  /// `source`: a campaign's plan, added to the store before the split; a sweep's, ticked on every
  /// look at Slurm so that it saves its clock. `task`: the spec every task runs (its campaign,
  /// shard count and delivery directory are set here; the executable, when empty, is this one).
  SlurmExecutor(campaign::Session& session, campaign::RunSource& source, TaskSpec task, SlurmSettings settings,
                campaign::Progress& progress);
  ~SlurmExecutor() override;
  SlurmExecutor(const SlurmExecutor&) = delete;
  SlurmExecutor& operator=(const SlurmExecutor&) = delete;

  std::string name() const override { return "--executor slurm"; }
  /// Runs every task not merged yet to its end. False when interrupted by SIGINT/SIGTERM (the
  /// array cancelled). Throws SlurmError when Slurm's commands are missing or refuse the array,
  /// store::StoreError, and std::runtime_error for a campaign that was started without Slurm.
  bool run() override;

  /// A sweep's tasks that ended without delivering what they ran, each with why and its log: those
  /// runs are missing from the sweep. (A campaign's records its runs as `error` instead.)
  std::vector<std::string> missing() const override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace omnilink::slurm
