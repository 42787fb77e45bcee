// Generated histories of the shipped specs' objects, for the checkers' differential test and the
// checker benchmark: a correct sequential object performs random operations at increasing
// linearization points; each gets a timebox around its point (threads' operations one after
// another); optionally one result is changed (most such histories are not linearizable) and one
// thread's last operation is left in flight (pending, with its inputs only).
#pragma once

#include <algorithm>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "support/trace_builder.hpp"

namespace omnilink::testing {

using FieldValue = std::variant<std::int64_t, bool, std::string, std::vector<std::int64_t>>;
struct Field {
  std::string name;
  FieldValue value;
  bool input = false;  // known to a pending operation
};

/// One operation of a generated history, in the order a correct object performed it.
struct GeneratedOp {
  std::string name;
  std::vector<Field> fields;
};

/// A correct sequential object: performs a random operation and says what it returned.
using Model = std::function<GeneratedOp(std::mt19937_64&, std::uint32_t thread)>;

inline std::int64_t pick(std::mt19937_64& rng, std::int64_t low, std::int64_t high) {
  return std::uniform_int_distribution<std::int64_t>(low, high)(rng);
}

inline TraceBuilder::FieldWriter writer(const std::vector<Field>& fields, bool inputs_only) {
  std::vector<Field> kept;
  for (const Field& f : fields)
    if (!inputs_only || f.input) kept.push_back(f);
  return [kept](TraceBuilder::Packer& pk) {
    pk.pack_map(static_cast<std::uint32_t>(kept.size()));
    for (const Field& f : kept) {
      ValueCodec<std::string_view>::pack(pk, f.name);
      std::visit([&](const auto& v) { pack_value(pk, v); }, f.value);
    }
  };
}

struct Shape {
  std::uint32_t threads;
  std::size_t operations;
  std::uint64_t overlap;  // how far a timebox may reach beyond its linearization point
  bool mutate;            // change one result: most such histories are not linearizable
  bool pending;           // one thread's last operation is in flight (results unknown)
};

/// Writes a history of `model` with the given shape into `dir`.
inline void generate(const Model& model, const Shape& shape, std::mt19937_64& rng, const std::filesystem::path& dir) {
  struct Placed {
    std::uint32_t thread;
    std::uint64_t point;  // linearization point
    GeneratedOp op;
  };
  std::vector<Placed> ops;
  for (std::size_t k = 0; k < shape.operations; ++k) {
    const auto t = static_cast<std::uint32_t>(pick(rng, 0, shape.threads - 1));
    ops.push_back({t, 10 * (k + 1), model(rng, t)});
  }
  if (shape.mutate) {
    // A result (a non-input field) changed: another integer, a flipped boolean, or a status
    // turned into another ("ok" into "busy", any other into "ok").
    std::vector<Field*> results;
    for (auto& p : ops)
      for (auto& f : p.op.fields)
        if (!f.input && !std::holds_alternative<std::vector<std::int64_t>>(f.value)) results.push_back(&f);
    if (!results.empty()) {
      Field& f = *results[static_cast<std::size_t>(pick(rng, 0, static_cast<std::int64_t>(results.size()) - 1))];
      if (auto* b = std::get_if<bool>(&f.value)) *b = !*b;
      else if (auto* s = std::get_if<std::string>(&f.value)) *s = *s == "ok" ? "busy" : "ok";
      else std::get<std::int64_t>(f.value) += pick(rng, 1, 2);
    }
  }
  // Timeboxes around the points, each thread's operations one after another.
  std::vector<std::uint64_t> last_end(shape.threads, 0);
  std::vector<std::optional<std::size_t>> last_of(shape.threads);
  for (std::size_t k = 0; k < ops.size(); ++k) last_of[ops[k].thread] = k;
  std::optional<std::uint32_t> pending_thread;
  if (shape.pending) pending_thread = static_cast<std::uint32_t>(pick(rng, 0, shape.threads - 1));
  TraceBuilder b(shape.threads);
  std::set<std::string> declared;
  for (std::size_t k = 0; k < ops.size(); ++k) {
    const Placed& p = ops[k];
    std::uint64_t next_point = std::numeric_limits<std::uint64_t>::max();
    for (std::size_t j = k + 1; j < ops.size(); ++j)
      if (ops[j].thread == p.thread) {
        next_point = ops[j].point;
        break;
      }
    const auto reach = [&] { return static_cast<std::uint64_t>(pick(rng, 0, static_cast<std::int64_t>(shape.overlap))); };
    const std::uint64_t start = std::max(last_end[p.thread] + 1, p.point - std::min(p.point - 1, reach()));
    const std::uint64_t end = std::min(p.point + reach(), next_point - 1);
    last_end[p.thread] = end;
    if (!declared.count(p.op.name)) {
      std::vector<std::string> inputs;
      for (const Field& f : p.op.fields)
        if (f.input) inputs.push_back(f.name);
      b.inputs(p.op.name, inputs);
      declared.insert(p.op.name);
    }
    if (pending_thread == p.thread && last_of[p.thread] == k) {
      b.pending(p.thread, p.op.name, std::min(start, p.point), writer(p.op.fields, true));
    } else {
      b.op(p.thread, p.op.name, start, end, writer(p.op.fields, false));
    }
  }
  b.write(dir);
}

// The shipped specs' objects.

inline Model queue() {
  auto items = std::make_shared<std::deque<std::int64_t>>();
  auto next = std::make_shared<std::int64_t>(1);
  return [=](std::mt19937_64& rng, std::uint32_t) -> GeneratedOp {
    if (pick(rng, 0, 1) == 0 || (items->empty() && pick(rng, 0, 3) > 0)) {
      items->push_back((*next)++);
      return {"Enqueue", {{"elem", items->back(), true}}};
    }
    if (items->empty()) return {"Dequeue", {{"elem", std::int64_t{0}}, {"ok", false}}};
    const std::int64_t v = items->front();
    items->pop_front();
    return {"Dequeue", {{"elem", v}, {"ok", true}}};
  };
}

inline Model stack() {
  auto items = std::make_shared<std::vector<std::int64_t>>();
  auto next = std::make_shared<std::int64_t>(1);
  return [=](std::mt19937_64& rng, std::uint32_t) -> GeneratedOp {
    if (pick(rng, 0, 1) == 0) {
      items->push_back((*next)++);
      return {"Push", {{"elem", items->back(), true}}};
    }
    if (items->empty()) return {"Pop", {{"elem", std::int64_t{0}}, {"ok", false}}};
    const std::int64_t v = items->back();
    items->pop_back();
    return {"Pop", {{"elem", v}, {"ok", true}}};
  };
}

inline Model register_object() {
  auto reg = std::make_shared<std::int64_t>(0);
  return [=](std::mt19937_64& rng, std::uint32_t) -> GeneratedOp {
    switch (pick(rng, 0, 2)) {
      case 0:
        *reg = pick(rng, 0, 3);
        return {"Write", {{"value", *reg, true}}};
      case 1: return {"Read", {{"value", *reg}}};
      default: {
        const std::int64_t expected = pick(rng, 0, 3), desired = pick(rng, 0, 3);
        const bool ok = *reg == expected;
        if (ok) *reg = desired;
        return {"CAS", {{"expected", expected, true}, {"new", desired, true}, {"ok", ok}}};
      }
    }
  };
}

inline Model counter() {
  auto count = std::make_shared<std::int64_t>(0);
  return [=](std::mt19937_64& rng, std::uint32_t) -> GeneratedOp {
    if (pick(rng, 0, 2) > 0) {
      const std::int64_t by = pick(rng, 1, 2), old = *count;
      *count += by;
      return {"Increment", {{"by", by, true}, {"old", old}}};
    }
    return {"Read", {{"value", *count}}};
  };
}

inline Model map(std::int64_t keys = 3) {
  auto entries = std::make_shared<std::map<std::int64_t, std::int64_t>>();
  return [=](std::mt19937_64& rng, std::uint32_t) -> GeneratedOp {
    const std::int64_t key = pick(rng, 1, keys);
    const bool present = entries->count(key) > 0;
    switch (pick(rng, 0, 2)) {
      case 0: {
        const std::int64_t value = pick(rng, 10, 30);
        if (!present) (*entries)[key] = value;
        return {"Insert", {{"key", key, true}, {"value", value, true}, {"inserted", !present}}};
      }
      case 1:
        entries->erase(key);
        return {"Erase", {{"key", key, true}, {"erased", present}}};
      default:
        return {"Find", {{"key", key, true}, {"value", present ? entries->at(key) : std::int64_t{0}}, {"found", present}}};
    }
  };
}

// KV.tla's store of strings (Porcupine's kv model): Get, Put and AppendValue on a few keys, short
// values so that appends repeat what a get may read.
inline Model key_value(std::int64_t keys = 2) {
  auto store = std::make_shared<std::map<std::string, std::string>>();
  return [=](std::mt19937_64& rng, std::uint32_t) -> GeneratedOp {
    const std::string key = "k" + std::to_string(pick(rng, 1, keys));
    const std::string value(1, static_cast<char>('a' + pick(rng, 0, 2)));
    switch (pick(rng, 0, 2)) {
      case 0:
        return {"Get", {{"key", key, true}, {"value", (*store)[key]}}};
      case 1:
        (*store)[key] = value;
        return {"Put", {{"key", key, true}, {"value", value, true}}};
      default:
        (*store)[key] += value;
        return {"AppendValue", {{"key", key, true}, {"value", value, true}}};
    }
  };
}

// moodycamel's per-producer FIFO: a producer per thread, dequeues from any producer's head, bulk
// operations (a bulk dequeue takes runs from producers' heads, each producer at most once without
// a consumer token, as the spec's steps do).
inline Model per_producer_queue() {
  auto streams = std::make_shared<std::map<std::int64_t, std::deque<std::int64_t>>>();
  auto next = std::make_shared<std::int64_t>(1);
  return [=](std::mt19937_64& rng, std::uint32_t thread) -> GeneratedOp {
    const auto producer = static_cast<std::int64_t>(thread);
    std::vector<std::int64_t> heads;
    for (const auto& [p, items] : *streams)
      if (!items.empty()) heads.push_back(p);
    switch (pick(rng, 0, 3)) {
      case 0:
        (*streams)[producer].push_back((*next)++);
        return {"Enqueue", {{"producer", producer, true}, {"elem", (*streams)[producer].back(), true}}};
      case 1: {
        std::vector<std::int64_t> elems{(*next)++, (*next)++};
        for (auto e : elems) (*streams)[producer].push_back(e);
        return {"EnqueueBulk", {{"producer", producer, true}, {"elems", elems, true}}};
      }
      case 2: {
        if (heads.empty()) return {"Dequeue", {{"elem", std::int64_t{0}}, {"ok", false}}};
        auto& from = (*streams)[heads[static_cast<std::size_t>(pick(rng, 0, static_cast<std::int64_t>(heads.size()) - 1))]];
        const std::int64_t v = from.front();
        from.pop_front();
        return {"Dequeue", {{"elem", v}, {"ok", true}}};
      }
      default: {
        const bool token = pick(rng, 0, 1) == 1;
        const auto max = static_cast<std::size_t>(pick(rng, 1, 3));
        std::vector<std::int64_t> taken;
        while (taken.size() < max && !heads.empty()) {
          const auto at = static_cast<std::size_t>(pick(rng, 0, static_cast<std::int64_t>(heads.size()) - 1));
          auto& from = (*streams)[heads[at]];  // never empty: heads holds those with items
          for (auto run = pick(rng, 1, static_cast<std::int64_t>(max - taken.size())); run > 0 && !from.empty(); --run) {
            taken.push_back(from.front());
            from.pop_front();
          }
          if (!token || from.empty()) heads.erase(heads.begin() + static_cast<std::ptrdiff_t>(at));
        }
        return {"DequeueBulk", {{"elems", taken}, {"token", token, true}}};
      }
    }
  };
}

// RocksDB transactions as SnapshotKV.tla describes a TransactionDB (MCSnapshotKV): at most one
// transaction per thread, reads of its snapshot and own writes, writes that lock their key ("ok"),
// find it locked by another transaction ("timed_out") or committed since the snapshot ("busy"),
// commits that always succeed. Three keys, so conflicts are common; plain reads take no lock, so
// write skew happens (and SerializableKV.tla refuses it).
inline Model snapshot_kv() {
  using Values = std::map<std::int64_t, std::int64_t>;  // key |-> value; absent: not found
  struct Txn {
    std::int64_t id = 0;
    Values snap;
    std::map<std::int64_t, std::optional<std::int64_t>> writes;  // nullopt: deleted
    std::set<std::int64_t> stale, locks;
  };
  struct State {
    Values db;
    std::map<std::uint32_t, Txn> active;  // by thread
    std::map<std::uint32_t, std::int64_t> previous;  // the thread's last transaction
    // Keys 1..3, values from 100, ids from 1,000: no number is two of them, as MCSnapshotKV's
    // data independence requires (else the checker does without it).
    std::int64_t next_txn = 1'000, next_value = 100;
  };
  auto s = std::make_shared<State>();
  return [=](std::mt19937_64& rng, std::uint32_t thread) -> GeneratedOp {
    auto it = s->active.find(thread);
    if (it == s->active.end()) {
      Txn t;
      t.id = s->next_txn++;
      t.snap = s->db;
      s->active[thread] = t;
      const std::int64_t previous = std::exchange(s->previous[thread], t.id);
      return {"Begin", {{"txn", t.id, true}, {"previous", previous, true}}};
    }
    Txn& t = it->second;
    const std::int64_t key = pick(rng, 1, 3);
    const auto visible = [&]() -> std::optional<std::int64_t> {
      if (auto w = t.writes.find(key); w != t.writes.end()) return w->second;
      if (auto v = t.snap.find(key); v != t.snap.end()) return v->second;
      return std::nullopt;
    };
    // Locks key, or says why it cannot: "timed_out", "busy".
    const auto claim = [&]() -> std::string {
      if (t.locks.count(key)) return "ok";
      for (const auto& [other, u] : s->active)
        if (other != thread && u.locks.count(key)) return "timed_out";
      if (t.stale.count(key)) return "busy";
      t.locks.insert(key);
      return "ok";
    };
    const auto read_fields = [&](const std::string& name, const std::string& status) -> GeneratedOp {
      const auto v = visible();
      const std::string shown = status != "ok" ? status : v ? "ok" : "not_found";
      return {name, {{"txn", t.id, true}, {"key", key, true}, {"value", shown == "ok" ? *v : std::int64_t{0}}, {"status", shown}}};
    };
    const std::int64_t kind = pick(rng, 0, 9);
    if (kind <= 2) return read_fields("Get", "ok");
    if (kind == 3) return read_fields("GetForUpdate", claim());
    if (kind <= 6) {
      const std::string status = claim();
      if (kind == 6) {
        if (status == "ok") t.writes[key] = std::nullopt;
        return {"Delete", {{"txn", t.id, true}, {"key", key, true}, {"status", status}}};
      }
      const std::int64_t value = s->next_value++;
      if (status == "ok") t.writes[key] = value;
      return {"Put", {{"txn", t.id, true}, {"key", key, true}, {"value", value, true}, {"status", status}}};
    }
    const std::int64_t id = t.id;
    if (kind <= 8) {
      for (const auto& [k, w] : t.writes) {
        if (w) s->db[k] = *w;
        else s->db.erase(k);
        for (auto& [other, u] : s->active)
          if (other != thread) u.stale.insert(k);
      }
      s->active.erase(it);
      return {"Commit", {{"txn", id, true}, {"status", std::string("ok")}}};
    }
    s->active.erase(it);
    return {"Rollback", {{"txn", id, true}}};
  };
}

// WiredTiger at snapshot isolation with timestamps, as WiredTigerKV.tla describes it (with
// MCWiredTigerSnapshot): each key's update chain, newest first; a transaction reads its own newest
// update or the snapshot it took at begin (the first committed update its read timestamp allows);
// a write whose key's newest update it may not see is refused "rollback", and the transaction
// rolls back next; commits with and without timestamps (at or after oldest and stable, from a
// clock that repeats timestamps and lets commits run out of order); thread 0 moves oldest and
// stable forward. Three keys, so conflicts are common.
inline Model wiredtiger_kv() {
  struct Update {
    std::int64_t by = 0;  // 0: committed
    std::optional<std::int64_t> value;  // nullopt: a removal
    std::int64_t ts = 0, seq = 0;
  };
  struct Txn {
    std::int64_t id = 0, began = 0, read = 0;
    std::map<std::int64_t, std::int64_t> snap;
    bool refused = false;  // a write was refused: it rolls back next
  };
  struct State {
    std::map<std::int64_t, std::vector<Update>> chains;
    std::map<std::uint32_t, Txn> active;  // by thread
    std::int64_t next_txn = 1, next_value = 100, commits = 0, clock = 1, oldest = 0, stable = 0;
  };
  auto s = std::make_shared<State>();
  return [=](std::mt19937_64& rng, std::uint32_t thread) -> GeneratedOp {
    using Fields = std::vector<Field>;
    const std::string ok = "ok";
    if (thread == 0 && pick(rng, 0, 5) == 0) {
      const std::int64_t stable = std::max(s->stable, s->clock - pick(rng, 0, 2));
      const std::int64_t oldest = std::max(s->oldest, stable - pick(rng, 0, 2));
      s->stable = stable;
      s->oldest = oldest;
      return {"SetTimestamps", Fields{{"oldest_ts", oldest, true}, {"stable_ts", stable, true}, {"status", ok}}};
    }
    auto it = s->active.find(thread);
    if (it == s->active.end()) {
      Txn t;
      t.id = s->next_txn++;
      t.began = s->commits;
      const bool at = pick(rng, 0, 1) == 1;
      if (at) t.read = pick(rng, std::max<std::int64_t>(s->oldest, 1), s->clock);
      for (const auto& [key, chain] : s->chains)
        for (const Update& u : chain)
          if (u.by == 0 && (u.ts == 0 || t.read == 0 || u.ts <= t.read)) {
            if (u.value) t.snap[key] = *u.value;
            break;
          }
      s->active[thread] = t;
      if (at) return {"BeginAt", Fields{{"txn", t.id, true}, {"read_ts", t.read, true}, {"status", ok}}};
      return {"Begin", Fields{{"txn", t.id, true}}};
    }
    Txn& t = it->second;
    const std::int64_t id = t.id;
    // Ends the transaction: its updates committed (at ts) or undone.
    const auto end = [&](bool commit, std::int64_t ts) {
      if (commit) ++s->commits;
      for (auto& [key, chain] : s->chains) {
        std::vector<Update> kept;
        for (Update u : chain) {
          if (u.by == id) {
            if (!commit) continue;
            u.by = 0, u.ts = ts, u.seq = s->commits;
          }
          kept.push_back(u);
        }
        chain = kept;
      }
      s->active.erase(it);
    };
    if (t.refused) {
      end(false, 0);
      return {"Rollback", Fields{{"txn", id, true}}};
    }
    const std::int64_t key = pick(rng, 1, 3);
    auto& chain = s->chains[key];
    const auto visible = [&]() -> std::optional<std::int64_t> {
      for (const Update& u : chain)
        if (u.by == id) return u.value;
      if (auto v = t.snap.find(key); v != t.snap.end()) return v->second;
      return std::nullopt;
    };
    const auto conflict = [&] {
      if (chain.empty()) return false;
      const Update& u = chain.front();
      if (u.by != 0) return u.by != id;
      return u.seq > t.began || (u.ts != 0 && t.read != 0 && u.ts > t.read);
    };
    const std::int64_t kind = pick(rng, 0, 9);
    if (kind <= 2) {
      const auto v = visible();
      return {"Search", Fields{{"txn", id, true}, {"key", key, true}, {"value", v.value_or(0)}, {"status", std::string(v ? "ok" : "not_found")}}};
    }
    if (kind <= 5) {
      const bool removal = kind == 5;
      const std::int64_t value = s->next_value++;
      std::string status = ok;
      if (conflict()) status = "rollback", t.refused = true;  // found before the key is looked for
      else if (removal && !visible()) status = "not_found";
      else chain.insert(chain.begin(), Update{id, removal ? std::nullopt : std::optional<std::int64_t>(value)});
      if (removal) return {"Remove", Fields{{"txn", id, true}, {"key", key, true}, {"status", status}}};
      return {"Put", Fields{{"txn", id, true}, {"key", key, true}, {"value", value, true}, {"status", status}}};
    }
    if (kind <= 8) {
      // A timestamp at or after oldest and stable, repeating the clock's or one behind it.
      const std::int64_t ts = std::max({s->oldest, s->stable, s->clock - pick(rng, 0, 1), std::int64_t{1}});
      s->clock += pick(rng, 0, 1);
      const bool at = kind != 6;
      end(true, at ? ts : 0);
      if (at) return {"CommitAt", Fields{{"txn", id, true}, {"commit_ts", ts, true}, {"status", ok}}};
      return {"Commit", Fields{{"txn", id, true}, {"status", ok}}};
    }
    end(false, 0);
    return {"Rollback", Fields{{"txn", id, true}}};
  };
}

}  // namespace omnilink::testing
