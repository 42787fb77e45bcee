#include "language/modules.hpp"

#include <algorithm>

#include "language/library.hpp"

namespace omnilink::language {
namespace fs = std::filesystem;

namespace {

// Where positions in a built-in community module point: no file on disk.
const std::string kLibraryPrefix = "omnilink-library/";

bool plain_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

/// The arity of a standard operator's operator parameter at `position`, 0 for a value parameter.
std::size_t builtin_operator_param(Builtin b, std::size_t position) {
  if (b == Builtin::SelectSeq && position == 1) return 1;  // SelectSeq(s, Test(_))
  if (b == Builtin::SortSeq && position == 1) return 2;    // SortSeq(s, _ \prec _)
  return 0;
}

// Shown for a name written as an operator symbol ("$plusplus"): the token.
std::string shown(const std::string& name) { return name.starts_with("$") ? "the operator " + name.substr(1) : name; }

}  // namespace

/// What names mean in one module (or instance): the definitions, constants and variables it has,
/// the standard operators it sees, and its named instances.
struct Names {
  std::map<std::string, Definition*> definitions;  // constants too (Definition::constant)
  std::map<std::string, std::size_t> variables;
  std::map<std::string, const StandardOperator*> standard;
  std::map<std::string, std::shared_ptr<LoadedSpec::Scope>> instances;  // I == INSTANCE M: I!Op
  /// Modules extended or instantiated that the embedded checker does not implement (Json): a name
  /// not found may be theirs, which only TLC can evaluate. Why, for each.
  std::vector<std::string> opaque;

