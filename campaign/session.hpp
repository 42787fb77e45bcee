// A campaign's (or a sweep's) session, what `campaign` and `sweep` do around their runs: open the
// store, find the campaign that --resume continues (refusing one whose plan differs) or create a
// new one, lock it, resolve the rr mode and how many validations run at once, print the header,
// and run an executor (executor.hpp), setting the campaign's status from how it ended; then read
// the interleavings of the failures the verb's report points to.
// The verb keeps what is its own: its file, its run source, its header line about runs, its report.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "campaign/campaign_file.hpp"
#include "campaign/engine.hpp"
#include "store/records.hpp"
#include "campaign/executor.hpp"
#include "campaign/recording.hpp"
#include "campaign/validation_pool.hpp"
#include "store/campaign_lock.hpp"
#include "store/store.hpp"

namespace omnilink::campaign {

/// A session that cannot start as asked: nothing to resume, another plan, a campaign locked by
/// another session, an rr mode this machine cannot record with, a store that does not open.
class SessionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A session's executor failed part way: the campaign is left interrupted, for --resume.
class SessionFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Why a stored configuration cannot be continued with `now` ("" when it can): the verb's rule
/// (campaign::plan_difference, sweep::plan_difference).
using PlanDifference = std::string (*)(const nlohmann::json& stored, const nlohmann::json& now);

class Session {
 public:
  struct Request {
    store::CampaignKind kind = store::CampaignKind::campaign;  // recorded with the campaign; how the header and messages name it
    const CampaignConfig* config = nullptr;
    nlohmann::json effective;  // stored as the campaign's configuration
    bool resume = false;
    std::string resume_id;  // --id; "" for the newest of the file's name
    PlanDifference plan_difference = nullptr;
  };

  /// Throws SessionError saying why it cannot start.
  static Session open(const Request& request);

  store::Store& store() { return *store_; }
  const std::string& id() const { return id_; }
  const CampaignConfig& config() const { return *config_; }
  const Recording& recording() const { return recording_; }
  const EngineSettings& engine_settings() const { return settings_; }
  /// The lock on the campaign, held from open() until the session ends.
  const store::CampaignLock& lock() const { return *lock_; }

  /// The header: the kind and id, the store, `runs_line`, validation, rr and TLC availability.
  void print_header(std::ostream& out, const std::string& runs_line) const;
  /// Runs `executor` and sets the campaign's status from how it ended; whether it completed
  /// (false: interrupted). Throws SessionFailed with what it threw, the campaign left interrupted.
  bool run(Executor& executor);
  /// After the runs: reads the interleavings of `evidence` (the runs the verb's report points to)
  /// from their recordings (evidence_interleavings.hpp), when the campaign recorded with rr and
  /// validation.interleavings is not 0, and says on `out` what it read.
  void read_interleavings(const std::vector<store::RunRecord>& evidence, std::ostream& out) const;

 private:
  Session() = default;
  store::CampaignKind kind_ = store::CampaignKind::campaign;
  const CampaignConfig* config_ = nullptr;
  bool resumed_ = false;
  std::unique_ptr<store::Store> store_;
  std::string id_;
  std::optional<store::CampaignLock> lock_;
  Recording recording_;
  EngineSettings settings_;
  ValidationJobs validation_jobs_;
  std::optional<std::string> tlc_missing_;  // why TLC cannot run here, where it cannot
};

}  // namespace omnilink::campaign
