// `omnilink validate`: one run against one spec. Reads the run's history (history/history.hpp), matches it
// to the spec (history/problem.hpp), lets a checker decide it, and writes RUN/validation/result.json
// (results/result.hpp). The checkers:
//   native  the embedded checker (native_check.hpp): in-process, for specs inside the fragment
//   tlc     TLC (tlc_check.hpp), the reference
//   auto    native when the spec is inside the fragment, else TLC, saying why
//   both    both; a disagreement is an error
// A native FAIL is confirmed by TLC where TLC is present (confirm_failures); a FAIL that rests on
// guessed results of pending operations is certified on the quiescent prefix before them.
#pragma once

#include "checkers/checker_options.hpp"
#include "results/result.hpp"

namespace omnilink::checkers {

results::ValidationResult validate_run(const ValidateOptions& options);

}  // namespace omnilink::checkers
