// What a sweep reports (docs/sweep.md, "Reports"): what changed since the previous sweep of the
// same file first (new, regressed and fixed signatures), then every signature with its history,
// the failing core of each signature seen in it (with its atomicity hints, once the interleavings
// are read), the allocation (each configuration's runs, failures with a confidence interval, histories and
// windows explored, whether its last runs still found new windows), and the sweep's own numbers.
// As Markdown, JSON, and JUnit XML with one test case per signature (so CI shows a new bug as a
// new failing test). Paths are named relative to the store.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "sweep/retention.hpp"
#include "findings/signature_history.hpp"
#include "report/evidence.hpp"
#include "sweep/sweep_source.hpp"

namespace omnilink::report {

struct SweepSummary {
  store::CampaignRecord sweep;
  std::vector<store::RunRecord> runs;   // this sweep's
  std::vector<sweep::ConfigurationShare> shares;  // allocation
  std::vector<findings::SignatureHistory> signatures;
  std::chrono::milliseconds spent{0};      // in all its sessions
  sweep::StopReason stop_reason = sweep::StopReason::interrupted;
  std::vector<std::string> missing_tasks;  // on Slurm: tasks that delivered nothing, each with why
  double confidence = 0.95;
  sweep::PruneReport retention;                   // what the store quota (or, without one, rubbish collection) removed
  /// By signature id, for the signatures seen in this sweep: what their evidence runs have kept
  /// (read_explanations).
  std::map<std::string, EvidenceExplanations> explanations;
};

/// Fills `summary.explanations` from the store: after the interleavings are read, before the
/// reports are written.
void read_explanations(store::Store& store, SweepSummary& summary);

/// 0 nothing new; 1 a new or regressed signature; 2 the sweep could not run all it should (a run
/// without a verdict: unknown, error, bad-trace, timeout, interrupted) and nothing is new.
int sweep_exit_code(const SweepSummary& summary);

std::string sweep_markdown(const SweepSummary& summary);
nlohmann::json sweep_json(const SweepSummary& summary);
std::string sweep_junit(const SweepSummary& summary);

}  // namespace omnilink::report