  void merge(const Names& other) {
    opaque.insert(opaque.end(), other.opaque.begin(), other.opaque.end());
    definitions.insert(other.definitions.begin(), other.definitions.end());
    variables.insert(other.variables.begin(), other.variables.end());
    standard.insert(other.standard.begin(), other.standard.end());
    instances.insert(other.instances.begin(), other.instances.end());
  }
};

/// What an instantiated module's constant or variable stands for: an expression of the
/// instantiating scope, bound there (a copy each time it is used).
struct Substitution {
  const Expr* expr = nullptr;
  std::shared_ptr<LoadedSpec::Scope> scope;
};

/// One module's names as seen inside it (`visible`) and by a module that extends or instantiates
/// it (`exported`: no LOCAL ones). An instance's scope owns copies of its module's definitions,
/// each taking the instance's parameters first, and knows what its constants and variables stand for.
struct LoadedSpec::Scope {
  std::string module;
  Names visible, exported;
  std::map<std::string, Substitution> substitutions;
  std::vector<std::unique_ptr<Symbol>> prefix;  // instance parameters, outermost instance's first
  std::vector<std::unique_ptr<Definition>> owned;
  std::vector<ExprPtr> owned_exprs;  // default substitutions: c <- c
};

/// How a module is instantiated: by which scope, with which parameters and substitutions.
struct Instantiation {
  std::shared_ptr<LoadedSpec::Scope> from;
  const InstanceDecl* decl = nullptr;
};

/// One LET's definitions, and how many bound symbols were in force at the LET (its definitions
/// see those, whichever of them is bound first).
struct LetScope {
  std::vector<Definition*> definitions;
  std::size_t symbols = 0;
};

/// The names in force while binding one definition: bound symbols and LET definitions, innermost
/// last, and the module-level definition being bound, whose first parameters are its scope's
/// instance parameters.
struct Binding {
  std::shared_ptr<LoadedSpec::Scope> scope;
  std::vector<const Symbol*> symbols;
  std::vector<LetScope> lets;
  Definition* current = nullptr;  // for messages, and to mark what it cannot evaluate
  Definition* top = nullptr;
};

LoadedSpec::~LoadedSpec() = default;

std::unique_ptr<LoadedSpec> LoadedSpec::load(const fs::path& spec, const std::optional<fs::path>& mc, const TlcConfig* config) {
  std::unique_ptr<LoadedSpec> loaded(new LoadedSpec());
  LoadedSpec& l = *loaded;
  l.dirs_.push_back(fs::absolute(spec).parent_path());
  if (mc) l.dirs_.push_back(fs::absolute(*mc).parent_path());
  auto read = [&](const fs::path& file) -> const Module& {
    auto parsed = std::make_unique<Module>(parse_module_file(file.string()));
    const SourcePos at{intern_file_name(file.string()), 1, 1};
    if (parsed->name != file.stem().string())
      throw SpecError(at.text() + ": the file holds module " + parsed->name + "; TLC reads a module only from a file of its name (" +
                      parsed->name + ".tla)");
    const std::string name = parsed->name;
    if (l.modules_.count(name)) throw SpecError(at.text() + ": a second module named " + name);
    const Module& m = *parsed;
    l.files_[name] = std::move(parsed);
    l.modules_[name] = &m;
    std::vector<const Module*> nested{&m};
    while (!nested.empty()) {
      const Module* n = nested.back();
      nested.pop_back();
      for (const auto& inner : n->inner) {
        l.modules_.emplace(inner->name, inner.get());
        nested.push_back(inner.get());
      }
    }
    return m;
  };
  l.spec_ = &read(spec);
  if (mc) l.mc_ = &read(*mc);
  if (l.mc_) {
    // The MC module's own definitions, made before any scope: the spec's scopes refer to them.
    auto mc_scope = std::make_shared<Scope>();
    l.scopes_[l.mc_] = mc_scope;
    for (const auto& d : l.mc_->definitions) {
      std::unique_ptr<Definition> copy = clone(*d);
      l.mc_definitions_[copy->name] = copy.get();
      l.home_[copy.get()] = mc_scope;
      mc_scope->owned.push_back(std::move(copy));
    }
  }

  // The spec's variables, in declaration order (extended modules' first), index the state.
  std::vector<const Module*> order, visiting;
  auto collect = [&](const Module& m, auto&& self) -> void {
    if (std::find(order.begin(), order.end(), &m) != order.end()) return;
    if (std::find(visiting.begin(), visiting.end(), &m) != visiting.end()) {
      std::string cycle;
      for (const Module* v : visiting) cycle += v->name + " -> ";
      throw SpecError(m.pos.text() + ": circular EXTENDS: " + cycle + m.name);
    }
    visiting.push_back(&m);
    for (const auto& [base, at] : m.extends) {
      if (is_standard_module(base)) continue;
      const Module* found = nullptr;
      try {
        found = &l.module_named(base, m, at);
      } catch (const FragmentError&) {
        continue;  // a module the embedded checker does not implement declares no variable of the spec's
      }
      self(*found, self);
    }
    visiting.pop_back();
    order.push_back(&m);
  };
  collect(*l.spec_, collect);
  l.closure_ = order;
  for (const Module* m : order)
    for (const auto& v : m->variables)
      if (l.variable_index_.emplace(v.name, l.variables_.size()).second) l.variables_.push_back(v.name);
  if (l.mc_)
    for (const auto& v : l.mc_->variables)
      if (!l.variable_index_.count(v.name))
        throw SpecError(v.pos.text() + ": the MC module declares the variable " + v.name + ", which the spec does not have");
  auto root = std::make_shared<Scope>();
  l.scopes_[l.spec_] = root;
  if (config) {
    // N = 3: a definition whose body is the value. Op <- Other: Op(p...) == Other(p...), bound in
    // the spec's scope, where Other is defined.
    // A definition of the configuration's, registered in `into` (the names it stands for).
    auto definition = [&](const std::string& name, std::map<std::string, Definition*>& into) {
      auto def = std::make_unique<Definition>();
      def->name = name;
      def->pos = l.spec_->pos;
      Definition* raw = def.get();
      into[name] = raw;
      l.home_[raw] = root;
      l.config_owned_.push_back(std::move(def));
      return raw;
    };
    auto literal = [&](Definition* def, const Value& value) {
      def->body = std::make_unique<Expr>();
      def->body->kind = ExprKind::Literal;
      def->body->value = value;
      def->body->pos = def->pos;
      def->resolved = true;
    };
    for (const auto& [name, value] : config->constants) literal(definition(name, l.config_definitions_), value);
    for (const auto& [module, constants] : config->module_constants)
      for (const auto& [name, value] : constants) literal(definition(name, l.module_config_definitions_[module]), value);
    for (const auto& [name, other] : config->substitutions) {
      std::size_t arity = 0;
      for (const auto& [module_name, module] : l.modules_)
        for (const auto& d : module->definitions)
          if (d->name == other) arity = d->params.size();
      Definition* def = definition(name, l.config_definitions_);
      def->body = std::make_unique<Expr>();
      def->body->kind = ExprKind::Apply;
      def->body->text = other;
      def->body->pos = def->pos;
      for (std::size_t k = 0; k < arity; ++k) {
        def->params.push_back(std::make_unique<Symbol>(Symbol{"omnilink_p" + std::to_string(k), def->pos, 0}));
        auto arg = std::make_unique<Expr>();
        arg->kind = ExprKind::Name;
        arg->text = def->params.back()->name;
        arg->pos = def->pos;
        def->body->kids.push_back(std::move(arg));
      }
    }
  }
  l.fill_scope(root, *l.spec_, nullptr);
  if (l.mc_) l.fill_scope(l.scopes_.at(l.mc_), *l.mc_, nullptr);
  return loaded;
}

const Module& LoadedSpec::module_named(const std::string& name, const Module& from, const SourcePos& at) {
  if (auto it = modules_.find(name); it != modules_.end()) return *it->second;
  if (!plain_name(name)) throw SpecError(at.text() + ": bad module name " + name);
  std::vector<fs::path> dirs;
  if (fs::is_regular_file(from.file)) dirs.push_back(fs::absolute(from.file).parent_path());
  dirs.insert(dirs.end(), dirs_.begin(), dirs_.end());
  std::unique_ptr<Module> parsed;
  for (const fs::path& d : dirs) {
    const fs::path file = d / (name + ".tla");
    if (!fs::is_regular_file(file)) continue;
    parsed = std::make_unique<Module>(parse_module_file(file.string()));
    if (parsed->name != name)
      throw SpecError(file.string() + ":1:1: the file holds module " + parsed->name + ", not " + name);
    break;
  }
  if (!parsed) {
    if (const std::string* text = library_module_text(name)) {
      parsed = std::make_unique<Module>(parse_module(kLibraryPrefix + name + ".tla", *text));
    } else if (proof_only_module(name)) {
      parsed = std::make_unique<Module>(parse_module(kLibraryPrefix + name + ".tla", "---- MODULE " + name + " ----\n====\n"));
    } else if (const char* what = unimplemented_module(name)) {
      throw FragmentError(at.text() + ": module " + name + " (" + what + ") is a module the embedded checker does not implement");
    } else {
      throw SpecError(at.text() + ": no module " + name + ": no " + name + ".tla beside the spec (" +
                      (dirs.empty() ? std::string("?") : dirs.front().string()) + "), nor a module built into omnilink");
    }
  }
  const Module& m = *parsed;
  files_[name] = std::move(parsed);
  modules_[name] = &m;
  for (const auto& inner : m.inner) modules_.emplace(inner->name, inner.get());
  return m;
}

std::shared_ptr<LoadedSpec::Scope> LoadedSpec::base_scope(const Module& m) {
  if (auto it = scopes_.find(&m); it != scopes_.end()) return it->second;
  auto scope = std::make_shared<Scope>();
  scopes_[&m] = scope;
  fill_scope(scope, m, nullptr);
  return scope;
}

void LoadedSpec::fill_scope(const std::shared_ptr<Scope>& self, const Module& m, Instantiation* as_instance) {
  Scope& scope = *self;
  if (std::find(building_.begin(), building_.end(), &m) != building_.end()) {
    std::string cycle;
    for (const Module* b : building_) cycle += b->name + " -> ";
    throw SpecError(m.pos.text() + ": circular EXTENDS or INSTANCE: " + cycle + m.name);
  }
  building_.push_back(&m);
  struct Leave {
    std::vector<const Module*>& building;
    ~Leave() { building.pop_back(); }
  } leave{building_};
  scope.module = m.name;
  auto add_standard = [&](const std::string& module, bool exported) {
    for (const StandardOperator* op : standard_operators(module)) {
      scope.visible.standard.emplace(op->name, op);
      if (exported) scope.exported.standard.emplace(op->name, op);
    }
  };
  // A module this one extends: in an instance, the extended module is instantiated alike (its
  // constants and variables substituted as this one's are).
  auto scope_of_extended = [&](const Module& base) -> std::shared_ptr<Scope> {
    if (as_instance == nullptr) return base_scope(base);
    auto child = std::make_shared<Scope>();
    for (const auto& p : scope.prefix) child->prefix.push_back(std::make_unique<Symbol>(*p));
    child->substitutions = scope.substitutions;
    fill_scope(child, base, as_instance);
    // The extended module's constants and variables are this module's too.
    scope.substitutions.insert(child->substitutions.begin(), child->substitutions.end());
    return child;
  };
  // A module the embedded checker does not implement leaves its names unknown: a definition that
  // uses one is refused (FragmentError), and the rest of the spec still loads, for TLC.
  auto available = [&](const std::string& name, const SourcePos& at, bool exported) -> const Module* {
    try {
      return &module_named(name, m, at);
    } catch (const FragmentError& e) {
      scope.visible.opaque.push_back(e.what());
      if (exported) scope.exported.opaque.push_back(e.what());
      return nullptr;
    }
  };
  for (const auto& [base, at] : m.extends) {
    if (is_standard_module(base)) {
      add_standard(base, true);
      continue;
    }
    const Module* base_module = available(base, at, true);
    if (base_module == nullptr) continue;
    auto inner = scope_of_extended(*base_module);
    scope.visible.merge(inner->exported);
    scope.exported.merge(inner->exported);
  }
  // SANY's rule: a name a module declares or defines must not be one it already has (from what it
  // EXTENDS, or its own). An MC module that EXTENDS the spec cannot override its definitions.
  auto require_new_name = [&](const std::string& name, const SourcePos& at) {
    const SourcePos* earlier = nullptr;
    // A TLC configuration's values stand for the name in every module: they are no definition.
    const auto configured = config_definitions_.find(name);
    if (auto d = scope.visible.definitions.find(name);
        d != scope.visible.definitions.end() && (configured == config_definitions_.end() || configured->second != d->second))
      earlier = &d->second->pos;
    if (earlier == nullptr && !scope.visible.variables.count(name)) return;
    throw SpecError(at.text() + ": multiply-defined symbol " + shown(name) + ": " +
                    (earlier != nullptr ? "already defined at " + earlier->text() : std::string("already a variable")) +
                    " (as in TLC; an MC module whose definitions stand for the spec's must not EXTEND it)");
  };
  auto add_definition = [&](Definition* def, bool local) {
    scope.visible.definitions[def->name] = def;
    if (!local) scope.exported.definitions[def->name] = def;
  };
  // The MC module's own definitions stand for the spec's of the same name, constants included;
  // a configuration's c = [M] v stands for M's c, in every instance of M too.
  const auto configured = module_config_definitions_.find(m.name);
  auto mc_override = [&](const std::string& name) -> Definition* {
    if (configured != module_config_definitions_.end() && scope.prefix.empty())
      if (auto it = configured->second.find(name); it != configured->second.end()) return it->second;
    if (as_instance != nullptr) return nullptr;
    auto it = mc_definitions_.find(name);
    return it == mc_definitions_.end() ? nullptr : it->second;
  };
  // In an instance, a constant or variable the WITH does not mention means the same name where
  // the INSTANCE is written.
  auto substitute_by_name = [&](const std::string& declared) {
    if (scope.substitutions.count(declared)) return;
    auto name = std::make_unique<Expr>();
    name->kind = ExprKind::Name;
    name->text = declared;
    name->pos = as_instance->decl->pos;
    scope.substitutions[declared] = {name.get(), as_instance->from};
    scope.owned_exprs.push_back(std::move(name));
  };
  for (const auto& c : m.constants) {
    require_new_name(c.name, c.pos);
    if (as_instance != nullptr) {
      substitute_by_name(c.name);
      continue;
    }
    if (Definition* substitute = mc_override(c.name)) {
      add_definition(substitute, false);
      continue;
    }
    auto def = std::make_unique<Definition>();
    def->name = c.name;
    def->pos = c.pos;
    def->constant = true;
    def->resolved = true;
    for (std::size_t k = 0; k < c.arity; ++k) def->params.push_back(std::make_unique<Symbol>(Symbol{"_", c.pos, 0}));
    add_definition(def.get(), false);
    scope.owned.push_back(std::move(def));
  }
  for (const auto& v : m.variables) {
    require_new_name(v.name, v.pos);
    if (as_instance != nullptr) {
      substitute_by_name(v.name);
      continue;
    }
    scope.visible.variables[v.name] = variable_index_.at(v.name);
    scope.exported.variables[v.name] = variable_index_.at(v.name);
  }
  // The module's own definitions: copies, bound in this scope (the MC module's stand for the spec's).
  for (const auto& d : m.definitions) {
    require_new_name(d->name, d->pos);
    if (Definition* substitute = mc_override(d->name)) {
      add_definition(substitute, d->local);
      const Override o{d->name, m.name, d->params.size()};
      const bool from_mc = mc_definitions_.count(d->name) && mc_definitions_.at(d->name) == substitute;
      if (from_mc && &m != mc_ && std::find(overridden_.begin(), overridden_.end(), o) == overridden_.end()) overridden_.push_back(o);
      continue;
    }
    std::unique_ptr<Definition> copy = clone(*d);
    std::vector<std::unique_ptr<Symbol>> params;
    for (const auto& p : scope.prefix) params.push_back(std::make_unique<Symbol>(*p));
    for (auto& p : copy->params) params.push_back(std::move(p));
    copy->params = std::move(params);
    copy->instance_params = scope.prefix.size();
    add_definition(copy.get(), d->local);
    home_[copy.get()] = self;
    scope.owned.push_back(std::move(copy));
  }
  // Instances, in order.
  for (const InstanceDecl& decl : m.instances) {
    if (is_standard_module(decl.module)) {
      if (!decl.name.empty())
        throw FragmentError(decl.pos.text() + ": a named INSTANCE of the standard module " + decl.module +
                            " (write EXTENDS or an unnamed INSTANCE)");
      add_standard(decl.module, !decl.local);
      continue;
    }
    const Module* target_module = available(decl.module, decl.pos, !decl.local);
    if (target_module == nullptr) continue;
    const Module& target = *target_module;
    auto child = std::make_shared<Scope>();
    for (const auto& p : scope.prefix) child->prefix.push_back(std::make_unique<Symbol>(*p));
    for (const auto& p : decl.params) child->prefix.push_back(std::make_unique<Symbol>(*p));
    for (const auto& [name, expr] : decl.substitutions) child->substitutions[name] = {expr.get(), self};
    Instantiation inst{self, &decl};
    fill_scope(child, target, &inst);
    if (decl.name.empty()) {
      scope.visible.merge(child->exported);
      if (!decl.local) scope.exported.merge(child->exported);
    } else {
      scope.visible.instances[decl.name] = child;
      if (!decl.local) scope.exported.instances[decl.name] = child;
    }
  }
  // A TLC configuration's values and substitutions stand for the names everywhere (constants,
  // definitions, standard operators such as Seq alike), as in TLC, where they replace the
  // definition itself: a standard module's operator (Seq <- BoundedSeq) also inside an instance,
  // which shares it; an instance's own copies of a module's definitions only with c = [M] v.
  for (const auto& [name, def] : config_definitions_) {
    if (as_instance != nullptr && (!scope.visible.standard.count(name) || scope.visible.definitions.count(name))) continue;
    scope.visible.definitions[name] = def;
    scope.exported.definitions[name] = def;
  }
}

const Definition* LoadedSpec::bound(const Module* module, const std::string& name) {
  if (module == nullptr) return nullptr;
  auto scope = base_scope(*module);
  auto it = scope->visible.definitions.find(name);
  if (it == scope->visible.definitions.end()) return nullptr;
  if (!it->second->resolved) bind(*it->second, home_.at(it->second));
  return it->second;
}

namespace {
const Definition* evaluable(const Definition* def) {
  if (def != nullptr && !def->unsupported.empty()) throw FragmentError(def->unsupported);
  return def;
}
}  // namespace

const Definition* LoadedSpec::spec_definition(const std::string& name) { return evaluable(bound(spec_, name)); }

const Definition* LoadedSpec::spec_definition_structure(const std::string& name) { return bound(spec_, name); }

const Definition* LoadedSpec::mc_definition(const std::string& name) {
  const Definition* def = bound(mc_, name);
  return def == nullptr || def->constant ? nullptr : evaluable(def);
}

std::vector<std::filesystem::path> LoadedSpec::source_files() const {
  std::vector<std::filesystem::path> out;
  for (const auto& [name, module] : files_)
    if (!module->file.starts_with(kLibraryPrefix) && std::find(out.begin(), out.end(), module->file) == out.end())
      out.push_back(module->file);
  return out;
}

std::vector<std::pair<std::string, std::string>> LoadedSpec::library_modules() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, module] : files_)
    if (module->file.starts_with(kLibraryPrefix)) out.emplace_back(name, *library_module_text(name));
  return out;
}

