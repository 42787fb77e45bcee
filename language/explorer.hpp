// The states a spec reaches from its initial predicate through its next-state relation, level by
// level (breadth first, as TLC explores), up to a number of levels: for checking the embedded
// evaluator against TLC on whole specs (TLC counts the same distinct states with a constraint
// TLCGet("level") <= levels). A step of Next that leaves a variable undetermined is an error, as
// in TLC.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "language/modules.hpp"

namespace omnilink::language {

struct Exploration {
  std::uint64_t initial = 0;   // distinct initial states
  std::uint64_t distinct = 0;  // distinct states in levels 1..levels (initial states are level 1)
  std::uint32_t levels = 0;    // levels explored: fewer than asked when no new state appeared
  bool truncated = false;      // stopped at max_states
};

/// `constraints` name state predicates (a TLC configuration's CONSTRAINT): as in TLC, a state
/// that fails one, initial or not, is neither counted nor explored. Throws EvalError,
/// FragmentError or SpecError.
Exploration explore(LoadedSpec& spec, const std::string& init, const std::string& next, std::uint32_t levels,
                    std::uint64_t max_states, const std::vector<std::string>& constraints = {});

}  // namespace omnilink::language
