// The store's own small SQLite wrapper: a connection, prepared statements read and bound in column
// order, and write transactions. Private to the store (store.cpp): nothing above the store speaks
// SQL, and every failure is a StoreError naming the database file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "store/store.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace omnilink::store::sqlite {

/// An open database connection with a busy timeout, closed on destruction.
class Connection {
 public:
  /// create: made when missing; existing: read-write, must exist; read_only; immutable: read as the
  /// file is, without locks (a read-only file system, where SQLite cannot make a WAL index).
  enum class Mode { create, existing, read_only, immutable };

  /// Throws StoreError naming `path` when it cannot be opened.
  Connection(std::filesystem::path path, Mode mode);
  ~Connection();
  Connection(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  sqlite3* handle() const { return db_; }
  const std::filesystem::path& path() const { return path_; }

  /// Puts the database in WAL mode (persistent), waiting up to the busy timeout for the exclusive
  /// lock the switch needs.
  void enable_wal();

  /// Throws StoreError: the file, `what`, and SQLite's message.
  [[noreturn]] void fail(const std::string& what) const;
  /// Runs statements that return nothing the caller needs (pragmas, DDL, BEGIN/COMMIT).
  void exec(const std::string& sql);

 private:
  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
};

/// A prepared statement. Parameters are bound in order with bind(); rows are read with step() and
/// the column getters, which also take the columns in order, so a reader is written in the same
/// order as its SELECT list.
///
/// SQLite integers are signed 64-bit: an unsigned 64-bit value (a seed uses the whole range) is
/// stored as the int64 with the same bits and read back the same way, so every value round-trips.
class Statement {
 public:
  /// Throws StoreError with the SQL when it does not prepare.
  Statement(Connection& db, const std::string& sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(std::int64_t value);
  Statement& bind(std::uint64_t value);
  Statement& bind(std::uint32_t value) { return bind(static_cast<std::int64_t>(value)); }
  Statement& bind(int value) { return bind(static_cast<std::int64_t>(value)); }
  Statement& bind(bool value) { return bind(static_cast<std::int64_t>(value ? 1 : 0)); }
  Statement& bind(const std::string& value);
  template <class T>
  Statement& bind(const std::optional<T>& value) {
    return value ? bind(*value) : bind_null();
  }
  Statement& bind_null();

  /// Advances to the next row; false when there is none.
  bool step();
  /// Runs a statement that returns no rows; the number of rows it changed.
  int run();
  /// Makes the statement ready to be bound and run again.
  void reset();

  std::int64_t int64();
  std::uint64_t uint64();
  std::uint32_t uint32() { return static_cast<std::uint32_t>(int64()); }
  int int32() { return static_cast<int>(int64()); }
  std::string text();
  /// The next column through `get` (one of the getters above), or nullopt when it is NULL.
  template <class T>
  std::optional<T> optional(T (Statement::*get)()) {
    if (next_is_null()) {
      ++next_column_;
      return std::nullopt;
    }
    return (this->*get)();
  }

 private:
  Statement& check_bind(int rc);
  bool next_is_null() const;

  Connection& db_;
  sqlite3_stmt* stmt_ = nullptr;
  int next_param_ = 0;
  int next_column_ = 0;
};

/// BEGIN IMMEDIATE ... COMMIT, rolled back when left without commit() (an exception). IMMEDIATE
/// takes the write lock up front, so a process waiting for another one's write waits here, under
/// the busy timeout, instead of failing with SQLITE_BUSY when a read transaction tries to become a
/// write.
class Transaction {
 public:
  explicit Transaction(Connection& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Connection& db_;
  bool committed_ = false;
};

}  // namespace omnilink::store::sqlite
