// Starting `rr replay` on a run's recording (docs/replay.md): its arguments (soft counters, the
// event to start at, a gdb command file) and the run's fast-seek index, read from its cache or
// built by one indexing replay. `omnilink replay` and explain's schedule probe both start their
// replays here, so they seek the same way.
#pragma once

#include <cstdint>
#include <chrono>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "replay/seek_index.hpp"

namespace omnilink::replay {

/// A run's rr recording, as a replay of it needs it. Where it is and whether it was made with
/// soft counters (rr -W, so replayed with -W) are the caller's to find out.
struct Recording {
  std::filesystem::path run_dir;
  bool soft_counters = false;

  std::filesystem::path trace() const;  // RUN/rr
};

/// `replay [-W] [-g EVENT] -x COMMANDS TRACE --`: gdb's own arguments follow.
std::vector<std::string> rr_replay_args(const Recording& recording, const std::filesystem::path& command_file,
                                        std::optional<std::uint64_t> start_event);

/// The run's seek index, from RUN/replay/seek-index.json or built by one indexing replay (said on
/// `progress`, which it takes minutes on a long run) of at most `time_limit`. An index of a replay
/// that failed or ran out of time is returned but not kept.
SeekIndex seek_index(const std::filesystem::path& rr, const Recording& recording, std::ostream& progress,
                     std::chrono::milliseconds time_limit = std::chrono::hours(2));

}  // namespace omnilink::replay
