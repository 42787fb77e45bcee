#include "store/store.hpp"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include <unistd.h>

#include "store/campaign_lock.hpp"
#include "store/run_record_file.hpp"
#include "store/sqlite.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::store {

namespace fs = std::filesystem;
using sqlite::Connection;
using sqlite::Statement;
using sqlite::Transaction;

namespace {

constexpr const char* kDatabaseFile = "omnilink.db";

// Schema version 4. campaigns.kind (version 4) says whether the row is a campaign or a sweep.
// runs.dir is relative to the store ("<campaign>/<run>"). runs.ord numbers runs in insertion order (plan order within a campaign).
// validations.id is an explicit INTEGER PRIMARY KEY (an alias of the rowid) so that VACUUM cannot
// renumber it: the highest id is a run's newest validation. campaigns.ended_seq (version 2) is
// NULL while a campaign runs.
constexpr const char* kSchema = R"sql(
CREATE TABLE campaigns (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  seq INTEGER NOT NULL,
  file TEXT NOT NULL,
  config_json TEXT NOT NULL,
  status TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  finished_ms INTEGER NOT NULL,
  ended_seq INTEGER,
  UNIQUE (name, seq)
);
CREATE TABLE runs (
  campaign TEXT NOT NULL REFERENCES campaigns(id),
  id TEXT NOT NULL,
  ord INTEGER NOT NULL,
  target TEXT NOT NULL,
  threads INTEGER NOT NULL,
  ops INTEGER NOT NULL,
  number INTEGER NOT NULL,
  seed INTEGER NOT NULL,
  status TEXT NOT NULL,
  detail TEXT NOT NULL,
  rr_mode TEXT NOT NULL,
  rr_soft_counters INTEGER NOT NULL,
  exit_code INTEGER,
  exit_signal INTEGER,
  dir TEXT NOT NULL,
  started_ms INTEGER NOT NULL,
  finished_ms INTEGER NOT NULL,
  harness_ms INTEGER NOT NULL,
  pack_ms INTEGER NOT NULL,
  PRIMARY KEY (campaign, id)
);
CREATE INDEX runs_by_status ON runs(campaign, status);
CREATE TABLE validations (
  id INTEGER PRIMARY KEY,
  campaign TEXT NOT NULL,
  run TEXT NOT NULL,
  verdict TEXT NOT NULL,
  reason TEXT NOT NULL,
  spec TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  peak_rss_kb INTEGER NOT NULL,
  states_generated INTEGER,
  states_distinct INTEGER,
  operations INTEGER NOT NULL,
  linearized INTEGER,
  frontier_summary TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  FOREIGN KEY (campaign, run) REFERENCES runs(campaign, id)
);
CREATE INDEX validations_by_run ON validations(campaign, run);
)sql";

// The kind of a campaign made before the index kept it (versions 1 to 3), told by what those
// omnilinks wrote: a sweep's stored configuration, and only a sweep's, has a `sweep` object. The
// one place the configuration decides the kind: the upgrade, and a read-only older store.
constexpr const char* kKindBeforeVersion4 =
    "CASE WHEN (CASE WHEN json_valid(config_json) THEN json_type(config_json, '$.sweep') END) = 'object' "
    "THEN 'sweep' ELSE 'campaign' END";

}  // namespace

std::vector<std::string> campaign_directories(const fs::path& store) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(store, ec)) {
    if (!entry.is_directory(ec)) continue;
    bool campaign = fs::exists(campaign_record_file(store, entry.path().filename().string()), ec);
    for (auto run = fs::directory_iterator(entry.path(), ec); !campaign && !ec && run != fs::directory_iterator(); run.increment(ec))
      campaign = fs::exists(trace::RunLayout(run->path()).meta(), ec);
    if (campaign) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

std::string name_list(const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t i = 0; i < names.size() && i < 5; ++i) list += (i ? ", " : "") + names[i];
  if (names.size() > 5) list += ", ... (" + std::to_string(names.size()) + " in all)";
  return list;
}

std::string lost_index_message(const fs::path& store, const std::string& what, const std::vector<std::string>& orphans) {
  return (store / kDatabaseFile).string() + " " + what + ", but " + store.string() + " holds campaign directories (" +
         name_list(orphans) + "). A new index would number campaigns from 1 again, over them, so none is made. " +
         "Rebuild the index from the directories with `omnilink store rebuild " + store.string() +
         "`, or point --store at another directory.";
}

