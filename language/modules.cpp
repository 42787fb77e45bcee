#include "language/modules.hpp"

#include <algorithm>

#include "language/library.hpp"
#include "language/scope.hpp"

namespace omnilink::language {
namespace fs = std::filesystem;

namespace {

// Where positions in a built-in community module point: no file on disk.
const std::string kLibraryPrefix = "omnilink-library/";

bool plain_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

}  // namespace

LoadedSpec::~LoadedSpec() = default;

std::unique_ptr<LoadedSpec> LoadedSpec::load(const fs::path& spec, const std::optional<fs::path>& mc, const TlcConfig* config,
                                             const std::vector<DefinitionName>& relaxed) {
  std::unique_ptr<LoadedSpec> loaded(new LoadedSpec());
  LoadedSpec& l = *loaded;
  l.relaxed_ = relaxed;
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
    if (std::find(relaxed_.begin(), relaxed_.end(), DefinitionName{m.name, d->name}) != relaxed_.end()) {
      copy->body = std::make_unique<Expr>();
      copy->body->kind = ExprKind::Literal;
      copy->body->pos = d->pos;
      copy->body->value = Value::boolean(true);
    }
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

std::string LoadedSpec::module_of(const Definition& def) const {
  const auto home = home_.find(&def);
  if (home == home_.end() || (mc_ != nullptr && home->second->module == mc_->name)) return "";
  return home->second->module;
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

}  // namespace omnilink::language
