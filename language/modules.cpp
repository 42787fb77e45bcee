#include "language/modules.hpp"

#include <algorithm>

#include "language/syntax.hpp"

namespace omnilink::language {
namespace fs = std::filesystem;

namespace {

struct StandardOperator {
  const char* module;
  const char* name;
  Builtin builtin;
  int arity;
};

// The standard modules' operators the fragment implements, by name (operators written as symbols,
// + or \o, are recognised by the parser).
constexpr StandardOperator kStandard[] = {
    {"Naturals", "Nat", Builtin::Nat, 0},          {"Integers", "Int", Builtin::Int, 0},
    {"Integers", "Nat", Builtin::Nat, 0},          {"Sequences", "Seq", Builtin::Seq, 1},
    {"Sequences", "Len", Builtin::Len, 1},         {"Sequences", "Append", Builtin::Append, 2},
    {"Sequences", "Head", Builtin::Head, 1},       {"Sequences", "Tail", Builtin::Tail, 1},
    {"Sequences", "SubSeq", Builtin::SubSeq, 3},   {"FiniteSets", "Cardinality", Builtin::Cardinality, 1},
    {"FiniteSets", "IsFiniteSet", Builtin::IsFiniteSet, 1}, {"TLC", "Assert", Builtin::Assert, 2},
    {"TLC", "ToString", Builtin::ToString, 1},     {"TLC", "Print", Builtin::Print, 2},
    {"TLC", "PrintT", Builtin::PrintT, 1},         {"TLC", "Permutations", Builtin::Permutations, 1},
    {"OmniLinkTrace", "OmniLinkFieldValues", Builtin::OmniLinkFieldValues, 2},
};

// Standard modules: the ones above, and what each extends.
bool is_standard(const std::string& m) {
  return m == "Naturals" || m == "Integers" || m == "Sequences" || m == "FiniteSets" || m == "TLC" || m == "OmniLinkTrace";
}
std::vector<std::string> standard_extends(const std::string& m) {
  if (m == "Integers" || m == "Sequences" || m == "FiniteSets" || m == "TLC") return {"Naturals"};
  if (m == "OmniLinkTrace") return {"Integers", "Sequences", "FiniteSets", "TLC"};
  return {};
}
constexpr const char* kUnimplemented[] = {"Bags", "Reals", "RealTime", "TLCExt", "Json", "Randomization", "Toolbox", "IOUtils",
                                          "CSV", "Functions", "SequencesExt", "FiniteSetsExt", "Folds", "BagsExt"};

bool plain_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

}  // namespace

/// What a name means in one module: its definitions, constants and variables and those of the
/// modules it extends, and the standard operators it can see.
struct LoadedSpec::Scope {
  std::map<std::string, Definition*> definitions;  // constants too (Definition::constant)
  std::map<std::string, std::size_t> variables;
  std::map<std::string, const StandardOperator*> standard;
};

/// One LET's definitions, and how many bound symbols were in force at the LET (its definitions
/// see those, whichever of them is bound first).
struct LetScope {
  std::vector<Definition*> definitions;
  std::size_t symbols = 0;
};

/// The names in force while binding one definition: bound symbols and LET definitions, innermost last.
struct Binding {
  std::shared_ptr<LoadedSpec::Scope> scope;
  std::vector<const Symbol*> symbols;
  std::vector<LetScope> lets;
  const Definition* current = nullptr;  // for messages
};

std::unique_ptr<LoadedSpec> LoadedSpec::load(const fs::path& spec, const std::optional<fs::path>& mc) {
  std::unique_ptr<LoadedSpec> loaded(new LoadedSpec());
  loaded->dirs_.push_back(fs::absolute(spec).parent_path());
  if (mc) loaded->dirs_.push_back(fs::absolute(*mc).parent_path());
  Module parsed = parse_module_file(spec.string());
  loaded->spec_name_ = parsed.name;
  const std::string spec_name = parsed.name;
  loaded->modules_[spec_name] = std::make_unique<Module>(std::move(parsed));
  if (mc) {
    Module mc_parsed = parse_module_file(mc->string());
    loaded->mc_name_ = mc_parsed.name;
    if (loaded->modules_.count(mc_parsed.name)) throw FragmentError(mc->string() + ": the MC module has the spec's name " + mc_parsed.name);
    loaded->modules_[loaded->mc_name_] = std::make_unique<Module>(std::move(mc_parsed));
  }
  auto scope = loaded->scope_of(spec_name);
  // The spec's variables, in declaration order (extended modules' first), index the state.
  std::vector<std::pair<std::size_t, std::string>> ordered;
  for (const auto& [name, index] : scope->variables) ordered.emplace_back(index, name);
  std::sort(ordered.begin(), ordered.end());
  for (const auto& [index, name] : ordered) loaded->variables_.push_back(name);
  if (mc) {
    auto mc_scope = loaded->scope_of(loaded->mc_name_);
    for (const auto& [name, index] : mc_scope->variables)
      if (!scope->variables.count(name))
        throw FragmentError(mc->string() + ": the MC module declares the variable " + name + ", which the spec does not have");
    // The MC module's values for the spec's constants, bound now: evaluation only reads.
    for (const auto& [name, def] : scope->definitions)
      if (def->constant) loaded->mc_definition(name);
  }
  return loaded;
}

Module& LoadedSpec::read_module(const std::string& name, const fs::path& dir, const SourcePos& from) {
  if (auto it = modules_.find(name); it != modules_.end()) return *it->second;
  for (const char* m : kUnimplemented)
    if (name == m) throw FragmentError(from.text() + ": EXTENDS " + name + ": a standard module the embedded checker does not implement");
  if (!plain_name(name)) throw FragmentError(from.text() + ": bad module name " + name);
  for (const fs::path& d : dirs_) {
    const fs::path file = d / (name + ".tla");
    if (fs::is_regular_file(file)) {
      modules_[name] = std::make_unique<Module>(parse_module_file(file.string()));
      return *modules_[name];
    }
  }
  throw FragmentError(from.text() + ": EXTENDS " + name + ": no " + name + ".tla beside the spec (" + dir.string() + ")");
}

std::shared_ptr<LoadedSpec::Scope> LoadedSpec::scope_of(const std::string& name) {
  if (auto it = scopes_.find(name); it != scopes_.end()) return it->second;
  auto scope = std::make_shared<Scope>();
  scopes_[name] = scope;  // before the extends: a cycle then finds this (incomplete) scope
  if (is_standard(name)) {
    for (const auto& op : kStandard)
      if (name == op.module) scope->standard[op.name] = &op;
    for (const auto& base : standard_extends(name)) {
      auto inner = scope_of(base);
      scope->standard.insert(inner->standard.begin(), inner->standard.end());
    }
    return scope;
  }
  Module& m = *modules_.at(name);
  const SourcePos at{intern_file_name(m.file), 1, 1};
  for (const auto& base : m.extends) {
    if (!is_standard(base)) read_module(base, fs::path(m.file).parent_path(), at);
    auto inner = scope_of(base);
    scope->definitions.insert(inner->definitions.begin(), inner->definitions.end());
    scope->standard.insert(inner->standard.begin(), inner->standard.end());
    for (const auto& [v, index] : inner->variables) scope->variables.emplace(v, index);
  }
  for (const auto& v : m.variables) {
    // Variables of the spec are numbered in declaration order; an MC module's share the spec's
    // numbers (it declares them to define a VIEW over them).
    std::size_t index = scope->variables.size();
    if (name != spec_name_ && scopes_.count(spec_name_) && scopes_[spec_name_]->variables.count(v)) index = scopes_[spec_name_]->variables[v];
    scope->variables.emplace(v, index);
  }
  for (const auto& c : m.constants) {
    auto def = std::make_unique<Definition>();
    def->name = c;
    def->pos = at;
    def->constant = true;
    def->resolved = true;
    scope->definitions[c] = def.get();
    m.definitions.push_back(std::move(def));
  }
  for (auto& d : m.definitions) {
    if (d->constant) continue;
    if (d->name.empty()) continue;  // an INSTANCE: refused if anything uses it (it defines no name)
    scope->definitions[d->name] = d.get();
    home_[d.get()] = scope;
  }
  return scope;
}

const Definition* LoadedSpec::spec_definition(const std::string& name) {
  auto scope = scope_of(spec_name_);
  auto it = scope->definitions.find(name);
  if (it == scope->definitions.end()) return nullptr;
  if (!it->second->resolved) bind(*it->second, home_.at(it->second));
  return it->second;
}

const Definition* LoadedSpec::mc_definition(const std::string& name) {
  if (mc_name_.empty()) return nullptr;
  auto scope = scope_of(mc_name_);
  auto it = scope->definitions.find(name);
  if (it == scope->definitions.end() || it->second->constant) return nullptr;
  if (!it->second->resolved) bind(*it->second, home_.at(it->second));
  return it->second;
}

const Definition* LoadedSpec::constant_substitute(const Definition& constant) const {
  if (mc_name_.empty()) return nullptr;
  const auto& scope = scopes_.at(mc_name_);
  auto it = scope->definitions.find(constant.name);
  if (it == scope->definitions.end() || it->second->constant) return nullptr;
  return it->second;
}

void LoadedSpec::bind(Definition& def, const std::shared_ptr<Scope>& scope) {
  ++binding_depth_;
  struct Leave {
    int& depth;
    ~Leave() { --depth; }
  } leave{binding_depth_};
  Binding b{scope, {}, {}, &def};
  bind_body(def, b);
  unsettled_.push_back(&def);
  if (binding_depth_ > 1) return;
  for (Definition* d : unsettled_) {
    std::vector<const Definition*> visiting;
    d->uses_state = uses_state(*d, visiting);
  }
  unsettled_.clear();
}

// A definition's bound sets, then its body with its parameters (and function arguments) in force.
void LoadedSpec::bind_body(Definition& def, Binding& b) {
  def.resolved = true;  // first: a recursive definition refers to itself
  const std::size_t depth = b.symbols.size();
  const Definition* enclosing = b.current;
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

// Whether an expression mentions state (a variable, or a definition that does).
void collect_references(const Expr& e, bool& state, std::vector<const Definition*>& refs) {
  if (e.kind == ExprKind::RefVariable || e.kind == ExprKind::RefPrimed || e.kind == ExprKind::Unchanged) state = true;
  if (e.kind == ExprKind::RefDefinition) refs.push_back(e.definition);
  for (const auto& k : e.kids) collect_references(*k, state, refs);
  for (const auto& b : e.bounds)
    if (b.set) collect_references(*b.set, state, refs);
  for (const auto& u : e.updates) {
    for (const auto& s : u.path)
      if (s.argument) collect_references(*s.argument, state, refs);
    collect_references(*u.value, state, refs);
  }
  for (const auto& d : e.definitions) {
    if (d->body) collect_references(*d->body, state, refs);
    for (const auto& b : d->function_bounds)
      if (b.set) collect_references(*b.set, state, refs);
  }
}

}  // namespace

bool LoadedSpec::uses_state(const Definition& def, std::vector<const Definition*>& visiting) const {
  if (def.constant || !def.body) return false;
  if (std::find(visiting.begin(), visiting.end(), &def) != visiting.end()) return false;
  visiting.push_back(&def);
  bool state = false;
  std::vector<const Definition*> refs;
  collect_references(*def.body, state, refs);
  for (const auto& b : def.function_bounds)
    if (b.set) collect_references(*b.set, state, refs);
  for (const Definition* r : refs) {
    if (state) break;
    if (r != nullptr && r->resolved && r != &def) state = r->uses_state || uses_state(*r, visiting);
  }
  visiting.pop_back();
  return state;
}

void LoadedSpec::bind(Expr& e, Binding& b) {
  auto fragment_error = [&](const std::string& what) {
    return FragmentError(e.pos.text() + ": " + what + (b.current && !b.current->name.empty() ? " (in " + b.current->name + ")" : ""));
  };
  auto bind_kids = [&] {
    for (auto& k : e.kids) bind(*k, b);
  };
  // The meaning of a name applied to `arity` arguments.
  auto resolve = [&](const std::string& name, std::size_t arity) {
    if (arity == 0)
      for (auto it = b.symbols.rbegin(); it != b.symbols.rend(); ++it)
        if ((*it)->name == name) {
          e.kind = ExprKind::RefBound;
          e.symbol = *it;
          return;
        }
    Definition* def = nullptr;
    for (std::size_t f = b.lets.size(); f-- > 0 && def == nullptr;)
      for (Definition* d : b.lets[f].definitions)
        if (d->name == name) {
          def = d;
          // A LET definition used before the LET reaches it (RECURSIVE): bound now, with the
          // names in force at its LET.
          if (!def->resolved) {
            Binding at_let{b.scope, std::vector<const Symbol*>(b.symbols.begin(), b.symbols.begin() + b.lets[f].symbols),
                           std::vector<LetScope>(b.lets.begin(), b.lets.begin() + f + 1), b.current};
            bind_body(*def, at_let);
          }
        }
    if (def == nullptr) {
      if (auto v = b.scope->variables.find(name); v != b.scope->variables.end()) {
        if (arity != 0) throw fragment_error("the variable " + name + " is applied to arguments");
        e.kind = ExprKind::RefVariable;
        e.index = v->second;
        return;
      }
      if (auto d = b.scope->definitions.find(name); d != b.scope->definitions.end()) def = d->second;
    }
    if (def != nullptr) {
      if (arity == 0 && !def->params.empty())
        throw fragment_error("the operator " + name + " used without its arguments (an operator passed as an argument, to a "
                             "higher-order operator, is outside the fragment the embedded checker evaluates)");
      if (def->params.size() != arity)
        throw fragment_error(name + " takes " + std::to_string(def->params.size()) + " argument(s), given " + std::to_string(arity));
      if (!def->resolved) bind(*def, home_.at(def));
      e.kind = ExprKind::RefDefinition;
      e.definition = def;
      return;
    }
    if (auto s = b.scope->standard.find(name); s != b.scope->standard.end()) {
      if (static_cast<std::size_t>(s->second->arity) != arity)
        throw fragment_error(name + " takes " + std::to_string(s->second->arity) + " argument(s), given " + std::to_string(arity));
      e.kind = ExprKind::RefBuiltin;
      e.builtin = s->second->builtin;
      return;
    }
    throw fragment_error("unknown name " + name + " (not defined in the module, the modules it extends, or the standard "
                         "operators the embedded checker implements)");
  };

  switch (e.kind) {
    case ExprKind::Name:
      resolve(e.text, 0);
      return;
    case ExprKind::Apply:
      bind_kids();
      resolve(e.text, e.kids.size());
      return;
    case ExprKind::Prime: {
      bind_kids();
      if (e.kids[0]->kind != ExprKind::RefVariable) throw fragment_error("priming an expression other than a variable");
      e.kind = ExprKind::RefPrimed;
      e.index = e.kids[0]->index;
      e.kids.clear();
      return;
    }
    case ExprKind::Unchanged: {
      bind_kids();
      auto check = [&](const Expr& x, auto&& self) -> void {
        if (x.kind == ExprKind::RefVariable) return;
        if (x.kind == ExprKind::Tuple) {
          for (const auto& k : x.kids) self(*k, self);
          return;
        }
        if (x.kind == ExprKind::RefDefinition && x.definition->params.empty() && x.definition->body) {
          self(*x.definition->body, self);  // vars == <<x, y>>
          return;
        }
        throw fragment_error("UNCHANGED of something other than variables and tuples of them");
      };
      check(*e.kids[0], check);
      return;
    }
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
        bind(*u.value, b);
      }
      return;
    case ExprKind::Unsupported:
      throw fragment_error(e.text + " is outside the TLA+ fragment the embedded checker evaluates (docs/validation.md)");
    default:
      bind_kids();
      return;
  }
}

}  // namespace omnilink::language
