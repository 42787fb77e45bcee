// One thread's trace file: a buffered msgpack stream written with plain write(2) calls.
//
// Hot path: records are packed straight into a per-thread buffer; no lock, no allocation. A record
// becomes "committed" only once complete, and only committed bytes are ever written, so a crash in
// the middle of packing never produces half a record.
//
// Crash path (crash_guard.hpp): the signal handler must write other threads' committed bytes while
// those threads may still be running. Each log has a small state word: the owner flips it
// idle->flushing around its own write(2); the handler claims idle->crashed. A claimed log is never
// flushed by its owner again (the owner parks), so the buffer region [0, committed) is stable while
// the handler writes it.
//
// The committed byte count, the "operation in flight" flag and the "end record committed" flag
// live in one atomic word, so the handler sees a consistent snapshot: an operation's record is
// either committed or the operation is in flight (and gets a pending record), never both and never
// neither; and the handler adds an end record exactly when the thread has not written its own.
//
// The inputs of the operation in flight (its declared input fields, packed once the workload has
// set them) sit in a fixed slot the owner fills under the same state word as a flush, so the
// handler either sees a complete map or none: a pending record carries its inputs exactly when
// they were all known.
#pragma once

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <msgpack.hpp>

#include "omnilink/trace_schema.hpp"

namespace omnilink {

// Writes all of [data, data+size) to fd, retrying on EINTR and short writes. Async-signal-safe.
inline bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// Copies n bytes. Short runs (keys, names, small integers: most of a record) use two overlapping
// fixed-width copies, which compile to a few moves, instead of a call into libc's memcpy; both
// read and write only within [0, n).
[[gnu::always_inline]] inline void copy(char* dst, const char* src, std::size_t n) {
  if (n >= 8 && n <= 16) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + n - 8, src + n - 8, 8);
  } else if (n >= 4 && n < 8) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + n - 4, src + n - 4, 4);
  } else if (n < 4) {
    for (std::size_t i = 0; i < n; ++i) dst[i] = src[i];
  } else {
    std::memcpy(dst, src, n);
  }
}

// Parks the calling thread for good: used once the process is crashing.
[[noreturn]] inline void park_forever() {
  for (;;) pause();
}

class ThreadLog {
 public:
  static constexpr std::size_t kCapacity = 256 * 1024;
  // Flush when less than this is left, so a typical record never spills.
  static constexpr std::size_t kLowWater = 8 * 1024;

  enum State : int { kIdle = 0, kFlushing = 1, kCrashed = 2 };

  ThreadLog(int fd, std::uint32_t thread) : fd_(fd), thread_(thread), buf_(new char[kCapacity]) {}
  ~ThreadLog() {
    if (fd_ >= 0) ::close(fd_);
  }
  ThreadLog(const ThreadLog&) = delete;
  ThreadLog& operator=(const ThreadLog&) = delete;

  std::uint32_t thread() const { return thread_; }
  bool failed() const { return write_failed_; }
  int error_number() const { return write_errno_; }

  // msgpack stream interface: appends bytes of the record being packed. The packer calls this for
  // every few bytes with a size known at the call site, so the fast path must inline (the copy
  // then compiles to a couple of moves); the rare overflow path stays out of line.
  [[gnu::always_inline]] void write(const char* data, std::size_t size) {
    if (__builtin_expect(!spilling_ && size <= kCapacity - pos_, 1)) {
      copy(buf_.get() + pos_, data, size);
      pos_ += size;
      return;
    }
    write_slow(data, size);
  }

  // Marks the record packed since the last commit as complete (and any operation as no longer
  // in flight). `closing`: that record is the thread's end record.
  void commit(bool closing = false) {
    if (closing) closed_ = true;
    if (spilling_) {
      flush(true);
      return;
    }
    word_.store(pos_ | closed_bit(), std::memory_order_release);
    if (kCapacity - pos_ < kLowWater) flush(false);
  }

  // Writes all committed bytes. Called by the owner thread only.
  void flush() { flush(false); }

  // --- crash path (async-signal-safe) ---------------------------------------------------------

