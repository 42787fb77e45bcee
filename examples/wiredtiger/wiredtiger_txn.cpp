// Workload: WiredTiger transactions (Debian's libwiredtiger-dev 3.2.1, unmodified and statically
// linked), validated against tla/specs/WiredTigerKV.tla (docs/storage.md).
//
// A table of int64 keys and values in a scratch directory under $TMPDIR (removed when the harness
// ends; a run killed from outside leaves it behind). Each thread has its own session and runs one
// transaction at a time over a few keys, so that transactions conflict often: Begin, then Search,
// Put and Remove, then Commit or Rollback. Every call is logged with its transaction, key, value
// and WiredTiger's return code by name ("ok", "not_found", "rollback", "prepare_conflict",
// "invalid" for EINVAL; any other by wiredtiger_strerror's text, which no spec allows). A
// transaction whose write returned WT_ROLLBACK rolls back next, as WiredTiger's documentation asks
// applications to do, or (on_conflict=commit) tries to commit first.
//
// --param isolation=snapshot | read-committed | read-uncommitted
//                                       begin_transaction's isolation (the harness's default
//                                       snapshot; a WiredTiger session's own is read-committed)
// --param on_conflict=rollback | commit what a transaction does after a write returned
//                                       WT_ROLLBACK: roll back, or commit (WiredTiger refuses with
//                                       EINVAL if it updated anything, and the transaction then
//                                       rolls back; with no update the commit succeeds)
// --param keys=N                        keys 1..N (default 4)
// --param txn_ops=N                     at most N reads and writes per transaction (default 4)
// --param timestamps=none | small | wide
//                                       none: no timestamps. Otherwise transactions also begin
//                                       at a read timestamp (BeginAt) and commit at a commit
//                                       timestamp (CommitAt), and thread 0 moves the connection's
//                                       oldest and stable timestamps forward (SetTimestamps):
//                                       small counts 1, 2, 3, ...; wide is MongoDB's shape,
//                                       seconds << 32 | counter (64-bit values, which TLC cannot
//                                       hold: validate natively)
// --param prepare=P                    with timestamps at snapshot isolation, the percentage of
//                                       transactions that prepare (prepare_transaction at their
//                                       commit timestamp) before they commit (CommitPrepared, with
//                                       durable_timestamp equal to the commit timestamp) or roll
//                                       back (default 0)
// --param commits_per_ts=N              a thread's consecutive transactions that share a commit
//                                       timestamp (default 2: two transactions may commit one key
//                                       at one timestamp, which WiredTiger allows)
//
// A thread takes a commit timestamp from one counter when a transaction begins, as MongoDB
// reserves an oplog slot before it writes, and keeps it for commits_per_ts transactions, as a
// batch applied at one timestamp; so transactions commit out of timestamp order (one that took an
// earlier timestamp may still be running). A read timestamp is drawn between the oldest
// timestamp last set and the newest commit timestamp taken, or (one begin in eight) below the
// oldest; stable trails the newest by 8 and oldest trails stable by 8 but stays at or below the
// read timestamp of any transaction beginning (Timestamps says why). So a commit may find its
// timestamp behind stable, and a begin its read timestamp behind oldest: WiredTiger refuses both
// (EINVAL), and the spec says when.
//
// Put is WT_CURSOR::insert on a cursor with overwrite=true (WiredTiger's default): it inserts or
// replaces. Remove is WT_CURSOR::remove on a cursor with overwrite=false, so that removing a key
// that is not there says so (WT_NOTFOUND) instead of succeeding silently.
//
// Transaction ids and values are unique in the run ((thread + 1) * 1'000'000 + operation index + 1):
// the spec identifies a transaction by its id, and a read's value names the write it saw. They are
// above every key and every timestamp counted from 1, so that no id is also logged as something
// else: an explanation ties operations by the values they share, and a key or timestamp equal to
// a transaction's id would tie it to unrelated ones.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <wiredtiger.h>

