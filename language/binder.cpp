// Binding a definition's names (LoadedSpec::bind and its helpers): each name in its body resolved
// to a bound symbol, a LET or module-level definition, an instance's operator, a constant or
// variable, or a standard operator its modules provide, as TLC resolves them; an instance's
// substitutions bound in the instantiating scope. Beside it, the fragment check over bound
// definitions (what the embedded checker cannot evaluate). Loading the modules and building their
// scopes is modules.cpp's.
#include <algorithm>
#include <functional>

#include "language/modules.hpp"
#include "language/scope.hpp"

namespace omnilink::language {

namespace {

/// The arity of a standard operator's operator parameter at `position`, 0 for a value parameter.
std::size_t builtin_operator_param(Builtin b, std::size_t position) {
  if (b == Builtin::SelectSeq && position == 1) return 1;  // SelectSeq(s, Test(_))
  if (b == Builtin::SortSeq && position == 1) return 2;    // SortSeq(s, _ \prec _)
  return 0;
}

}  // namespace

void LoadedSpec::bind(Definition& def, const std::shared_ptr<Scope>& scope) {
  ++binding_depth_;
  struct Leave {
    int& depth;
    ~Leave() { --depth; }
  } leave{binding_depth_};
  Binding b{scope, {}, {}, &def, &def};
  bind_body(def, b);
  unsettled_.push_back(&def);
  if (binding_depth_ > 1) return;
  for (Definition* d : unsettled_) {
    std::vector<const Definition*> visiting;
    d->uses_state = uses_state(*d, visiting);
    visiting.clear();
    if (d->unsupported.empty()) d->unsupported = unsupported_use(*d, visiting);
    mark_once_per_let(*d);
  }
  unsettled_.clear();
}

// A definition's bound sets, then its body with its parameters (and function arguments) in force.
void LoadedSpec::bind_body(Definition& def, Binding& b) {
  def.resolved = true;  // first: a recursive definition refers to itself
  const std::size_t depth = b.symbols.size();
  Definition* enclosing = b.current;
  b.current = &def;
  for (auto& bound : def.function_bounds)
    if (bound.set) bind(*bound.set, b);
  for (auto& bound : def.function_bounds)
    for (auto& s : bound.names) b.symbols.push_back(s.get());
  for (auto& p : def.params) b.symbols.push_back(p.get());
  bind(*def.body, b);
  b.symbols.resize(depth);
  b.current = enclosing;
}

namespace {

// Calls f on every subexpression of a definition's body and bound sets.
void for_each_in(const Definition& def, const std::function<void(const Expr&)>& f) {
  if (def.body) for_each_subexpression(*def.body, f);
  for (const auto& b : def.function_bounds)
    if (b.set) for_each_subexpression(*b.set, f);
}

// The definitions `def` refers to, and whether it mentions what `mentions` looks for, in one walk:
// this runs for every definition at load.
template <class Mentions>
bool collect_references(const Definition& def, const Mentions& mentions, std::vector<const Definition*>& refs) {
  bool found = false;
  for_each_in(def, [&](const Expr& x) {
    if (const Definition* d = referenced_definition(x)) refs.push_back(d);
    found = found || mentions(x);
  });
  return found;
}

bool reads_next_state(const Expr& x) {
  return x.kind == ExprKind::RefPrimed || x.kind == ExprKind::Prime || x.kind == ExprKind::Unchanged || x.kind == ExprKind::Enabled;
}
bool reads_state(const Expr& x) { return x.kind == ExprKind::RefVariable || reads_next_state(x); }

}  // namespace

bool LoadedSpec::uses_state(const Definition& def, std::vector<const Definition*>& visiting) const {
  if (def.constant || !def.body) return false;
  if (std::find(visiting.begin(), visiting.end(), &def) != visiting.end()) return false;
  visiting.push_back(&def);
  std::vector<const Definition*> refs;
  bool state = collect_references(def, reads_state, refs);
  for (const Definition* r : refs) {
    if (state) break;
    if (r != nullptr && r->resolved && r != &def) state = r->uses_state || uses_state(*r, visiting);
  }
  visiting.pop_back();
  return state;
}

namespace {

// Whether a definition's value may depend on more than the current state and the names in force
// where it is written: the next state, here or in a definition it refers to; in its own body
// (`own`: a LET definition's), also an operator parameter, whose operator comes from whoever
// called the enclosing one.
bool reads_beyond_state(const Definition& def, bool own, std::vector<const Definition*>& visiting) {
  if (def.constant || !def.body) return false;
  if (std::find(visiting.begin(), visiting.end(), &def) != visiting.end()) return false;
  visiting.push_back(&def);
  std::vector<const Definition*> refs;
  bool beyond = collect_references(def, [own](const Expr& x) {
    return reads_next_state(x) || (own && (x.kind == ExprKind::RefOperatorParam || (x.kind == ExprKind::OperatorArg && x.symbol != nullptr)));
  }, refs);
  for (const Definition* r : refs)
    if (!beyond && r != nullptr && r->resolved && r != &def) beyond = reads_beyond_state(*r, /*own=*/r->in_let, visiting);
  visiting.pop_back();
  return beyond;
}

}  // namespace

void LoadedSpec::mark_once_per_let(const Definition& def) const {
  for_each_in(def, [](const Expr& x) {
    if (x.kind != ExprKind::Let) return;
    for (const auto& d : x.definitions) {
      std::vector<const Definition*> visiting;
      d->once_per_let = d->params.empty() && !reads_beyond_state(*d, /*own=*/true, visiting);
    }
  });
}

std::string LoadedSpec::unsupported_use(const Definition& def, std::vector<const Definition*>& visiting) const {
  if (!def.unsupported.empty()) return def.unsupported;
  if (def.constant || !def.body || std::find(visiting.begin(), visiting.end(), &def) != visiting.end()) return "";
  visiting.push_back(&def);
  std::vector<const Definition*> refs;
  collect_references(def, [](const Expr&) { return false; }, refs);
  std::string found;
  for (const Definition* r : refs)
    if (found.empty() && r != nullptr && r->resolved && r != &def) found = unsupported_use(*r, visiting);
  visiting.pop_back();
  return found;
}

namespace {

ExprPtr bound_reference(const Symbol* s, const SourcePos& at) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::RefBound;
  e->symbol = s;
  e->text = s->name;
  e->pos = at;
  return e;
}

}  // namespace

