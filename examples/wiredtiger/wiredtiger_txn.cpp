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
//
// Put is WT_CURSOR::insert on a cursor with overwrite=true (WiredTiger's default): it inserts or
// replaces. Remove is WT_CURSOR::remove on a cursor with overwrite=false, so that removing a key
// that is not there says so (WT_NOTFOUND) instead of succeeding silently.
//
// Transaction ids and values are unique in the run (thread * 1'000'000 + operation index + 1):
// the spec identifies a transaction by its id, and a read's value names the write it saw.
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <wiredtiger.h>

#include <omnilink/harness.hpp>

#include "common/queue_ops.hpp"  // unique_elem
#include "common/txn_ops.hpp"

namespace {

// The operations of WiredTigerKV.tla.
using examples::Begin;
using examples::Commit;
using examples::Put;
using examples::Rollback;
constexpr char kSearch[] = "Search";
constexpr char kRemove[] = "Remove";
using Search = examples::KeyRead<kSearch>;
using Remove = examples::KeyRemoval<kRemove>;

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

  static std::vector<omnilink::Param> params() {
    return {omnilink::Param::word("isolation", {"snapshot", "read-committed", "read-uncommitted"}, "begin_transaction's isolation"),
            omnilink::Param::word("on_conflict", {"rollback", "commit"}, "after a write returned WT_ROLLBACK: roll back, or try to commit"),
            omnilink::Param::integer("keys", 4, 1, 1000, "keys 1..N"),
            omnilink::Param::integer("txn_ops", 4, 1, 1000, "at most N reads and writes per transaction")};
  }

  static Workload from(const omnilink::Options& options) {
    return {options.param_word("isolation"), options.param_word("on_conflict") == "commit", options.param_int("keys"),
            options.param_int("txn_ops")};
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
  bool conflicted = false;      // a write returned WT_ROLLBACK: commit or roll back next
  bool must_roll_back = false;  // roll back next (a conflict, or a refused commit)
};

// WiredTiger's own messages for errors it returns: the workload logs every return code, and a
// refused commit (on_conflict=commit) would print one line each.
int quiet_error(WT_EVENT_HANDLER*, WT_SESSION*, int, const char*) { return 0; }
WT_EVENT_HANDLER quiet_errors{quiet_error, nullptr, nullptr, nullptr};

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
    return std::nullopt;
  }

  const Workload& workload() const { return workload_; }
  Slot& slot(std::uint32_t thread) { return slots_[thread]; }
  const char* begin_config() const { return begin_config_.c_str(); }

 private:
  static constexpr const char* kTable = "table:kv";
  Workload workload_;
  std::vector<Slot> slots_;
  std::filesystem::path dir_;
  WT_CONNECTION* conn_ = nullptr;
  std::string begin_config_;
};

// The thread's transaction, if it may read or write now, with op's transaction and a random key
// set; otherwise nothing, and the operation is skipped.
template <class Op>
Slot* access(System& s, omnilink::Context& ctx, Op& op) {
  Slot& slot = s.slot(ctx.thread());
  if (!slot.in_txn || slot.conflicted || slot.must_roll_back || slot.ops >= s.workload().txn_ops) {
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

  harness.op<Begin>([](System& s, Ctx& ctx, Begin& op) {
    Slot& slot = s.slot(ctx.thread());
    if (slot.in_txn) return ctx.unsupported();
    op.txn = examples::unique_elem(ctx.thread(), ctx.index());
    ctx.refine_start();
    const int ret = slot.session->begin_transaction(slot.session, s.begin_config());
    ctx.refine_end();
    if (ret != 0) s.crash("begin_transaction failed", ret);
    slot.in_txn = true;
    slot.id = op.txn;
    slot.ops = 0;
    slot.conflicted = false;
    slot.must_roll_back = false;
  }, 2);
  harness.op<Search>([](System& s, Ctx& ctx, Search& op) {
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
  }, 4);
  harness.op<Put>([](System& s, Ctx& ctx, Put& op) {
    op.value = examples::unique_elem(ctx.thread(), ctx.index());
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
  }, 3);
  harness.op<Remove>([](System& s, Ctx& ctx, Remove& op) {
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
  });
  harness.op<Commit>([](System& s, Ctx& ctx, Commit& op) {
    Slot& slot = s.slot(ctx.thread());
    if (!slot.in_txn || slot.must_roll_back) return ctx.unsupported();
    op.txn = slot.id;
    ctx.refine_start();
    const int ret = slot.session->commit_transaction(slot.session, nullptr);
    ctx.refine_end();
    op.status = status_name(ret);
    // EINVAL ("failed transaction requires rollback") leaves the transaction running, though the
    // documentation says a failed commit rolls back (src/session/session_api.c skips that branch):
    // it is rolled back next. Any other failure ended it.
    if (ret == EINVAL) slot.must_roll_back = true;
    else slot.in_txn = false;
  }, 2);
  harness.op<Rollback>([](System& s, Ctx& ctx, Rollback& op) {
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
    return omnilink::kExitUsage;
  }
  return harness.run(system);
}
