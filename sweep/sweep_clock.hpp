// A sweep's time budget across sessions. STORE/<sweep-id>/sweep-clock.json records the budget once
// the sweep starts: for `for`, the time spent so far (saved every few seconds and at the end, so a
// kill -9 loses at most those seconds of accounting); for `until`, the deadline, fixed at the first
// start. `--resume` reads it and continues within what is left.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "sweep/sweep_file.hpp"

namespace omnilink::sweep {

class SweepClock {
 public:
  /// A new sweep's clock (saved at once), or, with `resume`, the clock the sweep saved: it goes on
  /// within what is left, unless `restated` (the command line gave --for or --until again), which
  /// then says what is left from now: `budget` more, or until its time of day. Throws
  /// std::runtime_error naming the file when it cannot be written or read.
  static SweepClock start(const std::filesystem::path& file, const Budget& budget, bool resume, bool restated = false);
  /// The clock as the sweep saved it, stopped, for its report (this call saves nothing); no budget
  /// and nothing spent when there is none (a sweep merged from shards). Throws as start() does.
  static SweepClock read(const std::filesystem::path& file);

  bool over() const { return left() <= std::chrono::milliseconds(0); }
  /// Whether the sweep has a budget of its own: one merged from shards has none.
  bool kept() const { return budget_ms_ || deadline_ms_; }
  std::chrono::milliseconds left() const;
  std::chrono::milliseconds spent() const;  // in every session of this sweep
  /// Writes the time spent so far.
  void save() const;

 private:
  std::filesystem::path file_;
  std::optional<std::int64_t> budget_ms_;    // `for`
  std::optional<std::int64_t> deadline_ms_;  // `until`: Unix epoch milliseconds
  std::int64_t spent_before_ms_ = 0;         // by earlier sessions
  // When this session started; none for a clock read for a report, which is stopped.
  std::optional<std::chrono::steady_clock::time_point> session_start_;
};

/// STORE/<sweep-id>/sweep-clock.json: where a sweep keeps its clock.
std::filesystem::path sweep_clock_file(const std::filesystem::path& store, const std::string& sweep_id);

/// The time a sweep spent in all its sessions, as its clock last saved it; nothing for a campaign
/// (no clock) or a clock that does not read.
std::optional<std::chrono::milliseconds> recorded_sweep_time(const std::filesystem::path& store, const std::string& sweep_id);

/// The next moment, after `now_ms` (Unix epoch milliseconds), at which local time is HH:MM.
std::int64_t next_time_of_day_ms(std::int64_t now_ms, int minutes_after_midnight);

}  // namespace omnilink::sweep