std::string orphan_note(const fs::path& store) {
  const auto orphans = campaign_directories(store);
  return orphans.empty() ? "" : " (" + store.string() + " holds campaign directories: " + name_list(orphans) +
                                    "; `omnilink store rebuild " + store.string() + "` makes their index again)";
}

void require_index(const fs::path& store) {
  if (!fs::exists(store / kDatabaseFile))
    throw StoreError("no store at " + store.string() + " (" + kDatabaseFile + " missing)" + orphan_note(store));
}

int user_version(Connection& db) {
  Statement s(db, "PRAGMA user_version");
  s.step();
  return s.int32();
}

void check_version(Connection& db) {
  const int version = user_version(db);
  if (version > kStoreSchemaVersion)
    throw StoreError(db.path().string() + " has schema version " + std::to_string(version) + "; this omnilink knows up to " +
                     std::to_string(kStoreSchemaVersion) + " (upgrade omnilink)");
}

// A run directory as the index keeps it (schema 3): "<campaign>/<run>", relative to the store.
std::string indexed_directory(const std::string& campaign, const std::string& run) { return (fs::path(campaign) / run).string(); }

// Whether `dir`, as an index or a caller gives it, names the run's own directory: its relative
// form; a path under the store; or, as version 2 wrote them, an absolute path ending in the run's
// own "<campaign>/<run>" (the only place omnilink ever puts a run: a store copied or moved since
// names the original's).
bool names_own_run_directory(const fs::path& store, const std::string& campaign, const std::string& run, const std::string& dir) {
  const fs::path own = fs::path(campaign) / run;
  const fs::path given = fs::path(dir).lexically_normal();
  if (given.is_relative()) return given == own;
  if (given.lexically_relative(store) == own) return true;
  // The tail: as many components as the run's own path has.
  const auto depth = std::distance(own.begin(), own.end());
  if (std::distance(given.begin(), given.end()) <= depth) return false;
  auto tail = given.end();
  for (auto k = depth; k > 0; --k) --tail;
  fs::path suffix;
  for (auto it = tail; it != given.end(); ++it) suffix /= *it;
  return suffix == own;
}

// Version 2 to 3, in the caller's transaction: every run directory relative to the store, or none
// (the store is refused, naming the runs whose directory lies elsewhere).
void upgrade_run_directories(Connection& db, const fs::path& store) {
  std::vector<std::array<std::string, 3>> rows;  // campaign, id, relative directory
  std::vector<std::string> elsewhere;
  Statement read(db, "SELECT campaign, id, dir FROM runs");
  while (read.step()) {
    std::array<std::string, 3> row{read.text(), read.text(), ""};
    const std::string dir = read.text();
    if (names_own_run_directory(store, row[0], row[1], dir)) row[2] = indexed_directory(row[0], row[1]);
    else elsewhere.push_back(row[0] + "/" + row[1] + " (" + dir + ")");
    rows.push_back(std::move(row));
  }
  if (!elsewhere.empty())
    throw StoreError(db.path().string() + ": cannot upgrade the index to schema version 3: run directories outside " + store.string() +
                     ", where no omnilink puts them: " + name_list(elsewhere));
  Statement write(db, "UPDATE runs SET dir = ? WHERE campaign = ? AND id = ?");
  for (const auto& [campaign, id, dir] : rows) {
    write.reset();
    write.bind(dir).bind(campaign).bind(id).run();
  }
  db.exec("PRAGMA user_version = 3");
}

