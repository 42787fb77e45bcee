// A failure signature's evidence runs (findings/signature_history.hpp), as reports show them: the
// runs where the store has them now, and what their explanations hold together: the first that has
// one shows its core (and, once read, its interleaving), and the atomicity hints of every one with an
// interleaving are ranked together. Read from RunReports, so a report reads each run's
// explanation.json once; rendering is the campaign and sweep reports', the HTML pages' and explain's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "explain/explanation.hpp"
#include "findings/signature_history.hpp"
#include "report/run_report.hpp"
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

/// What `evidence` (a signature's, oldest first) has kept, each run's as read_run_report read it.
EvidenceExplanations evidence_explanations(const std::vector<RunReport>& evidence);

}  // namespace omnilink::report
