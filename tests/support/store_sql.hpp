// SQL on a store's index with SQLite itself, not through store::Store: for tests that check what
// the index holds on disk, or make it as an older omnilink wrote it.
#pragma once

#include <filesystem>
#include <string>

#include <sqlite3.h>

#include <catch2/catch.hpp>

namespace omnilink::testing {

/// Runs one statement on STORE/omnilink.db; the first column of its first row, as text.
inline std::string store_sql(const std::filesystem::path& store, const std::string& statement) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((store / "omnilink.db").c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, statement.c_str(), -1, &stmt, nullptr) == SQLITE_OK);
  std::string value;
  if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0) != nullptr)
    value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return value;
}

}  // namespace omnilink::testing
