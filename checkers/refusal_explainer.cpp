#include "checkers/refusal_explainer.hpp"

#include <algorithm>

#include "trace/value.hpp"

namespace omnilink::checkers {
namespace {

using language::Definition;
using language::Value;

/// The parameters of `action` that `e` mentions, by name (a conjunct inside an operator the
/// action calls mentions that operator's parameters, whose names may differ: those are not found).
void mentioned_parameters(const language::Expr& e, const Definition& action, std::vector<std::string>& out) {
  if (e.kind == language::ExprKind::RefBound && e.symbol != nullptr)
    for (const auto& p : action.params)
      if (p.get() == e.symbol && std::find(out.begin(), out.end(), p->name) == out.end()) out.push_back(p->name);
  for (const auto& kid : e.kids) mentioned_parameters(*kid, action, out);
}

/// The first of the refused comparison's operands, operands in order and a sequence's or set's
/// items after it, for which `pick` gives a value.
template <class Pick>
auto first_among_operands(const language::Evaluator::Refusal& how, const Pick& pick) -> decltype(pick(Value())) {
  for (const Value& operand : how.operands) {
    if (auto found = pick(operand)) return found;
    if (operand.kind() == Value::Kind::Seq)
      for (const Value& item : operand.items())
        if (auto found = pick(item)) return found;
    if (operand.kind() == Value::Kind::Set)
      for (const Value& item : operand.elements())
        if (auto found = pick(item)) return found;
  }
  return std::nullopt;
}

}  // namespace

std::optional<SearchReport::Refused> RefusalExplainer::explain(const Node& n, std::vector<std::uint32_t> threads) {
  std::stable_sort(threads.begin(), threads.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return space_.next_op(n, a).end < space_.next_op(n, b).end; });
  for (std::uint32_t t : threads)
    if (auto refused = refusal_of(n, t)) return std::move(refused->first);
  return std::nullopt;
}

std::optional<std::pair<SearchReport::Refused, language::Evaluator::Refusal>> RefusalExplainer::refusal_of(const Node& n, std::uint32_t t) {
  const SearchOp& op = space_.next_op(n, t);
  const auto [first, last] = space_.candidate_range(n, t);
  std::optional<language::Evaluator::Refusal> deepest;
  const Definition* refusing = nullptr;
  // A multi-step operation is refused where it cannot finish: its X_Done's refusal says why. Its
  // X_Step's says only that no step is left (no key to undo), not what the operation broke.
  for (const Definition* action : {op.action, op.done}) {
    if (action == nullptr) continue;
    for (std::size_t c = first; c < last; ++c) {
      auto r = space_.evaluator().refusal(*action, op.candidates[c], n.spec);
      if (!r) return std::nullopt;
      if (!deepest || r->depth > deepest->depth) deepest = std::move(r), refusing = action;
    }
  }
  if (!deepest) return std::nullopt;
  SearchReport::Refused refused{{t, n.pc[t]}, refusing->name, deepest->conjunct->pos.text(), deepest->conjunct->pos.excerpt(), {}, {}, {}, {}};
  std::vector<std::string> reads;
  mentioned_parameters(*deepest->conjunct, *refusing, reads);
  tie(n, reads, refused);
  refused.lost = lost_value(n, refused, *deepest);
  refused.in_place = value_in_place(n, refused, *deepest);
  return std::make_pair(std::move(refused), std::move(*deepest));
}

/// Refusal::lost: of the refused comparison's operands, and of the items of those
/// that are sequences or sets, the first value other than the operation's own that every
/// operation logging it had put in the state by `n`. None where the operation logged a value no
/// other did (a dequeue of an element never enqueued): that explains the refusal first.
std::optional<RefusalExplainer::Held> RefusalExplainer::lost_value(const Node& n, const SearchReport::Refused& refused,
                                                                   const language::Evaluator::Refusal& how) {
  if (!refused.unmatched.empty()) return std::nullopt;
  const std::vector<std::string> own = values_.logged(refused.op);
  return first_among_operands(how, [&](const Value& v) -> std::optional<Held> {
    auto found = identifying(n, own, v);
    // One that is not linearized is left to take it out.
    if (found && std::all_of(found->logged_by.begin(), found->logged_by.end(), [](const auto& t) { return t.linearized; })) return found;
    return std::nullopt;
  });
}

/// Refusal::in_place: the first identifying value among the refused comparison's
/// operands (and their items) other than the operation's own, with who logged it.
std::optional<RefusalExplainer::Held> RefusalExplainer::value_in_place(const Node& n, const SearchReport::Refused& refused,
                                                                       const language::Evaluator::Refusal& how) {
  const std::vector<std::string> own = values_.logged(refused.op);
  return first_among_operands(how, [&](const Value& v) { return identifying(n, own, v); });
}

/// `v`, if it is an atom other than one of `own` that identifies the operations that logged it
/// (ValueIndex::identifying): with them, each linearized in `n` or not.
std::optional<RefusalExplainer::Held> RefusalExplainer::identifying(const Node& n, const std::vector<std::string>& own, const Value& v) const {
  if (v.kind() != Value::Kind::Int && v.kind() != Value::Kind::String && v.kind() != Value::Kind::Model) return std::nullopt;
  const std::string text = v.text();
  if (std::find(own.begin(), own.end(), text) != own.end()) return std::nullopt;
  const auto* users = values_.identifying(text);
  if (users == nullptr) return std::nullopt;
  Held found{text, {}};
  for (const auto& [u, position] : *users) found.logged_by.push_back({{u, position}, position < n.pc[u]});
  return found;
}

/// The refused operation's ties (SearchReport::Refused), from the same index of logged values
/// the heuristics learn from.
void RefusalExplainer::tie(const Node& n, const std::vector<std::string>& reads, SearchReport::Refused& refused) const {
  const history::OpRef& self = refused.op;
  const history::ProblemOp& op = space_.problem().threads[self.first][self.second];
  for (std::size_t k = 0; k < op.args.size(); ++k) {
    const std::string& name = op.spec_op->params[k];
    // Only the values the refusing conjunct is about: a failed dequeue's placeholder element says
    // nothing about `queue = <<>>`. A flag (ok = TRUE) identifies nothing, however rare.
    if (op.args[k] == nullptr || std::holds_alternative<bool>(op.args[k]->data) ||
        std::find(reads.begin(), reads.end(), name) == reads.end())
      continue;
    // The users come in thread and position order, so an operation that logged the value in two
    // fields is listed twice in a row; and past kIdentifyingUses the value ties nothing, so
    // counting stops there (a key logged by 70,000 operations is not walked at every restart).
    std::vector<history::OpRef> others;
    for (const auto& user : values_.users(trace::to_tla(*op.args[k]))) {
      if (user == self || (!others.empty() && others.back() == user)) continue;
      others.push_back(user);
      if (others.size() + 1 > history::kIdentifyingUses) break;
    }
    if (others.empty()) refused.unmatched.push_back(name);
    if (others.size() + 1 > history::kIdentifyingUses) continue;
    for (const auto& [u, position] : others)
      if (std::none_of(refused.related.begin(), refused.related.end(),
                       [&](const auto& known) { return known.op == history::OpRef{u, position}; }))
        refused.related.push_back({{u, position}, position < n.pc[u]});
  }
}

}  // namespace omnilink::checkers