bool LoadedSpec::mc_defines(const std::string& name) const {
  if (mc_ == nullptr) return false;
  // Through the modules it extends too (a module of result domains shared by several MC modules),
  // but not the spec's own definitions.
  std::vector<const Module*> seen;
  auto defines = [&](const Module& m, auto&& self) -> bool {
    if (&m == spec_ || std::find(seen.begin(), seen.end(), &m) != seen.end()) return false;
    seen.push_back(&m);
    if (std::any_of(m.definitions.begin(), m.definitions.end(), [&](const auto& d) { return d->name == name; })) return true;
    return std::any_of(m.extends.begin(), m.extends.end(), [&](const auto& extended) {
      const auto found = modules_.find(extended.first);
      return found != modules_.end() && self(*found->second, self);
    });
  };
  return defines(*mc_, defines);
}

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

// Whether an expression mentions state (a variable, or a definition that does), and the
// definitions it refers to.
void collect_references(const Expr& e, bool& state, std::vector<const Definition*>& refs) {
  if (e.kind == ExprKind::RefVariable || e.kind == ExprKind::RefPrimed || e.kind == ExprKind::Unchanged || e.kind == ExprKind::Prime ||
      e.kind == ExprKind::Enabled)
    state = true;
  if (e.kind == ExprKind::RefDefinition || (e.kind == ExprKind::OperatorArg && e.definition != nullptr)) refs.push_back(e.definition);
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

// What a definition's body and bound sets mention.
void collect_references(const Definition& def, bool& state, std::vector<const Definition*>& refs) {
  collect_references(*def.body, state, refs);
  for (const auto& b : def.function_bounds)
    if (b.set) collect_references(*b.set, state, refs);
}

}  // namespace

bool LoadedSpec::uses_state(const Definition& def, std::vector<const Definition*>& visiting) const {
  if (def.constant || !def.body) return false;
  if (std::find(visiting.begin(), visiting.end(), &def) != visiting.end()) return false;
  visiting.push_back(&def);
  bool state = false;
  std::vector<const Definition*> refs;
  collect_references(def, state, refs);
  for (const Definition* r : refs) {
    if (state) break;
    if (r != nullptr && r->resolved && r != &def) state = r->uses_state || uses_state(*r, visiting);
  }
  visiting.pop_back();
  return state;
}

std::string LoadedSpec::unsupported_use(const Definition& def, std::vector<const Definition*>& visiting) const {
  if (!def.unsupported.empty()) return def.unsupported;
  if (def.constant || !def.body || std::find(visiting.begin(), visiting.end(), &def) != visiting.end()) return "";
  visiting.push_back(&def);
  bool state = false;
  std::vector<const Definition*> refs;
  collect_references(def, state, refs);
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
        bind(*u.value, b);
      }
      return;
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
