// A spec loaded for evaluation: its module, the user modules it EXTENDS (found beside it), an
// optional MC module (the constants it defines, OmniLinkDomain_*, a VIEW), and the standard
// modules the fragment implements (Naturals, Integers, Sequences, FiniteSets, TLC, and of
// OmniLinkTrace the OmniLinkFieldValues an MC module may call). Binding is lazy: a definition's
// names are bound, and its constructs checked against the fragment, when something asks for it,
// so a spec whose Spec == Init /\ [][Next]_vars is temporal still loads, and one whose actions use
// something outside the fragment is refused naming the construct's file:line:col.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "language/ast.hpp"

namespace omnilink::language {

/// The spec uses TLA+ outside the fragment the embedded checker evaluates (or a name it cannot
/// bind). The message starts with file:line:col and names the construct.
class FragmentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class LoadedSpec {
 public:
  /// Reads `spec` (and `mc`), and the user modules they extend from their directories. Throws
  /// SyntaxError or FragmentError.
  static std::unique_ptr<LoadedSpec> load(const std::filesystem::path& spec, const std::optional<std::filesystem::path>& mc);

  const std::vector<std::string>& variables() const { return variables_; }
  const Module& spec_module() const { return *modules_.at(spec_name_); }

  /// A definition of the spec's scope (its module and what it extends), bound and checked; null
  /// when there is none. Throws FragmentError.
  const Definition* spec_definition(const std::string& name);
  /// A definition of the MC module's scope; null without an MC module or such a definition.
  const Definition* mc_definition(const std::string& name);

  /// What a CONSTANT of the spec stands for: the MC module's definition of the same name (null:
  /// a model value of the constant's name).
  const Definition* constant_substitute(const Definition& constant) const;

  struct Scope;  // what a name means in one module (modules.cpp)

 private:
  LoadedSpec() = default;
  Module& read_module(const std::string& name, const std::filesystem::path& dir, const SourcePos& from);
  std::shared_ptr<Scope> scope_of(const std::string& module);
  void bind(Definition& def, const std::shared_ptr<Scope>& scope);
  void bind_body(Definition& def, struct Binding& b);
  void bind(Expr& e, struct Binding& b);
  bool uses_state(const Definition& def, std::vector<const Definition*>& visiting) const;

  std::map<std::string, std::unique_ptr<Module>> modules_;
  std::map<std::string, std::shared_ptr<Scope>> scopes_;
  std::map<const Definition*, std::shared_ptr<Scope>> home_;  // the scope each definition is bound in
  std::vector<std::filesystem::path> dirs_;
  std::string spec_name_, mc_name_;
  std::vector<std::string> variables_;
  // Definitions bound since the outermost bind() began: their uses_state is settled when it ends,
  // once every definition they refer to is bound too (a recursive one may still be half bound).
  std::vector<Definition*> unsettled_;
  int binding_depth_ = 0;
};

}  // namespace omnilink::language
