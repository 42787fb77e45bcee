// The campaign store (docs/campaign.md, "Store"): STORE/omnilink.db, an SQLite database beside the
// run directories STORE/<campaign-id>/<run-id>/. It records campaigns, their runs (configuration,
// seed, status, timings, exit status, rr mode, directory) and every validation of a run (verdict,
// duration, RSS, states, frontier summary); the newest validation of a run is its current one.
//
// Several processes may use one store at once (two campaigns, `ls` while a campaign runs): the
// database is in WAL mode with a busy timeout, and every write is one short transaction. The schema
// is versioned with PRAGMA user_version; opening a store written by a newer omnilink is an error.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/campaign_record_file.hpp"
#include "store/records.hpp"
#include "store/store_error.hpp"

namespace omnilink::store {

// 2: campaigns.ended_seq (the order in which campaigns ended). 3: runs.dir relative to the store,
// so that a store can be copied or moved. 4: campaigns.kind (campaign or sweep). An older store is upgraded when opened for writing and
// read as if upgraded when opened read-only.
inline constexpr int kStoreSchemaVersion = 4;

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

  // A new campaign (or sweep: `kind`) named `name` (status running); returns its id, unique in the store even when
  // two processes create campaigns of the same name at once, and never the name of a directory
  // already in the store: the campaign's directory STORE/<id>/ is created here, with its
  // campaign.json, and a campaign writes only inside its own.
  std::string create_campaign(CampaignKind kind, const std::string& name, const std::string& file, const std::string& config_json);
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

// The store used when none is given: $OMNILINK_STORE, else ./omnilink-store.
std::filesystem::path default_store_directory();

}  // namespace omnilink::store
