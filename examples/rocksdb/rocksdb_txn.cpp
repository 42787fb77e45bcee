// Workload: RocksDB transactions (Debian's librocksdb-dev, unmodified), validated against
// tla/specs/SnapshotKV.tla (snapshot isolation) or SerializableKV.tla (docs/storage.md).
//
// Each thread runs one transaction at a time over a few keys, so that transactions conflict
// often: Begin, then Get, GetForUpdate, Put and Delete, then Commit or Rollback. Every call is
// logged with its transaction, key, value and status ("ok", "not_found", "busy", "timed_out"; any
// other status by its name, which no spec allows). A transaction whose write or read for update
// was refused, or whose commit failed, rolls back next, as applications do. The database lives in
// a scratch directory under $TMPDIR, removed when the harness ends (a run killed from outside
// leaves it behind).
//
// --param db=pessimistic | optimistic   TransactionDB (row locks taken by writes) or
//                                       OptimisticTransactionDB (conflicts found at commit)
// --param snapshot=1 | 0                1: each transaction has a snapshot (set_snapshot) and reads
//                                       it (ReadOptions::snapshot): snapshot isolation. 0: the
//                                       misconfiguration users make: no snapshot, so reads see the
//                                       latest commit (read committed) and writes are not checked
//                                       against one (lost updates)
// --param reads=get | for_update        how a transaction reads: Get (no lock: write skew happens)
//                                       or GetForUpdate (locks what it reads: serializable)
// --param keys=N                        keys 1..N (default 4)
// --param txn_ops=N                     at most N reads and writes per transaction (default 4)
// --param lock_timeout_ms=N             how long a write waits for a lock, 1 to 60000 (default 20;
//                                       RocksDB's is 1000, which makes deadlocked pairs slow)
//
// Transaction ids and values are unique in the run ((thread + 1) * 1'000'000 + operation index + 1):
// the spec identifies a transaction by its id, and a read's value names the write it saw. They are
// above every key (at most 1000), so that no id or value is also a key: MCSnapshotKV.tla declares
// them data-independent, which the checker uses only if nothing else logs the same numbers.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <rocksdb/options.h>
#include <rocksdb/utilities/optimistic_transaction_db.h>
#include <rocksdb/utilities/transaction.h>
#include <rocksdb/utilities/transaction_db.h>

#include <omnilink/harness.hpp>

#include "common/queue_workload.hpp"  // unique_elem
#include "snapshotkv_ops.hpp"

namespace {

/// This operation's transaction id or written value (the file's header says why the + 1).
std::int64_t fresh_id(const omnilink::Context& ctx) { return examples::unique_elem(ctx.thread() + 1, ctx.index()); }

// The operations of SnapshotKV.tla (and SerializableKV.tla, which has the same), generated from
// it at build time (omnilink gen-hpp): SpecHarness::run() compiles only while the workload covers each.
namespace ops = snapshotkv;

// A status as the spec names it.
std::string status_name(const rocksdb::Status& s) {
  if (s.ok()) return "ok";
  if (s.IsNotFound()) return "not_found";
  if (s.IsBusy()) return "busy";
  if (s.IsTimedOut()) return "timed_out";
  return s.ToString();  // an error no spec allows: validation names it
}

/// The workload's shape, from --param (the header above; the defaults are the declarations' below).
struct Workload {
  bool optimistic = false;
  bool snapshot = false;
  bool read_for_update = false;
  std::int64_t keys = 0;
  std::int64_t txn_ops = 0;
  std::int64_t lock_timeout_ms = 0;

