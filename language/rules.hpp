// A spec's rules: the named predicates its actions require (SerializableKV's RunsAtItsCommit,
// WiredTigerKV's FirstUpdaterWins), found from the next-state relation. What a failure breaks is
// said in their names: explain/broken_rules.hpp asks which of them, defined TRUE
// (LoadedSpec::load's `relaxed`), lets a failing core pass. Owns what counts as a rule; leaves
// relaxing and checking to its caller.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "language/modules.hpp"

namespace omnilink::language {

struct Rule {
  DefinitionName name;  // as its module writes it (SnapshotKV's FirstCommitterWins, seen as SI!FirstCommitterWins)
  SourcePos pos;
  /// Its `@guarantee:` annotation ("isolation"): the spec's guarantee this rule is one facet of, so
  /// that runs breaking different facets of it (a dirty write, a dirty read) sign alike; empty
  /// when the rule is a guarantee of its own.
  std::string guarantee;
};

/// The rules `next` (a definition of the spec's scope) reaches, in the order it reaches them:
/// each definition of a module of the spec's files (not the MC module, not a built-in module, not
/// a LET's) whose value is a truth value by its form (a conjunction, a comparison, a quantifier,
/// ...), that reads no next state (an action is not a rule: defined TRUE, it would allow any
/// step), and every occurrence of which is positive (a conjunct of a step, a branch, an
/// implication's conclusion; not a negation, a comparison or a condition): defined TRUE, a rule
/// allows more steps and never fewer, so rules can be relaxed together. `skipped` definitions
/// (the actions a run never takes) are not looked into. Binds `next`; throws what
/// spec_definition throws.
std::vector<Rule> spec_rules(LoadedSpec& spec, const std::string& next, const std::set<const Definition*>& skipped = {});

}  // namespace omnilink::language
