#include "checkers/native_check.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "language/evaluator.hpp"
#include "platform/memory.hpp"
#include "checkers/native_search.hpp"
#include "checkers/projection.hpp"
#include "history/spec_declarations.hpp"

namespace omnilink::checkers {

namespace {

/// Half the machine's memory, in MiB: the native search's default memory limit.
std::uint64_t default_memory_limit_mb() { return platform::physical_memory_bytes() / 2 / (1024 * 1024); }

/// A history split by the value of one field: every operation must have it (a pending one among
/// its inputs). Parts in the order of their keys, so a report names the first failing one.
struct Partitioned {
  std::string field;
  std::vector<std::string> keys;  // "field = value", as TLA+
  std::vector<history::Problem> parts;
};

Partitioned partition(const history::Problem& problem, const std::string& field) {
  auto key_of = [&](const history::ProblemOp& p) -> const trace::Value& {
    const trace::Value* key = p.op->field(field);
    if (key == nullptr)
      throw history::ValidationError(history::operation_name(*p.op) + ": no field '" + field + "' to partition by (OmniLinkPartitionBy)" +
                            (p.op->pending() ? ": a pending operation must have it among its declared inputs" : ""));
    return *key;
  };
  std::map<trace::Value, std::size_t> part_of_key;  // ordered: the parts come in the keys' order
  for (const auto& thread : problem.threads)
    for (const history::ProblemOp& p : thread) part_of_key.emplace(key_of(p), 0);
  Partitioned out{field, {}, {}};
  for (auto& [key, part] : part_of_key) {
    part = out.keys.size();
    out.keys.push_back(field + " = " + trace::to_tla(key));
  }
  out.parts = history::split_problem(problem, out.keys.size(), [&](const history::ProblemOp& p) { return part_of_key.at(key_of(p)); });
  return out;
}

/// What decided: the search report, the problem its positions refer to, and the pending
/// operations each (part of the) problem linearized.
struct Decision {
  SearchReport report;
  const history::Problem* decided = nullptr;
  std::vector<std::pair<const history::Problem*, std::vector<SearchReport::Taken>>> taken;
  std::string failed_part;  // partitioned: the key of the part that was rejected
  std::size_t undecided_parts = 0;  // partitioned: parts a limit stopped
};

/// The verdict of a partitioned history from its parts' reports: a part that is rejected decides
/// it (the first in key order), else a part without a verdict, else every part passed.
Decision combine(const Partitioned& partitioned, std::vector<SearchReport> reports) {
  using O = SearchReport::Outcome;
  auto rank = [](const SearchReport& r) { return r.outcome == O::no_initial_state ? 0 : r.outcome == O::rejected ? 1 : r.outcome == O::accepted ? 3 : 2; };
  Decision d;
  if (reports.empty()) {  // no operation: nothing to refuse
    d.report.outcome = O::accepted;
    return d;
  }
  std::size_t chosen = 0;
  std::uint64_t generated = 0, distinct = 0;
  std::int64_t linearized = 0;
  std::string data_independence_unused;
  for (std::size_t k = 0; k < reports.size(); ++k) {
    if (data_independence_unused.empty()) data_independence_unused = reports[k].data_independence_unused;
    generated += reports[k].states_generated;
    distinct += reports[k].states_distinct;
    linearized += reports[k].linearized;
    if (reports[k].outcome == O::limit || reports[k].outcome == O::cancelled) ++d.undecided_parts;
    if (rank(reports[k]) < rank(reports[chosen])) chosen = k;
  }
  d.report = std::move(reports[chosen]);
  d.decided = &partitioned.parts[chosen];
  if (d.report.outcome == O::accepted) {
    // Every part passed: the pending outcomes of all of them, counted over all.
    d.report.linearized = linearized;
    for (std::size_t k = 0; k < reports.size(); ++k)
      if (k != chosen) d.taken.emplace_back(&partitioned.parts[k], std::move(reports[k].pending_taken));
  } else if (d.report.outcome == O::rejected) {
    d.failed_part = partitioned.keys[chosen];
  }
  d.report.states_generated = generated;
  d.report.states_distinct = distinct;
  d.report.data_independence_unused = std::move(data_independence_unused);
  return d;
}

/// The refused operation of a rejected search, and those tied to it, as the trace logged them.
results::RefusedOp describe_refusal(const history::Problem& decided, const SearchReport::Refused& r) {
  return r.renamed([&](const history::OpRef& place) { return *decided.threads[place.first][place.second].op; });
}

}  // namespace

void check_natively(results::ValidationResult& result, const history::Problem& problem, language::LoadedSpec& spec, const ValidateOptions& options,
                    std::optional<history::Problem>* proof) {
  const auto started = std::chrono::steady_clock::now();
  result.checker = results::DecidedBy::native;
  NativeSearchOptions search;
  search.init = options.init;
  search.view = options.view;
  search.time_limit = options.timeout;
  search.max_states = options.max_states;
  search.max_memory_mb = options.max_memory_mb != 0 ? options.max_memory_mb : default_memory_limit_mb();
  search.restart_budget = options.restart_budget;
  search.cancel = options.cancel;
  auto finish = [&] {
    result.duration = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) == 0) result.peak_rss_kb = static_cast<std::uint64_t>(usage.ru_maxrss);
  };
  // P-compositionality: a spec over independent keys checks each key's operations on their own.
  std::optional<Partitioned> partitioned;
  std::optional<history::Problem> projected;  // a projection that proved the failure
  std::string projection_note;
  Decision decision;
  try {
    search.data_independent = history::data_independent_fields(spec, problem);
    if (const auto field = history::partition_field(spec)) {
      partitioned = partition(problem, *field);
      // A thread costs about what checking a thousand small operations does (its start, its own
      // malloc arena): a small history's parts are checked on this one (kv-10x800: 17 -> 16 ms),
      // until a round shows some part is not small.
      constexpr std::uint64_t kOperationsPerThread = 2000;
      const unsigned wanted = options.jobs != 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
      const auto jobs = static_cast<unsigned>(std::min<std::uint64_t>(wanted, 1 + (problem.operations + problem.pending) / kOperationsPerThread));
      const PartsPolicy policy = options.all_parts ? PartsPolicy::every_part : PartsPolicy::until_rejected;
      decision = combine(*partitioned, search_linearizations(partitioned->parts, spec, search, jobs, policy, wanted));
      result.partitions = results::PartitionSummary{*field, partitioned->parts.size(), decision.failed_part};
      if (decision.undecided_parts > 0 && decision.report.outcome == SearchReport::Outcome::rejected)
        result.caveats.push_back(std::to_string(decision.undecided_parts) + " of the " + std::to_string(partitioned->parts.size()) +
                                 " parts were left undecided: the first failing part decides the verdict (--all-parts decides every one)");
    } else if (!history::projectable(spec, search.data_independent)) {
      decision.report = search_linearization(problem, spec, search);
    } else {
      // The cheapest proof first: a search with a small budget decides most histories; one that
      // runs out of room names the values its deepest refusal involves, whose projection may fail
      // on its own (which proves the whole fails); only then the whole search, within its limits.
      NativeSearchOptions first = search;
      first.max_states = std::min(search.max_states, options.projection_after);
      decision.report = search_linearization(problem, spec, first);
      // The limits of `search`, with the time the searches before it took taken off.
      const auto time_left = [&] {
        NativeSearchOptions rest = search;
        const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
        rest.time_limit = std::max(std::chrono::milliseconds(1), search.time_limit - elapsed);
        return rest;
      };
      if (decision.report.outcome == SearchReport::Outcome::limit && decision.report.refused && first.max_states < search.max_states) {
        const std::set<std::string> values = projection_values(problem, *decision.report.refused, search.data_independent);
        projected = project(problem, search.data_independent, values);
        SearchReport on_values = search_linearization(*projected, spec, time_left());
        if (on_values.outcome == SearchReport::Outcome::rejected) {
          std::string listed;
          for (const std::string& v : values) listed += (listed.empty() ? "" : ", ") + v;
          projection_note = "the failure is proved by the " + std::to_string(projected->operations + projected->pending) +
                            " operations on the values {" + listed + "} alone (the spec is closed under projection: OmniLinkProjectable)";
          decision.report = std::move(on_values);
          decision.decided = &*projected;
        } else {
          projected.reset();
          decision.report = search_linearization(problem, spec, time_left());
        }
      }
    }
  } catch (const language::EvalError& e) {
    finish();
    result.verdict = results::Verdict::error;
    result.reason = std::string("evaluating the spec: ") + e.what();
    return;
  }
  finish();
  SearchReport& report = decision.report;
  const history::Problem& decided = decision.decided != nullptr ? *decision.decided : problem;
  result.states_generated = report.states_generated;
  result.states_distinct = report.states_distinct;
  if (!report.data_independence_unused.empty()) result.caveats.push_back(report.data_independence_unused);
  using Outcome = SearchReport::Outcome;
  if (report.outcome == Outcome::no_initial_state) {
    result.verdict = results::Verdict::error;
    result.reason = "no initial state: the spec's " + options.init + " is not satisfiable";
    return;
  }
  if (report.outcome == Outcome::limit || report.outcome == Outcome::cancelled) {
    result.verdict = results::Verdict::unknown;
    result.reason = report.limit;
    result.cancelled = report.outcome == Outcome::cancelled;
    return;
  }
  result.linearized = report.linearized;
  result.spec_state = report.spec_state;
  for (std::size_t k = 0; k < report.spec_values.size() && k < spec.variables().size(); ++k)
    result.spec_variables.emplace_back(spec.variables()[k], report.spec_values[k]);
  decision.taken.emplace_back(&decided, std::move(report.pending_taken));
  for (const auto& thread : problem.history.threads)
    for (const auto& op : thread)
      if (op.pending()) {
        results::PendingOutcome outcome{op, false, {}};
        for (const auto& [part, entries] : decision.taken)
          for (const auto& entry : entries) {
            const history::ProblemOp& p = part->threads[entry.thread][entry.position];
            if (p.op->thread != op.thread || p.op->index != op.index) continue;
            outcome.linearized = true;
            for (std::size_t k = 0; k < entry.arguments.size(); ++k) outcome.arguments.emplace_back(p.spec_op->params[k], entry.arguments[k]);
          }
        result.pending_outcomes.push_back(std::move(outcome));
      }
  if (report.outcome == Outcome::accepted) {
    result.verdict = results::Verdict::pass;
    return;
  }
  result.frontier = results::frontier_at(decided.history, report.next);
  if (report.refused) result.refused = describe_refusal(decided, *report.refused);
  result.verdict = results::Verdict::fail;
  result.reason = "no order of the operations is accepted by the spec; the deepest search linearized " +
                  std::to_string(report.linearized) + " of " + std::to_string(decided.operations);
  if (result.partitions) result.reason += " operations of the partition " + result.partitions->failed;
  if (projected) {
    result.reason += " operations of a projection";
    result.caveats.push_back(projection_note);
    if (proof != nullptr) *proof = std::move(projected);
  }
}

}  // namespace omnilink::checkers