#include <omnilink/harness.hpp>

#include "common/queue_workload.hpp"  // unique_elem
#include "wiredtigerkv_ops.hpp"

namespace {

// The operations of WiredTigerKV.tla, generated from it at build time (omnilink gen-hpp):
// SpecHarness::run() compiles only while the workload covers each. Timestamps are logged as the
// int64 that holds WiredTiger's uint64: both kinds the workload uses stay below 2^63.
namespace ops = wiredtigerkv;

// A timestamp as WiredTiger's configuration strings take it: hexadecimal, no prefix.
std::string hex(std::int64_t ts) {
  char text[24];
  std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(ts));
  return text;
}

// A return code as the spec names it.
std::string status_name(int ret) {
  switch (ret) {
    case 0: return "ok";
    case WT_NOTFOUND: return "not_found";
    case WT_ROLLBACK: return "rollback";
    case WT_PREPARE_CONFLICT: return "prepare_conflict";
    case EINVAL: return "invalid";
    default: return wiredtiger_strerror(ret);  // an error no spec allows: validation names it
  }
}

/// The workload's shape, from --param (the header above; the defaults are the declarations' below).
struct Workload {
  std::string isolation;
  bool commit_after_conflict = false;
  std::int64_t keys = 0;
  std::int64_t txn_ops = 0;
  std::string timestamps;
  std::int64_t commits_per_ts = 0;
  std::int64_t prepare = 0;

  bool timestamped() const { return timestamps != "none"; }

  static std::vector<omnilink::Param> params() {
    return {omnilink::Param::word("isolation", {"snapshot", "read-committed", "read-uncommitted"}, "begin_transaction's isolation"),
            omnilink::Param::word("on_conflict", {"rollback", "commit"}, "after a write returned WT_ROLLBACK: roll back, or try to commit"),
            omnilink::Param::integer("keys", 4, 1, 1000, "keys 1..N"),
            omnilink::Param::integer("txn_ops", 4, 1, 1000, "at most N reads and writes per transaction"),
            omnilink::Param::word("timestamps", {"none", "small", "wide"}, "read and commit timestamps: none, counted from 1, or seconds << 32 | counter"),
            omnilink::Param::integer("commits_per_ts", 2, 1, 1000, "a thread's consecutive transactions that share a commit timestamp"),
            omnilink::Param::integer("prepare", 0, 0, 100, "with timestamps at snapshot isolation: percent of transactions that prepare before they end")};
  }

  static Workload from(const omnilink::Options& options) {
    return {options.param_word("isolation"), options.param_word("on_conflict") == "commit", options.param_int("keys"),
            options.param_int("txn_ops"), options.param_word("timestamps"), options.param_int("commits_per_ts"),
            options.param_int("prepare")};
  }
};

/// A thread's session, its two cursors on the table, and its transaction in progress.
struct Slot {
  WT_SESSION* session = nullptr;
  WT_CURSOR* cursor = nullptr;          // overwrite=true: search and insert
  WT_CURSOR* strict_cursor = nullptr;   // overwrite=false: remove says WT_NOTFOUND
  bool in_txn = false;
  std::int64_t id = 0;
  std::int64_t ops = 0;         // reads and writes so far
  std::int64_t commit_ts = 0;   // taken when it began, or kept from the thread's previous one (timestamps only)
  std::int64_t ts_uses = 0;     // transactions begun with commit_ts
  bool wrote = false;           // a write succeeded
  bool conflicted = false;      // a write returned WT_ROLLBACK: commit or roll back next
  bool must_roll_back = false;  // roll back next (a conflict, or a refused commit)
  bool will_prepare = false;    // prepares before it ends (drawn when it began)
  bool prepared = false;        // prepared: only CommitPrepared or Rollback may follow
};

