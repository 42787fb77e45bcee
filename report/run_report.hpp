// A run as the reports show it, read once from its store record and its directory: its outcome,
// its failure signature (findings/), the explanation it keeps (run_explanations), its failure in a
// few lines and how to replay it. Every renderer of runs (the campaign's text, JSON and JUnit, the
// results document's Markdown, the signature pages' HTML) takes these and reads no file itself.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "findings/failure_signature.hpp"
#include "report/run_explanations.hpp"
#include "store/outcome.hpp"
#include "store/store.hpp"

namespace omnilink::report {

/// One run, read for reporting. Everything past `outcome` is read only for a run that failed or
/// crashed (the other outcomes have nothing more to show than their record), and is empty otherwise.
struct RunReport {
  store::RunRecord run;
  store::Outcome outcome = store::Outcome::pass;
  std::optional<findings::FailureSignature> signature;  // a failed or crashed run's
  RunExplanation kept;                                 // a failed run's explanation, when it explains the run
  std::string failure;                                 // a failed run's failure_summary
  std::string replay;                                  // how to replay a failed or crashed run (or why it cannot be)
};

RunReport read_run_report(store::RunRecord run);
std::vector<RunReport> read_run_reports(std::vector<store::RunRecord> runs);

}  // namespace omnilink::report
