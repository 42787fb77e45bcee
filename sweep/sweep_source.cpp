#include "sweep/sweep_source.hpp"

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <tuple>

#include "campaign/recording.hpp"
#include "store/outcome.hpp"
#include "campaign/run_plan.hpp"
#include "platform/enum_names.hpp"
#include "platform/fnv1a.hpp"
#include "sweep/retention.hpp"
#include "findings/signature_history.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::sweep {

namespace {
constexpr platform::EnumNames<StopReason, 5> kStopReasonNames{{{
    {StopReason::budget, "budget"},
    {StopReason::max_runs, "max_runs"},
    {StopReason::max_failures, "max_failures"},
    {StopReason::tasks, "tasks"},
    {StopReason::interrupted, "interrupted"},
}}};
}  // namespace

std::string to_string(StopReason reason) { return kStopReasonNames.name(reason); }
std::ostream& operator<<(std::ostream& out, StopReason reason) { return out << to_string(reason); }
void to_json(nlohmann::json& j, StopReason reason) { j = to_string(reason); }
namespace fs = std::filesystem;
using store::RunRecord;

namespace {

// Seconds between saves of the clock: what a kill -9 can take off the budget's accounting.
constexpr unsigned kClockSaveTicks = 5;

bool failing(const RunRecord& run) {
  const store::Outcome o = store::outcome(run);
  return o == store::Outcome::fail || o == store::Outcome::crashed;
}

std::string run_number(std::uint32_t number) {
  std::string digits = std::to_string(number);
  return std::string(digits.size() < 5 ? 5 - digits.size() : 0, '0') + digits;
}

}  // namespace

SweepSource::SweepSource(const SweepConfig& config, std::string campaign_id, SweepClock& clock)
    : config_(config),
      campaign_id_(std::move(campaign_id)),
      clock_(clock),
      allocator_(config.configurations.size(), config.sweep.min_runs),
      tallies_(config.configurations.size()),
      failures_(config.configurations.size(), 0),
      recent_(config.configurations.size()),
      number_step_(config.campaign.shard ? config.campaign.shard->count : 1),
      next_number_(config.configurations.size(), config.campaign.shard ? config.campaign.shard->index + 1 : 1),
      seed_basis_(campaign_id_) {}

std::size_t SweepSource::index_of(const RunRecord& run) const {
  const Configuration* c = configuration_of(config_, run);
  return static_cast<std::size_t>(c - config_.configurations.data());
}

void SweepSource::prepare(store::Store& store) {
  // A shard's store is often new each night (a CI job, an array task), so its sweep id repeats:
  // the time the shard's sweep was created keeps its seeds fresh.
  if (config_.campaign.shard)
    if (const auto record = store.campaign(campaign_id_)) seed_basis_ = campaign_id_ + "@" + std::to_string(record->created_ms);
  // What is evidence already, in every sweep of the name (signature_history.hpp): runs finishing
  // now are evidence only where those leave room. Those runs started before any of this night's;
  // they stand here as placeholders, never dropped: one per known symptom, and as many more as
  // fill the evidence runs they hold.
  for (const auto& h : findings::signature_history(store, config_.campaign.name, {config_.sweep.fixed_confidence, config_.sweep.evidence_runs, ""})) {
    std::vector<FinishedFailure>& earlier = finished_failures_[h.signature.id];
    for (const auto& symptom : h.symptoms) earlier.push_back({INT64_MIN, 0, symptom.symptom.id, {}, true});
    while (earlier.size() < std::min<std::uint64_t>(h.count, config_.sweep.evidence_runs)) earlier.push_back({INT64_MIN, 0, "", {}, true});
  }
  for (const RunRecord& run : store.runs(campaign_id_)) {
    if (!owns(run)) continue;  // the engine refuses it with the reason
    const std::size_t c = index_of(run);
    next_number_[c] = std::max(next_number_[c], run.number + number_step_);
    allocator_.started(c);
    draw_order_[run.id] = runs_++;
    if (store::has_outcome(run)) {
      RunRecord here = run;
      here.dir = store::run_directory(config_.campaign.store, campaign_id_, run.id).string();
      count_finished(here);
      // A resumed night: its finished failures, their recordings as the earlier session left them.
      if (failing(here))
        if (const auto signature = findings::failure_signature(here))
          finished_failures_[signature->id].push_back({here.started_ms, draw_order_[here.id], signature->symptom.id, here.dir,
                                                       !fs::exists(trace::RunLayout(here.dir).recording())});
    }
  }
}

bool SweepSource::owns(const RunRecord& run) const { return configuration_of(config_, run) != nullptr; }

campaign::RunVariant SweepSource::variant(const RunRecord& run) const {
  const Configuration& c = *configuration_of(config_, run);
  campaign::RunVariant v;
  if (c.perturb) v.extra_args.insert(v.extra_args.end(), {"--perturb", *c.perturb});
  if (c.perturb_rate) v.extra_args.insert(v.extra_args.end(), {"--perturb-rate", nlohmann::json(*c.perturb_rate).dump()});
  v.timeslice_ticks = c.timeslice_ticks;
  return v;
}

