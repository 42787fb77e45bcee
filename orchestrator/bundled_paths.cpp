#include "orchestrator/bundled_paths.hpp"

#include <cstdlib>

namespace omnilink::cli {
namespace fs = std::filesystem;
namespace {

fs::path executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

std::vector<fs::path> dirs(const char* env_var, const fs::path& installed, const fs::path& build_tree) {
  std::vector<fs::path> result;
  if (const char* v = std::getenv(env_var); v != nullptr && *v != '\0') result.emplace_back(v);
  if (const fs::path exe = executable_dir(); !exe.empty()) result.push_back(exe / installed);
  result.push_back(build_tree);
  return result;
}

}  // namespace

std::vector<fs::path> bundled_harness_dirs() {
  return dirs("OMNILINK_EXAMPLES_DIR", "../libexec/omnilink/examples", OMNILINK_BUILD_EXAMPLES_DIR);
}

std::vector<fs::path> bundled_spec_dirs() {
  return dirs("OMNILINK_SPECS_DIR", "../share/omnilink/tla/specs", OMNILINK_SOURCE_SPECS_DIR);
}

}  // namespace omnilink::cli
