#include "language/rules.hpp"

#include <algorithm>
#include <set>

namespace omnilink::language {
namespace {

/// Whether `def` reads the next state, itself or through what it refers to.
bool reads_next_state(const Definition& def, std::set<const Definition*>& seen) {
  if (def.constant || !def.body || !seen.insert(&def).second) return false;
  bool found = false;
  auto scan = [&](const Expr& e, auto&& self) -> void {
    if (found) return;
    if (e.kind == ExprKind::RefPrimed || e.kind == ExprKind::Unchanged || e.kind == ExprKind::Prime || e.kind == ExprKind::Enabled) {
      found = true;
      return;
    }
    for (const auto& k : e.kids) self(*k, self);
    for (const auto& d : e.definitions)
      if (d->body) self(*d->body, self);
  };
  scan(*def.body, scan);
  if (found) return true;
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

}  // namespace

std::vector<Rule> spec_rules(LoadedSpec& spec, const std::string& next) {
  const Definition* root = spec.spec_definition_structure(next);
  if (root == nullptr || !root->body) return {};
  std::set<std::string> files;
  for (const auto& f : spec.source_files()) files.insert(f.string());
  std::vector<Rule> out;
  std::set<const Definition*> visited{root};
  std::vector<const Definition*> pending{root};
  while (!pending.empty()) {
    const Definition* def = pending.back();
    pending.pop_back();
    std::vector<const Definition*> refs, called;
    references(*def->body, refs);
    for (const Definition* d : refs)
      if (!d->constant && d->body && visited.insert(d).second) called.push_back(d);
    // Depth first, in the order they are written: the rules come out in reading order.
    for (auto it = called.rbegin(); it != called.rend(); ++it) pending.push_back(*it);
    if (def == root || def->in_let || !def->function_bounds.empty()) continue;
    const std::string module = spec.module_of(*def);
    if (module.empty() || def->pos.file == nullptr || !files.count(*def->pos.file)) continue;
    std::set<const Definition*> seen;
    if (!truth_valued(*def->body) || reads_next_state(*def, seen)) continue;
    const DefinitionName name{module, def->name};
    if (std::none_of(out.begin(), out.end(), [&](const Rule& r) { return r.name == name; })) out.push_back({name, def->pos});
  }
  return out;
}

}  // namespace omnilink::language
