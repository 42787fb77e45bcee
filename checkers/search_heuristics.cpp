#include "checkers/search_heuristics.hpp"

#include <algorithm>

#include "trace/value.hpp"

namespace omnilink::checkers {

using language::Value;

SearchHeuristics::SearchHeuristics(SearchSpace& space, RefusalExplainer& explainer, const history::ValueIndex& values,
                                   Urgency urgency)
    : space_(space), urgency_(urgency), explainer_(explainer), values_(values) {
  for (const auto& thread : space.problem().threads) preferred_.emplace_back(thread.size(), 0);
}

std::vector<std::uint32_t> SearchHeuristics::order(const Node& n) const {
  std::vector<std::uint32_t> out = space_.viable(n);
  order(n, out);
  return out;
}

void SearchHeuristics::order(const Node& n, std::vector<std::uint32_t>& out) const {
  std::stable_sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) {
    // An operation whose learned predecessor has not yet come waits behind the others.
    if (!learned_after_.empty()) {
      const bool wa = waits_for_predecessor(n, a), wb = waits_for_predecessor(n, b);
      if (wa != wb) return wb;
    }
    const std::uint32_t pa = preferred_[a][n.pc[a]], pb = preferred_[b][n.pc[b]];
    if (pa != pb) return pa > pb;
    const SearchOp &oa = space_.next_op(n, a), &ob = space_.next_op(n, b);
    return urgency_ == Urgency::ends_first ? oa.end < ob.end : oa.start < ob.start;
  });
}

bool SearchHeuristics::waits_for_predecessor(const Node& n, std::uint32_t t) const {
  const auto it = learned_after_.find(key({t, n.pc[t]}));
  if (it == learned_after_.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(), [&](const history::OpRef& before) { return n.pc[before.first] <= before.second; });
}

void SearchHeuristics::stuck(const Node& n, std::int64_t progress, std::vector<std::uint32_t>& order) {
  const std::uint32_t urgent = order[0];
  if (progress >= failure_.progress) failure_ = {progress, n, urgent};
  std::stable_partition(order.begin() + 1, order.end(), [&](std::uint32_t t) {
    space_.successors(n, t, probe_);
    return std::any_of(probe_.begin(), probe_.end(), [&](const Successor& s) {
      space_.successors(s.node, urgent, enabled_probe_);
      return !enabled_probe_.empty();
    });
  });
}

bool SearchHeuristics::learn() {
  if (failure_.progress < 0) return false;
  return learn_order() || learn_preferences();
}

bool SearchHeuristics::learn_preferences() {
  const std::uint32_t t = failure_.thread, failing = failure_.at.pc[t];
  bool learned = false;
  for (const std::string& value : values_.logged({t, failing})) {
    const auto* users = values_.identifying(value);
    if (users == nullptr) continue;
    for (const auto& [u, position] : *users) {
      if (u == t && position == failing) continue;
      learned |= preferred_[u][position] == 0;
      ++preferred_[u][position];
    }
  }
  return learned;
}

bool SearchHeuristics::learn_order() {
  // The refused comparison says which operations' values the state held where the failing
  // operation's own should have been (a dequeue compared with the head: the head's enqueue). Those
  // that were linearized came too early: the operations tied to the failing one's values (its
  // element's enqueue) should precede them. Preferring those always (learn_preferences) would
  // misplace an operation whose window spans thousands of others at the start of it; this says
  // where.
  const std::uint32_t t = failure_.thread;
  const auto refusal = explainer_.refusal_of(failure_.at, t);
  if (!refusal) return false;
  const auto& [refused, how] = *refusal;
  std::vector<history::OpRef> earlier;  // the failing operation's ties
  for (const auto& r : refused.related) earlier.push_back(r.op);
  if (earlier.empty()) return false;
  const std::vector<std::string> own = values_.logged({t, failure_.at.pc[t]});
  bool learned = false;
  for (const Value& operand : how.operands) {
    if (operand.kind() != Value::Kind::Int && operand.kind() != Value::Kind::String && operand.kind() != Value::Kind::Model) continue;
    const std::string text = operand.text();
    if (std::find(own.begin(), own.end(), text) != own.end()) continue;
    const auto* users = values_.identifying(text);
    if (users == nullptr) continue;
    for (const history::OpRef& later : *users) {
      if (failure_.at.pc[later.first] <= later.second) continue;  // not linearized there: not too early
      auto& before = learned_after_[key(later)];
      for (const history::OpRef& e : earlier)
        if (e != later && std::find(before.begin(), before.end(), e) == before.end()) {
          before.push_back(e);
          learned = true;
        }
    }
  }
  return learned;
}

}  // namespace omnilink::checkers
