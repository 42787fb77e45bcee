// The rules a failing run breaks: each rule of the spec (language/rules.hpp) that, defined TRUE,
// lets the whole run pass (and so its core, whose other operations may happen). A refusal names
// where the search stopped, which depends on the order it tried (write skew's core stops at a
// Commit, or at a read only the skewed commits explain); the broken rule names what is wrong, alike in every run of one bug, so signatures
// (findings/) and explanations use it. The run is asked, not the core: a core that ends at a
// `busy` write also passes without the rule that decides `busy` (FirstCommitterWins), the run not.
//
// Owns the questions (one native check of the run per rule, the spec loaded with that rule
// relaxed); leaves finding the core to failing_core.hpp.
#pragma once

#include <string>
#include <vector>

#include "checkers/checker_options.hpp"
#include "history/history.hpp"
#include "language/rules.hpp"

namespace omnilink::explain {

/// The rules of the spec of `validate` (reached from its next-state relation) without which
/// `run` (the failing history explained) passes, in the order the spec reaches them. Each
/// question may search `question_states` states; an undecided one (or one the relaxed spec
/// cannot evaluate) is not a broken rule. Empty when no single rule is to blame (two broken
/// at once) or the spec names none.
std::vector<language::Rule> broken_rules(const history::History& run, const checkers::ValidateOptions& validate,
                                         std::uint64_t question_states);

}  // namespace omnilink::explain
