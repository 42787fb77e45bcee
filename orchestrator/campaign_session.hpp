// What `campaign` and `sweep` do around the engine: open the store, find the campaign that
// --resume continues (refusing one whose plan differs) or create a new one, lock it, resolve the rr
// mode and the validation budget, print the header, and run the engine with the verb's run source.
// The verb keeps what is its own: its file, its source, its header line about runs, its report.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "campaign/campaign_file.hpp"
#include "store/campaign_lock.hpp"
#include "campaign/engine.hpp"
#include "campaign/recording.hpp"
#include "campaign/run_source.hpp"
#include "campaign/validation_pool.hpp"
#include "store/store.hpp"

namespace omnilink::cli {

class CampaignSession {
 public:
  struct Request {
    std::string verb;                       // "campaign" | "sweep": how messages start
    const campaign::CampaignConfig* config = nullptr;
    nlohmann::json effective;               // stored as the campaign's configuration
    bool resume = false;
    std::string resume_id;                  // --id
    // Why a stored configuration cannot be continued with `effective` ("" when it can).
    std::function<std::string(const nlohmann::json& stored, const nlohmann::json& now)> plan_difference;
  };

  /// Nullopt after printing why to stderr (a usage or configuration error).
  static std::optional<CampaignSession> open(const Request& request);

  store::Store& store() { return *store_; }
  const std::string& id() const { return id_; }
  const campaign::Recording& recording() const { return recording_; }
  /// The lock on the campaign, held from open() until the session ends.
  const store::CampaignLock& lock() const { return *lock_; }

  /// The header: the verb and id, the store, `runs_line`, validation, rr and TLC availability.
  void print_header(std::ostream& out, const std::string& runs_line) const;
  /// Runs the engine over `source`; the campaign's status is set from how it ended. Nullopt after
  /// printing a store error; else whether it completed (false: interrupted).
  std::optional<bool> run(campaign::RunSource& source, campaign::Progress& progress);
  /// Runs `executor` (the engine, a Slurm coordinator), which says whether it completed, and sets
  /// the campaign's status from that. Nullopt after printing what it threw (after `context`).
  std::optional<bool> run_with(const std::function<bool()>& executor, const std::string& context = "");

 private:
  CampaignSession() = default;
  std::string verb_;
  const campaign::CampaignConfig* config_ = nullptr;
  bool resumed_ = false;
  std::unique_ptr<store::Store> store_;
  std::string id_;
  std::optional<store::CampaignLock> lock_;
  campaign::Recording recording_;
  campaign::EngineSettings settings_;
  campaign::ValidationJobs validation_jobs_;
  std::optional<std::string> tlc_missing_;  // why TLC cannot run here, where it cannot
};

/// Writes a report file; false after printing "omnilink VERB: cannot write FILE".
bool write_report(const std::string& verb, const std::string& file, const std::string& text);

}  // namespace omnilink::cli
