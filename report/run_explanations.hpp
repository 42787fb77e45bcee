// The explanations kept beside runs (RUN/explain/, explain/explanation.hpp), as reports show them:
// a run's, when it explains the run's newest validation; and a failure signature's evidence runs',
// where the first that has one shows its core (and, once read, its interleaving) and the atomicity
// hints of every one with an interleaving are ranked together. One reader for the campaign and
// sweep reports, the results document and the HTML signature pages; rendering is theirs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "explain/explanation.hpp"
#include "findings/signature_history.hpp"
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

struct EvidenceExplanations {
  std::optional<store::RunRecord> explained;       // the first evidence run with an explanation
  std::optional<explain::Explanation> explanation;  // its
  std::vector<std::vector<explain::AtomicityHint>> hints;  // of each evidence run with an interleaving
  std::vector<std::string> damaged;  // the errors of explanation.json files that do not read
};

/// The evidence runs of `h` as the store has them, each with its directory where the store is now.
std::vector<store::RunRecord> evidence_runs(store::Store& store, const findings::SignatureHistory& h);

/// What `evidence` (a signature's, oldest first) has kept, each run's as run_explanation reads it.
EvidenceExplanations evidence_explanations(const std::vector<store::RunRecord>& evidence);

}  // namespace omnilink::report