  static std::vector<omnilink::Param> params() {
    return {omnilink::Param::word("db", {"pessimistic", "optimistic"}, "TransactionDB (row locks) or OptimisticTransactionDB"),
            omnilink::Param::integer("snapshot", 1, 0, 1, "1: each transaction reads from its snapshot"),
            omnilink::Param::word("reads", {"get", "for_update"}, "how a transaction reads: Get, or GetForUpdate"),
            omnilink::Param::integer("keys", 4, 1, 1000, "keys 1..N"),
            omnilink::Param::integer("txn_ops", 4, 1, 1000, "at most N reads and writes per transaction"),
            // Not 0: RocksDB then only tries the lock table's stripe mutex, and reports TimedOut when
            // another thread merely holds that mutex, for any key: a timeout the spec rightly refuses.
            omnilink::Param::integer("lock_timeout_ms", 20, 1, 60'000, "how long a write waits for a row lock")};
  }

  static Workload from(const omnilink::Options& options) {
    Workload w;
    w.optimistic = options.param_word("db") == "optimistic";
    w.read_for_update = options.param_word("reads") == "for_update";
    w.snapshot = options.param_int("snapshot") == 1;
    w.keys = options.param_int("keys");
    w.txn_ops = options.param_int("txn_ops");
    w.lock_timeout_ms = options.param_int("lock_timeout_ms");
    return w;
  }
};

/// A thread's transaction in progress.
struct Slot {
  std::unique_ptr<rocksdb::Transaction> txn;
  std::int64_t id = 0;
  std::int64_t ops = 0;        // reads and writes so far
  bool must_roll_back = false;  // a write was refused, or the commit failed
};

/// The database in its scratch directory, and each thread's transaction.
class System {
 public:
  System(const Workload& workload, std::uint32_t threads) : workload_(workload), slots_(threads) {}
  ~System() {
    for (auto& slot : slots_) slot.txn.reset();  // before the database
    db_.reset();
    optimistic_db_ = nullptr;
    pessimistic_db_ = nullptr;
    remove_scratch();
  }

  // Removes the database's directory (also before the harness aborts).
  void remove_scratch() {
    if (dir_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Opens a new database in a fresh directory under $TMPDIR; the error, if it cannot.
  std::optional<std::string> open() {
    std::string pattern = (std::filesystem::temp_directory_path() / "omnilink-rocksdb-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) return "cannot create a scratch directory under " + pattern;
    dir_ = pattern;
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::Status s;
    if (workload_.optimistic) {
      rocksdb::OptimisticTransactionDB* db = nullptr;
      s = rocksdb::OptimisticTransactionDB::Open(options, dir_.string(), &db);
      optimistic_db_ = db;
      db_.reset(db);
    } else {
      rocksdb::TransactionDBOptions txn_options;
      txn_options.transaction_lock_timeout = workload_.lock_timeout_ms;
      rocksdb::TransactionDB* db = nullptr;
      s = rocksdb::TransactionDB::Open(options, txn_options, dir_.string(), &db);
      pessimistic_db_ = db;
      db_.reset(db);
    }
    if (!s.ok()) return "cannot open RocksDB in " + dir_.string() + ": " + s.ToString();
    return std::nullopt;
  }

  const Workload& workload() const { return workload_; }
  Slot& slot(std::uint32_t thread) { return slots_[thread]; }

  std::unique_ptr<rocksdb::Transaction> begin() {
    if (workload_.optimistic) {
      rocksdb::OptimisticTransactionOptions o;
      o.set_snapshot = workload_.snapshot;
      return std::unique_ptr<rocksdb::Transaction>(optimistic_db_->BeginTransaction(write_options_, o));
    }
    rocksdb::TransactionOptions o;
    o.set_snapshot = workload_.snapshot;
    return std::unique_ptr<rocksdb::Transaction>(pessimistic_db_->BeginTransaction(write_options_, o));
  }

  // Reads of txn: at its snapshot when it has one.
  rocksdb::ReadOptions read_options(rocksdb::Transaction& txn) const {
    rocksdb::ReadOptions o;
    if (workload_.snapshot) o.snapshot = txn.GetSnapshot();
    return o;
  }

 private:
  Workload workload_;
  std::vector<Slot> slots_;
  std::filesystem::path dir_;
  rocksdb::WriteOptions write_options_;
  std::unique_ptr<rocksdb::DB> db_;  // the one below that is open
  rocksdb::OptimisticTransactionDB* optimistic_db_ = nullptr;
  rocksdb::TransactionDB* pessimistic_db_ = nullptr;
};

std::string key_text(std::int64_t key) { return "k" + std::to_string(key); }

// The thread's transaction, if it may read or write now, with op's transaction and a random key
// set; otherwise nothing, and the operation is skipped.
template <class Op>
Slot* access(System& s, omnilink::Context& ctx, Op& op) {
  Slot& slot = s.slot(ctx.thread());
  if (!slot.txn || slot.must_roll_back || slot.ops >= s.workload().txn_ops) {
    ctx.unsupported();
    return nullptr;
  }
  ++slot.ops;
  op.txn = slot.id;
  op.key = ctx.uniform(1, s.workload().keys);
  return &slot;
}

template <class Op, class Call>
void read(System& s, omnilink::Context& ctx, Op& op, Call call) {
  Slot* slot = access(s, ctx, op);
  if (slot == nullptr) return;
  const std::string key = key_text(op.key);
  std::string value;
  const rocksdb::ReadOptions options = s.read_options(*slot->txn);
  ctx.refine_start();
  const rocksdb::Status status = call(*slot->txn, options, key, value);
  ctx.refine_end();
  op.status = status_name(status);
  if (status.ok()) op.value = std::stoll(value);
  if (!status.ok() && !status.IsNotFound()) slot->must_roll_back = true;
}

template <class Op, class Call>
void write(System& s, omnilink::Context& ctx, Op& op, Call call) {
  Slot* slot = access(s, ctx, op);
  if (slot == nullptr) return;
  ctx.refine_start();
  const rocksdb::Status status = call(*slot->txn, key_text(op.key));
  ctx.refine_end();
  op.status = status_name(status);
  if (!status.ok()) slot->must_roll_back = true;
}

}  // namespace

int main(int argc, char** argv) {
  omnilink::Harness<System> harness(argc, argv, Workload::params());
  const Workload w = Workload::from(harness.options());
  if (harness.options().ops >= 1'000'000) {
    std::cerr << argv[0] << ": --ops " << harness.options().ops << ": at most 999999 (ids and values are unique per thread below 1000000)\n";
    return omnilink::kExitUsage;
  }
  using Ctx = omnilink::Context;

  auto spec = omnilink::spec_harness<ops::Operations>(harness)
  .op<ops::Begin>([](System& s, Ctx& ctx, ops::Begin& op) {
    Slot& slot = s.slot(ctx.thread());
    if (slot.txn) return ctx.unsupported();
    op.txn = fresh_id(ctx);
    op.previous = slot.id;  // 0 before the thread's first: whatever it was, it has let its locks go
    ctx.refine_start();
    slot.txn = s.begin();
    ctx.refine_end();
    slot.id = op.txn;
    slot.ops = 0;
    slot.must_roll_back = false;
  }, 2)
  .op<ops::Get>([](System& s, Ctx& ctx, ops::Get& op) {
    read(s, ctx, op, [](rocksdb::Transaction& txn, const rocksdb::ReadOptions& o, const std::string& key, std::string& value) {
      return txn.Get(o, key, &value);
    });
  }, w.read_for_update ? 0 : 4)
  .op<ops::GetForUpdate>([](System& s, Ctx& ctx, ops::GetForUpdate& op) {
    read(s, ctx, op, [](rocksdb::Transaction& txn, const rocksdb::ReadOptions& o, const std::string& key, std::string& value) {
      return txn.GetForUpdate(o, key, &value);
    });
  }, w.read_for_update ? 4 : 1)
  .op<ops::Put>([](System& s, Ctx& ctx, ops::Put& op) {
    op.value = fresh_id(ctx);
    write(s, ctx, op, [&](rocksdb::Transaction& txn, const std::string& key) { return txn.Put(key, std::to_string(op.value)); });
  }, 3)
  .op<ops::Delete>([](System& s, Ctx& ctx, ops::Delete& op) {
    write(s, ctx, op, [](rocksdb::Transaction& txn, const std::string& key) { return txn.Delete(key); });
  })
  .op<ops::Commit>([](System& s, Ctx& ctx, ops::Commit& op) {
    Slot& slot = s.slot(ctx.thread());
    if (!slot.txn || slot.must_roll_back) return ctx.unsupported();
    op.txn = slot.id;
    ctx.refine_start();
    const rocksdb::Status status = slot.txn->Commit();
    ctx.refine_end();
    op.status = status_name(status);
    if (status.ok()) slot.txn.reset();
    else slot.must_roll_back = true;
  }, 2)
  .op<ops::Rollback>([](System& s, Ctx& ctx, ops::Rollback& op) {
    Slot& slot = s.slot(ctx.thread());
    if (!slot.txn) return ctx.unsupported();
    op.txn = slot.id;
    ctx.refine_start();
    const rocksdb::Status status = slot.txn->Rollback();
    ctx.refine_end();
    if (!status.ok()) {
      std::cerr << "omnilink: Rollback of transaction " << op.txn << " failed: " << status.ToString() << "\n";
      s.remove_scratch();
      std::abort();  // the spec has no failing rollback; a crash is reported as one
    }
    slot.txn.reset();
  });

  System system(w, harness.options().threads);
  if (const auto error = system.open()) {
    std::cerr << argv[0] << ": " << *error << "\n";
    return omnilink::kExitSetup;
  }
  return spec.run(system);
}
