// The interleaving that produced a failing core (docs/explain.md, "Interleaving"), read from the
// run's rr recording: the core operations' starts and ends in the order the recording ran them,
// and each thread switch that took a thread away in the middle of a core operation, with where in
// the code under test that thread stopped. Built from rr's event log (replay/rr_events.hpp: who
// ran when) and two probing replays (replay/schedule_probe.hpp: where the core operations begin
// and end, and the stacks at the switches that matter); never by single-stepping.
//
// Atomicity hints are read off it: an operation switched out in its middle while other threads ran
// operations names the code region whose atomicity the failure may have needed. Not only the
// core's: the enqueue whose stale write loses the core's element is outside the core, and may be
// switched out before the core's first operation starts (ms-queue-bug). Where the spec groups
// operations into transactions, only the core's transactions are: their anomaly is between them,
// and another transaction's switches are noise beside it (a run of thousands of transactions
// switches hundreds of times in a core's window). Where nothing is hinted and no core operation
// was switched out, the failure needed no interleaving inside an operation (a misconfiguration, or
// a rule of the spec the system keeps under no schedule).
//
// Owns the interleaving's and the hints' content; explanation.hpp keeps them in explanation.json,
// report/explanation_text renders them.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "replay/rr_replay.hpp"
#include "results/stored_operation.hpp"

namespace omnilink::explain {

/// A place in the code under test, as a replayed stack names it.
struct CodeLocation {
  std::string function;  // without template arguments and parameters ("MSQueue::enqueue")
  std::string file;      // as the debug information names it
  int line = 0;

  std::string text() const;  // "MSQueue::enqueue at ms_queue.hpp:88" (the file's name only)
  bool operator==(const CodeLocation&) const = default;
};

/// One step of the core's interleaving, in the order the recording ran it: a core operation's start
/// or end, or a thread switched out in the middle of an operation (of the core or not: the
/// operation whose race the core shows may be one the core can do without).
struct ScheduleStep {
  enum class Kind { start, end, switched_out };
  Kind kind = Kind::start;
  std::uint32_t thread = 0;
  /// start, end: the core operation; switched_out: the operation its thread was running.
  std::string op;
  std::string call;  // switched_out: that operation's call, as logged
  std::uint64_t event = 0;  // the rr event completed there
  // switched_out only:
  std::optional<CodeLocation> where;  // the innermost frame in the code under test; none when unknown
  std::vector<CodeLocation> callers;  // the frames in the code under test around it, innermost first (a few)
  std::string stopped_at;             // rr's event there ("SCHED": preempted; else the system call it blocked in)
  std::optional<std::uint32_t> next_thread;  // the harness thread that ran next, if it is one

  bool operator==(const ScheduleStep&) const = default;
};

/// An interruption the failure needed, as far as the recording tells: `op` (of the core or not) was
/// switched out at `at` and, before its thread ran again, other threads ran the operations
/// `between` (of the core or not: started, ended or in the middle then). Observed:
/// the switch point and what ran; a hint: that making the region around `at` atomic against
/// `between` would remove this interleaving. One per operation and place: an operation switched
/// out there again (a thread waiting for a lock is switched out at every wait) adds what ran then.
struct AtomicityHint {
  std::string op;
  std::string op_name;  // its operation ("Enqueue"): what hints of different runs have in common
  CodeLocation at;
  std::vector<CodeLocation> callers;  // as ScheduleStep::callers, of its first switch there
  std::vector<std::string> between;        // in thread and index order
  std::vector<std::string> between_names;  // their operations, sorted, once each
  std::uint64_t switches = 1;              // how many of the located switches took `op` away at `at`

  bool operator==(const AtomicityHint&) const = default;
};

struct Interleaving {
  /// The window: from the first core start (earlier: the start of an operation another thread was in
  /// the middle of then, and the last few switches in the middle of an operation before it) to the
  /// last core end.
  std::uint64_t first_event = 0, last_event = 0;
  std::size_t switches = 0;                        // thread switches in the window
  std::size_t located = 0;                         // of them, with a stack (a core operation was in flight)
  std::vector<ScheduleStep> steps;
  std::vector<AtomicityHint> hints;
  std::string note;  // what could not be placed or located, and why; empty when everything was

  bool operator==(const Interleaving&) const = default;
};

struct InterleavingOptions {
  std::chrono::milliseconds time_limit{60'000};  // for each of the two probing replays
  /// The probes start near the core with the run's seek index (replay::seek_index): kept in the
  /// run, or built by an indexing replay of at most this long, said on `progress` (none: quietly).
  std::chrono::milliseconds index_time_limit{std::chrono::hours(2)};
  std::ostream* progress = nullptr;
  std::size_t max_located = 32;                  // switches located by a stack; further ones are counted only
  std::size_t look_back = 4;                     // switches in the middle of an operation before the core, shown too
  /// The spec's @groups field (SpecInterface::group_field): when set, only switches in the middle
  /// of an operation of the core's transactions (grouped as the failing core groups them,
  /// transaction_groups) are located, shown and hinted, and counted in Interleaving::located.
  std::optional<std::string> group_field;
};

/// The interleaving of `core` (operations of the run `recording` holds, whose traces it reads).
/// Throws replay::RrDumpError when rr cannot read the recording, std::runtime_error when the traces
/// lack a core operation; a probe that reaches only part of the window gives what it reached, with
/// a note.
Interleaving trace_interleaving(const std::filesystem::path& rr, const replay::Recording& recording, const std::vector<results::StoredOperation>& core,
                                const InterleavingOptions& options);

/// Whether the recording switched a core operation's thread out in its middle (`in`'s steps).
bool core_switched_out(const Interleaving& in, const std::vector<results::StoredOperation>& core);

/// Hints of several failing runs (of one signature), grouped by what stays the same across runs
/// (the interrupted operation, where, and the operations between), most frequent first.
struct RankedHint {
  AtomicityHint example;
  std::size_t runs = 0;
};
std::vector<RankedHint> rank_hints(const std::vector<std::vector<AtomicityHint>>& hints_by_run);

}  // namespace omnilink::explain
