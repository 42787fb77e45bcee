// Why a native search got no further: at its deepest state, the first operation that may go next
// and that the spec refuses with every action and argument tuple, the conjunct that refuses it
// (language::Evaluator::refusal), and what its values tie it to (SearchReport::Refused: ties,
// unmatched parameters, the value in its place, a lost value). Run once on the node a search
// reports (a run's frontier, a failing core's), and asked by the heuristics which operations
// came too early. Owns nothing but its scratch; the space and the value index are the caller's.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "language/evaluator.hpp"
#include "checkers/search_report.hpp"
#include "checkers/search_space.hpp"
#include "history/value_index.hpp"

namespace omnilink::checkers {

class RefusalExplainer {
 public:
  RefusalExplainer(SearchSpace& space, const history::ValueIndex& values) : space_(space), values_(values) {}

  /// Why the search got no further than `n`: the first operation, by end, that may go next and
  /// that every action and argument tuple of it refuses (an operation that could go failed only
  /// later, so it says nothing here). `threads`: those that may go, in the order the search tries
  /// them, which decides among equal ends (pending operations'). None if each could go.
  std::optional<SearchReport::Refused> explain(const Node& n, std::vector<std::uint32_t> threads);

  /// Thread t's next operation in `n`, if every action and argument tuple of it refuses: how (the
  /// deepest refusal, whose operands say what the state held), with its ties.
  std::optional<std::pair<SearchReport::Refused, language::Evaluator::Refusal>> refusal_of(const Node& n, std::uint32_t t);

 private:
  using Held = SearchReport::Refused::Held;
  std::optional<Held> lost_value(const Node& n, const SearchReport::Refused& refused, const language::Evaluator::Refusal& how);
  std::optional<Held> value_in_place(const Node& n, const SearchReport::Refused& refused, const language::Evaluator::Refusal& how);
  std::optional<Held> identifying(const Node& n, const std::vector<std::string>& own, const language::Value& v) const;
  void tie(const Node& n, const std::vector<std::string>& reads, SearchReport::Refused& refused) const;

  SearchSpace& space_;
  const history::ValueIndex& values_;
};

}  // namespace omnilink::checkers
