#include "language/rules.hpp"

#include <algorithm>
#include <set>

namespace omnilink::language {
namespace {

/// Whether `e` reads the next state (a primed variable, UNCHANGED, a primed expression, ENABLED)
/// anywhere in it: its kids, bound sets, EXCEPT paths and local definitions.
bool primes_in(const Expr& e) {
  bool found = false;
  for_each_subexpression(e, [&](const Expr& x) {
    found = found || x.kind == ExprKind::RefPrimed || x.kind == ExprKind::Unchanged || x.kind == ExprKind::Prime || x.kind == ExprKind::Enabled;
  });
  return found;
}

/// Whether `def` reads the next state, itself or through what it refers to.
bool reads_next_state(const Definition& def, std::set<const Definition*>& seen) {
  if (def.constant || !def.body || !seen.insert(&def).second) return false;
  if (primes_in(*def.body)) return true;
  std::vector<const Definition*> refs;
  references(*def.body, refs);
  return std::any_of(refs.begin(), refs.end(), [&](const Definition* d) { return reads_next_state(*d, seen); });
}

/// Whether `e`'s value is a truth value by its form. A definition it calls is asked in turn, to a
/// small depth (a predicate is rarely a chain of renamings).
bool truth_valued(const Expr& e, int depth = 0) {
  switch (e.kind) {
    case ExprKind::Conj:
    case ExprKind::Disj:
    case ExprKind::Exists:
    case ExprKind::Forall:
      return true;
    case ExprKind::Literal:
      return e.value.is_bool();
    case ExprKind::If:
      return truth_valued(*e.kids[1], depth) && truth_valued(*e.kids[2], depth);
    case ExprKind::Let:
      return truth_valued(*e.kids[0], depth);
    case ExprKind::RefDefinition:
      return depth < 4 && e.definition != nullptr && e.definition->body && truth_valued(*e.definition->body, depth + 1);
    case ExprKind::RefBuiltin:
      switch (e.builtin) {
        case Builtin::And: case Builtin::Or: case Builtin::Not: case Builtin::Implies: case Builtin::Equiv:
        case Builtin::Eq: case Builtin::Neq: case Builtin::In: case Builtin::NotIn: case Builtin::Subseteq:
        case Builtin::Lt: case Builtin::Leq: case Builtin::Gt: case Builtin::Geq: case Builtin::IsFiniteSet:
          return true;
        default:
          return false;
      }
    default:
      return false;
  }
}

/// Where definitions occur, from the next-state relation: in a positive position (a conjunct or
/// disjunct of the step, under a quantifier's body, an implication's conclusion, a branch of an IF
/// or CASE, a LET's body, through the definitions called there), or anywhere else (a negation, a
/// comparison, a condition, an argument, a set, a LET's definitions). Only a definition every
/// occurrence of which is positive can be relaxed monotonically: defined TRUE it allows more steps,
/// never fewer, so relaxing several at once asks whether together they are what a run breaks.
class Occurrences {
 public:
  explicit Occurrences(const std::set<const Definition*>& skipped) : skipped_(skipped) {}

  /// Positive, in reading order (depth first).
  std::vector<const Definition*> positive;

  void walk_positive(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Conj:
      case ExprKind::Disj:
        for (const auto& k : e.kids) walk_positive(*k);
        return;
      case ExprKind::Exists:
      case ExprKind::Forall:
        for (const auto& b : e.bounds)
          if (b.set) walk_other(*b.set);
        walk_positive(*e.kids[0]);
        return;
      case ExprKind::If:
        walk_other(*e.kids[0]);
        walk_positive(*e.kids[1]);
        walk_positive(*e.kids[2]);
        return;
      case ExprKind::Case:
        for (std::size_t i = 0; i < e.kids.size(); ++i) {
          const bool guard = i % 2 == 0 && !(e.has_other && i + 1 == e.kids.size());
          if (guard)
            walk_other(*e.kids[i]);
          else
            walk_positive(*e.kids[i]);
        }
        return;
      case ExprKind::Let:
        for (const auto& d : e.definitions)
          if (d->body) walk_other(*d->body);
        walk_positive(*e.kids[0]);
        return;
      case ExprKind::RefBuiltin:
        if (e.builtin == Builtin::And || e.builtin == Builtin::Or) {
          for (const auto& k : e.kids) walk_positive(*k);
          return;
        }
        if (e.builtin == Builtin::Implies && e.kids.size() == 2) {
          walk_other(*e.kids[0]);
          walk_positive(*e.kids[1]);
          return;
        }
        break;
      case ExprKind::RefDefinition:
        if (e.definition != nullptr && e.definition->body && !e.definition->constant) {
          if (skipped_.count(e.definition)) return;
          for (const auto& k : e.kids) walk_other(*k);
          if (positive_seen_.insert(e.definition).second) {
            positive.push_back(e.definition);
            walk_positive(*e.definition->body);
          }
          return;
        }
        break;
      default:
        break;
    }
    walk_other(e);
  }

  /// Every definition `e` refers to, and what those refer to, occurs in a position that is not
  /// (only) positive.
  void walk_other(const Expr& e) {
    std::vector<const Definition*> refs;
    references(e, refs);
    reach_definitions(std::move(refs), other_);
  }

  bool only_positive(const Definition* d) const { return other_.count(d) == 0; }

 private:
  const std::set<const Definition*>& skipped_;
  std::set<const Definition*> positive_seen_, other_;
};

}  // namespace

std::vector<Rule> spec_rules(LoadedSpec& spec, const std::string& next, const std::set<const Definition*>& skipped) {
  const Definition* root = spec.spec_definition_structure(next);
  if (root == nullptr || !root->body) return {};
  std::set<std::string> files;
  for (const auto& f : spec.source_files()) files.insert(f.string());
  Occurrences occurrences(skipped);
  occurrences.walk_positive(*root->body);
  std::vector<Rule> out;
  for (const Definition* def : occurrences.positive) {
    if (def == root || def->in_let || !def->function_bounds.empty() || !occurrences.only_positive(def)) continue;
    const std::string module = spec.module_of(*def);
    if (module.empty() || def->pos.file == nullptr || !files.count(*def->pos.file)) continue;
    std::set<const Definition*> seen;
    if (!truth_valued(*def->body) || reads_next_state(*def, seen)) continue;
    const DefinitionName name{module, def->name};
    if (std::none_of(out.begin(), out.end(), [&](const Rule& r) { return r.name == name; })) out.push_back({name, def->pos, def->guarantee_annotation.value_or("")});
  }
  return out;
}

}  // namespace omnilink::language
