// `omnilink gen-hpp`: the C++ operation types of a spec. One struct per logged operation (an
// action of Next, or an X_Step/X_Done pair), fields named after the action's parameters, typed
// from the action's Apalache-style annotation (\* @type: (Int, Str) => Bool;) and Int otherwise,
// plus `Operations`, the list the harness checks a workload against at compile time.
#pragma once

#include <string>
#include <vector>

#include "language/interface.hpp"

namespace omnilink::tla {

struct HppOptions {
  std::string namespace_name;  // default: the module name in lower case
};

// Throws language::SpecError for an annotation it cannot map to C++.
std::string generate_hpp(const language::SpecInterface& spec, const HppOptions& options = {});

// The C++ types of an operation's parameters (language::param_types mapped by cpp_type_of:
// std::int64_t where it has no annotation). Throws language::SpecError for an annotation it cannot
// map or that lists another number of types.
std::vector<std::string> cpp_param_types(const language::Operation& op);

// The C++ type for an Apalache type expression (Int, Bool, Str, Seq(T), Set(T), T -> U, <<T, U>>).
// Throws std::invalid_argument with what is wrong.
std::string cpp_type_of(const std::string& apalache_type);

}  // namespace omnilink::tla
