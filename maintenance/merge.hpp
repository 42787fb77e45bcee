// Bringing shards into one store (`omnilink merge`, docs/scale-out.md). A shard is a store into
// which `omnilink campaign FILE --shard I/N` ran its share of a campaign's plan (on another machine,
// in a CI matrix job, a Kubernetes Indexed Job, a Slurm array task). The merge checks that the
// shards are of one campaign (same name, same targets, same shard count, each index once, none
// merged already, none still running), creates that campaign in the destination store (or continues
// one named with `into`), and moves each shard run's directory into it with its records: every run
// once, with its verdict, recording and files. Runs a shard never finished stay pending there, for
// `omnilink campaign FILE --resume --id ID` or a later merge.
//
// Shards of a sweep (`omnilink sweep FILE --shard I/N`) merge the same way, but a sweep has no
// plan: its shards must have the same targets and sweep configurations, and the merged sweep's
// runs are those its shards finished (their run numbers interleave, so no two shards share one).
//
// Each shard is marked (SHARD/<campaign-id>/merged.json, "complete": false) before anything moves
// and completed after the destination's index has the runs (one transaction), so a merge that dies
// is finished by running the same merge again, and a finished one is never merged twice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/campaign_lock.hpp"
#include "store/store.hpp"

namespace omnilink::maintenance {

/// A shard that cannot be merged, or a merge that would lose or duplicate a run: nothing moved.
class MergeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A merge that failed after it began moving runs (a full disk writing its markers): the markers
/// say where it was going, and the same merge run again finishes it.
class MergeStoppedPartWay : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MergeReport {
  std::string campaign;             // the destination campaign's id
  bool created = false;             // made by this merge (not continued with `into`)
  std::vector<std::string> shards;  // "I/N" of each shard merged, in argument order
  std::vector<store::RunRecord> runs;      // the runs moved in (directories and records) as now recorded, in shard order
  std::size_t pending = 0;          // the campaign's runs still without a final result
  std::size_t shard_count = 0;      // N
  std::vector<std::uint32_t> shards_missing;  // indices never merged into the campaign, after this merge
};

/// Merges the shard stores `shards` into the store `destination` (created if needed). `into`: the
/// destination campaign to continue (a campaign earlier merges made, or one started with
/// start_merged_campaign); without it a new campaign. `held`: the lock on `into` when the caller
/// holds it (the Slurm coordinator merges into the campaign it runs); the caller then owns the
/// campaign's status too. Throws MergeError naming the shard, run or campaign at fault; store::StoreError
/// for a store that cannot be opened.
MergeReport merge_shards(const std::filesystem::path& destination, const std::vector<std::filesystem::path>& shards,
                         const std::optional<std::string>& into, const store::CampaignLock* held = nullptr);

/// Makes `campaign_id` (in `store`, with its whole plan) a campaign that shards of `shard_count`
/// merge into, with none merged yet. Throws MergeError when it cannot be written.
void start_merged_campaign(const std::filesystem::path& store, const std::string& campaign_id, std::uint32_t shard_count);

/// The shard count and the indices merged into `campaign_id` so far; nullopt for a campaign that
/// no merge made or started.
struct MergedShards {
  std::uint32_t count = 0;
  std::set<std::uint32_t> merged;
};
std::optional<MergedShards> merged_shards(const std::filesystem::path& store, const std::string& campaign_id);

/// SHARD/<campaign-id>/merged.json: where a shard campaign was merged to (format omnilink-merged,
/// version 1: "into" (the destination store, absolute), "campaign", "shard" ("I/N"), "complete").
std::filesystem::path merged_marker(const std::filesystem::path& shard_store, const std::string& campaign_id);

}  // namespace omnilink::maintenance
