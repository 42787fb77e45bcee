// What a failing core was proven given, when not on its own (docs/explain.md, "Given the past").
#pragma once

#include <cstdint>

#include "trace/reader.hpp"

namespace omnilink::explain {

/// The past a core was proven given: the `operations` of the run that ended before `before` (a
/// time of the history's clock: where the core's transactions began), taken as the run logged
/// them, required, instead of optional. The claim is weaker than "on its own": the run up to there
/// passes, and from there no order of the core works whatever the other operations did. A core is
/// proven so only when its own question cannot be decided within its budget (failing_core.hpp).
struct GivenPast {
  std::uint64_t before = 0;
  std::uint64_t operations = 0;

  /// Whether `op` is of that past: completed, and ended before the cut.
  bool holds(const trace::Operation& op) const { return !op.pending() && op.end < before; }
};

}  // namespace omnilink::explain