std::optional<StopReason> SweepSource::limit_reached() const {
  if (clock_.over()) return StopReason::budget;
  if (config_.sweep.max_failures && failing_runs_ >= *config_.sweep.max_failures) return StopReason::max_failures;
  if (config_.sweep.max_runs && runs_ >= *config_.sweep.max_runs) return StopReason::max_runs;
  return std::nullopt;
}

StopReason SweepSource::ended_by(bool completed) const {
  if (!completed) return StopReason::interrupted;
  // A sweep without a clock of its own (merged from shards) was ended by its shards.
  const std::optional<StopReason> limit = clock_.kept() ? limit_reached() : std::nullopt;
  return limit.value_or(StopReason::tasks);
}

bool SweepSource::may_start() const {
  // Stored runs left unfinished by a killed session may be done again while budget is left, even
  // at max_runs: they are among those runs.
  const std::optional<StopReason> limit = limit_reached();
  return !limit || limit == StopReason::max_runs;
}

std::optional<RunRecord> SweepSource::next(store::Store& store) {
  if (limit_reached()) return std::nullopt;
  const std::size_t c = allocator_.next();
  const Configuration& configuration = config_.configurations[c];
  RunRecord run;
  run.campaign = campaign_id_;
  // A number whose run directory exists is taken, whatever the index says (one rebuilt, or
  // restored from a backup, may not know it): a new run never replaces another's evidence.
  do {
    run.number = next_number_[c];
    next_number_[c] += number_step_;
    run.id = configuration.name + ".r" + run_number(run.number);
  } while (fs::exists(store::run_directory(config_.campaign.store, campaign_id_, run.id)));
  run.target = config_.campaign.targets[configuration.target].name;
  run.threads = configuration.threads;
  run.ops = configuration.ops;
  run.seed = fnv1a64(seed_basis_ + "/" + run.id);
  run.dir = store::run_directory(config_.campaign.store, campaign_id_, run.id).string();
  store.add_runs({run});
  allocator_.started(c);
  draw_order_[run.id] = runs_++;
  return run;
}

void SweepSource::count_finished(const RunRecord& run) {
  const std::size_t c = index_of(run);
  const bool failed = failing(run);
  if (failed) {
    ++failures_[c];
    ++failing_runs_;
  }
  bool new_windows = false;
  if (const auto explored = explore_run(run.dir)) new_windows = tallies_[c].add(*explored).new_windows > 0;
  recent_[c].push_back(new_windows);
  allocator_.finished(c, failed || new_windows);
}

void SweepSource::finished(const RunRecord& run) {
  count_finished(run);
  // A passing run's recording replays nothing anyone will look at, nor does a failure's beyond
  // its signature's evidence: a recurring bug would otherwise fill the disk in a night. Traces and
  // verdicts stay.
  if (store::outcome(run) == store::Outcome::pass) {
    if (!config_.sweep.keep_passing_recordings) drop_recording(run.dir, run.key());
  } else if (failing(run) && !config_.sweep.keep_failing_recordings) {
    for (const fs::path& dir : no_longer_evidence(run)) drop_recording(dir, run.campaign + "/" + dir.filename().string());
  }
  clock_.save();
}

void SweepSource::drop_recording(const fs::path& run_dir, const std::string& key) {
  try {
    if (const std::uint64_t bytes = prune_recording(run_dir); bytes > 0) {
      dropped_.freed += bytes;
      dropped_.pruned.push_back(key + ": rr (" + std::to_string(bytes) + " bytes)");
    }
  } catch (const fs::filesystem_error&) {
    // A recording left behind costs space, not correctness; gc removes it later.
  }
}

std::vector<fs::path> SweepSource::no_longer_evidence(const RunRecord& run) {
  const auto signature = findings::failure_signature(run);
  if (!signature) return {};  // unsigned (a crash without a crash site): keep what explains it
  std::vector<FinishedFailure>& runs = finished_failures_[signature->id];
  runs.push_back({run.started_ms, draw_order_.count(run.id) ? draw_order_.at(run.id) : UINT64_MAX, signature->symptom.id, run.dir, false});
  // As the report orders them: by start, then as the store holds them (the order they were drawn).
  std::stable_sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
    return std::tie(a.started_ms, a.drawn) < std::tie(b.started_ms, b.drawn);
  });
  std::set<std::string> symptoms;
  std::vector<fs::path> out;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const bool evidence = symptoms.insert(runs[k].symptom).second || k < config_.sweep.evidence_runs;
    if (!evidence && !runs[k].recording_dropped) {
      runs[k].recording_dropped = true;
      out.push_back(runs[k].dir);
    }
  }
  return out;
}

void SweepSource::tick() {
  if (++ticks_ % kClockSaveTicks == 0) clock_.save();
}

std::vector<ConfigurationShare> SweepSource::shares() const {
  std::vector<ConfigurationShare> out;
  for (std::size_t c = 0; c < config_.configurations.size(); ++c) {
    ConfigurationShare s;
    s.configuration = &config_.configurations[c];
    s.runs = allocator_.arms()[c];
    s.failures = failures_[c];
    s.histories = tallies_[c].histories();
    s.windows = tallies_[c].windows();
    const auto& recent = recent_[c];
    s.recent_new = static_cast<std::size_t>(
        std::count(recent.end() - static_cast<std::ptrdiff_t>(std::min(recent.size(), kRecentRuns)), recent.end(), true));
    out.push_back(s);
  }
  return out;
}

}  // namespace omnilink::sweep
