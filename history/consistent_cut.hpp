// The consistent cut of a run whose thread files were cut short (no end record: SIGKILL, the OOM
// killer, power loss, `rr record` killed). Each cut-short thread lost the records after its last
// flush, a different amount per thread, so the surviving prefixes can contradict each other: a
// lost Enqueue(5) and a logged Dequeue() = 5. The cut keeps only what no lost record can
// contradict (docs/validation.md, "The consistent cut"):
//
//   C = the earliest end among the cut-short threads' last logged operations
//   an operation that ended before C is kept as it was logged;
//   one that started after C is dropped (a lost operation may precede it);
//   one in flight at C becomes pending: inputs kept, results unknown.
//
// Every lost operation started at or after C, so it cannot precede a kept operation, and any
// linearization of the whole run restricted to the kept operations is one of the cut: the cut
// never turns a correct run into a failure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/reader.hpp"

namespace omnilink::history {

/// Where a history was cut and what that cost.
struct Cut {
  std::uint64_t at = 0;  // C, in the run's clock
  std::vector<std::uint32_t> cut_short_threads;
  std::uint64_t dropped = 0;       // operations that started after C
  std::uint64_t made_pending = 0;  // operations in flight at C
  /// One line for results and reports.
  std::string describe(const std::string& clock) const;
};

/// A thread as read: its operations, whether its file was cut short, and the end of its last
/// completed operation as logged (failed-without-effect ones included, which `ops` leaves out).
struct ThreadPrefix {
  std::vector<trace::Operation>* ops;
  bool cut_short = false;
  std::uint64_t last_end = 0;
};

/// Cuts the threads in place. `inputs` says which fields of an operation are its inputs (an
/// operation made pending keeps those; one without a declaration keeps none). Call only when some
/// thread is cut short.
Cut cut_history(const std::vector<ThreadPrefix>& threads, const trace::InputDeclarations& inputs);

}  // namespace omnilink::history
