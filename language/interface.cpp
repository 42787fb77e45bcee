#include "language/interface.hpp"

#include <algorithm>
#include <set>

namespace omnilink::language {

namespace {

/// Walks Next's body down to the actions it chooses among.
class ActionFinder {
 public:
  ActionFinder(const std::string& next) : next_(next) {}

  struct Found {
    const Definition* action;
    std::string reference;
    SourcePos at;
  };
  std::vector<Found> found;

  // Whether `e` only chooses among definitions (its leaves are all references to definitions).
  bool only_choices(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::Disj: case ExprKind::Exists: case ExprKind::Forall: case ExprKind::Let:
        return std::all_of(e.kids.begin(), e.kids.end(), [&](const auto& k) { return only_choices(*k); });
      case ExprKind::If: return only_choices(*e.kids[1]) && only_choices(*e.kids[2]);
      case ExprKind::Case: {
        for (std::size_t k = 1; k < e.kids.size(); k += 2)
          if (!only_choices(*e.kids[k])) return false;
        return !e.has_other || only_choices(*e.kids.back());
      }
      case ExprKind::RefDefinition: return e.definition->body != nullptr && !e.definition->constant;
      default: return false;
    }
  }

  void walk(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Disj: case ExprKind::Exists: case ExprKind::Forall:
        for (const auto& k : e.kids) walk(*k);
        return;
      case ExprKind::Let: return walk(*e.kids[0]);
      case ExprKind::If:
        walk(*e.kids[1]);
        return walk(*e.kids[2]);
      case ExprKind::Case:
        for (std::size_t k = 1; k < e.kids.size(); k += 2) walk(*e.kids[k]);
        if (e.has_other) walk(*e.kids.back());
        return;
      case ExprKind::RefDefinition: {
        const Definition& def = *e.definition;
        // A definition without parameters that only chooses among actions (Produce == \E v \in S :
        // Put(v)) is looked through; any other definition is an action.
        const bool own_params = def.params.size() > def.instance_params;
        if (!own_params && def.body && !def.function_bounds.size() && only_choices(*def.body) &&
            std::find(through_.begin(), through_.end(), &def) == through_.end()) {
          through_.push_back(&def);
          walk(*def.body);
          return;
        }
        if (def.constant || !def.body)
          throw SpecError(e.pos.text() + ": in " + next_ + ": " + def.name + " is a constant, not an action");
        if (def.instance_params > 0)
          throw FragmentError(e.pos.text() + ": in " + next_ + ": an action of a parameterised instance (" + def.name +
                              ") is not an operation omnilink can log");
        std::string reference;
        for (const auto& step : e.via) reference += step.name + "!";
        found.push_back({&def, reference + def.name, e.pos});
        return;
      }
      default:
        // A step written inline (x' = x + 1, UNCHANGED vars, a conjunction of steps): no harness
        // can log it by name. If Next has no named action at all, Next itself is the operation.
        inline_steps.push_back(e.pos.text() + (e.pos.excerpt().empty() ? "" : ": " + e.pos.excerpt()));
        return;
    }
  }

  std::vector<std::string> inline_steps;

 private:
  std::string next_;
  std::vector<const Definition*> through_;
};


bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

const Operation* SpecInterface::find(const std::string& name) const {
  for (const auto& op : operations)
    if (op.name == name) return &op;
  return nullptr;
}

std::vector<std::string> param_types(const Operation& op) {
  if (!op.type) return std::vector<std::string>(op.params.size(), "Int");
  const std::string& text = *op.type;
  auto fail = [&](const std::string& why) -> std::vector<std::string> {
    throw SpecError(op.pos.text() + ": in the @type annotation of " + op.name + ": " + why + " in '" + text + "'");
  };
  auto trimmed = [](std::string t) {
    const auto first = t.find_first_not_of(" \t\n"), last = t.find_last_not_of(" \t\n");
    return first == std::string::npos ? std::string() : t.substr(first, last - first + 1);
  };
  // "(T1, ..., Tn) => R": split at the commas outside parentheses and tuple brackets.
  std::size_t i = text.find_first_not_of(" \t\n");
  if (i == std::string::npos || text[i] != '(') return fail("an operator's type starts with '('");
  std::vector<std::string> types;
  std::string current;
  int depth = 0;
  for (++i; i < text.size(); ++i) {
    if (text.compare(i, 2, "->") == 0) {
      current += "->";
      ++i;
    } else if (text.compare(i, 2, "<<") == 0 || text.compare(i, 2, ">>") == 0) {
      depth += text[i] == '<' ? 1 : -1;
      current += text.substr(i, 2);
      ++i;
    } else if (text[i] == '(') {
      ++depth, current += '(';
    } else if (text[i] == ')' && depth > 0) {
      --depth, current += ')';
    } else if ((text[i] == ',' || text[i] == ')') && depth == 0) {
      const std::string type = trimmed(current);
      if (type.empty() && (text[i] == ',' || !types.empty())) return fail("a parameter type is missing");
      if (!type.empty()) types.push_back(type);
      current.clear();
      if (text[i] == ')') break;
    } else {
      current += text[i];
    }
  }
  if (i >= text.size()) return fail("expected ')'");
  const std::string rest = trimmed(text.substr(i + 1));
  if (!rest.starts_with("=>") || trimmed(rest.substr(2)).empty()) return fail("expected '=>' and the result type after the parameter types");
  if (types.size() != op.params.size())
    throw SpecError(op.pos.text() + ": the @type annotation of " + op.name + " lists " + std::to_string(types.size()) +
                    " parameter types, the action has " + std::to_string(op.params.size()));
  return types;
}