// The arguments of a call: value arguments bound as expressions, operator arguments as
// operators of the arity the callee's parameter takes.
void LoadedSpec::bind_arguments(Expr& e, const Definition* callee, std::size_t first, Binding& b) {
  for (std::size_t k = first; k < e.kids.size(); ++k) {
    std::size_t arity = 0;
    if (callee != nullptr && !callee->constant) arity = callee->params.at(callee->instance_params + k - first)->arity;
    else if (callee == nullptr) arity = builtin_operator_param(e.builtin, k);
    if (arity > 0) bind_operator_argument(*e.kids[k], arity, b);
    else bind(*e.kids[k], b);
  }
}

// A standard operator written as a symbol (+, \o, :>) exists only where its module is extended
// or instantiated, as in TLC.
void LoadedSpec::require_module_of(Builtin builtin, const Expr& e, const Binding& b) const {
  const char* module = module_of_builtin(builtin);
  if (module == nullptr) return;
  for (const auto& [name, op] : b.scope->visible.standard)
    if (op->builtin == builtin) return;
  throw SpecError(e.pos.text() + ": " + (e.text.empty() ? std::string("this operator") : e.text) + " is defined by the standard module " +
                  module + ", which this module does not extend (EXTENDS " + module + ")");
}

void LoadedSpec::bind_operator_argument(Expr& e, std::size_t arity, Binding& b) {
  auto error = [&](const std::string& what) { return SpecError(e.pos.text() + ": " + what); };
  if (e.kind == ExprKind::Lambda) {
    Definition& lambda = *e.definitions[0];
    if (lambda.params.size() != arity)
      throw error("a LAMBDA of " + std::to_string(lambda.params.size()) + " parameter(s) where an operator of " +
                  std::to_string(arity) + " argument(s) is expected");
    lambda.in_let = true;  // it sees the bound names where it is written: never cached
    bind_body(lambda, b);
    return;
  }
  if (e.kind != ExprKind::Name && e.kind != ExprKind::OperatorArg && !(e.kind == ExprKind::Apply && e.kids.empty()))
    throw error("expected an operator of " + std::to_string(arity) + " argument(s) (a name or a LAMBDA) here");
  const std::string name = e.text;
  e.kind = ExprKind::OperatorArg;
  if (!e.via.empty()) throw FragmentError(e.pos.text() + ": an operator of an instance (" + name + ") passed as an argument");
  for (auto it = b.symbols.rbegin(); it != b.symbols.rend(); ++it)
    if ((*it)->name == name) {
      if ((*it)->arity != arity) throw error(shown(name) + " is not an operator of " + std::to_string(arity) + " argument(s)");
      e.symbol = *it;
      return;
    }
  for (std::size_t f = b.lets.size(); f-- > 0;)
    for (Definition* d : b.lets[f].definitions)
      if (d->name == name) {
        if (d->params.size() != arity)
          throw error(shown(name) + " takes " + std::to_string(d->params.size()) + " argument(s), not " + std::to_string(arity));
        if (!d->resolved) {
          Binding at_let{b.scope, std::vector<const Symbol*>(b.symbols.begin(), b.symbols.begin() + b.lets[f].symbols),
                         std::vector<LetScope>(b.lets.begin(), b.lets.begin() + f + 1), b.current, b.top};
          bind_body(*d, at_let);
        }
        e.definition = d;
        return;
      }
  const Names& names = b.scope->visible;
  if (auto d = names.definitions.find(name); d != names.definitions.end()) {
    Definition* def = d->second;
    if (def->params.size() - def->instance_params != arity)
      throw error(shown(name) + " takes " + std::to_string(def->params.size() - def->instance_params) + " argument(s), not " +
                  std::to_string(arity));
    if (!def->resolved && !def->constant) bind(*def, home_.at(def));
    for (std::size_t k = 0; k < def->instance_params; ++k) e.kids.push_back(bound_reference(b.top->params[k].get(), e.pos));
    e.definition = def;
    return;
  }
  if (auto s = names.standard.find(name); s != names.standard.end() && !s->second->refusal) {
    if (static_cast<std::size_t>(s->second->arity) != arity)
      throw error(name + " takes " + std::to_string(s->second->arity) + " argument(s), not " + std::to_string(arity));
    e.builtin = s->second->builtin;
    return;
  }
  if (name.starts_with("$")) {
    const Builtin builtin = builtin_of_symbol(name.substr(1), arity);
    if (builtin != Builtin::None) {
      require_module_of(builtin, e, b);
      e.builtin = builtin;
      return;
    }
  }
  throw error("unknown operator " + shown(name) + " passed as an argument");
}

