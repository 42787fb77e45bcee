#include "language/action_effects.hpp"

#include <algorithm>

namespace omnilink::language {

bool unchanged_variables(const Expr& unchanged, VariableIndices& out) {
  out.clear();
  auto visit = [&](const Expr& x, auto&& self) -> bool {
    if (x.kind == ExprKind::Tuple) {
      for (const auto& kid : x.kids)
        if (!self(*kid, self)) return false;
      return true;
    }
    if (x.kind == ExprKind::RefDefinition && x.definition->params.empty() && x.definition->function_bounds.empty() && x.definition->body)
      return self(*x.definition->body, self);  // vars == <<x, y>>
    if (x.kind != ExprKind::RefVariable) return false;
    out.push_back(x.index);
    return true;
  };
  return visit(*unchanged.kids[0], visit);
}

bool only_stutters(const Definition& action, std::size_t variables) {
  if (!action.body) return false;
  std::vector<bool> kept(variables, false);
  VariableIndices named;
  auto visit = [&](const Expr& e, auto&& self) -> void {
    if (e.kind == ExprKind::Conj) {
      for (const auto& kid : e.kids) self(*kid, self);
    } else if (e.kind == ExprKind::Unchanged && unchanged_variables(e, named)) {
      for (std::size_t v : named)
        if (v < variables) kept[v] = true;
    }
  };
  visit(*action.body, visit);
  return std::all_of(kept.begin(), kept.end(), [](bool k) { return k; });
}

}  // namespace omnilink::language
