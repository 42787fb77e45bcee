// A run as the reports show it, read once from its store record and its directory: its outcome,
// its failure signature (findings/), the explanation it keeps (run_explanations), its failure in a
// few lines and how to replay it; and runs grouped by their signatures. Every renderer of runs (the
// campaign's text, JSON and JUnit, the results document's Markdown, the signature pages' HTML)
// takes these and reads no file itself.
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

/// The runs of one failure signature, in order of first appearance, and the symptoms they showed.
struct SignatureGroup {
  findings::FailureSignature signature;
  std::string target;                 // the first run's
  std::vector<const RunReport*> runs;  // into the reports grouped
  struct Symptom {
    findings::FailureSymptom symptom;
    std::vector<const RunReport*> runs;
  };
  std::vector<Symptom> symptoms;  // in order of first appearance
};

/// `runs` with a signature, grouped by it (a run without one is in no group).
std::vector<SignatureGroup> group_by_signature(const std::vector<RunReport>& runs);

}  // namespace omnilink::report
