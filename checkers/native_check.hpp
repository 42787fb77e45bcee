// The native checker: the search of native_search.hpp run on a Problem, its report turned into a
// verdict with the same frontier and pending outcomes TLC's gives.
#pragma once

#include <optional>

#include "language/modules.hpp"
#include "history/problem.hpp"
#include "results/result.hpp"
#include "checkers/checker_options.hpp"

namespace omnilink::checkers {

/// Decides `problem` in-process and sets the result's verdict. Throws language::FragmentError
/// when the spec's actions use TLA+ outside the fragment (the caller may fall back to TLC). A
/// failure proved by a projection (projection.hpp) leaves that smaller problem in `proof`, for TLC
/// to confirm instead of the whole.
void check_natively(results::ValidationResult& result, const history::Problem& problem, language::LoadedSpec& spec, const ValidateOptions& options,
                    std::optional<history::Problem>* proof = nullptr);

}  // namespace omnilink::checkers
