// The names a spec's modules bind, shared by loading (modules.cpp: which module and instance
// defines what) and binding (binder.cpp: what each name in a definition refers to). Internal to
// language/: nothing outside it sees a scope.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "language/library.hpp"
#include "language/modules.hpp"

namespace omnilink::language {

/// How a message shows a name: the token for one written as an operator symbol ("$plusplus").
inline std::string shown(const std::string& name) { return name.starts_with("$") ? "the operator " + name.substr(1) : name; }

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

}  // namespace omnilink::language
