// A spec loaded for evaluation: its module, the modules it EXTENDS and INSTANCEs (nested in its
// file, beside it, or built into omnilink: the standard modules, the community modules specs use,
// the proof-only modules as empty), and an optional MC module whose definitions stand for the
// spec's constants and override the spec's definitions of the same name, as a TLC configuration's
// `<-` does. Each module is parsed once; each scope it is used in (itself, every INSTANCE of it,
// with its substitutions and parameters) binds its own copies of its definitions.
//
// Binding is lazy: a definition's names are bound when something asks for it, so a spec whose
// Spec == Init /\ [][Next]_vars is temporal still loads, and one whose actions use a construct the
// embedded checker does not evaluate is refused naming its file:line:col.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "language/ast.hpp"
#include "language/syntax.hpp"
#include "language/tlc_config.hpp"

namespace omnilink::language {

/// The spec uses TLA+ the embedded checker does not evaluate (TLC may): the message starts with
/// file:line:col and names the construct.
class FragmentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A module's definition, named as the module writes it (not through an instance).
struct DefinitionName {
  std::string module, name;
  auto operator<=>(const DefinitionName&) const = default;
};

class LoadedSpec {
 public:
  /// Reads `spec` (and `mc`), and the modules they use. A TLC configuration's constants and
  /// `Op <- Other` substitutions stand for the spec's definitions everywhere, as in TLC. Each
  /// `relaxed` definition is defined TRUE instead, in its module and every instance of it (how
  /// an explanation asks whether a rule is what a failure breaks: explain/broken_rules.hpp).
  /// Throws SyntaxError, SpecError or FragmentError.
  static std::unique_ptr<LoadedSpec> load(const std::filesystem::path& spec, const std::optional<std::filesystem::path>& mc,
                                          const TlcConfig* config = nullptr, const std::vector<DefinitionName>& relaxed = {});
  ~LoadedSpec();

  const std::vector<std::string>& variables() const { return variables_; }
  const Module& spec_module() const { return *spec_; }

  /// A definition of the spec's scope (its module and what it extends or instantiates without a
  /// name), bound and checked; null when there is none. Throws FragmentError or SpecError.
  const Definition* spec_definition(const std::string& name);
  /// A definition of the MC module's scope; null without an MC module or such a definition.
  /// Throws FragmentError or SpecError.
  const Definition* mc_definition(const std::string& name);
  /// Like spec_definition, but a definition the embedded checker cannot evaluate is returned (its
  /// `unsupported` says why), for reading its structure: the interface of the spec, for TLC.
  const Definition* spec_definition_structure(const std::string& name);
  /// Whether the MC module defines `name`, itself or in a module it extends other than the spec
  /// (binding nothing).
  bool mc_defines(const std::string& name) const;
  /// A definition of the spec (not a constant) that the MC module's own definition stands for.
  struct Override {
    std::string name, module;  // the module of the spec's definition
    std::size_t arity = 0;
    bool operator==(const Override&) const = default;
  };
  const std::vector<Override>& mc_overrides() const { return overridden_; }
  const Module* mc_module() const { return mc_; }
  /// The module a bound definition of a module's scope was written in (an instance's copy: the
  /// instantiated module); empty for a LET's, a LAMBDA's or the MC module's.
  std::string module_of(const Definition& def) const;
  /// The community modules built into omnilink that the spec uses: name and TLA+ text, to give
  /// TLC the same definitions.
  std::vector<std::pair<std::string, std::string>> library_modules() const;
  /// The files it read (the spec, the MC module, the modules they use; not those built into
  /// omnilink), to tell whether it is still what is on disk.
  std::vector<std::filesystem::path> source_files() const;
  /// The modules of the spec's EXTENDS closure, bases first, the spec last.
  const std::vector<const Module*>& spec_closure() const { return closure_; }

  struct Scope;  // what a name means in one module, or in one instance of it (scope.hpp)

 private:
  LoadedSpec() = default;
  const Module& module_named(const std::string& name, const Module& from, const SourcePos& at);
  std::shared_ptr<Scope> base_scope(const Module& m);
  void fill_scope(const std::shared_ptr<Scope>& scope, const Module& m, struct Instantiation* as_instance);
  void bind(Definition& def, const std::shared_ptr<Scope>& scope);
  void bind_body(Definition& def, struct Binding& b);
  void bind(Expr& e, struct Binding& b);
  void bind_node(Expr& e, struct Binding& b);
  const Definition* bound(const Module* module, const std::string& name);
  std::string unsupported_use(const Definition& def, std::vector<const Definition*>& visiting) const;
  void bind_arguments(Expr& e, const Definition* callee, std::size_t first, struct Binding& b);
  void bind_operator_argument(Expr& e, std::size_t arity, struct Binding& b);
  void resolve(Expr& e, struct Binding& b);
  void require_module_of(Builtin builtin, const Expr& e, const struct Binding& b) const;
  bool uses_state(const Definition& def, std::vector<const Definition*>& visiting) const;
  /// Sets once_per_let on the LET definitions written inside `def`, once what they refer to is bound.
  void mark_once_per_let(const Definition& def) const;

  std::map<std::string, std::unique_ptr<Module>> files_;  // parsed, by module name
  std::map<std::string, const Module*> modules_;           // every module by name (inner ones too)
  std::map<const Module*, std::shared_ptr<Scope>> scopes_;  // base scopes
  std::vector<const Module*> building_;                     // scopes being built: a cycle is an error
  std::map<const Definition*, std::shared_ptr<Scope>> home_;  // the scope each definition is bound in
  std::vector<std::filesystem::path> dirs_;
  const Module* spec_ = nullptr;
  const Module* mc_ = nullptr;
  std::map<std::string, Definition*> mc_definitions_;     // the MC module's own, which override the spec's
  std::map<std::string, Definition*> config_definitions_;  // a TLC configuration's values and substitutions
  std::map<std::string, std::map<std::string, Definition*>> module_config_definitions_;  // c = [M] v, by M
  std::vector<std::unique_ptr<Definition>> config_owned_;
  std::vector<Override> overridden_;
  std::vector<DefinitionName> relaxed_;
  std::map<std::string, std::size_t> variable_index_;  // the spec's variables, in state order
  std::vector<std::string> variables_;
  std::vector<const Module*> closure_;
  // Definitions bound since the outermost bind() began: their uses_state is settled when it ends,
  // once every definition they refer to is bound too (a recursive one may still be half bound).
  std::vector<Definition*> unsettled_;
  int binding_depth_ = 0;
};

}  // namespace omnilink::language
