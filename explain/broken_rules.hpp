// The rules a failing core breaks: each rule of the spec (language/rules.hpp) that, defined TRUE,
// lets the core's history pass. A refusal names where the search stopped, which depends on the
// order it tried (write skew's core stops at a Commit, or at a read only the skewed commits
// explain); the broken rule names what is wrong, alike in every run of one bug, so signatures
// (findings/) and explanations use it.
//
// Owns the questions (one native check of the core's history per rule, the spec loaded with that
// rule relaxed); leaves finding the core to failing_core.hpp.
#pragma once

#include <string>
#include <vector>

#include "checkers/checker_options.hpp"
#include "history/history.hpp"
#include "language/rules.hpp"

namespace omnilink::explain {

/// The rules of the spec of `validate` (reached from its next-state relation) without which
/// `core` (a failing core's history, its context optional) passes, in the order the spec reaches
/// them. Each question may search `question_states` states; an undecided one (or one the relaxed
/// spec cannot evaluate) is not a broken rule. Empty when no single rule is to blame (two broken
/// at once) or the spec names none.
std::vector<language::Rule> broken_rules(const history::History& core, const checkers::ValidateOptions& validate,
                                         std::uint64_t question_states);

}  // namespace omnilink::explain
