// Two replays that locate a failing core in its rr recording (docs/explain.md, "Interleaving"),
// each a gdb Python script driven from a batch gdb under `rr replay`, never by single-stepping:
//  - the boundary probe breaks on the harness's hooks (omnilink_op_start, omnilink_op_end) from
//    the seek index's event before the first target, and notes, for each operation's start and
//    end it meets up to the last target's, the rr event completed there and the thread (tid) that
//    ran it;
//  - the stack probe seeks (gdb `run EVENT`, rr's restart at an event) to each given event and
//    prints a thread's stack there: where that thread was when rr switched away from it.
// Owner of those scripts and of reading their output; which events matter is the caller's.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "replay/rr_replay.hpp"

namespace omnilink::replay {

/// An operation to place: its identity as the hooks receive it.
struct ProbeTarget {
  std::uint32_t thread = 0;
  std::uint64_t index = 0;
  std::uint64_t hook_start = 0;  // the header's start (the record's "hs", else "s")
};

/// An operation's start or end, as the replay met it: a target's, or any other operation's the
/// replay met on its way (from where it started to the last target boundary).
struct OpBoundary {
  enum class Kind { start, end };
  Kind kind = Kind::start;
  std::uint32_t thread = 0;
  std::uint64_t index = 0;
  int tid = 0;
  /// rr's last completed event there: the boundary lies between this event and the next, which
  /// the same thread runs.
  std::uint64_t completed_event = 0;
  bool target = false;
};

struct BoundaryProbe {
  std::vector<OpBoundary> boundaries;       // in the order the replay met them
  std::map<int, std::uint32_t> threads;     // tid -> harness thread, for every thread met
  bool complete = false;                    // every target's start and end was met
  std::string note;                         // why not, when not
};

/// Stops at each target's start and end, starting at `start_event` (or the beginning); gives up
/// at `time_limit`, keeping what it met.
BoundaryProbe probe_boundaries(const std::filesystem::path& rr, const Recording& recording,
                               const std::vector<ProbeTarget>& targets, std::optional<std::uint64_t> start_event,
                               std::chrono::milliseconds time_limit);

/// One frame of a replayed thread's stack, innermost first (inlined calls are frames of their own).
struct StackFrame {
  std::string pc;        // "0x401a2b"
  std::string function;  // as gdb names it; "??" when unknown
  std::string file;      // the source file, as the debug information names it; "??" when unknown
  int line = 0;
};

/// Where: after event `event`, thread `tid`.
struct StackPoint {
  std::uint64_t event = 0;
  int tid = 0;
};

struct ThreadStack {
  StackPoint at;
  std::vector<StackFrame> frames;
};

struct StackProbe {
  std::vector<ThreadStack> stacks;  // those the replay reached, in the order asked
  std::string note;                 // what it could not reach, and why
};

/// The stack of each point's thread right after its event completed (gdb `run EVENT`). Gives up
/// at `time_limit`, keeping what it reached.
StackProbe probe_stacks(const std::filesystem::path& rr, const Recording& recording, const std::vector<StackPoint>& points,
                        std::chrono::milliseconds time_limit);

/// The scripts and their readers, apart for tests.
std::string boundary_probe_script(const std::vector<ProbeTarget>& targets);
BoundaryProbe parse_boundary_probe(const std::string& output, std::size_t targets);
std::string stack_probe_script(const std::vector<StackPoint>& points);
StackProbe parse_stack_probe(const std::string& output);

}  // namespace omnilink::replay
