// What omnilink reads from a TLA+ module: its interface (constants, variables, operator
// definitions) and the actions of its next-state relation, which become logged operations.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tla/spec_lexer.hpp"

namespace omnilink::tla {

struct OperatorDef {
  std::string name;
  std::vector<std::string> params;
  Position pos;
  std::optional<TypeAnnotation> type;  // an Apalache "@type:" comment right before it
  std::size_t body_begin = 0;          // token range of the body in LexedModule::tokens
  std::size_t body_end = 0;
  std::set<std::string> mentions;      // identifiers its body uses
};

// An action referenced by Next, as defined in the module.
struct Action {
  std::string name;
  std::vector<std::string> params;
  Position def_pos;  // where it is defined
  Position ref_pos;  // where Next first refers to it
};

// A logged operation: one action, or an X_Step/X_Done pair (an operation that takes several
// linearization steps: any number of X_Step, then X_Done).
struct OperationSpec {
  std::string name;                 // the action's name, or X for X_Step/X_Done
  std::vector<std::string> params;  // the fields
  std::optional<TypeAnnotation> type;
  bool multi_step = false;
  Position pos;
};

struct Spec {
  std::string file;
  std::string module;
  std::vector<std::string> extends;
  std::vector<std::string> constants;
  std::vector<std::string> variables;
  std::vector<OperatorDef> operators;
  std::string next_name = "Next";
  std::vector<Action> actions;           // in order of first reference in Next
  std::vector<OperationSpec> operations;  // what the harness logs

  const OperatorDef* find_operator(const std::string& name) const;
};

// Parses `text` (the contents of `file`) and analyses its next-state relation `next`. Throws
// SpecError (file:line:col: what was expected) on anything outside the supported structure.
Spec parse_spec(const std::string& file, const std::string& text, const std::string& next = "Next");
Spec parse_spec_file(const std::string& path, const std::string& next = "Next");

// A module read for its interface only (e.g. a user's MC module): no next-state analysis.
Spec parse_module_file(const std::string& path);

}  // namespace omnilink::tla
