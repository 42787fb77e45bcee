// A TLC configuration file (.cfg) as omnilink reads it to explore a spec the way TLC would: the
// constants' values (numbers, strings, booleans, model values, sets and tuples of them), the
// definitions that stand for others (`Op <- Other`), INIT/NEXT or SPECIFICATION, and the state
// constraints (CONSTRAINT). What else would change which states TLC counts (SYMMETRY, VIEW,
// ACTION_CONSTRAINT) is listed, for the caller to refuse; invariants and properties are not read.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "language/value.hpp"

namespace omnilink::language {

struct TlcConfig {
  std::map<std::string, Value> constants;            // N = 3, Procs = {p1, p2}
  /// c = [M] v: the value of M's constant or definition c, in M and in every instance of it.
  std::map<std::string, std::map<std::string, Value>> module_constants;
  std::map<std::string, std::string> substitutions;  // Op <- Other
  std::optional<std::string> init, next, specification;
  std::vector<std::string> constraints;              // CONSTRAINT names: states outside are neither counted nor explored
  std::vector<std::string> state_space_changes;      // SYMMETRY, VIEW, ACTION_CONSTRAINT, ... as written
};

/// Reads `path`. Throws SpecError naming file:line for what it cannot read.
TlcConfig read_tlc_config(const std::string& path);

}  // namespace omnilink::language
