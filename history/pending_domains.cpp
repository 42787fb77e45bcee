#include "history/pending_domains.hpp"

#include <algorithm>
#include <set>

namespace omnilink::history {

std::string domain_override_name(const std::string& operation, const std::string& param) {
  return "OmniLinkDomain_" + operation + "_" + param;
}

bool known_input(const trace::Operation& op, const std::string& name) {
  return op.inputs_known && op.field(name) != nullptr;
}

std::map<std::string, std::vector<std::optional<Domain>>> pending_domains(
    const History& history, const std::map<std::string, OperationParams>& operations, std::vector<std::string>& caveats) {
  std::map<std::string, std::vector<std::optional<Domain>>> domains;
  // Which (operation, parameter) pairs some pending operation leaves unknown.
  for (const auto& ops : history.threads)
    for (const auto& op : ops) {
      if (!op.pending()) continue;
      const auto params = operations.find(op.name);
      if (params == operations.end()) continue;  // the checker reports the unknown operation
      auto& slots = domains[op.name];
      slots.resize(params->second.names.size());
      for (std::size_t k = 0; k < slots.size(); ++k)
        if (!known_input(op, params->second.names[k])) slots[k].emplace();
    }
  if (domains.empty()) return domains;

  // Every value logged under each field name that a domain needs.
  std::map<std::string, std::set<trace::Value>> logged;
  for (const auto& [name, slots] : domains)
    for (std::size_t k = 0; k < slots.size(); ++k)
      if (slots[k]) logged[operations.at(name).names[k]];
  for (const auto& ops : history.threads)
    for (const auto& op : ops)
      for (const auto& [field, value] : op.fields)
        if (auto it = logged.find(field); it != logged.end()) it->second.insert(value);

  for (auto& [name, slots] : domains) {
    const OperationParams& params = operations.at(name);
    for (std::size_t k = 0; k < slots.size(); ++k) {
      if (!slots[k]) continue;
      if (k < params.defined.size() && params.defined[k]) {
        slots[k]->defined = true;
        continue;
      }
      const std::set<trace::Value>& values = logged.at(params.names[k]);
      const bool typed_bool = k < params.boolean.size() && params.boolean[k];
      const bool all_bool = !values.empty() && std::all_of(values.begin(), values.end(), [](const trace::Value& v) { return v.is<bool>(); });
      if (typed_bool || all_bool) {
        slots[k]->boolean = true;
      } else {
        slots[k]->values.assign(values.begin(), values.end());
        if (values.empty())
          caveats.push_back("no operation logged a value of field '" + params.names[k] + "', so a pending " + name +
                            " cannot be completed (only left out); define " + domain_override_name(name, params.names[k]) +
                            " in an MC module to give its values");
      }
    }
  }
  return domains;
}

}  // namespace omnilink::history
