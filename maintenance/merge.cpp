#include "maintenance/merge.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "campaign/campaign_file.hpp"
#include "store/campaign_lock.hpp"
#include "store/outcome.hpp"
#include "campaign/run_plan.hpp"
#include "platform/json_file.hpp"
#include "store/store.hpp"
#include "sweep/sweep_file.hpp"

namespace omnilink::maintenance {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// DEST/<campaign-id>/merged-shards.json: the shard count and the indices merged so far, so that a
/// later merge into the same campaign refuses an index twice and says which are missing.
fs::path merged_shards_file(const fs::path& store, const std::string& campaign_id) { return store / campaign_id / "merged-shards.json"; }

/// One shard store's shard campaign, read and checked on its own.
struct ShardInput {
  fs::path store_dir;
  store::CampaignRecord campaign;
  json stored;            // its stored configuration: a campaign's, or a sweep's (with `sweep`)
  std::optional<sweep::StoredSweep> sweep_part;  // a sweep's own part of it (nothing for a campaign)
  campaign::CampaignConfig config;  // with its shard
  std::vector<store::RunRecord> runs;
  json marker;  // merged.json, if any
  std::optional<store::CampaignLock> lock;

  std::string describe() const { return store_dir.string() + " (campaign " + campaign.id + ", shard " + config.shard->text() + ")"; }
  bool sweep() const { return campaign.kind == store::CampaignKind::sweep; }
};

/// A sweep's configurations (nothing for a campaign): with the targets, what decides which runs
/// belong to it.
std::optional<std::vector<std::string>> sweep_configurations(const std::optional<sweep::StoredSweep>& part) {
  if (!part) return std::nullopt;
  return part->configurations;
}

ShardInput read_shard(const fs::path& store_dir) {
  ShardInput in;
  in.store_dir = fs::absolute(store_dir);
  auto shard_index = store::Store::open_read_only(in.store_dir);
  std::vector<store::CampaignRecord> shard_campaigns;
  for (auto& c : shard_index.campaigns())
    if (json::parse(c.config_json, nullptr, false).contains("shard")) shard_campaigns.push_back(std::move(c));
  if (shard_campaigns.empty()) {
    // A campaign recovered from its runs may have been a shard: nothing says which, or of what.
    std::string lost;
    for (const auto& c : shard_index.campaigns())
      if (campaign::is_recovered_config(json::parse(c.config_json, nullptr, false))) lost += (lost.empty() ? "" : ", ") + c.id;
    if (!lost.empty())
      throw MergeError(in.store_dir.string() + ": no shard campaign in this store; " + lost + " may have been one, but " +
                       campaign::kLostConfiguration + ", so which shard of which plan is unknown");
    throw MergeError(in.store_dir.string() + ": no shard campaign in this store (a shard is run with `omnilink campaign FILE --shard I/N`)");
  }
  if (shard_campaigns.size() > 1) {
    std::string ids;
    for (const auto& c : shard_campaigns) ids += (ids.empty() ? "" : ", ") + c.id;
    throw MergeError(in.store_dir.string() + ": holds " + std::to_string(shard_campaigns.size()) + " shard campaigns (" + ids +
                     "); a shard store holds one");
  }
  in.campaign = std::move(shard_campaigns.front());
  try {
    in.stored = json::parse(in.campaign.config_json);
    const std::string record_file = store::campaign_record_file(in.store_dir, in.campaign.id).string();
    in.config = campaign::stored_campaign(in.stored, record_file);
    if (in.sweep()) {
      in.sweep_part = sweep::stored_sweep(in.stored, record_file);
      if (!in.sweep_part) throw MergeError(in.store_dir.string() + ": sweep " + in.campaign.id + " has no sweep settings in its stored configuration");
    }
  } catch (const campaign::CampaignFileError& e) {
    throw MergeError(in.store_dir.string() + ": " + e.what());
  }
  in.runs = shard_index.runs(in.campaign.id);
  in.marker = platform::read_json_leniently(merged_marker(in.store_dir, in.campaign.id));
  std::string why;
  auto lock = store::CampaignLock::acquire(in.store_dir / in.campaign.id, why);
  if (!lock) throw MergeError(in.describe() + " is still running: " + why);
  in.lock.emplace(std::move(*lock));
  return in;
}

/// The shards are of one campaign, each index once.
void check_one_campaign(const std::vector<ShardInput>& shards) {
  const ShardInput& first = shards.front();
  const json targets = first.stored.at("targets");
  std::set<std::uint32_t> indices;
  for (const ShardInput& s : shards) {
    if (s.config.name != first.config.name)
      throw MergeError(s.describe() + " is not a shard of the same campaign as " + first.describe() + ": its name differs");
    if (s.stored.at("targets") != targets)
      throw MergeError(s.describe() + " is not a shard of the same campaign as " + first.describe() +
                       ": its targets differ (another campaign file, or other overrides)");
    if (s.sweep() != first.sweep() || sweep_configurations(s.sweep_part) != sweep_configurations(first.sweep_part))
      throw MergeError(s.describe() + " is not a shard of the same campaign as " + first.describe() +
                       (s.sweep() == first.sweep() ? ": its sweep configurations differ" : ": one is a sweep, the other a campaign"));
    if (s.config.shard->count != first.config.shard->count)
      throw MergeError(s.describe() + " is not a shard of the same campaign as " + first.describe() + ": the plan was split into " +
                       std::to_string(s.config.shard->count) + " shards there, " + std::to_string(first.config.shard->count) + " here");
    if (!indices.insert(s.config.shard->index).second)
      throw MergeError("shard " + s.config.shard->text() + " is given twice (" + s.describe() + ")");
    if (s.marker.is_object() && s.marker.value("complete", false))
      throw MergeError(s.describe() + " was merged already, into " + s.marker.value("into", "?") + " (campaign " +
                       s.marker.value("campaign", "?") + ")");
  }
}

/// The destination campaign's configuration: the shards' plan, whole, kept in the destination.
campaign::CampaignConfig whole_plan(const campaign::CampaignConfig& shard, const fs::path& destination) {
  campaign::CampaignConfig config = shard;
  config.shard.reset();
  config.store = destination;
  return config;
}

/// What the destination campaign stores as its configuration: the shard's (a sweep's keeps its
/// `sweep`), without the shard, in the destination store.
json whole_stored(const ShardInput& shard, const fs::path& destination) {
  json stored = shard.stored;
  stored.erase("shard");
  stored["store"] = destination.string();
  return stored;
}

/// Moves a run directory: a rename, or across file systems a copy and then the removal of the source.
void move_directory(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (!ec) return;
  if (ec != std::errc::cross_device_link) throw MergeError("cannot move " + from.string() + " to " + to.string() + ": " + ec.message());
  fs::remove_all(to);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::remove_all(from);
}

bool final_status(const store::RunRecord& run) { return run.status != store::RunStatus::pending && run.status != store::RunStatus::running && run.status != store::RunStatus::interrupted; }

}  // namespace

