#include "report/evidence_explanations.hpp"

#include "explain/explain.hpp"

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

EvidenceExplanations evidence_explanations(const std::vector<store::RunRecord>& evidence) {
  EvidenceExplanations out;
  for (const auto& run : evidence) {
    std::optional<explain::Explanation> e;
    try {
      e = explain::read_explanation(explain::explanation_dir(run.dir));
    } catch (const explain::ExplanationFileError& bad) {
      out.damaged.push_back(bad.what());
    }
    if (!e) continue;
    if (e->interleaving) out.hints.push_back(e->interleaving->hints);
    if (!out.explained) {
      out.explained = run;
      out.explanation = std::move(e);
    }
  }
  return out;
}

}  // namespace omnilink::report
