// One Slurm array task of a campaign or sweep (`omnilink slurm-task SPEC`, which the coordinator's
// batch script runs): its share, run as `omnilink campaign ... --shard I/N` (or `omnilink sweep ...
// --shard I/N --for` the time left until the sweep's deadline) into a store on the node's own disk
// (TMPDIR, else /tmp), since SQLite must not be written over a network file system; then the whole
// shard store is copied to the shared delivery directory under a temporary name and renamed into
// place, so the coordinator (the only process writing the SQLite) sees a shard whole or not at
// all. A campaign's task delivers only when every run of its share has its result; one that is
// stopped (time limit, preemption, scancel) or leaves runs without a result delivers nothing, and
// the coordinator runs it again or records its runs as errors. A sweep's task delivers the runs it
// finished, stopped or not: a sweep's runs are drawn, not planned.
#pragma once

#include <filesystem>
#include <cstdint>
#include <iosfwd>

#include "slurm/task_spec.hpp"

namespace omnilink::slurm {

/// Exit codes: 0 delivered (or delivered before); 3 a bad spec or environment; 75 the share did
/// not finish (nothing delivered); 143 stopped by SIGTERM/SIGINT.
inline constexpr int kTaskIncomplete = 75;
inline constexpr int kTaskStopped = 143;

/// Where task `task` of Slurm job `job` keeps its shard store: on the node's own disk (TMPDIR, which
/// Slurm may give each job, else /tmp), named by the job, the task and the coordinator's delivery
/// directory. A requeued job (same id) continues its store; job ids that repeat elsewhere (another
/// cluster on the node, a controller whose state was reset) do not meet it.
std::filesystem::path scratch_store(const TaskSpec& spec, std::uint64_t job, std::uint32_t task);

/// Carries out task SLURM_ARRAY_TASK_ID (with SLURM_ARRAY_JOB_ID, it names its scratch) of the campaign or sweep in
/// `spec_file`, telling `log` what it does.
int run_slurm_task(const std::filesystem::path& spec_file, std::ostream& log);

}  // namespace omnilink::slurm
