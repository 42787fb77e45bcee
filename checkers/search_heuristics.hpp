// The native search's heuristics: the order in which a state's threads are tried, and what a
// stalled attempt learns for the next. They change how soon a search finds an order, never
// whether there is one: the search core (native_search.cpp) tries every viable thread, in
// whatever order this gives.
//
// The order: the thread whose next operation ends earliest first (a linearizable history is then
// accepted in about one pass), or, for a racer (native_search.hpp), the one that began earliest;
// before either, those a failure asked to come earlier, and an operation whose learned predecessor
// has not come yet last. When the most urgent operation cannot go, the threads whose next
// operation would let it go are tried first (a dequeue waiting for another dequeue to take the head
// before it, rather than an enqueue that merely ends sooner and whose misplacement would show only
// much later).
//
// Learning: a wrong early guess (which of two overlapping enqueues came first) may show only
// hundreds of operations later. At a restart, the attempt's deepest failure of its most urgent
// operation is asked why (refusal_explainer.hpp): the operations whose values the state held in
// the failing one's place came too early, and those tied to the failing one (its element's
// enqueue) should precede them. Where that says nothing, the operations tied to it are preferred
// from then on.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "checkers/refusal_explainer.hpp"
#include "checkers/search_space.hpp"
#include "history/value_index.hpp"

namespace omnilink::checkers {

/// Which of two operations a state tries first when nothing learned tells them apart.
enum class Urgency {
  /// The one that ends first: most linearizable histories are accepted in about one pass.
  ends_first,
  /// The one that began first, as Porcupine tries them. Neither order is better on every history
  /// (kv-c50-ok's hardest key: 60,000 states this way against 180,000; another key four times as
  /// many), so a spare core races a search in this order against the first (native_search.hpp).
  began_first,
};

class SearchHeuristics {
 public:
  /// Owns what it learned; the space, the explainer and the index are the caller's.
  SearchHeuristics(SearchSpace& space, RefusalExplainer& explainer, const history::ValueIndex& values,
                   Urgency urgency = Urgency::ends_first);

  /// The threads to try in `n`: SearchSpace::viable, in the order above.
  std::vector<std::uint32_t> order(const Node& n) const;
  /// The same, given SearchSpace::viable(n), sorted in place.
  void order(const Node& n, std::vector<std::uint32_t>& viable) const;
  /// The first of `order` (the most urgent operation) cannot be linearized in `n`, `progress`
  /// deep: noted for learning, and the threads whose next operation would let it go moved first.
  void stuck(const Node& n, std::int64_t progress, std::vector<std::uint32_t>& order);
  /// A new attempt begins: its failures are its own.
  void new_attempt() { failure_ = {}; }
  /// From the attempt's deepest failure: which operations should come earlier from now on. False
  /// if that adds nothing new.
  bool learn();

 private:
  /// The deepest state of an attempt where the most urgent viable operation could not go.
  struct Failure {
    std::int64_t progress = -1;
    Node at;
    std::uint32_t thread = 0;
  };
  bool learn_order();
  bool learn_preferences();
  static std::uint64_t key(const history::OpRef& op) { return static_cast<std::uint64_t>(op.first) << 32 | op.second; }
  /// Thread t's next operation has a learned predecessor that `n` has not linearized yet.
  bool waits_for_predecessor(const Node& n, std::uint32_t t) const;

  SearchSpace& space_;
  Urgency urgency_;
  RefusalExplainer& explainer_;
  const history::ValueIndex& values_;
  // Per thread and operation, how often a failure asked for it to come earlier.
  std::vector<std::vector<std::uint32_t>> preferred_;
  // Per operation (key()), the operations a failure showed should come before it.
  std::unordered_map<std::uint64_t, std::vector<history::OpRef>> learned_after_;
  Failure failure_;
  std::vector<Successor> probe_, enabled_probe_;  // stuck()'s scratch
};

}  // namespace omnilink::checkers
