// Who logged which value: the index that ties a problem's operations together by the values they
// logged (a dequeued element to its enqueue). One per problem, built on first use: a history that
// is accepted in one pass never needs it. The native search's heuristics learn from it, its
// refusal explainer names ties from it, and `omnilink explain` finds a core's context with it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "history/problem.hpp"

namespace omnilink::history {

/// An operation of a Problem: its thread and its position there (Problem::threads).
using OpRef = std::pair<std::uint32_t, std::uint32_t>;

/// The operations that logged each value, as TLA+ text, in their arguments. Owns the index; the
/// problem is the caller's and must outlive it. Not thread-safe (built lazily).
class ValueIndex {
 public:
  explicit ValueIndex(const Problem& problem) : problem_(problem) {}

  /// The operations that logged `value`, in thread and then position order; empty if none did.
  const std::vector<OpRef>& users(const std::string& value) const;
  /// The same if `value` identifies them: it is not a boolean (a flag ties nothing, however rare)
  /// and at most kIdentifyingUses operations logged it. Null otherwise.
  const std::vector<OpRef>* identifying(const std::string& value) const;
  /// The values `op` logged, in parameter order (a pending operation's unknown ones left out).
  std::vector<std::string> logged(const OpRef& op) const;

 private:
  const Problem& problem_;
  mutable std::map<std::string, std::vector<OpRef>> users_;
  mutable bool built_ = false;
};

}  // namespace omnilink::history
