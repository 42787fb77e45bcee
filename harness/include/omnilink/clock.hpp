// Clock sources for timeboxes. The choice is per run and recorded in every trace header and in
// meta.json. Any source works for validation as long as a timestamp read before an operation's
// linearization point is <= one read after it, across threads:
//  - counter:   one global atomic counter, cheap under rr (where rdtsc traps, ~14 us a read).
//               The end stamp is a seq_cst fetch_add, the start stamp a seq_cst load: if B's start
//               reads a value above A's end, B's load read from A's RMW (or a later one), so A
//               happens-before B, which is what "A.end < B.start" tells validation. One RMW per
//               operation instead of two halves the cache-line traffic between cores.
//  - monotonic: clock_gettime(CLOCK_MONOTONIC), nanoseconds; portable, vDSO-fast natively;
//               fenced like rdtsc (below).
//  - rdtsc:     the x86 time-stamp counter, fenced so the timestamp cannot drift into the call.
// The end stamp's fence matters in practice: without it, moodycamel::ConcurrentQueue's enqueue (a
// plain release store) was still in the store buffer when its end stamp was read, a size_approx
// starting 10-50 ns later on another core missed the item, and 4 of 15 correct 8-thread runs
// failed validation; with the fence, 0 of 210.
#pragma once

#include <atomic>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string_view>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define OMNILINK_HAVE_RDTSC 1
#else
#define OMNILINK_HAVE_RDTSC 0
#endif

namespace omnilink {

enum class ClockKind { counter, monotonic, rdtsc };

inline constexpr std::string_view clock_name(ClockKind k) {
  switch (k) {
    case ClockKind::counter: return "counter";
    case ClockKind::monotonic: return "monotonic";
    case ClockKind::rdtsc: return "rdtsc";
  }
  return "?";
}

inline std::optional<ClockKind> parse_clock(std::string_view s) {
  if (s == "counter") return ClockKind::counter;
  if (s == "monotonic") return ClockKind::monotonic;
  if (s == "rdtsc" && OMNILINK_HAVE_RDTSC) return ClockKind::rdtsc;
  return std::nullopt;
}

class Clock {
 public:
  explicit Clock(ClockKind kind) : kind_(kind) {}
  ClockKind kind() const { return kind_; }

  // Timestamp taken before an operation: nothing of the operation may execute before it.
  std::uint64_t before() {
    switch (kind_) {
      case ClockKind::counter: return counter_.load(std::memory_order_seq_cst);
      case ClockKind::monotonic: {
        const std::uint64_t t = monotonic_ns();
        fence_after_start();
        return t;
      }
      case ClockKind::rdtsc: return rdtsc_before();
    }
    return 0;
  }

  // Timestamp taken after an operation: everything the operation did is visible before it.
  std::uint64_t after() {
    switch (kind_) {
      case ClockKind::counter: return counter_.fetch_add(1, std::memory_order_seq_cst);
      case ClockKind::monotonic: fence_before_end(); return monotonic_ns();
      case ClockKind::rdtsc: return rdtsc_after();
    }
    return 0;
  }

 private:
  static std::uint64_t monotonic_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
  }
#if OMNILINK_HAVE_RDTSC
  // lfence after the start stamp: the operation's own instructions cannot start before the
  // counter is read. (No fence before: a stamp taken early only widens the timebox, which is sound.)
  static void fence_after_start() { _mm_lfence(); }
  // mfence drains the store buffer, so the operation's stores are globally visible before the
  // counter is read (lfence alone orders only loads/execution); mfence;lfence;rdtsc is the
  // sequence Intel's SDM gives for exactly this. Without it a later operation on another core could
  // start (by the clock) before this one's effect is visible, and validation would reject a correct
  // execution.
  static void fence_before_end() {
    _mm_mfence();
    _mm_lfence();
  }
  static std::uint64_t rdtsc_before() {
    const std::uint64_t t = __rdtsc();
    fence_after_start();
    return t;
  }
  static std::uint64_t rdtsc_after() {
    fence_before_end();
    return __rdtsc();
  }
#else
  static void fence_after_start() { std::atomic_thread_fence(std::memory_order_seq_cst); }
  static void fence_before_end() { std::atomic_thread_fence(std::memory_order_seq_cst); }
  static std::uint64_t rdtsc_before() { return monotonic_ns(); }
  static std::uint64_t rdtsc_after() { return monotonic_ns(); }
#endif

  ClockKind kind_;
  // Own cache line: every thread hits it twice per operation.
  alignas(64) std::atomic<std::uint64_t> counter_{0};
};

}  // namespace omnilink
