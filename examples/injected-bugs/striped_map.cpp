// Workload: a lock-striped hash map (key k lives in stripe k % kStripes; a stripe is a mutex and a
// small fixed array of entries, erase moves the last entry into the hole), validated against
// Map.tla with MCMap.tla.
//
// Built twice: `striped-map` is correct; `striped-map-bug` (OMNILINK_INJECT_BUG=1) has `find`
// skip the stripe lock ("reads don't need it"). Writers still lock, but a reader between them can
// miss an entry an erase just moved below its scan position, or read an entry halfway through
// being overwritten: the key of one, the value of another.
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "common/map_ops.hpp"

#ifndef OMNILINK_INJECT_BUG
#define OMNILINK_INJECT_BUG 0
#endif

namespace {

constexpr bool kInjectBug = OMNILINK_INJECT_BUG != 0;
constexpr std::uint64_t kStripes = 4;
constexpr std::size_t kCapacity = 16;  // entries per stripe: enough for --param keys up to 64

// Entries and sizes are atomics accessed relaxed. In the correct variant every access holds the
// stripe's mutex, which orders them all; relaxed atomics then cost what plain fields do. They are
// atomics so that the buggy variant's unlocked reads race with defined behaviour (stale or mixed
// values, the bug under test) instead of undefined behaviour. Slots are in a fixed array, so a
// reader with a stale size still reads inside it.
struct Entry {
  std::atomic<std::int64_t> key{0};
  std::atomic<std::int64_t> value{0};
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
      s.entries[n].value.store(value, std::memory_order_relaxed);
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
    if (present) {  // swap with last: move the last entry into the hole, then shrink
      s.entries[i].key.store(s.entries[n - 1].key.load(std::memory_order_relaxed), std::memory_order_relaxed);
      s.entries[i].value.store(s.entries[n - 1].value.load(std::memory_order_relaxed), std::memory_order_relaxed);
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
    value = s.entries[i].value.load(std::memory_order_relaxed);
    return true;
  }

  std::array<Stripe, kStripes> stripes_;
};

}  // namespace

int main(int argc, char** argv) {
  StripedMap map;
  return examples::run_map_workload(argc, argv, map);
}