void LoadedSpec::resolve(Expr& e, Binding& b) {
  auto fragment_error = [&](const std::string& what) {
    return FragmentError(e.pos.text() + ": " + what + (b.current && !b.current->name.empty() ? " (in " + shown(b.current->name) + ")" : ""));
  };
  auto spec_error = [&](const std::string& what) {
    return SpecError(e.pos.text() + ": " + what + (b.current && !b.current->name.empty() ? " (in " + shown(b.current->name) + ")" : ""));
  };
  const std::string name = e.text;
  const std::size_t arity = e.kids.size();
  auto arity_error = [&](std::size_t expected) {
    return spec_error(shown(name) + " takes " + std::to_string(expected) + " argument(s), given " + std::to_string(arity));
  };

  // I!Op, J(1)!N!Op: the instance scopes along the path, and the instance parameters given.
  std::shared_ptr<Scope> scope = b.scope;
  std::vector<ExprPtr> prefix;
  for (std::size_t k = 0; k < scope->prefix.size(); ++k) prefix.push_back(bound_reference(b.top->params[k].get(), e.pos));
  for (InstanceStep& step : e.via) {
    auto it = scope->visible.instances.find(step.name);
    if (it == scope->visible.instances.end()) throw spec_error("no instance named " + step.name + " (for " + step.name + "!" + shown(name) + ")");
    std::shared_ptr<Scope> next = it->second;
    if (next->prefix.size() - scope->prefix.size() != step.args.size())
      throw spec_error("the instance " + step.name + " takes " + std::to_string(next->prefix.size() - scope->prefix.size()) +
                       " parameter(s), given " + std::to_string(step.args.size()));
    for (auto& a : step.args) {
      bind(*a, b);
      prefix.push_back(std::move(a));
    }
    scope = next;
  }
  const bool through_instance = !e.via.empty();
  const Names& names = through_instance ? scope->exported : scope->visible;

  if (!through_instance) {
    for (auto it = b.symbols.rbegin(); it != b.symbols.rend(); ++it) {
      if ((*it)->name != name) continue;
      if ((*it)->arity != arity) {
        if ((*it)->arity == 0) throw spec_error(shown(name) + " is not an operator: it is applied to " + std::to_string(arity) + " argument(s)");
        throw spec_error("the operator parameter " + shown(name) + " takes " + std::to_string((*it)->arity) + " argument(s), given " +
                         std::to_string(arity));
      }
      e.symbol = *it;
      if (arity == 0) {
        e.kind = ExprKind::RefBound;
        return;
      }
      e.kind = ExprKind::RefOperatorParam;
      for (auto& k : e.kids) bind(*k, b);
      return;
    }
    for (std::size_t f = b.lets.size(); f-- > 0;)
      for (Definition* d : b.lets[f].definitions) {
        if (d->name != name) continue;
        // A LET definition used before the LET reaches it (RECURSIVE): bound now, with the names
        // in force at its LET.
        if (!d->resolved) {
          Binding at_let{b.scope, std::vector<const Symbol*>(b.symbols.begin(), b.symbols.begin() + b.lets[f].symbols),
                         std::vector<LetScope>(b.lets.begin(), b.lets.begin() + f + 1), b.current, b.top};
          bind_body(*d, at_let);
        }
        if (d->params.size() != arity) throw arity_error(d->params.size());
        e.kind = ExprKind::RefDefinition;
        e.definition = d;
        bind_arguments(e, d, 0, b);
        return;
      }
  }
  // A constant or variable of an instantiated module: what the instance substitutes for it, bound
  // where the INSTANCE is written (with the instance parameters in force).
  if (auto sub = scope->substitutions.find(name); sub != scope->substitutions.end()) {
    if (through_instance && scope->prefix.size() != b.scope->prefix.size())
      throw fragment_error("a constant of a parameterised instance (" + shown(name) + ")");
    ExprPtr copy = clone(*sub->second.expr);
    Binding there{sub->second.scope, {}, {}, b.current, b.top};
    for (std::size_t k = 0; k < scope->prefix.size(); ++k) there.symbols.push_back(b.top->params[k].get());
    if (arity == 0) {
      bind(*copy, there);
      e = std::move(*copy);
      return;
    }
    // CONSTANT Send(_, _) WITH Send <- Op (or a LAMBDA): a call of that operator, its arguments
    // bound here.
    bind_operator_argument(*copy, arity, there);
    for (auto& k : e.kids) bind(*k, b);
    if (copy->kind == ExprKind::Lambda) {
      e.kind = ExprKind::RefDefinition;
      e.definition = copy->definitions[0].get();
      scope->owned_exprs.push_back(std::move(copy));  // the LAMBDA's definition lives as long as the scope
    } else if (copy->definition != nullptr) {
      e.kind = ExprKind::RefDefinition;
      e.definition = copy->definition;
      for (auto& k : e.kids) copy->kids.push_back(std::move(k));  // the instance parameters it was given first
      e.kids = std::move(copy->kids);
    } else if (copy->symbol != nullptr) {
      e.kind = ExprKind::RefOperatorParam;
      e.symbol = copy->symbol;
    } else {
      e.kind = ExprKind::RefBuiltin;
      e.builtin = copy->builtin;
    }
    return;
  }
  if (auto v = names.variables.find(name); v != names.variables.end()) {
    if (arity != 0) throw spec_error("the variable " + name + " is applied to arguments");
    e.kind = ExprKind::RefVariable;
    e.index = v->second;
    return;
  }
  if (auto d = names.definitions.find(name); d != names.definitions.end()) {
    Definition* def = d->second;
    if (def->params.size() - def->instance_params != arity) {
      if (arity == 0)
        throw spec_error("the operator " + shown(name) + " used without its arguments (an operator is passed only as an argument "
                         "to an operator that declares an operator parameter, F(_))");
      throw arity_error(def->params.size() - def->instance_params);
    }
    if (!def->resolved && !def->constant) bind(*def, home_.at(def));
    e.kind = ExprKind::RefDefinition;
    e.definition = def;
    bind_arguments(e, def, 0, b);
    if (def->instance_params > 0) {
      if (prefix.size() < def->instance_params) throw fragment_error("internal: instance parameters missing for " + shown(name));
      prefix.resize(def->instance_params);
      for (auto& k : e.kids) prefix.push_back(std::move(k));
      e.kids = std::move(prefix);
    }
    return;
  }
  if (auto s = names.standard.find(name); s != names.standard.end()) {
    if (s->second->refusal) throw fragment_error(std::string(s->second->refusal));
    if (static_cast<std::size_t>(s->second->arity) != arity) throw arity_error(s->second->arity);
    e.kind = ExprKind::RefBuiltin;
    e.builtin = s->second->builtin;
    bind_arguments(e, nullptr, 0, b);
    return;
  }
  if (!names.opaque.empty())
    throw fragment_error("unknown name " + shown(name) + ", perhaps from a module the embedded checker does not implement (" +
                         names.opaque.front() + ")");
  throw spec_error("unknown name " + shown(name) + " (not defined in the module, the modules it extends or instantiates, or the "
                   "standard modules)");
}