  // Claims the log for the crash handler; waits (bounded) while the owner is inside write(2).
  // Returns false if the owner never came back (then the handler writes nothing for it).
  bool claim_for_crash(bool handler_is_owner) {
    for (int spins = 0; spins < 200000; ++spins) {
      int expected = kIdle;
      if (state_.compare_exchange_strong(expected, kCrashed, std::memory_order_acq_rel)) return true;
      if (expected == kCrashed) return false;  // already claimed
      if (handler_is_owner) {  // the signal came inside our own flush or inputs update
        // A flush may have written part of the committed bytes already: they are not written twice.
        resume_from_ = in_flush_.load(std::memory_order_relaxed) ? flushed_.load(std::memory_order_relaxed) : 0;
        state_.store(kCrashed, std::memory_order_release);
        return true;
      }
      sched_yield();
    }
    return false;
  }

  struct CrashSnapshot {
    bool inflight;  // an operation had begun and was not committed
    bool closed;    // the thread's end record is among the committed bytes
  };
  // Writes the committed bytes of a claimed log.
  CrashSnapshot crash_write_committed() {
    const std::uint64_t word = word_.load(std::memory_order_acquire);
    const auto committed = static_cast<std::size_t>(word & kBytesMask);
    if (resume_from_ < committed) write_all(fd_, buf_.get() + resume_from_, committed - resume_from_);
    return {(word & kInflightBit) != 0, (word & kClosedBit) != 0};
  }
  int fd() const { return fd_; }

  // The operation in flight, read by the crash handler to write a pending record. `no_inputs`: the
  // operation declares that it has no input fields, so its inputs are known (none) from the start.
  void begin_op(std::uint64_t index, std::string_view name, std::uint64_t start, bool no_inputs = false) {
    inputs_size_.store(no_inputs ? kNoInputs : kInputsUnknown, std::memory_order_relaxed);
    inflight_index_.store(index, std::memory_order_relaxed);
    inflight_start_.store(start, std::memory_order_relaxed);
    inflight_name_.store(name.data(), std::memory_order_relaxed);
    inflight_name_len_.store(name.size(), std::memory_order_relaxed);
    word_.store(committed_bytes() | kInflightBit | closed_bit(), std::memory_order_release);
  }
  // The operation in flight ended without a record (it was unsupported).
  void cancel_op() { word_.store(committed_bytes() | closed_bit(), std::memory_order_release); }
  std::uint64_t inflight_index() const { return inflight_index_.load(std::memory_order_relaxed); }
  std::uint64_t inflight_start() const { return inflight_start_.load(std::memory_order_relaxed); }
  std::string_view inflight_name() const {
    return {inflight_name_.load(std::memory_order_relaxed), inflight_name_len_.load(std::memory_order_relaxed)};
  }

  // The operation in flight's inputs, a packed msgpack map. Owner only; inputs larger than the slot
  // stay unknown (the pending record then carries none).
  void set_inputs(const char* data, std::size_t size) {
    lock_for_owner();
    if (size <= kInputsCapacity) std::memcpy(inputs_, data, size);
    inputs_size_.store(size <= kInputsCapacity ? static_cast<std::int64_t>(size) : kInputsUnknown, std::memory_order_release);
    unlock_for_owner();
  }
  // For the crash handler, on a claimed log: the inputs map's bytes (an empty view for an operation
  // without inputs: write an empty map), or nullopt when they are unknown.
  std::optional<std::string_view> crash_inputs() const {
    const std::int64_t size = inputs_size_.load(std::memory_order_acquire);
    if (size == kInputsUnknown) return std::nullopt;
    if (size == kNoInputs) return std::string_view();
    return std::string_view(inputs_, static_cast<std::size_t>(size));
  }
 private:
  // A record larger than what is left: its bytes so far move aside, and commit() writes it whole.
  [[gnu::noinline]] void write_slow(const char* data, std::size_t size) {
    if (!spilling_) {
      const std::size_t committed = committed_bytes();
      spill_.assign(buf_.get() + committed, pos_ - committed);
      pos_ = committed;
      spilling_ = true;
    }
    spill_.append(data, size);
  }

