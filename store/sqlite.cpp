#include "store/sqlite.hpp"

#include <bit>
#include <chrono>
#include <thread>
#include <utility>

#include <sqlite3.h>

namespace omnilink::store::sqlite {
namespace fs = std::filesystem;

namespace {

// How long a statement waits for another process's write transaction before failing: long enough
// for any of the store's short transactions, even on a loaded machine.
constexpr int kBusyTimeoutMs = 30'000;

// "file:" URI of a path, for SQLite's URI parameters: the characters a URI gives meaning to are
// percent-encoded.
std::string file_uri(const fs::path& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file:";
  for (const unsigned char c : fs::absolute(path).string()) {
    if (c == '%' || c == '?' || c == '#' || c < 0x20 || c >= 0x7f) {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    } else {
      uri += static_cast<char>(c);
    }
  }
  return uri;
}

}  // namespace

Connection::Connection(fs::path path, Mode mode) : path_(std::move(path)) {
  const int flags = mode == Mode::create     ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                    : mode == Mode::existing ? SQLITE_OPEN_READWRITE
                                             : SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
  const std::string name = mode == Mode::immutable ? file_uri(path_) + "?immutable=1"
                           : mode == Mode::read_only ? file_uri(path_)
                                                     : path_.string();
  const int rc = sqlite3_open_v2(name.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    // sqlite3_open_v2 allocates a handle (carrying the message) even when it fails.
    const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    throw StoreError(path_.string() + ": cannot open: " + message);
  }
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
}

Connection::~Connection() { sqlite3_close(db_); }

Connection::Connection(Connection&& other) noexcept : path_(std::move(other.path_)), db_(std::exchange(other.db_, nullptr)) {}

void Connection::fail(const std::string& what) const { throw StoreError(path_.string() + ": " + what + ": " + sqlite3_errmsg(db_)); }

// SQLite reports a process opening the same new store at the moment of the switch as SQLITE_BUSY
// at once rather than through the busy handler: so the switch is retried here, for as long as the
// busy timeout. (Once the file is in WAL mode the pragma changes nothing and takes no such lock.)
void Connection::enable_wal() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  for (;;) {
    const int rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) return;
    if (rc != SQLITE_BUSY || std::chrono::steady_clock::now() >= deadline) fail("cannot switch to WAL mode");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void Connection::exec(const std::string& sql) {
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) fail("cannot run `" + sql + "`");
}

Statement::Statement(Connection& db, const std::string& sql) : db_(db) {
  if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) db.fail("cannot prepare `" + sql + "`");
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(std::int64_t value) { return check_bind(sqlite3_bind_int64(stmt_, ++next_param_, value)); }
Statement& Statement::bind(std::uint64_t value) { return bind(std::bit_cast<std::int64_t>(value)); }
Statement& Statement::bind(const std::string& value) {
  return check_bind(sqlite3_bind_text(stmt_, ++next_param_, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT));
}
Statement& Statement::bind_null() { return check_bind(sqlite3_bind_null(stmt_, ++next_param_)); }

bool Statement::step() {
  next_column_ = 0;
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail("cannot run `" + std::string(sqlite3_sql(stmt_)) + "`");
}

int Statement::run() {
  step();
  return sqlite3_changes(db_.handle());
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  next_param_ = 0;
}

std::int64_t Statement::int64() { return sqlite3_column_int64(stmt_, next_column_++); }
std::uint64_t Statement::uint64() { return std::bit_cast<std::uint64_t>(int64()); }

std::string Statement::text() {
  const int column = next_column_++;
  const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  return data == nullptr ? std::string() : std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

bool Statement::next_is_null() const { return sqlite3_column_type(stmt_, next_column_) == SQLITE_NULL; }

Statement& Statement::check_bind(int rc) {
  if (rc != SQLITE_OK) db_.fail("cannot bind parameter " + std::to_string(next_param_));
  return *this;
}

Transaction::Transaction(Connection& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (!committed_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.exec("COMMIT");
  committed_ = true;
}

}  // namespace omnilink::store::sqlite
