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

}  // namespace omnilink::report
