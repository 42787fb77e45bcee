// Fast seek (docs/replay.md): an index from each thread's checkpoints (every
// OMNILINK_CHECKPOINT_INTERVAL-th operation calls omnilink_checkpoint, which makes an rr event) to
// rr event numbers, built once per recording by an indexing replay and cached in
// RUN/replay/seek-index.json. A replay then starts with `rr replay -g EVENT` at the target thread's
// last checkpoint at or before the target: in program order before it, so never past it, and few
// operations away, so the conditional breakpoint is hit a few hundred times instead of once per
// operation of the whole run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace omnilink::replay {

struct Checkpoint {
  std::uint32_t thread = 0;
  std::uint64_t index = 0;
  std::uint64_t start = 0;
  std::uint64_t event = 0;  // rr's completed event number there
};

struct SeekIndex {
  std::vector<Checkpoint> checkpoints;
  // The event to start a replay at to reach (thread, index): its thread's last checkpoint at or
  // before it. Nullopt when there is none (then replay from the start).
  std::optional<std::uint64_t> event_before(std::uint32_t thread, std::uint64_t index) const;
  // The event to start a replay at to reach every one of `ops` (thread, index): the earliest of
  // their event_before. Nullopt when one has none.
  std::optional<std::uint64_t> event_before_all(const std::vector<std::pair<std::uint32_t, std::uint64_t>>& ops) const;
};

// The gdb command file of the indexing replay: at each checkpoint, print its identity and rr's `when`.
std::string index_commands();
// Reads that replay's output ("omnilink-checkpoint T I S" then "Completed event: N").
SeekIndex parse_index_output(const std::string& output);

std::filesystem::path seek_index_file(const std::filesystem::path& run_dir);
std::optional<SeekIndex> load_seek_index(const std::filesystem::path& run_dir);
void save_seek_index(const std::filesystem::path& run_dir, const SeekIndex& index);

}  // namespace omnilink::replay
