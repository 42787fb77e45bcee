// The explanation kept beside a run (RUN/explain/, explain/explanation.hpp), as reports show it:
// the run's, when it explains the run's newest validation. One reader, which read_run_report calls
// for every report; rendering is the reports'.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "explain/explanation.hpp"
#include "store/store.hpp"

namespace omnilink::report {

/// What a run keeps of its failure's explanation.
struct RunExplanation {
  /// Its explanation, when it explains the run's newest validation
  /// (Explanation::explains_validation_against): one of another spec is not shown as this failure's.
  std::optional<explain::Explanation> explanation;
  std::string damaged;  // why its explanation.json does not read ("" when it reads or there is none)
};

/// `run`'s explanation, read from its directory.
RunExplanation run_explanation(const store::RunRecord& run);

}  // namespace omnilink::report
