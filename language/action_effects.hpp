// What an action's syntax alone says about its effect on the state, for the native search's
// reductions: whether it can only stutter (a read: UNCHANGED every variable). Owns the reading of
// UNCHANGED's operand into variables, which the evaluator shares.
#pragma once

#include <cstddef>

#include <boost/container/small_vector.hpp>

#include "language/ast.hpp"

namespace omnilink::language {

/// Variables by index, held inline: the evaluator reads an UNCHANGED at every step that reaches it.
using VariableIndices = boost::container::small_vector<std::size_t, 8>;

/// The variables `UNCHANGED e` names, into `out`: e is a variable, a tuple of them, or a definition
/// without parameters that is one of those (vars == <<x, y>>). False for anything else
/// (UNCHANGED f(x)), which the evaluator tests as f(x)' = f(x).
bool unchanged_variables(const Expr& unchanged, VariableIndices& out);

/// Every step of `action` leaves all `variables` of the state as they were: its body is a
/// conjunction (nested ones included) with an UNCHANGED conjunct naming each of them. A syntactic
/// sufficient condition; false does not mean the action writes.
bool only_stutters(const Definition& action, std::size_t variables);

}  // namespace omnilink::language