/// The workload's timestamps: commit timestamps from one counter, the oldest timestamp last set,
/// and the read timestamps of transactions beginning, which the oldest may not pass.
///
/// Why the pins: begin_transaction checks its read timestamp against the oldest when it starts and
/// takes its snapshot later (src/include/txn.i, __wt_txn_begin: __wt_txn_config, then
/// __wt_txn_get_snapshot). An oldest moved past the read timestamp in between leaves a
/// transaction whose snapshot is newer than any moment its read timestamp was allowed, which no
/// one-step Begin in a spec can be; under rr chaos a begin is descheduled long enough for it. So
/// the oldest stays at or below the read timestamp of any transaction beginning, and a begin
/// meant to be refused draws a read timestamp below the oldest already set (which only grows).
class Timestamps {
 public:
  /// A read timestamp for a transaction about to begin: below the oldest (refused) with
  /// probability `refused`, else between it and the newest commit timestamp, pinned until unpin().
  std::int64_t pin_read(omnilink::Context& ctx, double refused) {
    const std::lock_guard lock(pins_mutex_);
    const std::int64_t oldest = oldest_.load();
    if (oldest > first() && ctx.chance(refused)) return ctx.uniform(first(), oldest - 1);
    const std::int64_t low = std::max(oldest, first());
    const std::int64_t read_ts = ctx.uniform(low, std::max(low, newest()));
    pins_[ctx.thread()] = read_ts;
    return read_ts;
  }
  void unpin(std::size_t thread) {
    const std::lock_guard lock(pins_mutex_);
    pins_.erase(thread);
  }
  /// Calls set(oldest) with `wanted` lowered to the earliest pinned read timestamp, no transaction
  /// beginning meanwhile; returns set's result, and remembers the oldest when it is 0 (success).
  template <typename Set>
  int move_oldest(std::int64_t wanted, Set set) {
    const std::lock_guard lock(pins_mutex_);
    for (const auto& [thread, read_ts] : pins_) wanted = std::min(wanted, read_ts);
    const int ret = set(wanted);
    if (ret == 0) oldest_.store(std::max(oldest_.load(), wanted));
    return ret;
  }
  void start(const Workload& w) { base_ = w.timestamps == "wide" ? static_cast<std::int64_t>(std::time(nullptr)) << 32 : 0; }
  /// A new commit timestamp.
  std::int64_t take() { return base_ + 1 + taken_.fetch_add(1); }
  /// The newest commit timestamp taken, or 0 before the first.
  std::int64_t newest() const {
    const std::int64_t taken = taken_.load();
    return taken == 0 ? 0 : base_ + taken;
  }
  std::int64_t first() const { return base_ + 1; }

 private:
  std::int64_t base_ = 0;
  std::atomic<std::int64_t> taken_{0}, oldest_{0};
  std::mutex pins_mutex_;
  std::map<std::size_t, std::int64_t> pins_;  // thread -> read timestamp of its beginning transaction
};

// WiredTiger's own messages for errors it returns: the workload logs every return code, and a
// refused commit (on_conflict=commit) would print one line each, a refused read timestamp one
// informational message each.
int quiet_error(WT_EVENT_HANDLER*, WT_SESSION*, int, const char*) { return 0; }
int quiet_message(WT_EVENT_HANDLER*, WT_SESSION*, const char*) { return 0; }
WT_EVENT_HANDLER quiet_errors{quiet_error, quiet_message, nullptr, nullptr};

/// The connection in its scratch directory, and each thread's slot.
class System {
 public:
  System(const Workload& workload, std::uint32_t threads) : workload_(workload), slots_(threads) {}
  ~System() {
    if (conn_ != nullptr) conn_->close(conn_, nullptr);  // closes the sessions and their cursors
    remove_scratch();
  }

