// Workload: a lock-striped key-value map (key k lives in stripe k % kStripes; a stripe is a mutex
// and a small fixed array of entries kept in insertion order: insert appends, erase shifts the later
// entries down to close the gap). Values are fixed-size records of kValueWords words, as a store
// of small values keeps them inline. Validated against Map.tla with MCMapPartitioned.tla (key by key).
//
// Built twice: `striped-map` is correct; `striped-map-bug` (OMNILINK_INJECT_BUG=1) has `find`
// skip the stripe lock ("reads don't need it"). Writers still lock, but a reader between them can
// step over an entry that an erase shifts down past its scan position (a present key reported
// absent), or copy a record while an erase overwrites it (words of two values: a value nobody
// inserted).
//
// The workload's value v is stored as the record of kValueWords copies of v, and `find` reports
// a record whose words disagree as kTornValue: a torn read shows in the trace as a value never
// inserted, which the spec refuses.
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "common/map_workload.hpp"

#ifndef OMNILINK_INJECT_BUG
#define OMNILINK_INJECT_BUG 0
#endif

namespace {

constexpr bool kInjectBug = OMNILINK_INJECT_BUG != 0;
constexpr std::uint64_t kStripes = 2;
constexpr std::size_t kCapacity = 16;  // entries per stripe: enough for --param keys up to 32

// Entries and sizes are atomics accessed relaxed. In the correct variant every access holds the
// stripe's mutex, which orders them all; relaxed atomics then cost what plain fields do. They are
// atomics so that the buggy variant's unlocked reads race with defined behaviour (stale or mixed
// values, the bug under test) instead of undefined behaviour. Slots are in a fixed array, so a
// reader with a stale size still reads inside it.
constexpr std::size_t kValueWords = 8;
constexpr std::int64_t kTornValue = -1;  // unique_elem values are positive

struct Entry {
  std::atomic<std::int64_t> key{0};
  std::array<std::atomic<std::int64_t>, kValueWords> value{};

  void store_value(std::int64_t v) {
    for (auto& word : value) word.store(v, std::memory_order_relaxed);
  }
  void copy_from(const Entry& other) {
    key.store(other.key.load(std::memory_order_relaxed), std::memory_order_relaxed);
    for (std::size_t w = 0; w < kValueWords; ++w)
      value[w].store(other.value[w].load(std::memory_order_relaxed), std::memory_order_relaxed);
  }
  // The stored value, or kTornValue if the record's words disagree (only an unlocked reader sees that).
  std::int64_t load_value() const {
    const std::int64_t first = value[0].load(std::memory_order_relaxed);
    for (std::size_t w = 1; w < kValueWords; ++w)
      if (value[w].load(std::memory_order_relaxed) != first) return kTornValue;
    return first;
  }
};

struct alignas(64) Stripe {
  std::mutex mutex;
  std::atomic<std::size_t> size{0};
  std::array<Entry, kCapacity> entries;

  static constexpr std::size_t kAbsent = kCapacity;

  // The slot holding KEY, or kAbsent. Re-reads size at every step, as a loop over a member does:
  // it matters only to the unlocked reader, for which size changes under its feet.
  std::size_t index_of(std::int64_t key) const {
    for (std::size_t i = 0; i < size.load(std::memory_order_relaxed); ++i)
      if (entries[i].key.load(std::memory_order_relaxed) == key) return i;
    return kAbsent;
  }
};

class StripedMap {
 public:
  bool insert(std::int64_t key, std::int64_t value, omnilink::Context& ctx) {
    Stripe& s = stripe(key);
    std::lock_guard lock(s.mutex);
    ctx.refine_start();  // waiting for the lock is not part of the operation
    const std::size_t n = s.size.load(std::memory_order_relaxed);
    const bool absent = s.index_of(key) == Stripe::kAbsent;
    if (absent) {
      if (n == kCapacity) {
        std::fprintf(stderr, "striped-map: stripe full (%zu entries): use --param keys=%llu at most\n", kCapacity,
                     static_cast<unsigned long long>(kCapacity * kStripes));
        std::abort();
      }
      s.entries[n].key.store(key, std::memory_order_relaxed);
      s.entries[n].store_value(value);
      s.size.store(n + 1, std::memory_order_relaxed);
    }
    ctx.refine_end();
    return absent;
  }

  bool erase(std::int64_t key, omnilink::Context& ctx) {
    Stripe& s = stripe(key);
    std::lock_guard lock(s.mutex);
    ctx.refine_start();
    const std::size_t n = s.size.load(std::memory_order_relaxed);
    const std::size_t i = s.index_of(key);
    const bool present = i != Stripe::kAbsent;
    if (present) {  // close the gap, keeping insertion order, then shrink
      for (std::size_t j = i; j + 1 < n; ++j) s.entries[j].copy_from(s.entries[j + 1]);
      s.size.store(n - 1, std::memory_order_relaxed);
    }
    ctx.refine_end();
    return present;
  }

  bool find(std::int64_t key, std::int64_t& value, omnilink::Context& ctx) {
    Stripe& s = stripe(key);
    if constexpr (kInjectBug) {
      // BUG: no lock, "reads don't need it"; see the header comment.
      return read_entry(s, key, value);
    } else {
      std::lock_guard lock(s.mutex);
      ctx.refine_start();
      const bool found = read_entry(s, key, value);
      ctx.refine_end();
      return found;
    }
  }

 private:
  Stripe& stripe(std::int64_t key) { return stripes_[static_cast<std::uint64_t>(key) % kStripes]; }

  static bool read_entry(const Stripe& s, std::int64_t key, std::int64_t& value) {
    const std::size_t i = s.index_of(key);
    if (i == Stripe::kAbsent) return false;
    value = s.entries[i].load_value();
    return true;
  }

  std::array<Stripe, kStripes> stripes_;
};

}  // namespace

int main(int argc, char** argv) {
  StripedMap map;
  return examples::run_map_workload(argc, argv, map);
}
