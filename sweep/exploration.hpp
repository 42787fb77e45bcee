// How many histories did a sweep see? (docs/sweep.md, "Exploration"). A run's history is reduced
// to its interleaving: the order in which its operations started and ended across threads, each
// event written as (thread, operation name, start | end); values and timestamps are left out. Two
// measures come from it:
//   - the history's fingerprint (the whole sequence): distinct fingerprints are distinct
//     interleavings, which long runs nearly always are;
//   - its interleaving windows: every kWindowEvents consecutive events, threads renumbered by first
//     appearance (the harness's threads are interchangeable). Short windows recur, so the number of
//     distinct ones levels off once a configuration stops finding new behaviour: the sweep's
//     measure of "new behaviour", and what the allocator rewards.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <unordered_set>
#include <vector>

namespace omnilink::sweep {

inline constexpr std::size_t kWindowEvents = 6;

/// What one run's trace shows.
struct RunExploration {
  std::uint64_t history = 0;           // fingerprint of the whole interleaving
  std::vector<std::uint64_t> windows;  // fingerprints of its windows, each once
};

/// Reads the run's trace (every thread file; a damaged file counts up to its damage); nothing when
/// the run directory has no trace.
std::optional<RunExploration> explore_run(const std::filesystem::path& run_dir);

/// The histories and windows one configuration has seen.
class ExplorationTally {
 public:
  struct Added {
    bool new_history = false;
    std::size_t new_windows = 0;
  };
  Added add(const RunExploration& run);
  std::size_t histories() const { return histories_.size(); }
  std::size_t windows() const { return windows_.size(); }

 private:
  std::unordered_set<std::uint64_t> histories_;
  std::unordered_set<std::uint64_t> windows_;
};

}  // namespace omnilink::sweep
