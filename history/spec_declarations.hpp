// What a spec declares about itself to the native checker, read from its MC module (else the spec):
//   OmniLinkPartitionBy      a field: the history is checked key by key (checkers/native_check.cpp)
//   OmniLinkDataIndependent  value fields compared only for equality (checkers/dead_values.hpp)
//   OmniLinkProjectable      closed under removing every operation on a value (checkers/projection.hpp)
// One reader for all three, so the checker and a failing core (explain/failing_core.hpp) read them alike.
// Errors (ValidationError) say what the declaration must be.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "language/modules.hpp"
#include "history/problem.hpp"

namespace omnilink::history {

/// The field the history is partitioned by (OmniLinkPartitionBy), if any.
std::optional<std::string> partition_field(language::LoadedSpec& spec);

/// The fields whose values the spec treats as atoms (OmniLinkDataIndependent); each must be a
/// parameter of some operation of `problem`, so that a misspelt one is not silently ignored.
std::vector<std::string> data_independent_fields(language::LoadedSpec& spec, const Problem& problem);

/// Whether the spec declares itself closed under projection (OmniLinkProjectable); it needs
/// `fields`, the data-independent ones, to say which values a projection keeps.
bool projectable(language::LoadedSpec& spec, const std::vector<std::string>& fields);

}  // namespace omnilink::history
