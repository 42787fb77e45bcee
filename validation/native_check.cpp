#include "validation/native_check.hpp"

#include <sys/resource.h>

#include <map>
#include <thread>

#include "language/evaluator.hpp"

#include "language/syntax.hpp"
#include "language/value.hpp"
#include "validation/native_search.hpp"

namespace omnilink::validation {

namespace {

/// The field the MC module says the history is partitioned by (OmniLinkPartitionBy), if any.
std::optional<std::string> partition_field(language::LoadedSpec& spec) {
  const language::Definition* by = spec.mc_definition("OmniLinkPartitionBy");
  if (by == nullptr) return std::nullopt;
  language::Evaluator evaluator(spec);
  const language::Value field = evaluator.evaluate(*by, {});
  if (!field.is_string()) throw ValidationError("OmniLinkPartitionBy must be a field name (a string), not " + field.text());
  return field.as_string();
}

/// The history split by the value of `field`: every operation must have it (a pending one among its
/// inputs). Parts in the order of their keys.
std::vector<std::pair<std::string, Problem>> partitions(const Problem& problem, const std::string& field) {
  std::map<trace::Value, bool> keys;  // ordered: reports name the first failing part
  for (const auto& thread : problem.threads)
    for (const ProblemOp& p : thread) {
      const trace::Value* key = p.op->field(field);
      if (key == nullptr)
        throw ValidationError(operation_name(*p.op) + ": no field '" + field + "' to partition by (OmniLinkPartitionBy)" +
                              (p.op->pending() ? ": a pending operation must have it among its declared inputs" : ""));
      keys.emplace(*key, true);
    }
  std::vector<std::pair<std::string, Problem>> parts;
  for (const auto& [key, unused] : keys)
    parts.emplace_back(field + " = " + trace::to_tla(key),
                       restrict_problem(problem, [&, k = &key](const ProblemOp& p) { return *p.op->field(field) == *k; }));
  return parts;
}

}  // namespace

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
  // P-compositionality: a spec over independent keys checks each key's operations on their own.
  std::vector<std::pair<std::string, Problem>> parts;
  SearchReport report;
  const Problem* decided = &problem;  // the problem `report` is about
  // The pending operations linearized, per (part of the) problem their positions refer to.
  std::vector<std::pair<const Problem*, std::vector<SearchReport::Taken>>> taken;
  try {
    if (const auto field = partition_field(spec)) {
      parts = partitions(problem, *field);
      std::vector<Problem> problems;
      for (auto& [key, part] : parts) problems.push_back(std::move(part));
      const unsigned jobs = options.jobs != 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
      std::vector<SearchReport> reports = search_linearizations(problems, spec, search, jobs);
      for (std::size_t k = 0; k < parts.size(); ++k) parts[k].second = std::move(problems[k]);
      result.partitions = PartitionSummary{*field, parts.size(), ""};
      // The verdict of the whole: a part that fails decides it (the first in key order), else a
      // part without a verdict, else every part passed.
      std::size_t chosen = 0;
      auto rank = [](const SearchReport& r) {
        using O = SearchReport::Outcome;
        return r.outcome == O::no_initial_state ? 0 : r.outcome == O::rejected ? 1 : r.outcome == O::accepted ? 4 : 2;
      };
      std::uint64_t generated = 0, distinct = 0;
      std::int64_t linearized = 0;
      for (std::size_t k = 0; k < reports.size(); ++k) {
        generated += reports[k].states_generated;
        distinct += reports[k].states_distinct;
        linearized += reports[k].linearized;
        if (rank(reports[k]) < rank(reports[chosen])) chosen = k;
      }
      report = reports.empty() ? SearchReport{SearchReport::Outcome::accepted} : std::move(reports[chosen]);
      if (!parts.empty()) decided = &parts[chosen].second;
      if (report.outcome == SearchReport::Outcome::accepted) {
        // Every part passed: the pending outcomes of all of them, counted over all.
        report.linearized = linearized;
        for (std::size_t k = 0; k < reports.size(); ++k)
          if (k != chosen) taken.emplace_back(&parts[k].second, std::move(reports[k].pending_taken));
      } else if (report.outcome == SearchReport::Outcome::rejected) {
        result.partitions->failed = parts[chosen].first;
      }
      report.states_generated = generated;
      report.states_distinct = distinct;
    } else {
      report = search_linearization(problem, spec, search);
    }
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
  taken.emplace_back(decided, std::move(report.pending_taken));
  for (const auto& thread : problem.history.threads)
    for (const auto& op : thread)
      if (op.pending()) {
        PendingOutcome outcome{op, false, {}};
        for (const auto& [part, entries] : taken)
          for (const auto& entry : entries) {
            const ProblemOp& p = part->threads[entry.thread][entry.position];
            if (p.op->thread != op.thread || p.op->index != op.index) continue;
            outcome.linearized = true;
            for (std::size_t k = 0; k < entry.arguments.size(); ++k) outcome.arguments.emplace_back(p.spec_op->params[k], entry.arguments[k]);
          }
        result.pending_outcomes.push_back(std::move(outcome));
      }
  if (report.outcome == Outcome::accepted) {
    result.verdict = "pass";
    return;
  }
  result.frontier = frontier_at(decided->history, report.next);
  result.verdict = "fail";
  result.reason = "no order of the operations is accepted by the spec; the deepest search linearized " +
                  std::to_string(report.linearized) + " of " + std::to_string(decided->operations);
  if (result.partitions) result.reason += " operations of the partition " + result.partitions->failed;
}

}  // namespace omnilink::validation
