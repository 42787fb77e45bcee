#include "explain/searched_beginning.hpp"

#include <algorithm>
#include <limits>
#include <unordered_set>
#include <vector>

namespace omnilink::explain {
namespace {

/// When `p` ends, for a beginning: never, if it is pending or optional (it cannot be in one).
std::uint64_t beginning_end(const history::ProblemOp* p) {
  return p->op->pending() || p->optional ? std::numeric_limits<std::uint64_t>::max() : p->op->end;
}

/// How many of `by_end` (every operation of a problem, by beginning_end) are a beginning within
/// `past`: the most, from the first, that are completed, required and of the past, the last of
/// which ends before any operation after them starts.
std::size_t beginning_length(const std::vector<const history::ProblemOp*>& by_end, const GivenPast& past) {
  std::size_t eligible = 0;
  while (eligible < by_end.size() && !by_end[eligible]->optional && past.holds(*by_end[eligible]->op)) ++eligible;
  // Scanning back from the end: the earliest start of the operations after position m.
  std::uint64_t first_start_after = std::numeric_limits<std::uint64_t>::max();
  for (std::size_t m = by_end.size(); m > 0; --m) {
    if (m <= eligible && beginning_end(by_end[m - 1]) < first_start_after) return m;
    first_start_after = std::min(first_start_after, by_end[m - 1]->op->start);
  }
  return 0;
}

}  // namespace

SearchedBeginning::SearchedBeginning(const history::Problem& base, const GivenPast& past, language::LoadedSpec& spec,
                                     const checkers::NativeSearchOptions& options) {
  std::vector<const history::ProblemOp*> by_end;
  for (const auto& thread : base.threads)
    for (const history::ProblemOp& p : thread) by_end.push_back(&p);
  std::stable_sort(by_end.begin(), by_end.end(),
                   [](const history::ProblemOp* a, const history::ProblemOp* b) { return beginning_end(a) < beginning_end(b); });
  const std::size_t length = beginning_length(by_end, past);
  if (length == 0) return;
  const std::unordered_set<const history::ProblemOp*> in_beginning(by_end.begin(), by_end.begin() + static_cast<std::ptrdiff_t>(length));
  const std::vector<history::Problem> parts =
      history::split_problem(base, 2, [&](const history::ProblemOp& p) -> std::size_t { return in_beginning.count(&p) > 0 ? 0 : 1; });
  checkers::EndStates ends = checkers::search_end_states(parts[0], spec, options);
  if (!ends.complete) return;
  auto start = std::make_shared<checkers::StartAfter>();
  for (const auto& thread : parts[0].threads) start->positions.push_back(static_cast<std::uint32_t>(thread.size()));
  start->states = std::move(ends.states);
  start_ = std::move(start);
  operations_ = length;
}

}  // namespace omnilink::explain