  // write_all that records in flushed_ how much of the buffer is on disk after every write(2), for
  // a crash handler that interrupts it on this thread (regular-file writes are not interrupted by
  // signals midway: the handler runs between them).
  bool write_counted(const char* data, std::size_t size) {
    std::size_t done = 0;
    while (done < size) {
      const ssize_t n = ::write(fd_, data + done, size - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      done += static_cast<std::size_t>(n);
      flushed_.store(done, std::memory_order_relaxed);
    }
    return true;
  }

  // The owner's exclusive section (a flush, an inputs update): the crash handler waits for it to end,
  // and once the handler has claimed the log the owner parks here instead of touching it again.
  void lock_for_owner() {
    int expected = kIdle;
    if (!state_.compare_exchange_strong(expected, kFlushing, std::memory_order_acq_rel)) park_forever();
  }
  void unlock_for_owner() {
    int expected = kFlushing;
    if (!state_.compare_exchange_strong(expected, kIdle, std::memory_order_acq_rel)) park_forever();
  }

  void flush(bool with_spill) {
    lock_for_owner();
    const std::size_t committed = committed_bytes();
    flushed_.store(0, std::memory_order_relaxed);
    in_flush_.store(true, std::memory_order_relaxed);
    bool ok = write_counted(buf_.get(), committed);
    if (with_spill && ok) ok = write_all(fd_, spill_.data(), spill_.size());
    if (!ok && !write_failed_) {
      write_failed_ = true;
      write_errno_ = errno;
    }
    pos_ = 0;
    word_.store(closed_bit(), std::memory_order_release);
    in_flush_.store(false, std::memory_order_relaxed);  // only now: the word no longer counts written bytes
    if (with_spill) {
      spill_.clear();
      spilling_ = false;
    }
    unlock_for_owner();
  }

  int fd_;
  std::uint32_t thread_;
  std::unique_ptr<char[]> buf_;
  static constexpr std::uint64_t kInflightBit = std::uint64_t{1} << 63;
  static constexpr std::uint64_t kClosedBit = std::uint64_t{1} << 62;
  static constexpr std::uint64_t kBytesMask = kClosedBit - 1;
  std::size_t committed_bytes() const { return static_cast<std::size_t>(word_.load(std::memory_order_relaxed) & kBytesMask); }
  std::uint64_t closed_bit() const { return closed_ ? kClosedBit : 0; }

  std::size_t pos_ = 0;
  std::atomic<std::uint64_t> word_{0};  // committed bytes | kInflightBit | kClosedBit
  bool closed_ = false;                 // owner's copy of kClosedBit
  std::atomic<int> state_{kIdle};
  std::atomic<std::size_t> flushed_{0};  // bytes of the buffer the flush in progress has written
  std::atomic<bool> in_flush_{false};
  std::size_t resume_from_ = 0;          // crash path: where the committed bytes still to write begin
  std::string spill_;
  bool spilling_ = false;
  bool write_failed_ = false;
  int write_errno_ = 0;

  std::atomic<std::uint64_t> inflight_index_{0};
  std::atomic<std::uint64_t> inflight_start_{0};
  std::atomic<const char*> inflight_name_{nullptr};
  std::atomic<std::size_t> inflight_name_len_{0};

  static constexpr std::size_t kInputsCapacity = 4096;
  static constexpr std::int64_t kInputsUnknown = -1;
  static constexpr std::int64_t kNoInputs = -2;
  std::atomic<std::int64_t> inputs_size_{kInputsUnknown};
  char inputs_[kInputsCapacity];
};

// Fixed-size stream for packing a record without allocation (used on the crash path).
class FixedBuffer {
 public:
  void write(const char* data, std::size_t size) {
    if (size > sizeof(bytes_) - size_) {
      overflow_ = true;
      return;
    }
    std::memcpy(bytes_ + size_, data, size);
    size_ += size;
  }
  const char* data() const { return bytes_; }
  std::size_t size() const { return size_; }
  bool overflow() const { return overflow_; }

 private:
  char bytes_[1024];
  std::size_t size_ = 0;
  bool overflow_ = false;
};

}  // namespace omnilink
