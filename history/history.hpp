// The history a checker decides on, read from a run directory: per thread, the operations in
// order, each completed (every field known) or pending (outcome unknown: in flight when the run
// died, or in flight at a consistent cut), with what the verdict must be read with.
//
// Reading it checks the run directory (run_integrity.hpp), leaves out failed-without-effect
// operations (they changed nothing), and, when a thread's file was cut short (SIGKILL, OOM,
// power loss), validates only a consistent cut (consistent_cut.hpp). Errors name the file and
// byte offset; nothing here runs a checker.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "trace/reader.hpp"
#include "trace/run_dir.hpp"
#include "history/consistent_cut.hpp"

namespace omnilink::history {

/// The run cannot be validated as it is: a damaged or inconsistent run directory, or a corrupt
/// thread file. The message names the file (and byte offset) and what is wrong.
class HistoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A run's history. Owns its operations; leaves choosing a checker, and what the spec makes of
/// the operations, to its caller.
struct History {
  /// Position t holds thread t's operations in their logged order; pending ones, if any, last.
  std::vector<std::vector<trace::Operation>> threads;
  std::string clock;
  /// Operations that declared their inputs (from the thread headers), for pending operations.
  trace::InputDeclarations inputs;
  std::uint64_t dropped_failed = 0;  // failed without effect: left out
  std::optional<Cut> cut;            // set when some thread file was cut short
  std::vector<std::string> caveats;  // what the verdict must be read with
  /// The history file it was read from (history_file.hpp), whose line each operation's `offset`
  /// holds; empty for a run, whose offsets are bytes of its thread files.
  std::string file;

  std::uint64_t operations() const;          // completed + pending
  std::uint64_t pending_operations() const;  // outcome unknown: may be linearized or left out
};

/// Reads and checks every thread of `run`. Throws HistoryError.
History read_history(const trace::RunDir& run);

/// Adds the caveat every history with pending operations carries.
void add_pending_caveat(History& history);

/// The longest prefix every linearization of `history` must begin with that holds no pending
/// operation: the completed operations that all ended before every other operation (pending ones
/// included) started. If the history is linearizable, so is this prefix; so a prefix that is not
/// proves the history is not, whatever the pending operations' results were.
History prefix_before_pending(const History& history);

}  // namespace omnilink::history