void LoadedSpec::bind(Expr& e, Binding& b) {
  // What the embedded checker does not evaluate marks the definitions it is in, which are refused
  // when something asks to evaluate them; their structure stays readable (spec_interface).
  try {
    bind_node(e, b);
  } catch (const FragmentError& error) {
    for (Definition* d : {b.current, b.top})
      if (d != nullptr && d->unsupported.empty()) d->unsupported = error.what();
    e.kind = ExprKind::Unsupported;
    e.text = error.what();
    e.kids.clear();
  }
}

void LoadedSpec::bind_node(Expr& e, Binding& b) {
  auto bind_kids = [&] {
    for (auto& k : e.kids) bind(*k, b);
  };
  switch (e.kind) {
    case ExprKind::Name: case ExprKind::Apply:
      resolve(e, b);
      return;
    case ExprKind::RefBuiltin:  // the parser's: a standard operator written as a symbol
      require_module_of(e.builtin, e, b);
      bind_arguments(e, nullptr, 0, b);
      return;
    case ExprKind::Prime:
      bind_kids();
      if (e.kids[0]->kind == ExprKind::RefVariable) {  // x': a variable of the next state, which an action may assign
        e.kind = ExprKind::RefPrimed;
        e.index = e.kids[0]->index;
        e.kids.clear();
      }
      return;
    case ExprKind::Let: {
      LetScope let{{}, b.symbols.size()};
      for (auto& d : e.definitions) {
        d->in_let = true;
        let.definitions.push_back(d.get());
      }
      b.lets.push_back(std::move(let));
      for (auto& d : e.definitions)
        if (!d->resolved) bind_body(*d, b);
      bind_kids();
      b.lets.pop_back();
      return;
    }
    case ExprKind::Exists: case ExprKind::Forall: case ExprKind::Choose: case ExprKind::SetFilter:
    case ExprKind::SetMap: case ExprKind::FcnConstruct: {
      const std::size_t depth = b.symbols.size();
      for (auto& bound : e.bounds) {
        if (bound.set) bind(*bound.set, b);
      }
      for (auto& bound : e.bounds)
        for (auto& s : bound.names) b.symbols.push_back(s.get());
      bind_kids();
      b.symbols.resize(depth);
      return;
    }
    case ExprKind::Except:
      bind_kids();
      for (auto& u : e.updates) {
        for (auto& s : u.path)
          if (s.argument) bind(*s.argument, b);
          else s.field_key = Value::interned(s.field);
        bind(*u.value, b);
      }
      return;
    // A record's field names are made values once here, interned: building a string value
    // allocates, records are built and read at most steps of a transactional spec, and a field is
    // found among a record's by identity (Value::interned).
    case ExprKind::Field:
      e.value = Value::interned(e.text);
      bind_kids();
      return;
    case ExprKind::Record: {
      std::vector<std::size_t> order(e.fields.size());
      for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
      std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return e.fields[x] < e.fields[y]; });
      e.field_keys.clear();
      e.field_slots.assign(order.size(), 0);
      for (std::size_t slot = 0; slot < order.size(); ++slot) {
        if (slot > 0 && e.fields[order[slot]] == e.fields[order[slot - 1]])
          throw SpecError(e.pos.text() + ": the record names the field " + e.fields[order[slot]] + " twice (SANY: non-unique fields in constructor)");
        e.field_keys.push_back(Value::interned(e.fields[order[slot]]));
        e.field_slots[order[slot]] = slot;
      }
      bind_kids();
      return;
    }
    case ExprKind::Lambda: case ExprKind::OperatorArg:
      throw SpecError(e.pos.text() + ": an operator (" + (e.kind == ExprKind::Lambda ? std::string("LAMBDA") : shown(e.text)) +
                      ") where a value is expected");
    case ExprKind::Unsupported:
      throw FragmentError(e.pos.text() + ": " + e.text + " is not evaluated by the embedded checker (docs/validation.md)" +
                          (b.current && !b.current->name.empty() ? " (in " + shown(b.current->name) + ")" : ""));
    default:
      bind_kids();
      return;
  }
}

}  // namespace omnilink::language