// Creates the schema of a new database, or checks that an existing one is a version this build
// knows. Two processes may open a new store at once: the version is read again under the write
// lock, so only one of them creates the tables. An empty database beside campaign directories is
// refused: a fresh index would number new campaigns from 1 again, over the old ones' directories.
void ensure_schema(Connection& db, const fs::path& store) {
  if (user_version(db) == 0) {
    Transaction t(db);
    if (user_version(db) == 0) {
      // Under the write lock: campaign directories are made only by create_campaign, which takes
      // it too, after the schema exists; so any seen now belong to an index that was lost.
      if (const auto orphans = campaign_directories(store); !orphans.empty())
        throw StoreError(lost_index_message(store, "is empty", orphans));
      db.exec(kSchema);
      db.exec("PRAGMA user_version = " + std::to_string(kStoreSchemaVersion));
    }
    t.commit();
  }
  check_version(db);
  if (user_version(db) == 1) {
    Transaction t(db);
    if (user_version(db) == 1) {
      // Campaigns that ended before the column existed ended in the order they were made.
      db.exec("ALTER TABLE campaigns ADD COLUMN ended_seq INTEGER");
      db.exec("UPDATE campaigns SET ended_seq = CASE WHEN status = 'running' THEN NULL ELSE rowid END");
      db.exec("PRAGMA user_version = 2");
    }
    t.commit();
  }
  if (user_version(db) == 2) {
    Transaction t(db);
    if (user_version(db) == 2) upgrade_run_directories(db, store);
    t.commit();
  }
  if (user_version(db) == 3) {
    Transaction t(db);
    if (user_version(db) == 3) {
      db.exec("ALTER TABLE campaigns ADD COLUMN kind TEXT NOT NULL DEFAULT 'campaign'");
      db.exec(std::string("UPDATE campaigns SET kind = ") + kKindBeforeVersion4);
      db.exec("PRAGMA user_version = 4");
    }
    t.commit();
  }
}

// The campaign columns read_campaign reads; an older store read-only has no ended_seq (version 1)
// or kind (versions 1 to 3) and gets the values the upgrades above would give it.
std::string campaign_columns(int version) {
  return std::string("id, ") + (version >= 4 ? "kind" : kKindBeforeVersion4) + ", name, file, config_json, status, created_ms, finished_ms, " +
         (version >= 2 ? "ended_seq" : "CASE WHEN status = 'running' THEN NULL ELSE rowid END");
}

CampaignRecord read_campaign(Statement& s) {
  CampaignRecord c;
  c.id = s.text();
  const std::string kind = s.text();
  // A kind added later comes with a newer schema version, which check_version refuses: one this
  // omnilink does not know is damage, and reading a sweep's plan as a campaign's would misplan it.
  const std::optional<CampaignKind> known = parse_campaign_kind(kind);
  if (!known) throw StoreError("campaign " + c.id + " has kind '" + kind + "' in the index, which is neither campaign nor sweep");
  c.kind = *known;
  c.name = s.text();
  c.file = s.text();
  c.config_json = s.text();
  // Only omnilink writes the index: a status it does not know is damage, read as a session that
  // stopped (which --resume continues and reports count as interrupted), never as finished.
  c.status = parse_campaign_status(s.text()).value_or(CampaignStatus::interrupted);
  c.created_ms = s.int64();
  c.finished_ms = s.int64();
  c.ended_seq = s.optional(&Statement::int64).value_or(0);
  return c;
}

// A run joined with its newest validation (v.* all NULL when it has none). Callers append WHERE
// conditions on r and an ORDER BY.
constexpr const char* kRunSelect = R"sql(
SELECT r.campaign, r.id, r.target, r.threads, r.ops, r.number, r.seed, r.status, r.detail, r.rr_mode,
       r.rr_soft_counters, r.exit_code, r.exit_signal, r.dir, r.started_ms, r.finished_ms, r.harness_ms, r.pack_ms,
       v.id, v.verdict, v.reason, v.spec, v.duration_ms, v.peak_rss_kb, v.states_generated, v.states_distinct,
       v.operations, v.linearized, v.frontier_summary, v.created_ms
FROM runs r LEFT JOIN validations v
  ON v.id = (SELECT MAX(id) FROM validations WHERE campaign = r.campaign AND run = r.id)
)sql";

ValidationRecord validation_from_row(Statement& s) {
  ValidationRecord v;
  const std::string verdict = s.text();
  const std::optional<results::Verdict> known = results::parse_verdict(verdict);
  v.verdict = known.value_or(results::Verdict::error);
  v.reason = s.text();
  // As a run's status: damage is said where it shows, and never reads as a decisive verdict.
  if (!known) v.reason = "the index says verdict '" + verdict + "', which is no verdict; " + v.reason;
  v.spec = s.text();
  v.duration_ms = s.int64();
  v.peak_rss_kb = s.uint64();
  v.states_generated = s.optional(&Statement::uint64);
  v.states_distinct = s.optional(&Statement::uint64);
  v.operations = s.uint64();
  v.linearized = s.optional(&Statement::int64);
  v.frontier_summary = s.text();
  v.created_ms = s.int64();
  return v;
}

