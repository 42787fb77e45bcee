#include "report/evidence.hpp"

namespace omnilink::report {

std::vector<store::RunRecord> evidence_runs(store::Store& store, const findings::SignatureHistory& h) {
  std::vector<store::RunRecord> evidence;
  for (const auto& key : h.runs)
    if (auto run = store.run(key)) {
      run->dir = store::run_directory(store.directory(), run->campaign, run->id).string();  // where it is now
      evidence.push_back(std::move(*run));
    }
  return evidence;
}

EvidenceExplanations evidence_explanations(const std::vector<RunReport>& evidence) {
  EvidenceExplanations out;
  for (const auto& report : evidence) {
    const RunExplanation& kept = report.kept;
    if (!kept.damaged.empty()) out.damaged.push_back(kept.damaged);
    if (!kept.explanation) continue;
    if (kept.explanation->interleaving) out.hints.push_back(kept.explanation->interleaving->hints);
    if (!out.explained) {
      out.explained = report.run;
      out.explanation = kept.explanation;
    }
  }
  return out;
}

}  // namespace omnilink::report
