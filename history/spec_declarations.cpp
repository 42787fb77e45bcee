#include "history/spec_declarations.hpp"

#include <algorithm>

#include "language/evaluator.hpp"

namespace omnilink::history {
namespace {

/// What the spec says of itself to the native checker (OmniLinkPartitionBy, OmniLinkDataIndependent):
/// the MC module's definition, else the spec's own, as a constant value.
std::optional<language::Value> checker_declaration(language::LoadedSpec& spec, const std::string& name) {
  const language::Definition* def = spec.mc_definition(name);
  if (def == nullptr) def = spec.spec_definition(name);
  if (def == nullptr) return std::nullopt;
  language::Evaluator evaluator(spec);
  return evaluator.evaluate(*def, {});
}

}  // namespace

std::optional<std::string> partition_field(language::LoadedSpec& spec) {
  const auto field = checker_declaration(spec, "OmniLinkPartitionBy");
  if (!field) return std::nullopt;
  if (!field->is_string()) throw ValidationError("OmniLinkPartitionBy must be a field name (a string), not " + field->text());
  return field->as_string();
}

std::vector<std::string> data_independent_fields(language::LoadedSpec& spec, const Problem& problem) {
  const auto declared = checker_declaration(spec, "OmniLinkDataIndependent");
  if (!declared) return {};
  const std::string usage = "OmniLinkDataIndependent must be a set of field names (strings), not " + declared->text();
  if (!declared->is_set() || !declared->finite()) throw ValidationError(usage);
  std::vector<std::string> fields;
  for (const language::Value& field : declared->elements()) {
    if (!field.is_string()) throw ValidationError(usage);
    const bool known = std::any_of(problem.params.begin(), problem.params.end(), [&](const auto& op) {
      return std::find(op.second.names.begin(), op.second.names.end(), field.as_string()) != op.second.names.end();
    });
    if (!known) throw ValidationError("OmniLinkDataIndependent names " + field.text() + ", which is no operation's parameter");
    fields.push_back(field.as_string());
  }
  return fields;
}

bool projectable(language::LoadedSpec& spec, const std::vector<std::string>& fields) {
  const auto declared = checker_declaration(spec, "OmniLinkProjectable");
  if (!declared) return false;
  if (!declared->is_bool()) throw ValidationError("OmniLinkProjectable must be TRUE or FALSE, not " + declared->text());
  if (declared->as_bool() && fields.empty())
    throw ValidationError("OmniLinkProjectable needs OmniLinkDataIndependent: the fields whose values a projection keeps or removes");
  return declared->as_bool();
}

}  // namespace omnilink::history
