// A campaign's plan: every run it consists of, each with a stable id and seed, derived from the
// configuration alone (so `--resume` recomputes the same plan and can tell what is left).
#pragma once

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "campaign/campaign_file.hpp"
#include "campaign/run_source.hpp"
#include "store/store.hpp"

namespace omnilink::campaign {

struct PlannedRun {
  std::string id;          // "<target>.t<threads>.o<ops>.r<NNN>", e.g. locked-queue.t2.o500.r001
  std::size_t target = 0;  // index into CampaignConfig::targets
  std::uint32_t threads = 0;
  std::uint64_t ops = 0;
  std::uint32_t number = 0;  // 1-based, within its (threads, ops) configuration
  std::uint64_t seed = 0;
};

// Round-robin over run numbers (every target and configuration gets its first run before any gets
// its second), so an interrupted or early-failing campaign has looked at everything.
std::vector<PlannedRun> plan_runs(const CampaignConfig& config);


// The plan's runs as the store records them before they start (status pending): the campaign's
// shard of them, when it is one.
std::vector<store::RunRecord> planned_records(const CampaignConfig& config, const std::string& campaign_id,
                                       const std::filesystem::path& store);

/// Why a campaign stored with configuration `stored` cannot be continued with `now` ("" when it
/// can): only the targets and the shard decide the plan; jobs, limits, validation settings and the
/// rr mode may change between sessions (resume with fewer jobs, a larger heap).
std::string plan_difference(const nlohmann::json& stored, const nlohmann::json& now);

/// A campaign's runs: its plan, added to the store up front; every run as its target says.
class PlanSource : public RunSource {
 public:
  PlanSource(const CampaignConfig& config, std::string campaign_id);
  void prepare(store::Store& store) override;
  bool owns(const store::RunRecord& run) const override;
  RunVariant variant(const store::RunRecord&) const override { return {}; }
  std::optional<store::RunRecord> next(store::Store&) override { return std::nullopt; }

 private:
  const CampaignConfig& config_;
  std::string campaign_id_;
  std::set<std::string> planned_ids_;
};

}  // namespace omnilink::campaign
