// A smaller failing sub-problem: the operations on a few values. A spec may declare that it is
// closed under projection (`OmniLinkProjectable == TRUE`, with OmniLinkDataIndependent naming the
// value fields): removing every operation that logged some value leaves a behaviour of the spec
// (a stack or queue without one element's push and pop is still a stack or queue; a stack that has
// a Size operation is not). Then a history linearizes only if its projection on any set of values
// does, and a projection that fails proves the whole fails.
//
// Why: a failing history is searched exhaustively, and a long one whose overlaps leave many orders
// open (pushes that are popped only much later) can hold more states than any budget. The failure
// itself is usually about two values: a pop that found the stack empty while an element pushed
// before it was never popped. Their projection is a few dozen operations.
//
// The native checker (native_check.cpp) looks for such a proof when a search runs out of room:
// the values are those of its deepest refusal (projection_values).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "checkers/native_search.hpp"
#include "history/problem.hpp"

namespace omnilink::checkers {

/// The values (TLA+ text of the integers and strings in `fields`) the refusal involves: the
/// refused operation's own, the value in its place (lost or not), and those of the operations
/// tied to it.
std::set<std::string> projection_values(const history::Problem& decided, const SearchReport::Refused& refused,
                                        const std::vector<std::string>& fields);

/// The atoms (TLA+ text of the integers and strings) `p` logged in `fields`; `unknown` set if a
/// pending operation has not logged one of them.
std::set<std::string> logged_atoms(const history::ProblemOp& p, const std::vector<std::string>& fields, bool& unknown);

/// Whether the projection on `values` keeps `p` (project's rule, below).
bool kept_by_projection(const history::ProblemOp& p, const std::vector<std::string>& fields, const std::set<std::string>& values);

/// The projection of `problem` on `values`: the operations whose values in `fields` all lie in
/// `values` (those that logged none included), and pending operations whose field is unknown
/// (they may be left out, so keeping them allows more, never less).
history::Problem project(const history::Problem& problem, const std::vector<std::string>& fields, const std::set<std::string>& values);

}  // namespace omnilink::checkers