// The run directory of an index row as an absolute path under `store`: relative (schema 3) or as
// version 2 wrote it, read as if upgraded (a read-only verb does not upgrade).
std::string resolved_run_directory(const fs::path& store, const std::string& campaign, const std::string& run, const std::string& dir) {
  return names_own_run_directory(store, campaign, run, dir) ? run_directory(store, campaign, run).string() : dir;
}

// The run directory as the index keeps it; a directory outside the store is omnilink's own error.
std::string indexed_run_directory(const fs::path& store, const RunRecord& r) {
  if (!names_own_run_directory(store, r.campaign, r.id, r.dir))
    throw StoreError("run " + r.key() + ": its directory " + r.dir + " is not " + run_directory(store, r.campaign, r.id).string());
  return indexed_directory(r.campaign, r.id);
}

RunRecord read_run(Statement& s, const fs::path& store) {
  RunRecord r;
  r.campaign = s.text();
  r.id = s.text();
  r.target = s.text();
  r.threads = s.uint32();
  r.ops = s.uint64();
  r.number = s.uint32();
  r.seed = s.uint64();
  const std::string status = s.text();
  const std::optional<RunStatus> known = parse_run_status(status);
  r.status = known.value_or(RunStatus::error);
  r.detail = s.text();
  // Only omnilink writes the index; a status it does not know is damage, said where it shows.
  if (!known) r.detail = "the index says status '" + status + "', which is no run status; " + r.detail;
  const std::string rr_mode = s.text();
  r.rr_mode = parse_recording_mode(rr_mode);
  if (!r.rr_mode && !rr_mode.empty()) r.detail = "the index says rr mode '" + rr_mode + "', which is no rr mode; " + r.detail;
  r.rr_soft_counters = s.int64() != 0;
  r.exit_code = s.optional(&Statement::int32);
  r.exit_signal = s.optional(&Statement::int32);
  r.dir = resolved_run_directory(store, r.campaign, r.id, s.text());
  r.started_ms = s.int64();
  r.finished_ms = s.int64();
  r.harness_ms = s.int64();
  r.pack_ms = s.int64();
  if (s.optional(&Statement::int64)) r.validation = validation_from_row(s);  // v.id: NULL without a validation
  return r;
}

}  // namespace

namespace {
// The store's directory, absolute and without a trailing separator: run directories are resolved
// against it and made relative to it.
fs::path absolute_store_directory(const fs::path& directory) {
  fs::path p = fs::absolute(directory).lexically_normal();
  if (!p.has_filename() && p != p.root_path()) p = p.parent_path();
  return p;
}
}  // namespace

// WAL lets readers (`omnilink ls`) run beside a writer and makes commits cheap; synchronous=NORMAL
// is durable in WAL mode except for the last transactions at a power loss, which a store of
// re-runnable runs can afford. foreign_keys is per connection in SQLite, so it is set every time.
struct Store::Db {
  Db(const fs::path& store, Connection::Mode mode) : connection(open(store, mode)) {
    if (mode == Connection::Mode::read_only || mode == Connection::Mode::immutable) {
      if (user_version(connection) == 0)
        throw StoreError(connection.path().string() + " is empty: not a store's index" + orphan_note(store));
      check_version(connection);
    } else {
      connection.enable_wal();
      connection.exec("PRAGMA foreign_keys=ON");
      connection.exec("PRAGMA synchronous=NORMAL");
      ensure_schema(connection, store);
    }
    campaign_select = "SELECT " + campaign_columns(user_version(connection)) + " FROM campaigns ";
  }

  // A read-only connection that can read (a first query proves it), falling back to immutable
  // mode where the store's file system is read-only.
  static Connection open(const fs::path& store, Connection::Mode mode) {
    const fs::path file = store / kDatabaseFile;
    if (mode != Connection::Mode::read_only) return Connection(file, mode);
    try {
      Connection connection(file, mode);
      user_version(connection);
      return connection;
    } catch (const StoreError&) {
      if (::access(store.c_str(), W_OK) == 0) throw;  // a writable directory: the error is real
      // Immutable mode reads omnilink.db alone: commits still in the write-ahead log would be missed.
      std::error_code ec;
      if (fs::file_size(file.string() + "-wal", ec) > 0 && !ec)
        throw StoreError(file.string() + "-wal holds commits not yet in " + file.string() +
                         ", and SQLite cannot read them on a read-only file system: copy the store to a writable directory");
      return Connection(file, Connection::Mode::immutable);
    }
  }

