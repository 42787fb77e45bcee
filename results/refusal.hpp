// A refusal: why a search got no further at its deepest state. One shape wherever a refusal is
// held, each naming its operations its own way (`Op`): the native search (the operation's place in
// the problem), a validation result (the trace's operation), result.json read back
// (StoredOperation) and an explanation (the operation's id). Written by the native search
// (checkers/refusal_explainer.hpp); renamed on its way to the result, result.json and explain/.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace omnilink::results {

/// The most urgent operation at the deepest state (the viable one ending earliest) that the spec
/// refuses there, the conjunct that refuses it (language::Evaluator::refusal), and the operations
/// tied to it by the values of the parameters that conjunct mentions (a value at most
/// kIdentifyingUses operations logged; booleans never).
template <class Op>
struct Refusal {
  /// An operation that logged one of the refused operation's identifying values.
  struct Tie {
    Op op;
    bool linearized = false;  // at the deepest state
  };
  /// An identifying value the refused comparison found in the state in the operation's own place
  /// (the head a dequeue's element was compared with; an element of the queue an empty dequeue
  /// found), other than the operation's own, and every operation that logged it.
  struct Held {
    std::string value;  // TLA+ text
    std::vector<Tie> logged_by;
  };

  Op op;
  std::string action;    // X, X_Step or X_Done
  std::string at;        // the conjunct found false: file:line:col
  std::string conjunct;  // its source, to the end of its line
  std::vector<Tie> related;
  std::vector<std::string> unmatched;  // its parameters whose value no other operation logged
  /// The held value when every operation that logged it is linearized there, so none is left to
  /// take it out: a lost element shows as different conjuncts (an empty dequeue, a dequeue of the
  /// next element), and this is what they share. None where the operation logged a value no other
  /// did (`unmatched`): that explains the refusal first.
  std::optional<Held> lost;
  /// The held value, linearized there or not: what an explanation says stood in the way.
  std::optional<Held> in_place;

  /// The same refusal with every operation named by `name(op)`.
  template <class Name>
  auto renamed(const Name& name) const {
    using Other = Refusal<decltype(name(op))>;
    const auto ties = [&](const std::vector<Tie>& list) {
      std::vector<typename Other::Tie> out;
      for (const Tie& t : list) out.push_back({name(t.op), t.linearized});
      return out;
    };
    const auto held = [&](const std::optional<Held>& h) {
      return h ? std::optional<typename Other::Held>({h->value, ties(h->logged_by)}) : std::nullopt;
    };
    return Other{name(op), action, at, conjunct, ties(related), unmatched, held(lost), held(in_place)};
  }
};

}  // namespace omnilink::results
