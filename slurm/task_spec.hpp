// What a Slurm array task is to do, as the coordinator writes it for every task of a campaign:
// STORE/<campaign-id>/slurm/task.json (format omnilink-slurm-task, version 2; docs/scale-out.md).
// The task reads its index from SLURM_ARRAY_TASK_ID; everything else is here, so the batch script
// Slurm runs holds no more than omnilink's path and this file's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/records.hpp"

namespace omnilink::slurm {

class TaskSpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TaskSpec {
  store::CampaignKind kind = store::CampaignKind::campaign;  // what each task runs a shard of (its verb: to_string)
  std::string campaign;                          // the coordinator's campaign (or sweep) id
  std::filesystem::path omnilink;                // the executable, at the same path on every node
  std::vector<std::string> arguments;            // the verb's ARGS (the file first), without --shard, --store and --for
  std::uint32_t shard_count = 0;                 // the plan (or the sweep) is split into this many tasks
  std::filesystem::path delivery_dir;            // where a finished task's shard store goes (shared)
  std::optional<std::int64_t> deadline_ms;       // a sweep's: when its budget ends (Unix epoch milliseconds)
  bool sweep() const { return kind == store::CampaignKind::sweep; }
};

/// STORE/<campaign-id>/slurm: the coordinator's directory for a campaign run through Slurm.
std::filesystem::path slurm_dir(const std::filesystem::path& store, const std::string& campaign_id);
/// DELIVERY/shard-<index>: a task's shard store once it is whole.
std::filesystem::path delivered_shard(const std::filesystem::path& delivery_dir, std::uint32_t index);

void write_task_spec(const std::filesystem::path& file, const TaskSpec& spec);
/// Throws TaskSpecError naming the file and the field at fault.
TaskSpec read_task_spec(const std::filesystem::path& file);

}  // namespace omnilink::slurm
