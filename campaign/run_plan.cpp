#include "campaign/run_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

namespace omnilink::campaign {
namespace {

// "<target>.t<threads>.o<ops>.r<NNN>": the number padded to at least three digits, and to as many
// as the target's largest run number has, so a target's ids sort in run order.
std::string run_id(const TargetConfig& target, std::uint32_t threads, std::uint64_t ops, std::uint32_t number) {
  const std::size_t width = std::max<std::size_t>(3, std::to_string(target.runs).size());
  std::string digits = std::to_string(number);
  digits.insert(0, width - digits.size(), '0');
  return target.name + ".t" + std::to_string(threads) + ".o" + std::to_string(ops) + ".r" + digits;
}

// Ids are unique by construction: target names are unique, a target's thread and op counts are
// distinct, and the ".t.o.r" suffix parses back from the right. Two runs sharing an id would share a
// run directory and a store row, so this is checked anyway (not with assert: release builds run it).
void check_unique(const std::vector<PlannedRun>& plan) {
  std::unordered_set<std::string> seen;
  for (const auto& run : plan)
    if (!seen.insert(run.id).second) throw std::logic_error("campaign plan: duplicate run id " + run.id);
}

}  // namespace

std::vector<PlannedRun> plan_runs(const CampaignConfig& config) {
  std::uint32_t max_runs = 0;
  for (const auto& target : config.targets) max_runs = std::max(max_runs, target.runs);
  std::vector<std::uint64_t> planned(config.targets.size(), 0);  // per target: runs so far, the next one's k
  std::vector<PlannedRun> plan;
  for (std::uint32_t number = 1; number <= max_runs; ++number)
    for (std::size_t t = 0; t < config.targets.size(); ++t) {
      const TargetConfig& target = config.targets[t];
      if (target.runs < number) continue;
      for (const auto threads : target.threads)
        for (const auto ops : target.ops)
          plan.push_back({run_id(target, threads, ops, number), t, threads, ops, number, target.seed_base + planned[t]++});
    }
  check_unique(plan);
  return plan;
}

std::vector<store::RunRecord> planned_records(const CampaignConfig& config, const std::string& campaign_id,
                                       const std::filesystem::path& store) {
  std::vector<store::RunRecord> records;
  const std::vector<PlannedRun> plan = plan_runs(config);
  for (std::size_t position = 0; position < plan.size(); ++position) {
    if (config.shard && position % config.shard->count != config.shard->index) continue;  // another shard's
    const PlannedRun& p = plan[position];
    store::RunRecord r;
    r.campaign = campaign_id;
    r.id = p.id;
    r.target = config.targets[p.target].name;
    r.threads = p.threads;
    r.ops = p.ops;
    r.number = p.number;
    r.seed = p.seed;
    r.dir = store::run_directory(store, campaign_id, p.id).string();
    records.push_back(std::move(r));
  }
  return records;
}

PlanSource::PlanSource(const CampaignConfig& config, std::string campaign_id)
    : config_(config), campaign_id_(std::move(campaign_id)) {}

void PlanSource::prepare(store::Store& store) {
  const std::vector<store::RunRecord> planned = planned_records(config_, campaign_id_, config_.store);
  for (const store::RunRecord& r : planned) planned_ids_.insert(r.id);
  store.add_runs(planned);
}

bool PlanSource::owns(const store::RunRecord& run) const { return planned_ids_.contains(run.id); }

std::string plan_difference(const nlohmann::json& stored, const nlohmann::json& now) {
  if (is_recovered_config(stored)) return kLostConfiguration;
  if (stored.value("targets", nlohmann::json()) != now.value("targets", nlohmann::json())) return "its targets differ from the campaign file's now";
  if (stored.value("shard", nlohmann::json()) != now.value("shard", nlohmann::json())) return "it is another shard of the plan (--shard)";
  return "";
}

}  // namespace omnilink::campaign