  // Removes the database's directory (also before the harness aborts).
  void remove_scratch() {
    if (dir_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // A call the spec has no failure for (begin, rollback) failed: the harness aborts, which a
  // campaign reports as a crash of the system under test, naming what failed.
  [[noreturn]] void crash(const std::string& what, int ret) {
    std::cerr << "omnilink: " << what << ": " << wiredtiger_strerror(ret) << "\n";
    remove_scratch();
    std::abort();
  }

  // Opens a new database in a fresh directory under $TMPDIR with one table and a session and its
  // cursors per thread; the error, if it cannot.
  std::optional<std::string> open() {
    std::string pattern = (std::filesystem::temp_directory_path() / "omnilink-wiredtiger-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) return "cannot create a scratch directory under " + pattern;
    dir_ = pattern;
    auto failed = [&](const char* what, int ret) { return std::string(what) + " in " + dir_.string() + ": " + wiredtiger_strerror(ret); };
    if (int ret = wiredtiger_open(dir_.c_str(), nullptr, "create", &conn_); ret != 0) return failed("wiredtiger_open", ret);
    WT_SESSION* setup = nullptr;
    if (int ret = conn_->open_session(conn_, nullptr, nullptr, &setup); ret != 0) return failed("open_session", ret);
    if (int ret = setup->create(setup, kTable, "key_format=q,value_format=q"); ret != 0) return failed("create", ret);
    for (Slot& slot : slots_) {
      if (int ret = conn_->open_session(conn_, &quiet_errors, nullptr, &slot.session); ret != 0) return failed("open_session", ret);
      if (int ret = slot.session->open_cursor(slot.session, kTable, nullptr, nullptr, &slot.cursor); ret != 0)
        return failed("open_cursor", ret);
      if (int ret = slot.session->open_cursor(slot.session, kTable, nullptr, "overwrite=false", &slot.strict_cursor); ret != 0)
        return failed("open_cursor", ret);
    }
    begin_config_ = "isolation=" + workload_.isolation;
    timestamps_.start(workload_);
    return std::nullopt;
  }

  const Workload& workload() const { return workload_; }
  Slot& slot(std::uint32_t thread) { return slots_[thread]; }
  const std::string& begin_config() const { return begin_config_; }
  Timestamps& timestamps() { return timestamps_; }
  WT_CONNECTION* connection() { return conn_; }

  // begin_transaction for the thread's new transaction `txn` (with `config`): the return code,
  // and the slot ready for its reads and writes if it began.
  int begin(std::uint32_t thread, omnilink::Context& ctx, std::int64_t txn, const std::string& config) {
    Slot& slot = slots_[thread];
    ctx.refine_start();
    const int ret = slot.session->begin_transaction(slot.session, config.c_str());
    ctx.refine_end();
    if (ret == 0) {
      slot.in_txn = true;
      slot.id = txn;
      slot.ops = 0;
      slot.wrote = slot.conflicted = slot.must_roll_back = slot.prepared = false;
      slot.will_prepare = workload_.timestamped() && workload_.isolation == "snapshot" && ctx.uniform(1, 100) <= workload_.prepare;
      if (workload_.timestamped() && slot.ts_uses++ % workload_.commits_per_ts == 0) slot.commit_ts = timestamps_.take();
    }
    return ret;
  }

  // commit_transaction of the thread's transaction (with `config`, or none): its status, the
  // slot updated. EINVAL for a failed transaction that updated something ("failed transaction
  // requires rollback") leaves it running, though the documentation says a failed commit rolls
  // back (src/session/session_api.c skips that branch): it is rolled back next. Any other failure
  // (a refused commit timestamp) rolled it back.
  std::string commit(std::uint32_t thread, omnilink::Context& ctx, const char* config) {
    Slot& slot = slots_[thread];
    ctx.refine_start();
    const int ret = slot.session->commit_transaction(slot.session, config);
    ctx.refine_end();
    if (ret == EINVAL && slot.conflicted && slot.wrote) slot.must_roll_back = true;
    else slot.in_txn = false;
    return status_name(ret);
  }

 private:
  static constexpr const char* kTable = "table:kv";
  Workload workload_;
  std::vector<Slot> slots_;
  std::filesystem::path dir_;
  WT_CONNECTION* conn_ = nullptr;
  std::string begin_config_;
  Timestamps timestamps_;
};

// The thread's transaction, if it may read or write now, with op's transaction and a random key
// set; otherwise nothing, and the operation is skipped.
template <class Op>
Slot* access(System& s, omnilink::Context& ctx, Op& op) {
  Slot& slot = s.slot(ctx.thread());
  if (!slot.in_txn || slot.prepared || slot.conflicted || slot.must_roll_back || slot.ops >= s.workload().txn_ops) {
    ctx.unsupported();
    return nullptr;
  }
  ++slot.ops;
  op.txn = slot.id;
  op.key = ctx.uniform(1, s.workload().keys);
  return &slot;
}

// A write's outcome: WT_ROLLBACK (a conflict) leaves a transaction to roll back, or to commit first.
void wrote(const System& s, Slot& slot, int ret) {
  slot.wrote |= ret == 0;
  if (ret != WT_ROLLBACK) return;
  slot.conflicted = true;
  slot.must_roll_back = !s.workload().commit_after_conflict;
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
    if (s.slot(ctx.thread()).in_txn) return ctx.unsupported();
    op.txn = examples::unique_elem(ctx.thread() + 1, ctx.index());
    if (const int ret = s.begin(ctx.thread(), ctx, op.txn, s.begin_config()); ret != 0) s.crash("begin_transaction failed", ret);
  }, 2)
  // A read timestamp between the oldest last set and the newest commit timestamp taken, or one in
  // eight below the oldest (EINVAL, and no transaction): Timestamps says why not in between.
  .op<ops::BeginAt>([](System& s, Ctx& ctx, ops::BeginAt& op) {
    Timestamps& ts = s.timestamps();
    if (!s.workload().timestamped() || s.slot(ctx.thread()).in_txn || ts.newest() == 0) return ctx.unsupported();
    op.txn = examples::unique_elem(ctx.thread() + 1, ctx.index());
    op.read_ts = ts.pin_read(ctx, 0.125);
    const int ret = s.begin(ctx.thread(), ctx, op.txn, s.begin_config() + ",read_timestamp=" + hex(op.read_ts));
    ts.unpin(ctx.thread());
    if (ret != 0 && ret != EINVAL) s.crash("begin_transaction failed", ret);
    op.status = status_name(ret);
  }, 2)
  .op<ops::Search>([](System& s, Ctx& ctx, ops::Search& op) {
    Slot* slot = access(s, ctx, op);
    if (slot == nullptr) return;
    WT_CURSOR* c = slot->cursor;
    c->set_key(c, op.key);
    ctx.refine_start();
    const int ret = c->search(c);
    ctx.refine_end();
    op.status = status_name(ret);
    if (ret == 0) c->get_value(c, &op.value);
    c->reset(c);
  }, 4)
  .op<ops::Put>([](System& s, Ctx& ctx, ops::Put& op) {
    op.value = examples::unique_elem(ctx.thread() + 1, ctx.index());
    Slot* slot = access(s, ctx, op);
    if (slot == nullptr) return;
    WT_CURSOR* c = slot->cursor;
    c->set_key(c, op.key);
    c->set_value(c, op.value);
    ctx.refine_start();
    const int ret = c->insert(c);
    ctx.refine_end();
    op.status = status_name(ret);
    wrote(s, *slot, ret);
  }, 3)
  .op<ops::Remove>([](System& s, Ctx& ctx, ops::Remove& op) {
    Slot* slot = access(s, ctx, op);
    if (slot == nullptr) return;
    WT_CURSOR* c = slot->strict_cursor;
    c->set_key(c, op.key);
    ctx.refine_start();
    const int ret = c->remove(c);
    ctx.refine_end();
    op.status = status_name(ret);
    c->reset(c);
    wrote(s, *slot, ret);
  })
  .op<ops::Commit>([](System& s, Ctx& ctx, ops::Commit& op) {
    Slot& slot = s.slot(ctx.thread());
    if (!slot.in_txn || slot.must_roll_back || slot.will_prepare) return ctx.unsupported();
    op.txn = slot.id;
    op.status = s.commit(ctx.thread(), ctx, nullptr);
  }, 2)
  .op<ops::CommitAt>([](System& s, Ctx& ctx, ops::CommitAt& op) {
    Slot& slot = s.slot(ctx.thread());
    if (!s.workload().timestamped() || !slot.in_txn || slot.must_roll_back || slot.will_prepare) return ctx.unsupported();
    op.txn = slot.id;
    op.commit_ts = slot.commit_ts;
    op.status = s.commit(ctx.thread(), ctx, ("commit_timestamp=" + hex(op.commit_ts)).c_str());
  }, 2)
  // A transaction drawn to prepare does so at its commit timestamp, and commits there with the
  // same durable timestamp; refused, it is failed (src/include/api.h) and rolls back next.
  .op<ops::Prepare>([](System& s, Ctx& ctx, ops::Prepare& op) {
    Slot& slot = s.slot(ctx.thread());
    if (!slot.in_txn || !slot.will_prepare || slot.prepared || slot.must_roll_back) return ctx.unsupported();
    op.txn = slot.id;
    op.prepare_ts = slot.commit_ts;
    const std::string config = "prepare_timestamp=" + hex(op.prepare_ts);
    ctx.refine_start();
    const int ret = slot.session->prepare_transaction(slot.session, config.c_str());
    ctx.refine_end();
    op.status = status_name(ret);
    if (ret == 0) slot.prepared = true;
    else slot.must_roll_back = true;
  })
  .op<ops::CommitPrepared>([](System& s, Ctx& ctx, ops::CommitPrepared& op) {
    Slot& slot = s.slot(ctx.thread());
    if (!slot.in_txn || !slot.prepared) return ctx.unsupported();
    op.txn = slot.id;
    op.commit_ts = op.durable_ts = slot.commit_ts;
    const std::string config = "commit_timestamp=" + hex(op.commit_ts) + ",durable_timestamp=" + hex(op.durable_ts);
    op.status = s.commit(ctx.thread(), ctx, config.c_str());
  }, 2)
  // Thread 0 moves stable to 8 behind the newest commit timestamp taken, and oldest 8 behind that
  // (or to the earliest read timestamp of a transaction beginning, Timestamps says why).
  .op<ops::SetTimestamps>([](System& s, Ctx& ctx, ops::SetTimestamps& op) {
    Timestamps& ts = s.timestamps();
    if (!s.workload().timestamped() || ctx.thread() != 0 || ts.newest() - 16 < ts.first()) return ctx.unsupported();
    op.stable_ts = ts.newest() - 8;
    WT_CONNECTION* conn = s.connection();
    const int ret = ts.move_oldest(op.stable_ts - 8, [&](std::int64_t oldest) {
      op.oldest_ts = oldest;
      const std::string config = "oldest_timestamp=" + hex(op.oldest_ts) + ",stable_timestamp=" + hex(op.stable_ts);
      ctx.refine_start();
      const int set = conn->set_timestamp(conn, config.c_str());
      ctx.refine_end();
      return set;
    });
    op.status = status_name(ret);
  })
  .op<ops::Rollback>([](System& s, Ctx& ctx, ops::Rollback& op) {
    Slot& slot = s.slot(ctx.thread());
    if (!slot.in_txn) return ctx.unsupported();
    op.txn = slot.id;
    ctx.refine_start();
    const int ret = slot.session->rollback_transaction(slot.session, nullptr);
    ctx.refine_end();
    if (ret != 0) s.crash("rollback_transaction of transaction " + std::to_string(op.txn) + " failed", ret);
    slot.in_txn = false;
  });

  System system(w, harness.options().threads);
  if (const auto error = system.open()) {
    std::cerr << argv[0] << ": " << *error << "\n";
    return omnilink::kExitSetup;
  }
  return spec.run(system);
}
