#include "validation/native_check.hpp"

#include <sys/resource.h>

#include "language/syntax.hpp"
#include "language/value.hpp"
#include "validation/native_search.hpp"

namespace omnilink::validation {

void check_natively(ValidationResult& result, const Problem& problem, language::LoadedSpec& spec, const ValidateOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  result.checker = "native";
  NativeSearchOptions search;
  search.init = options.init;
  search.view = options.view;
  search.time_limit = options.timeout;
  search.max_states = options.max_states;
  search.cancel = options.cancel;
  auto finish = [&] {
    result.duration = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) == 0) result.peak_rss_kb = static_cast<std::uint64_t>(usage.ru_maxrss);
  };
  SearchReport report;
  try {
    report = search_linearization(problem, spec, search);
  } catch (const language::EvalError& e) {
    finish();
    result.verdict = "error";
    result.reason = std::string("evaluating the spec: ") + e.what();
    return;
  }
  finish();
  result.states_generated = report.states_generated;
  result.states_distinct = report.states_distinct;
  using Outcome = SearchReport::Outcome;
  if (report.outcome == Outcome::no_initial_state) {
    result.verdict = "error";
    result.reason = "no initial state: the spec's " + options.init + " is not satisfiable";
    return;
  }
  if (report.outcome == Outcome::limit || report.outcome == Outcome::cancelled) {
    result.verdict = "unknown";
    result.reason = report.limit;
    result.cancelled = report.outcome == Outcome::cancelled;
    return;
  }
  result.linearized = report.linearized;
  result.spec_state = report.spec_state;
  for (const auto& thread : problem.history.threads)
    for (const auto& op : thread)
      if (op.pending()) {
        PendingOutcome outcome{op, false, {}};
        for (const auto& taken : report.pending_taken) {
          const ProblemOp& p = problem.threads[taken.thread][taken.position];
          if (p.op->thread != op.thread || p.op->index != op.index) continue;
          outcome.linearized = true;
          for (std::size_t k = 0; k < taken.arguments.size(); ++k) outcome.arguments.emplace_back(p.spec_op->params[k], taken.arguments[k]);
        }
        result.pending_outcomes.push_back(std::move(outcome));
      }
  if (report.outcome == Outcome::accepted) {
    result.verdict = "pass";
    return;
  }
  result.frontier = frontier_at(problem.history, report.next);
  result.verdict = "fail";
  result.reason = "no order of the operations is accepted by the spec; the deepest search linearized " +
                  std::to_string(report.linearized) + " of " + std::to_string(problem.operations);
}

}  // namespace omnilink::validation
