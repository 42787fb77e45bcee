// A spec's interface as omnilink reads it from the bound syntax tree: its constants and
// variables, and the operations Next can take, which a harness logs. An operation is an action
// Next reaches through disjunctions, \E, LET, IF, CASE, definitions that only combine actions,
// and instances; an X_Step/X_Done pair is one operation taken in several steps. A Next with no
// named action (one written inline) is itself the one operation, with no fields. gen-hpp, TLC's
// generated module and the validation problem all read this one interface.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "language/modules.hpp"

namespace omnilink::language {

/// One logged operation.
struct Operation {
  std::string name;                 // as the harness logs it: the action's name, or X for X_Step/X_Done
  std::vector<std::string> params;  // its fields, in the action's parameter order
  std::optional<std::string> type;  // the action's `@type:` annotation, "(Int, Str) => Bool"
  bool multi_step = false;
  SourcePos pos;                    // the action's definition (X_Step's)
  /// How a module that instantiates the spec names the action: "Op", or "I!Op" for an action of a
  /// named instance (X_Step's, less the suffix, for a multi-step operation).
  std::string reference;
  /// The action's definition (X_Step's), and X_Done's: valid while the LoadedSpec lives. May be
  /// one the embedded checker does not evaluate (Definition::unsupported).
  const Definition* action = nullptr;
  const Definition* done = nullptr;
  /// The `@inputs:` annotation's parameters (X_Step's): those set before the call; none without one.
  std::optional<std::vector<std::string>> inputs;
};

struct SpecInterface {
  std::string file;
  std::string module;
  std::vector<std::string> constants;  // the spec's and those of the modules it extends, in order
  std::vector<std::string> variables;  // in state order
  std::string next;
  std::vector<Operation> operations;   // in the order Next first reaches them
  /// The parameter whose value groups operations into one unit (a transaction: Begin, its reads
  /// and writes, Commit), from the `\* @groups: txn;` annotation of Next; none without one.
  std::optional<std::string> group_field;
  /// Steps Next takes that are written inline beside named actions (UNCHANGED vars for a
  /// terminated system, say): no harness logs them, so validation never takes them. Where and what.
  std::vector<std::string> inline_steps;

  const Operation* find(const std::string& name) const;
};

/// Reads the interface of a loaded spec whose next-state relation is `next`. Throws SpecError (no
/// such definition, an X_Step without its X_Done, two actions of one name) or
/// FragmentError (an action the generated TLC module could not name).
SpecInterface spec_interface(LoadedSpec& spec, const std::string& next = "Next");

/// The type of each of `op`'s parameters, in order, as its `@type:` annotation "(T1, T2) => R"
/// writes it ("Int", "Bool", "Seq(Str)", ...); "Int" for each without an annotation. Throws
/// SpecError naming the action when the annotation is not an operator's type of as many
/// parameters. What a type means in C++ is the header generator's (tla/hpp_generator).
std::vector<std::string> param_types(const Operation& op);

/// The spec's constants that the definitions reachable from `roots` (Init, the actions) use and
/// no MC definition stands for: each with a definition that uses it, for the error that asks for
/// one.
std::vector<std::pair<std::string, std::string>> constants_without_value(const std::vector<const Definition*>& roots);

}  // namespace omnilink::language
