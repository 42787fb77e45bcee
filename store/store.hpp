// The campaign store (docs/campaign.md, "Store"): STORE/omnilink.db, an SQLite database beside the
// run directories STORE/<campaign-id>/<run-id>/. It records campaigns, their runs (configuration,
// seed, status, timings, exit status, rr mode, directory) and every validation of a run (verdict,
// duration, RSS, states, frontier summary); the newest validation of a run is its current one.
//
// Several processes may use one store at once (two campaigns, `ls` while a campaign runs): the
// database is in WAL mode with a busy timeout, and every write is one short transaction. The schema
// is versioned with PRAGMA user_version; opening a store written by a newer omnilink is an error.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/verdict.hpp"

namespace omnilink::store {

// 2: campaigns.ended_seq (the order in which campaigns ended). 3: runs.dir relative to the store,
// so that a store can be copied or moved. An older store is upgraded when opened for writing and
// read as if upgraded when opened read-only.
inline constexpr int kStoreSchemaVersion = 3;

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

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

struct CampaignRecord {
  std::string id;           // "<name>-<n>", n counting the campaigns of that name in this store
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

class Store {
 public:
  // Opens STORE/omnilink.db, creating the directory and the schema if needed.
  static Store open(const std::filesystem::path& directory);
  // Refuses (StoreError, saying how to recover) a missing or empty omnilink.db beside campaign
  // directories: a new index would reuse their names and overwrite their runs.
  //
  // Opens an existing store for reading and writing; never creates one. Throws StoreError
  // "no store at DIR (omnilink.db missing)" when there is none.
  static Store open_existing(const std::filesystem::path& directory);
  // Opens an existing store read-only (for verbs that only read: ls, show, results, replay): it
  // writes nothing, not even a schema into an empty file, and works on a read-only file system.
  static Store open_read_only(const std::filesystem::path& directory);
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  ~Store();

  const std::filesystem::path& directory() const { return directory_; }

  // A new campaign named `name` (status running); returns its id, unique in the store even when
  // two processes create campaigns of the same name at once, and never the name of a directory
  // already in the store: the campaign's directory STORE/<id>/ is created here, with its
  // campaign.json, and a campaign writes only inside its own.
  std::string create_campaign(const std::string& name, const std::string& file, const std::string& config_json);
  // Indexes a campaign whose directory exists already (rebuild): its id and number as they were.
  void restore_campaign(const CampaignRecord& campaign, std::int64_t seq);
  // Campaigns as they stand: one recorded `running` whose lock no live session holds (its end
  // could not be written: a full disk, a kill) is read as `interrupted`, by every reader.
  std::optional<CampaignRecord> campaign(const std::string& id);
  // The newest campaign with that name, if any.
  std::optional<CampaignRecord> latest_campaign(const std::string& name);
  std::vector<CampaignRecord> campaigns();
  // `finished` sets finished_ms to now, any other status sets it back to 0; `finished` and
  // `interrupted` give the campaign the next ended_seq, `running` clears it. The campaign's
  // campaign.json says the same afterwards. Throws for an unknown id.
  void set_campaign_status(const std::string& id, CampaignStatus status);

  // Adds the planned runs (status pending) that the campaign does not have yet; existing rows are
  // left as they are (resume).
  void add_runs(const std::vector<RunRecord>& runs);
  // Writes every column of the run except its validations, and mirrors the row into the run's
  // directory when it has one (run_record_file.hpp).
  void update_run(const RunRecord& run);
  // Records a validation of the run (created_ms 0: now), mirrored likewise.
  void add_validation(const std::string& campaign, const std::string& run, const ValidationRecord& validation);
  // update_run (after add_runs for a run the campaign has no row for: a sweep's runs are not
  // planned) and, where a run has one, add_validation for every run, in one transaction: what
  // `omnilink merge` brings in from a shard, all of it or (an error) none. The run directories
  // come with their mirrors, which are not written again.
  void import_runs(const std::vector<RunRecord>& runs);

  // A run by "<campaign>/<run>". Nullopt when there is none.
  std::optional<RunRecord> run(const std::string& key);
  // The runs of a campaign in plan order (insertion order), optionally only those with `status`.
  std::vector<RunRecord> runs(const std::string& campaign, const std::optional<RunStatus>& status = std::nullopt);

 private:
  Store(std::filesystem::path directory, int mode);
  // Writes the run's row and newest validation into its directory (run_record_file.hpp).
  void mirror_run(const std::string& campaign, const std::string& id);
  CampaignRecord as_it_stands(CampaignRecord campaign) const;
  struct Db;
  std::filesystem::path directory_;
  std::unique_ptr<Db> db_;
};

// The store's campaign directories by name: those with a campaign.json or a run directory.
std::vector<std::string> campaign_directories(const std::filesystem::path& store);

// Whether STORE/omnilink.db is an index (it exists and has a schema).
bool has_index(const std::filesystem::path& store);

// STORE/omnilink.db, the index.
std::filesystem::path index_file(const std::filesystem::path& store);

/// A directory that is a run of a store: STORE/<campaign-id>/<run-id> beside STORE/omnilink.db.
struct StoredRun {
  std::filesystem::path store;
  std::string campaign, run;
  std::string key() const { return campaign + "/" + run; }
};
/// Nullopt for a directory that lies in no store (a run made with the harness alone, a copy).
std::optional<StoredRun> stored_run(const std::filesystem::path& dir);

// A run's directory: STORE/<campaign-id>/<run-id>, derived from the ids, never read back.
inline std::filesystem::path run_directory(const std::filesystem::path& store, const std::string& campaign_id, const std::string& run_id) {
  return store / campaign_id / run_id;
}

// STORE/<campaign-id>/campaign.json: the campaign's id, name, number, file and configuration.
std::filesystem::path campaign_record_file(const std::filesystem::path& store, const std::string& campaign_id);
// Writes campaign.json whole for a campaign made (or recovered by a rebuild) with number `seq`; its
// status, end and place among ends are added as the index changes them. Throws StoreError.
void write_campaign_record_file(const std::filesystem::path& store, const CampaignRecord& c, std::int64_t seq);
// STORE/<campaign-id>/configuration.json: campaign.json as the campaign was made (no status),
// written once and never again: what a rebuild restores campaign.json from when it was lost.
std::filesystem::path campaign_configuration_copy(const std::filesystem::path& store, const std::string& campaign_id);

// Milliseconds since the Unix epoch, as the store records times.
std::int64_t now_ms();

// The store used when none is given: $OMNILINK_STORE, else ./omnilink-store.
std::filesystem::path default_store_directory();

// The records as JSON objects with their fields' names (optional fields absent are null; a run's
// `validation` is its newest one, or null): what `omnilink ls --json` and `show --json` print.
void to_json(nlohmann::json& j, const CampaignRecord& campaign);
void to_json(nlohmann::json& j, const ValidationRecord& validation);
void to_json(nlohmann::json& j, const RunRecord& run);

}  // namespace omnilink::store
