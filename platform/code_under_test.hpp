// Which source locations belong to the code under test: not the C++ standard library's headers,
// glibc's sources or omnilink's harness headers (which run every operation, so a frame in them
// says nothing about the system being tested), and not a location without a known line. A
// crash's signature (findings/crash_site.hpp) and a core's switch points (explain/interleaving.hpp)
// are both named by their innermost frame in this code.
#pragma once

#include <string>
#include <string_view>

namespace omnilink {

/// `file` and `line` as addr2line or gdb name a frame's location.
bool in_code_under_test(std::string_view file, int line);

/// `function` without template arguments, parameters and anonymous namespaces
/// ("ns::Stack<int>::pop(int)" -> "ns::Stack::pop", "(anonymous namespace)::Queue::push" ->
/// "Queue::push"): what stays the same across builds and instantiations.
std::string plain_function_name(std::string_view function);

}  // namespace omnilink
