#include "platform/code_under_test.hpp"

namespace omnilink {

bool in_code_under_test(std::string_view file, int line) {
  // No line: no source (a static libc names only its object file, "pthread_kill.o:?").
  const bool unknown = line <= 0 || file.empty() || file.starts_with("??");
  const bool standard_library = file.find("/c++/") != std::string_view::npos;  // libstdc++'s headers
  const bool libc = file.starts_with("./") || file.starts_with("../");         // glibc names its sources so
  const bool harness = file.find("/include/omnilink/") != std::string_view::npos;
  return !unknown && !standard_library && !libc && !harness;
}

std::string plain_function_name(std::string_view function) {
  // gdb and addr2line name an anonymous namespace "(anonymous namespace)": not the parameters.
  std::string name(function);
  for (const std::string_view anonymous : {"(anonymous namespace)::", "{anonymous}::"})
    for (auto at = name.find(anonymous); at != std::string::npos; at = name.find(anonymous)) name.erase(at, anonymous.size());
  std::string out;
  int angle = 0;
  for (std::size_t k = 0; k < name.size(); ++k) {
    const char c = name[k];
    if (angle == 0 && c == '(' && out.ends_with("operator") && name.compare(k, 2, "()") == 0) {  // "operator()" is a name
      out += "()";
      ++k;
      continue;
    }
    if (c == '<') ++angle;
    else if (c == '>' && angle > 0) --angle;
    else if (c == '(' && angle == 0) break;  // the parameters
    else if (angle == 0) out += c;
  }
  return out;
}

}  // namespace omnilink
