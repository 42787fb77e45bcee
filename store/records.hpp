// What the store records (docs/campaign.md, "Store"): a campaign, a run and a validation of a
// run, with the vocabularies of their statuses and recording modes, each with one table of names
// that the index, run.json, campaign.json, JSON and text all use. The index (store.hpp) keeps
// them; run_record_file.hpp and campaign_record_file.hpp mirror them beside the runs.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "results/verdict.hpp"

namespace omnilink::store {

/// Where a campaign (or sweep) stands: a session runs it, or its last session ended.
enum class CampaignStatus {
  running,      // a session runs it (or one died, which `--resume` and `store rebuild` treat as interrupted)
  interrupted,  // its last session stopped before every run was done; `--resume` continues it
  finished,     // its last session did every run it was to do
};

inline constexpr std::array<CampaignStatus, 3> kCampaignStatuses{CampaignStatus::running, CampaignStatus::interrupted,
                                                                 CampaignStatus::finished};

/// "running", "interrupted", "finished": the status's name in the index, campaign.json, JSON and text.
std::string to_string(CampaignStatus status);
/// The status named `name`; nothing for a name that is no status.
std::optional<CampaignStatus> parse_campaign_status(std::string_view name);
std::ostream& operator<<(std::ostream& out, CampaignStatus status);
/// As its name: nlohmann's default would write the enum's number.
void to_json(nlohmann::json& j, CampaignStatus status);

/// What a session series runs: a campaign (its file's plan of runs, to the end) or a sweep (runs
/// drawn from its configurations until a time budget ends). Recorded with the campaign, so that
/// readers ask the record, not the configuration, which it is.
enum class CampaignKind { campaign, sweep };

inline constexpr std::array<CampaignKind, 2> kCampaignKinds{CampaignKind::campaign, CampaignKind::sweep};

/// "campaign", "sweep": the kind's name in the index and campaign.json, and the `omnilink` verb
/// that runs one (a Slurm task runs its shard with it).
std::string to_string(CampaignKind kind);
/// The kind named `name`; nothing for a name that is none (the caller says where it read it).
std::optional<CampaignKind> parse_campaign_kind(std::string_view name);
/// As its name: nlohmann's default would write the enum's number.
void to_json(nlohmann::json& j, CampaignKind kind);

struct CampaignRecord {
  std::string id;           // "<name>-<n>", n counting the campaigns of that name in this store
  CampaignKind kind = CampaignKind::campaign;
  std::string name;
  std::string file;         // the campaign file, absolute
  std::string config_json;  // CampaignConfig::to_json(), dumped
  CampaignStatus status = CampaignStatus::running;
  std::int64_t created_ms = 0;   // Unix epoch milliseconds
  std::int64_t finished_ms = 0;  // 0 while not finished
  // The place of its last session's end among the store's ends (finished or interrupted), counted
  // from 1 under the store's write lock; 0 while it runs. Sweeps' signature histories follow it.
  std::int64_t ended_seq = 0;
};

struct ValidationRecord {
  results::Verdict verdict = results::Verdict::error;
  std::string reason;
  std::string spec;     // the spec validated against, absolute
  std::int64_t duration_ms = 0;
  std::uint64_t peak_rss_kb = 0;
  std::optional<std::uint64_t> states_generated;
  std::optional<std::uint64_t> states_distinct;
  std::uint64_t operations = 0;
  std::optional<std::int64_t> linearized;
  std::string frontier_summary;  // ValidationResult::summary()-style text; empty unless fail
  std::int64_t created_ms = 0;
};

/// A run's status: how its harness phase went.
enum class RunStatus {
  pending,      // planned, not started
  running,      // started (a store left with `running` rows belongs to a campaign that died)
  ok,           // the harness exited 0 and its trace reads cleanly
  crashed,      // the harness died of a signal or exited non-zero; its trace prefix is validated
  timeout,      // killed at the run time limit (whole process group)
  bad_trace,    // "bad-trace": the trace cannot be read (the reader's error is in `detail`)
  error,        // the run could not be carried out (harness missing, rr failed to start, ...)
  interrupted,  // stopped by SIGINT/SIGTERM; `--resume` runs it again
};

/// Every status, in the order listings give them.
inline constexpr std::array<RunStatus, 8> kRunStatuses{RunStatus::pending, RunStatus::running,   RunStatus::ok,
                                                       RunStatus::crashed, RunStatus::timeout,   RunStatus::bad_trace,
                                                       RunStatus::error,   RunStatus::interrupted};

/// "pending", ..., "bad-trace": the status's name in the index, run.json, JSON and text.
std::string to_string(RunStatus status);
/// The status named `name`; nothing for a name that is no status.
std::optional<RunStatus> parse_run_status(std::string_view name);
std::ostream& operator<<(std::ostream& out, RunStatus status);
/// As its name: nlohmann's default would write the enum's number.
void to_json(nlohmann::json& j, RunStatus status);

/// How a run's harness was recorded: not at all, by `rr record`, or by `rr record --chaos`. A
/// campaign asks for a mode (campaign::RrMode, which may be `auto`); this is what it resolved to.
enum class RecordingMode { off, record, chaos };

inline constexpr std::array<RecordingMode, 3> kRecordingModes{RecordingMode::off, RecordingMode::record, RecordingMode::chaos};

/// "off", "record", "chaos": the mode's name in the index, run.json, recording.json, JSON and text.
std::string to_string(RecordingMode mode);
/// The mode named `name`; nothing for a name that is no mode.
std::optional<RecordingMode> parse_recording_mode(std::string_view name);
std::ostream& operator<<(std::ostream& out, RecordingMode mode);
/// As its name: nlohmann's default would write the enum's number.
void to_json(nlohmann::json& j, RecordingMode mode);
/// A run's mode as the index and run.json keep it: its name, or "" for a run not started yet.
std::string stored_name(const std::optional<RecordingMode>& mode);

struct RunRecord {
  std::string campaign;  // campaign id
  std::string id;        // run id within the campaign (PlannedRun::id)
  std::string target;
  std::uint32_t threads = 0;
  std::uint64_t ops = 0;
  std::uint32_t number = 0;
  std::uint64_t seed = 0;
  RunStatus status = RunStatus::pending;
  std::string detail;           // why, for every status but pending/running/ok
  std::optional<RecordingMode> rr_mode;  // nothing while pending ("" in the index and run.json)
  bool rr_soft_counters = false;  // recorded with rr -W
  std::optional<int> exit_code;
  std::optional<int> exit_signal;
  /// The run directory, absolute: STORE/<campaign>/<id> under the store as it was opened (the
  /// index keeps it relative to the store, so a copied or moved store names its own runs).
  std::string dir;
  std::int64_t started_ms = 0;
  std::int64_t finished_ms = 0;
  std::int64_t harness_ms = 0;  // the harness (under rr: rr record) process's own wall time
  std::int64_t pack_ms = 0;     // rr pack
  std::optional<ValidationRecord> validation;  // the newest, if any

  // "<campaign>/<id>": how runs are named on the command line.
  std::string key() const { return campaign + "/" + id; }
  /// Run under rr (record or chaos).
  bool recorded() const { return rr_mode && *rr_mode != RecordingMode::off; }
};

// The records as JSON objects with their fields' names (optional fields absent are null; a run's
// `validation` is its newest one, or null): what `omnilink ls --json` and `show --json` print.
void to_json(nlohmann::json& j, const CampaignRecord& campaign);
void to_json(nlohmann::json& j, const ValidationRecord& validation);
void to_json(nlohmann::json& j, const RunRecord& run);

// Milliseconds since the Unix epoch, as the store records times.
std::int64_t now_ms();

}  // namespace omnilink::store
