// The rules a failing run breaks: the fewest of the spec's rules (language/rules.hpp) that, defined
// TRUE together, let the whole run pass. A refusal names where the search stopped, which depends on
// the order it tried (write skew's core stops at a Commit, or at a read only the skewed commits
// explain); the broken rules name what is wrong, alike in every run of one bug, so signatures
// (findings/) and explanations use them. The run is asked, not the core: a core that ends at a
// `busy` write also passes without the rule that decides `busy` (FirstCommitterWins), the run not.
// A set, not one rule: a misconfiguration breaks several rules in one run (read-committed taken
// for snapshot isolation both reads what its snapshot may not see and updates what another
// transaction updated), and no single rule relaxed lets such a run pass.
//
// Owns the questions (native checks of the run, the spec loaded with a set of rules relaxed);
// leaves finding the core to failing_core.hpp.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "checkers/checker_options.hpp"
#include "history/history.hpp"
#include "language/rules.hpp"

namespace omnilink::explain {

/// The answer: the rules, or why none is named.
struct BrokenRules {
  std::vector<language::Rule> rules;
  std::string unnamed;  // empty when rules are named
};

/// The rules `run` (the failing history explained) breaks against the spec of `validate`: with
/// every rule its next-state relation reaches defined TRUE, the run must pass; then each rule in
/// the order the spec reaches it is given back (a block of rules at once, split where the run fails
/// without it: the same answer in fewer passing questions), and kept only if the run fails without it. What is
/// left is one-minimal: each rule of it is needed, and together they let the run pass. Each
/// question may search `question_states` states, all of them within `time_limit`. None, and why,
/// when the spec has no rule an action of the run reaches, when the run fails with every rule
/// relaxed (what it breaks is written inline, not as a rule), when a question is undecided or out
/// of time, or when the relaxed spec cannot evaluate the run: an empty answer names nothing rather
/// than something unproven.
BrokenRules broken_rules(const history::History& run, const checkers::ValidateOptions& validate, std::uint64_t question_states,
                         std::chrono::milliseconds time_limit);

}  // namespace omnilink::explain