SpecInterface spec_interface(LoadedSpec& spec, const std::string& next) {
  SpecInterface out;
  out.file = spec.spec_module().file;
  out.module = spec.spec_module().name;
  out.next = next;
  out.variables = spec.variables();
  for (const Module* m : spec.spec_closure())
    for (const auto& c : m->constants)
      if (std::find(out.constants.begin(), out.constants.end(), c.name) == out.constants.end()) out.constants.push_back(c.name);

  const Definition* next_def = spec.spec_definition_structure(next);
  if (next_def == nullptr)
    throw SpecError(spec.spec_module().pos.text() + ": no definition of " + next + " (the next-state relation) in module " + out.module);
  if (!next_def->params.empty()) throw SpecError(next_def->pos.text() + ": " + next + " must not take parameters");
  ActionFinder finder(next);
  finder.walk(*next_def->body);
  if (finder.found.empty()) {
    finder.found.push_back({next_def, next, next_def->pos});
  } else {
    out.inline_steps = std::move(finder.inline_steps);
  }

  // The actions, each once, in the order Next first reaches them.
  std::vector<ActionFinder::Found> actions;
  for (const auto& f : finder.found) {
    auto same_name = std::find_if(actions.begin(), actions.end(), [&](const auto& a) { return a.action->name == f.action->name; });
    if (same_name == actions.end()) {
      actions.push_back(f);
    } else if (same_name->action != f.action) {
      throw SpecError(f.at.text() + ": in " + next + ": two different actions are named " + f.action->name + " (" +
                      same_name->reference + " and " + f.reference + "): the harness could not tell them apart");
    }
  }
  auto own_params = [](const Definition& d) {
    std::vector<std::string> names;
    for (std::size_t k = d.instance_params; k < d.params.size(); ++k) names.push_back(d.params[k]->name);
    return names;
  };
  auto find_action = [&](const std::string& name) {
    return std::find_if(actions.begin(), actions.end(), [&](const auto& a) { return a.action->name == name; });
  };
  // `@inputs: a, b;` as a list of the action's parameters; an error for a name that is none of them.
  auto declared_inputs = [&](const Definition& d) -> std::optional<std::vector<std::string>> {
    if (!d.inputs_annotation) return std::nullopt;
    const std::vector<std::string> params = own_params(d);
    std::vector<std::string> inputs;
    std::string name;
    for (const char c : *d.inputs_annotation + ",") {
      if (c != ',' && c != ' ') {
        name += c;
        continue;
      }
      if (name.empty()) continue;
      if (std::find(params.begin(), params.end(), name) == params.end())
        throw SpecError(d.pos.text() + ": the @inputs annotation of " + d.name + " names '" + name + "', which is not one of its parameters");
      if (std::find(inputs.begin(), inputs.end(), name) == inputs.end()) inputs.push_back(name);
      name.clear();
    }
    return inputs;
  };
  // X_Step + X_Done (same parameters) form one operation X; every other action is its own.
  for (const auto& a : actions) {
    const Definition& def = *a.action;
    if (ends_with(def.name, "_Done")) {
      const std::string base = def.name.substr(0, def.name.size() - 5);
      if (find_action(base + "_Step") == actions.end())
        throw SpecError(def.pos.text() + ": " + def.name + " has no matching " + base + "_Step in " + next);
      continue;  // with its _Step
    }
    if (ends_with(def.name, "_Step")) {
      const std::string base = def.name.substr(0, def.name.size() - 5);
      auto done = find_action(base + "_Done");
      if (done == actions.end()) throw SpecError(def.pos.text() + ": " + def.name + " has no matching " + base + "_Done in " + next);
      if (own_params(*done->action) != own_params(def))
        throw SpecError(done->action->pos.text() + ": " + base + "_Done must have the same parameters as " + def.name);
      out.operations.push_back({base, own_params(def), def.type_annotation, true, def.pos,
                                a.reference.substr(0, a.reference.size() - 5), &def, done->action, declared_inputs(def)});
      continue;
    }
    out.operations.push_back({def.name, own_params(def), def.type_annotation, false, def.pos, a.reference, &def, nullptr,
                              declared_inputs(def)});
  }
  if (next_def->groups_annotation) {
    std::string field = *next_def->groups_annotation;
    field.erase(0, field.find_first_not_of(" \t"));
    field.erase(field.find_last_not_of(" \t") + 1);
    const bool used = std::any_of(out.operations.begin(), out.operations.end(),
                                  [&](const Operation& op) { return std::find(op.params.begin(), op.params.end(), field) != op.params.end(); });
    if (!used)
      throw SpecError(next_def->pos.text() + ": the @groups annotation of " + next + " names '" + field +
                      "', which is a parameter of none of its actions");
    out.group_field = field;
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> constants_without_value(const std::vector<const Definition*>& roots) {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<const Definition*> seen;
  for (const Definition* start : roots) {
    if (start == nullptr) continue;
    std::vector<std::pair<const Definition*, const Definition*>> stack{{start, start}};  // a definition, and its user
    while (!stack.empty()) {
      const auto [d, user] = stack.back();
      stack.pop_back();
      if (!seen.insert(d).second) continue;
      if (d->constant) {
        if (std::none_of(out.begin(), out.end(), [&](const auto& c) { return c.first == d->name; })) out.emplace_back(d->name, user->name);
        continue;
      }
      std::vector<const Definition*> refs;
      if (d->body) references(*d->body, refs);
      for (const auto& b : d->function_bounds)
        if (b.set) references(*b.set, refs);
      for (const Definition* r : refs) stack.emplace_back(r, d);
    }
  }
  return out;
}

}  // namespace omnilink::language
