#include "report/run_explanations.hpp"

#include "explain/explain.hpp"

namespace omnilink::report {

RunExplanation run_explanation(const store::RunRecord& run) {
  RunExplanation kept;
  try {
    kept.explanation = explain::read_explanation(explain::explanation_dir(run.dir));
  } catch (const explain::ExplanationFileError& damaged) {
    kept.damaged = damaged.what();
  }
  if (kept.explanation && !(run.validation && kept.explanation->explains_validation_against(run.validation->spec))) kept.explanation.reset();
  return kept;
}

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
    RunExplanation kept = run_explanation(run);
    if (!kept.damaged.empty()) out.damaged.push_back(std::move(kept.damaged));
    if (!kept.explanation) continue;
    if (kept.explanation->interleaving) out.hints.push_back(kept.explanation->interleaving->hints);
    if (!out.explained) {
      out.explained = run;
      out.explanation = std::move(kept.explanation);
    }
  }
  return out;
}

}  // namespace omnilink::report
