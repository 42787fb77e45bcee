// The TLA+ module and TLC configuration that validate one run against one spec: EXTENDS
// OmniLinkTrace (and the user's MC module), INSTANCEs the spec, and maps every logged operation
// name to the spec's action, with the logged fields as arguments in parameter order.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "language/interface.hpp"

namespace omnilink::checkers {

inline constexpr const char* kValidationModule = "OmniLinkValidate";

struct ValidationModuleOptions {
  std::string init = "Init";          // the spec's initial predicate
  language::LoadedSpec* loaded = nullptr;  // the spec as loaded, with the user's MC module if any
  std::optional<std::string> view;    // an MC operator over the spec's variables, used as TLC VIEW
  std::filesystem::path data_file;    // absolute
  std::filesystem::path frontier_file;  // absolute
};

struct ValidationModule {
  std::string tla;  // module kValidationModule
  std::string cfg;
};

// Throws ValidationError (history/problem.hpp) for a spec that cannot be validated this way,
// e.g. a constant its actions use that no MC module defines.
ValidationModule generate_validation_module(const language::SpecInterface& spec, const ValidationModuleOptions& options);

// The text of OmniLinkTrace.tla, compiled into omnilink (tla/OmniLinkTrace.tla).
const std::string& omnilink_trace_module();

}  // namespace omnilink::checkers
