// The explanations kept beside a failure signature's evidence runs (RUN/explain/,
// explain/explanation.hpp), as reports show them: the first evidence run that has one shows its
// core (and, once read, its interleaving); the atomicity hints of every evidence run with an
// interleaving are ranked together. One reader for the HTML signature page and the sweep's
// Markdown report; rendering is theirs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "explain/explanation.hpp"
#include "findings/signature_history.hpp"
#include "store/store.hpp"

namespace omnilink::report {

struct EvidenceExplanations {
  std::optional<store::RunRecord> explained;       // the first evidence run with an explanation
  std::optional<explain::Explanation> explanation;  // its
  std::vector<std::vector<explain::AtomicityHint>> hints;  // of each evidence run with an interleaving
  std::vector<std::string> damaged;  // the errors of explanation.json files that do not read
};

/// The evidence runs of `h` as the store has them, each with its directory where the store is now.
std::vector<store::RunRecord> evidence_runs(store::Store& store, const findings::SignatureHistory& h);

/// What `evidence` (a signature's, oldest first) has kept.
EvidenceExplanations evidence_explanations(const std::vector<store::RunRecord>& evidence);

}  // namespace omnilink::report
