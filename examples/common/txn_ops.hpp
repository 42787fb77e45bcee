// Operation types of the transactional key-value specs (SnapshotKV.tla, SerializableKV.tla,
// WiredTigerKV.tla), shared by the RocksDB and WiredTiger harnesses: a transaction's Begin, reads
// and writes of a key with the status the engine returned, and its end. Hand-written (issue 45
// asks for gen-hpp to generate such structs from the spec).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace examples {

struct Begin {
  static constexpr std::string_view omnilink_name = "Begin";
  static constexpr std::array<std::string_view, 1> omnilink_inputs{"txn"};
  std::int64_t txn = 0;
  template <class V>
  void omnilink_fields(V&& field) const { field("txn", txn); }
};

// A read of a key (Get, GetForUpdate, Search): value is 0 unless status is "ok".
template <const char* Name>
struct KeyRead {
  static constexpr std::string_view omnilink_name = Name;
  static constexpr std::array<std::string_view, 2> omnilink_inputs{"txn", "key"};
  std::int64_t txn = 0, key = 0, value = 0;
  std::string status;
  template <class V>
  void omnilink_fields(V&& field) const {
    field("txn", txn);
    field("key", key);
    field("value", value);
    field("status", status);
  }
};

struct Put {
  static constexpr std::string_view omnilink_name = "Put";
  static constexpr std::array<std::string_view, 3> omnilink_inputs{"txn", "key", "value"};
  std::int64_t txn = 0, key = 0, value = 0;
  std::string status;
  template <class V>
  void omnilink_fields(V&& field) const {
    field("txn", txn);
    field("key", key);
    field("value", value);
    field("status", status);
  }
};

// A removal of a key (Delete, Remove).
template <const char* Name>
struct KeyRemoval {
  static constexpr std::string_view omnilink_name = Name;
  static constexpr std::array<std::string_view, 2> omnilink_inputs{"txn", "key"};
  std::int64_t txn = 0, key = 0;
  std::string status;
  template <class V>
  void omnilink_fields(V&& field) const {
    field("txn", txn);
    field("key", key);
    field("status", status);
  }
};

struct Commit {
  static constexpr std::string_view omnilink_name = "Commit";
  static constexpr std::array<std::string_view, 1> omnilink_inputs{"txn"};
  std::int64_t txn = 0;
  std::string status;
  template <class V>
  void omnilink_fields(V&& field) const {
    field("txn", txn);
    field("status", status);
  }
};

struct Rollback {
  static constexpr std::string_view omnilink_name = "Rollback";
  static constexpr std::array<std::string_view, 1> omnilink_inputs{"txn"};
  std::int64_t txn = 0;
  template <class V>
  void omnilink_fields(V&& field) const { field("txn", txn); }
};

}  // namespace examples
