// A failing core's given past (given_past.hpp), searched once for all the questions asked given it.
#pragma once

#include <cstdint>
#include <memory>

#include "checkers/native_search.hpp"
#include "explain/given_past.hpp"
#include "history/problem.hpp"
#include "language/modules.hpp"

namespace omnilink::explain {

/// The operations of a given past that every order of every question takes first, and the states
/// their orders end in. Each question given that past then searches on from those states
/// (checkers::StartAfter) instead of searching a thousand operations of the past again: in a long
/// run, most of its time. Owns the end states; the questions share them.
class SearchedBeginning {
 public:
  /// The longest beginning of `base` within `past`: the completed, required operations of the past
  /// that each end before every other operation of `base` (pending ones included) starts, at a
  /// point where no operation is under way. Every question given `past` holds them all, required,
  /// and first in their threads, so every order of it takes them first. Searched once, for every
  /// state their orders end in, within `options`' limits of states and time.
  SearchedBeginning(const history::Problem& base, const GivenPast& past, language::LoadedSpec& spec, const checkers::NativeSearchOptions& options);

  /// Where a question given the past starts: after the beginning, in each of its end states (none
  /// if no order of the beginning is accepted). Null when there is no beginning, or its search did
  /// not finish: the question then searches the past itself.
  const std::shared_ptr<const checkers::StartAfter>& start() const { return start_; }
  /// The beginning's operations, searched.
  std::uint64_t operations() const { return operations_; }

 private:
  std::shared_ptr<const checkers::StartAfter> start_;
  std::uint64_t operations_ = 0;
};

}  // namespace omnilink::explain
