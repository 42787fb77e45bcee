// The runs of a sweep (campaign/run_source.hpp): drawn one at a time while the budget and caps
// allow, each for the configuration the allocator picks, numbered after that configuration's
// stored runs (interleaved with the other shards' for a shard of a sweep), with a seed derived from
// the sweep's id and the run's (fresh every night, the same on --resume). It also keeps what the report says per configuration (runs, failures, histories
// and windows explored) and drops a passing run's recording once it is validated, unless the file
// keeps them.
#pragma once

#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "campaign/run_source.hpp"
#include "sweep/allocator.hpp"
#include "sweep/exploration.hpp"
#include "sweep/retention.hpp"
#include "sweep/sweep_clock.hpp"
#include "sweep/sweep_file.hpp"

namespace omnilink::sweep {

/// One configuration's share of a sweep, for reports.
struct ConfigurationShare {
  const Configuration* configuration = nullptr;
  Allocator::Arm runs;             // started, finished, and those that found something
  std::uint64_t failures = 0;      // runs that failed validation or crashed
  std::size_t histories = 0;       // distinct history fingerprints
  std::size_t windows = 0;         // distinct interleaving windows
  std::size_t recent_new = 0;      // of its last kRecentRuns finished runs, those with new windows
};

inline constexpr std::size_t kRecentRuns = 10;

/// Why a sweep stopped starting runs: its budget, a cap, its Slurm tasks (or the shards merged into
/// it) all ending first, or an interruption (SIGINT/SIGTERM, a session that failed).
enum class StopReason { budget, max_runs, max_failures, tasks, interrupted };

/// "budget", "max_runs", "max_failures", "tasks", "interrupted": its name in reports and JSON.
std::string to_string(StopReason reason);
std::ostream& operator<<(std::ostream& out, StopReason reason);
/// As its name: nlohmann's default would write the enum's number.
void to_json(nlohmann::json& j, StopReason reason);

class SweepSource : public campaign::RunSource {
 public:
  /// `config` and `clock` must outlive the source.
  SweepSource(const SweepConfig& config, std::string campaign_id, SweepClock& clock);

  void prepare(store::Store& store) override;
  bool owns(const store::RunRecord& run) const override;
  campaign::RunVariant variant(const store::RunRecord& run) const override;
  bool may_start() const override;
  std::optional<store::RunRecord> next(store::Store& store) override;
  void finished(const store::RunRecord& run) override;
  void tick() override;

  std::vector<ConfigurationShare> shares() const;
  /// The recordings dropped as runs finished (passing runs', and failing runs' beyond the evidence).
  const PruneReport& dropped() const { return dropped_; }
  /// The limit that stops new runs (budget, max_runs or max_failures); nothing while they may start.
  std::optional<StopReason> limit_reached() const;
  /// Why the sweep stopped, for its report: interrupted unless it `completed`; else the limit
  /// that ended it, or tasks when its Slurm tasks (or the shards merged into it) ended first.
  StopReason ended_by(bool completed) const;

 private:
  std::size_t index_of(const store::RunRecord& run) const;
  void count_finished(const store::RunRecord& run);
  /// The failing runs of `run`'s signature finished so far (it included) whose recordings are no
  /// longer evidence. Evidence is what the report will point to (findings/signature_history.hpp):
  /// the first evidence_runs failing runs by start, and the first of each symptom. Runs finish out
  /// of start order (two at a time, a failure's validation longer), so a run kept when it finished
  /// may stop being evidence when an earlier-started one finishes after it; it is returned then.
  std::vector<std::filesystem::path> no_longer_evidence(const store::RunRecord& run);
  void drop_recording(const std::filesystem::path& run_dir, const std::string& key);

  const SweepConfig& config_;
  std::string campaign_id_;
  SweepClock& clock_;
  Allocator allocator_;
  std::vector<ExplorationTally> tallies_;
  std::vector<std::uint64_t> failures_;
  std::vector<std::vector<bool>> recent_;  // per configuration: whether its last runs found new windows
  // Run numbers per configuration: 1, 2, 3... or, for shard I of N, I+1, I+1+N...: shards of one
  // sweep never number two runs alike, so their merge holds each once.
  std::uint32_t number_step_;
  std::vector<std::uint32_t> next_number_;
  std::string seed_basis_;  // the sweep's id, and for a shard when it was created
  std::uint64_t runs_ = 0;
  std::uint64_t failing_runs_ = 0;
  struct FinishedFailure {
    std::int64_t started_ms = 0;
    std::uint64_t drawn = 0;  // its place among the runs drawn (the store's order)
    std::string symptom;
    std::filesystem::path dir;
    bool recording_dropped = false;
  };
  std::map<std::string, std::vector<FinishedFailure>> finished_failures_;  // by signature id
  std::map<std::string, std::uint64_t> draw_order_;                         // by run id
  PruneReport dropped_;
  unsigned ticks_ = 0;
};

}  // namespace omnilink::sweep