  Connection connection;
  std::string campaign_select;  // "SELECT <the columns read_campaign reads> FROM campaigns "
};

Store::Store(fs::path directory, int mode)
    : directory_(absolute_store_directory(directory)), db_(std::make_unique<Db>(directory_, static_cast<Connection::Mode>(mode))) {}

Store Store::open(const fs::path& directory) {
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec) throw StoreError("cannot create the store directory " + directory.string() + ": " + ec.message());
  // Before SQLite creates the file. The second look at the file matters: another omnilink making
  // a new store creates omnilink.db before any campaign directory, so a directory seen while the
  // file is still missing afterwards belongs to an index that was lost.
  if (!fs::exists(directory / kDatabaseFile))
    if (const auto orphans = campaign_directories(directory); !orphans.empty() && !fs::exists(directory / kDatabaseFile))
      throw StoreError(lost_index_message(directory, "is missing", orphans));
  return Store(directory, static_cast<int>(Connection::Mode::create));
}

Store Store::open_existing(const fs::path& directory) {
  require_index(directory);
  return Store(directory, static_cast<int>(Connection::Mode::existing));
}

Store Store::open_read_only(const fs::path& directory) {
  require_index(directory);
  return Store(directory, static_cast<int>(Connection::Mode::read_only));
}

Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

std::string Store::create_campaign(CampaignKind kind, const std::string& name, const std::string& file, const std::string& config_json) {
  Connection& db = db_->connection;
  Transaction t(db);
  Statement next(db, "SELECT COALESCE(MAX(seq), 0) + 1 FROM campaigns WHERE name = ?");
  next.bind(name).step();
  // The next number whose directory does not exist yet: a directory the index does not know (an
  // index restored from a backup, a directory copied in) is never reused. Creating it is the
  // claim; the transaction keeps another omnilink from taking the same number meanwhile.
  std::int64_t seq = next.int64();
  std::string id;
  for (;; ++seq) {
    id = name + "-" + std::to_string(seq);
    std::error_code ec;
    if (fs::create_directory(directory_ / id, ec)) break;
    if (ec) throw StoreError("cannot create the campaign directory " + (directory_ / id).string() + ": " + ec.message());
  }
  const std::int64_t created = now_ms();
  const CampaignRecord record{id, kind, name, file, config_json, CampaignStatus::running, created, 0, 0};
  write_campaign_record_file(directory_, record, seq);
  write_campaign_configuration_copy(directory_, record, seq);
  Statement insert(db, "INSERT INTO campaigns (id, kind, name, seq, file, config_json, status, created_ms, finished_ms) "
                       "VALUES (?, ?, ?, ?, ?, ?, 'running', ?, 0)");
  insert.bind(id).bind(to_string(kind)).bind(name).bind(seq).bind(file).bind(config_json).bind(created).run();
  t.commit();
  return id;
}

