// `omnilink explain`: a failing run's explanation (explanation.hpp). Reads the run's history (a run
// directory or a history file), decides it with the native checker, finds its failing core
// (explain/failing_core.hpp) and checks the core alone, whose refusal and spec state say why
// no order works; for a recorded run, reads the core's interleaving from the recording
// (interleaving.hpp). Written to RUN/explain/ (a history file's beside it, FILE.explain/) and reused
// while the spec's text is the same, so a report that shows a core costs nothing the second time.
//
// Leaves to its callers: where the spec comes from (a campaign's target, --spec), and rendering
// (report/explanation_text.hpp).
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>

#include "explain/explanation.hpp"
#include "explain/interleaving.hpp"
#include "replay/rr_replay.hpp"
#include "explain/failing_core.hpp"
#include "checkers/checker_options.hpp"

namespace omnilink::explain {

/// The run has no failure to explain: it passes, its verdict is unknown or an error, or the spec is
/// outside what the native checker evaluates. The message says which, with the checker's reason.
class NothingToExplain : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ExplainOptions {
  checkers::ValidateOptions validate;  // run_dir, spec, mc, init, view, limits; the checker is native
  explain::CoreOptions core;
  bool reuse = true;  // an explanation already there, of the same spec, is returned as it is
  /// The run's rr recording and the rr to replay it with: the core's interleaving is read from it
  /// (once: an explanation that has one keeps it). None: no interleaving is read.
  std::optional<replay::Recording> recording;
  std::filesystem::path rr;
  std::string no_interleaving;  // without `recording`: why, said in the explanation
  InterleavingOptions interleaving;
};

/// Where the explanation of `run` (a run directory or a history file) is kept.
std::filesystem::path explanation_dir(const std::filesystem::path& run);

/// The run's explanation, found or reused. Throws NothingToExplain, history::ValidationError,
/// history::HistoryError, ExplanationFileError (a damaged explanation.json is an error, never
/// silently replaced).
Explanation explain_run(const ExplainOptions& options);

}  // namespace omnilink::explain