fs::path merged_marker(const fs::path& shard_store, const std::string& campaign_id) { return shard_store / campaign_id / "merged.json"; }

namespace {

/// Error: MergeError before any run moved, MergeStoppedPartWay after.
template <class Error>
void write_merged_shards(const fs::path& store, const std::string& campaign_id, const MergedShards& shards) {
  platform::write_json_file<Error>(merged_shards_file(store, campaign_id),
                                   {{"format", "omnilink-merged-shards"}, {"version", 1}, {"count", shards.count}, {"merged", shards.merged}});
}

}  // namespace

void start_merged_campaign(const fs::path& store, const std::string& campaign_id, std::uint32_t shard_count) {
  write_merged_shards<MergeError>(store, campaign_id, {shard_count, {}});
}

std::optional<MergedShards> merged_shards(const fs::path& store, const std::string& campaign_id) {
  const json file = platform::read_json_leniently(merged_shards_file(store, campaign_id));
  if (!file.is_object() || !file.contains("count") || !file.contains("merged")) return std::nullopt;
  return MergedShards{file.at("count").get<std::uint32_t>(), file.at("merged").get<std::set<std::uint32_t>>()};
}

MergeReport merge_shards(const fs::path& destination_arg, const std::vector<fs::path>& shard_dirs, const std::optional<std::string>& into,
                         const store::CampaignLock* held) {
  if (shard_dirs.empty()) throw MergeError("no shard to merge");
  const fs::path destination = fs::absolute(destination_arg);
  std::vector<ShardInput> shards;
  std::set<fs::path> seen;
  for (const fs::path& dir : shard_dirs) {
    const fs::path where = fs::weakly_canonical(fs::absolute(dir));
    if (where == fs::weakly_canonical(destination)) throw MergeError(dir.string() + " is the destination store itself");
    if (!seen.insert(where).second) throw MergeError(dir.string() + " is given twice");
    shards.push_back(read_shard(dir));
  }
  check_one_campaign(shards);

  // A merge that died is continued into the campaign its markers name.
  std::optional<std::string> target = into;
  for (const ShardInput& s : shards) {
    if (!s.marker.is_object()) continue;
    const std::string marked = s.marker.value("campaign", "");
    if (s.marker.value("into", "") != destination.string() || (target && *target != marked))
      throw MergeError(s.describe() + " was being merged into " + s.marker.value("into", "?") + " (campaign " + marked +
                       ") when that merge stopped: run the same merge again to finish it");
    target = marked;
  }

  auto index = store::Store::open(destination);
  const campaign::CampaignConfig config = whole_plan(shards.front().config, destination);
  // A sweep has no plan: its runs are those its shards drew and finished, verdict and all (a run a
  // stopped shard did not validate is left out, as one it never started would be).
  const bool sweep = shards.front().sweep();
  const auto shard_run_done = [&](const store::RunRecord& run) { return sweep ? has_outcome(run) : final_status(run); };
  const std::uint32_t count = shards.front().config.shard->count;
  MergeReport report;
  report.shard_count = count;
  MergedShards merged{count, {}};
  // The destination campaign's runs: stored (--into, or a merge that died), or the plan's, pending,
  // for a campaign made only once everything is checked.
  std::map<std::string, store::RunRecord> destination_runs;
  if (target) {
    const auto existing = index.campaign(*target);
    if (!existing) throw MergeError(destination.string() + ": no campaign " + *target);
    const auto stored = merged_shards(destination, *target);
    if (!stored)
      throw MergeError(destination.string() + ": campaign " + *target + " was not made by `omnilink merge` (no merged-shards.json)");
    merged = *stored;
    const json existing_config = json::parse(existing->config_json);
    if (existing->kind != shards.front().campaign.kind || existing->name != config.name || existing_config.at("targets") != shards.front().stored.at("targets") ||
        sweep_configurations(sweep::stored_sweep(existing_config, destination.string() + ": campaign " + *target)) !=
            sweep_configurations(shards.front().sweep_part) ||
        merged.count != count)
      throw MergeError(destination.string() + ": campaign " + *target + " is not the campaign these shards are of (kind, name, targets or shard count differ)");
    report.campaign = *target;
    for (auto& r : index.runs(report.campaign)) destination_runs.emplace(r.id, std::move(r));
  } else if (!sweep) {
    for (auto& r : campaign::planned_records(config, "", destination)) destination_runs.emplace(r.id, std::move(r));
  }
  std::set<std::uint32_t>& done = merged.merged;

  // Everything is checked before anything is made or moved: each final shard run has its directory
  // (in the shard, or in the destination from a merge that died) and a pending row there.
  const auto destination_dir = [&](const std::string& run_id) { return store::run_directory(destination, report.campaign, run_id); };
  for (const ShardInput& s : shards) {
    const bool resuming = s.marker.is_object();
    if (done.contains(s.config.shard->index) && !resuming)
      throw MergeError("shard " + s.config.shard->text() + " was merged into " + destination.string() + " (campaign " + report.campaign +
                       ") already; " + s.describe() + " would bring its runs twice");
    for (const store::RunRecord& run : s.runs) {
      if (!shard_run_done(run)) continue;
      const auto found = destination_runs.find(run.id);
      if (found == destination_runs.end() && !sweep)
        throw MergeError(s.describe() + ": run " + run.id + " is not in the plan of the merged campaign");
      const fs::path from = store::run_directory(s.store_dir, s.campaign.id, run.id);
      if (found != destination_runs.end() && final_status(found->second) && !(resuming && !fs::exists(from)))
        throw MergeError(s.describe() + ": run " + run.id + " is in " + destination.string() + " already (campaign " + report.campaign +
                         ", status " + to_string(found->second.status) + ")");
      if (!fs::exists(from) && !(resuming && fs::exists(destination_dir(run.id))))
        throw MergeError(s.describe() + ": run " + run.id + " has no run directory (" + from.string() + ")");
    }
  }

  if (!target) {
    report.campaign = index.create_campaign(shards.front().campaign.kind, config.name, config.file.string(), whole_stored(shards.front(), destination).dump());
    report.created = true;
    start_merged_campaign(destination, report.campaign, count);
    if (!sweep) index.add_runs(campaign::planned_records(config, report.campaign, destination));
  }
  std::optional<store::CampaignLock> lock;
  if (!held) {
    std::string why;
    auto acquired = store::CampaignLock::acquire(destination / report.campaign, why);
    if (!acquired) throw MergeError(destination.string() + ": campaign " + report.campaign + " is in use: " + why);
    lock.emplace(std::move(*acquired));
  }

  for (const ShardInput& s : shards)
    platform::write_json_file<MergeError>(merged_marker(s.store_dir, s.campaign.id),
                                          {{"format", "omnilink-merged"}, {"version", 1}, {"into", destination.string()},
                                           {"campaign", report.campaign}, {"shard", s.config.shard->text()}, {"complete", false}});
  std::vector<store::RunRecord> imported;
  for (const ShardInput& s : shards) {
    for (store::RunRecord run : s.runs) {
      const auto found = destination_runs.find(run.id);
      if (!shard_run_done(run) || (found != destination_runs.end() && final_status(found->second)))
        continue;  // not done, or imported by a merge that died
      const fs::path from = store::run_directory(s.store_dir, s.campaign.id, run.id), to = destination_dir(run.id);
      if (fs::exists(from)) {
        fs::remove_all(to);  // a copy a merge that died left half done
        move_directory(from, to);
      }
      run.campaign = report.campaign;
      run.dir = to.string();
      imported.push_back(std::move(run));
    }
    report.shards.push_back(s.config.shard->text());
  }
  index.import_runs(imported);
  report.runs = std::move(imported);

  for (const ShardInput& s : shards) done.insert(s.config.shard->index);
  write_merged_shards<MergeStoppedPartWay>(destination, report.campaign, merged);
  for (const ShardInput& s : shards) {
    json marker = platform::read_json_leniently(merged_marker(s.store_dir, s.campaign.id));
    marker["complete"] = true;
    platform::write_json_file<MergeStoppedPartWay>(merged_marker(s.store_dir, s.campaign.id), marker);
  }
  for (const auto& run : index.runs(report.campaign)) report.pending += !final_status(run);
  for (std::uint32_t i = 0; i < count; ++i)
    if (!done.contains(i)) report.shards_missing.push_back(i);
  if (!held) index.set_campaign_status(report.campaign, report.pending == 0 && report.shards_missing.empty() ? store::CampaignStatus::finished : store::CampaignStatus::interrupted);
  return report;
}

}  // namespace omnilink::maintenance