void Store::restore_campaign(const CampaignRecord& c, std::int64_t seq) {
  Connection& db = db_->connection;
  Transaction t(db);
  Statement insert(db, "INSERT INTO campaigns (id, kind, name, seq, file, config_json, status, created_ms, finished_ms, ended_seq) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  insert.bind(c.id).bind(to_string(c.kind)).bind(c.name).bind(seq).bind(c.file).bind(c.config_json).bind(to_string(c.status)).bind(c.created_ms).bind(c.finished_ms);
  insert.bind(c.ended_seq != 0 ? std::optional<std::int64_t>(c.ended_seq) : std::nullopt).run();
  t.commit();
}

CampaignRecord Store::as_it_stands(CampaignRecord campaign) const {
  // A session that could not write its end (a full disk, a kill) left `running`; only a session
  // alive now holds the campaign's lock.
  if (campaign.status == CampaignStatus::running && !CampaignLock::held(directory_ / campaign.id))
    campaign.status = CampaignStatus::interrupted;
  return campaign;
}

std::optional<CampaignRecord> Store::campaign(const std::string& id) {
  Statement s(db_->connection, db_->campaign_select + "WHERE id = ?");
  s.bind(id);
  if (!s.step()) return std::nullopt;
  return as_it_stands(read_campaign(s));
}

std::optional<CampaignRecord> Store::latest_campaign(const std::string& name) {
  Statement s(db_->connection, db_->campaign_select + "WHERE name = ? ORDER BY seq DESC LIMIT 1");
  s.bind(name);
  if (!s.step()) return std::nullopt;
  return as_it_stands(read_campaign(s));
}

std::vector<CampaignRecord> Store::campaigns() {
  // Creation order; rowid (insertion order) breaks ties within a millisecond.
  Statement s(db_->connection, db_->campaign_select + "ORDER BY created_ms, rowid");
  std::vector<CampaignRecord> campaigns;
  while (s.step()) campaigns.push_back(as_it_stands(read_campaign(s)));
  return campaigns;
}

void Store::set_campaign_status(const std::string& id, CampaignStatus status) {
  Connection& db = db_->connection;
  Transaction t(db);
  // The end's place is taken under the write lock: two campaigns ending at once get two places,
  // whatever their clocks say.
  Statement s(db, "UPDATE campaigns SET status = ?1, finished_ms = ?2, "
                  "ended_seq = CASE WHEN ?1 = 'running' THEN NULL ELSE (SELECT COALESCE(MAX(ended_seq), 0) + 1 FROM campaigns) END "
                  "WHERE id = ?3");
  if (s.bind(to_string(status)).bind(status == CampaignStatus::finished ? now_ms() : std::int64_t{0}).bind(id).run() == 0)
    throw StoreError(db.path().string() + ": no campaign " + id);
  Statement read(db, db_->campaign_select + "WHERE id = ?");
  read.bind(id).step();
  write_campaign_status(directory_, read_campaign(read));
  t.commit();
}

namespace {

// Inserts the rows `runs` that their campaigns do not have yet, inside the caller's transaction.
void insert_new_runs(Connection& db, const fs::path& store, const std::vector<RunRecord>& runs) {
  // ord numbers rows in insertion order across the store, which within a campaign is plan order.
  Statement last(db, "SELECT COALESCE(MAX(ord), 0) FROM runs");
  last.step();
  std::int64_t ord = last.int64();
  Statement insert(db, R"sql(
    INSERT OR IGNORE INTO runs (campaign, id, ord, target, threads, ops, number, seed, status, detail, rr_mode,
                                rr_soft_counters, exit_code, exit_signal, dir, started_ms, finished_ms, harness_ms, pack_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?))sql");
  for (const RunRecord& r : runs) {
    insert.reset();
    insert.bind(r.campaign).bind(r.id).bind(ord + 1).bind(r.target).bind(r.threads).bind(r.ops).bind(r.number).bind(r.seed);
    insert.bind(to_string(r.status)).bind(r.detail).bind(stored_name(r.rr_mode)).bind(r.rr_soft_counters).bind(r.exit_code).bind(r.exit_signal);
    insert.bind(indexed_run_directory(store, r)).bind(r.started_ms).bind(r.finished_ms).bind(r.harness_ms).bind(r.pack_ms);
    if (insert.run() == 1) ++ord;  // an existing run (resume) keeps its row and its place
  }
}

}  // namespace

void Store::add_runs(const std::vector<RunRecord>& runs) {
  Transaction t(db_->connection);
  insert_new_runs(db_->connection, directory_, runs);
  t.commit();
}

namespace {

// The statements behind update_run, add_validation and import_runs, inside the caller's transaction.
void write_run(Connection& db, const fs::path& store, const RunRecord& r) {
  Statement s(db, R"sql(
    UPDATE runs SET target = ?, threads = ?, ops = ?, number = ?, seed = ?, status = ?, detail = ?, rr_mode = ?,
                    rr_soft_counters = ?, exit_code = ?, exit_signal = ?, dir = ?, started_ms = ?, finished_ms = ?,
                    harness_ms = ?, pack_ms = ?
    WHERE campaign = ? AND id = ?)sql");
  s.bind(r.target).bind(r.threads).bind(r.ops).bind(r.number).bind(r.seed).bind(to_string(r.status)).bind(r.detail).bind(stored_name(r.rr_mode));
  s.bind(r.rr_soft_counters).bind(r.exit_code).bind(r.exit_signal).bind(indexed_run_directory(store, r)).bind(r.started_ms).bind(r.finished_ms);
  s.bind(r.harness_ms).bind(r.pack_ms).bind(r.campaign).bind(r.id);
  if (s.run() == 0) throw StoreError(db.path().string() + ": no run " + r.key());
}

void insert_validation(Connection& db, const std::string& campaign, const std::string& run, const ValidationRecord& v) {
  Statement s(db, R"sql(
    INSERT INTO validations (campaign, run, verdict, reason, spec, duration_ms, peak_rss_kb, states_generated,
                             states_distinct, operations, linearized, frontier_summary, created_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?))sql");
  s.bind(campaign).bind(run).bind(to_string(v.verdict)).bind(v.reason).bind(v.spec).bind(v.duration_ms).bind(v.peak_rss_kb);
  s.bind(v.states_generated).bind(v.states_distinct).bind(v.operations).bind(v.linearized).bind(v.frontier_summary);
  s.bind(v.created_ms != 0 ? v.created_ms : now_ms()).run();
}

}  // namespace

void Store::update_run(const RunRecord& r) {
  Transaction t(db_->connection);
  write_run(db_->connection, directory_, r);
  mirror_run(r.campaign, r.id);
  t.commit();
}

void Store::add_validation(const std::string& campaign, const std::string& run, const ValidationRecord& v) {
  Transaction t(db_->connection);
  insert_validation(db_->connection, campaign, run, v);
  mirror_run(campaign, run);
  t.commit();
}

void Store::mirror_run(const std::string& campaign, const std::string& id) {
  // Where the run is now (a store may have been moved), not where the row says it was. A run that
  // never started has no directory, and gets none: a directory says the run happened.
  const fs::path dir = run_directory(directory_, campaign, id);
  if (!fs::is_directory(dir)) return;
  Statement s(db_->connection, std::string(kRunSelect) + "WHERE r.campaign = ? AND r.id = ?");
  s.bind(campaign).bind(id).step();
  const RunRecord run = read_run(s, directory_);
  Statement ord(db_->connection, "SELECT ord FROM runs WHERE campaign = ? AND id = ?");
  ord.bind(campaign).bind(id).step();
  write_run_record_file(dir, run, ord.int64());
}

void Store::import_runs(const std::vector<RunRecord>& runs) {
  Transaction t(db_->connection);
  insert_new_runs(db_->connection, directory_, runs);
  for (const RunRecord& r : runs) {
    write_run(db_->connection, directory_, r);
    if (r.validation) insert_validation(db_->connection, r.campaign, r.id, *r.validation);
  }
  t.commit();
}

std::optional<RunRecord> Store::run(const std::string& key) {
  // Run ids contain no '/', campaign ids might (a campaign name is free text), hence the last one.
  const auto slash = key.rfind('/');
  if (slash == std::string::npos) return std::nullopt;
  Statement s(db_->connection, (std::string(kRunSelect) + "WHERE r.campaign = ? AND r.id = ?"));
  s.bind(key.substr(0, slash)).bind(key.substr(slash + 1));
  if (!s.step()) return std::nullopt;
  return read_run(s, directory_);
}

std::vector<RunRecord> Store::runs(const std::string& campaign, const std::optional<RunStatus>& status) {
  Statement s(db_->connection,
              (std::string(kRunSelect) + "WHERE r.campaign = ?1 AND (?2 IS NULL OR r.status = ?2) ORDER BY r.ord"));
  s.bind(campaign).bind(status ? std::optional<std::string>(to_string(*status)) : std::nullopt);
  std::vector<RunRecord> runs;
  while (s.step()) runs.push_back(read_run(s, directory_));
  return runs;
}

fs::path index_file(const fs::path& store) { return store / kDatabaseFile; }

std::optional<StoredRun> stored_run(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return std::nullopt;
  // Where the directory really is: a symlink to a store's run (or to a directory above it) is
  // that run, and must not let a write around the store's index.
  fs::path run = fs::canonical(dir, ec);
  if (ec) run = fs::absolute(dir).lexically_normal();
  const fs::path named = run.has_filename() ? run : run.parent_path();
  const fs::path store = named.parent_path().parent_path();
  if (!fs::is_regular_file(index_file(store), ec)) return std::nullopt;
  return StoredRun{store, named.parent_path().filename().string(), named.filename().string()};
}

bool has_index(const fs::path& store) {
  if (!fs::exists(index_file(store))) return false;
  Connection connection(index_file(store), Connection::Mode::read_only);
  return user_version(connection) != 0;
}

fs::path default_store_directory() {
  const char* env = std::getenv("OMNILINK_STORE");
  return env != nullptr && *env != '\0' ? fs::path(env) : fs::path("omnilink-store");
}

}  // namespace omnilink::store
