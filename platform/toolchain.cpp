#include "platform/toolchain.hpp"

#include <cstdlib>

#include <unistd.h>

#include "platform/subprocess.hpp"

namespace omnilink {
namespace fs = std::filesystem;
namespace {

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

bool usable(const fs::path& p, bool executable) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return false;
  return ::access(p.c_str(), executable ? X_OK : R_OK) == 0;
}

// The common search: env var, then candidate paths, then PATH names.
ToolLocation locate(std::string tool, std::string env_var, bool executable, const std::vector<fs::path>& candidates,
                    const std::vector<std::string>& path_names) {
  ToolLocation loc{std::move(tool), std::move(env_var), std::nullopt, "", "", {}};
  if (auto value = env(loc.env_var.c_str())) {
    loc.searched.push_back("$" + loc.env_var);
    if (usable(*value, executable)) {
      loc.path = fs::path(*value);
      loc.source = "$" + loc.env_var;
    } else {
      loc.problem = "$" + loc.env_var + " is set to '" + *value + "', which is not " +
                    (executable ? "an executable file" : "a readable file");
    }
    return loc;  // an explicit setting is never silently replaced
  }
  for (const fs::path& c : candidates) {
    loc.searched.push_back(c.string());
    if (usable(c, executable)) {
      loc.path = c;
      loc.source = c.parent_path().string();
      return loc;
    }
  }
  for (const std::string& name : path_names) {
    loc.searched.push_back(name + " on PATH");
    if (auto p = find_on_path(name)) {
      loc.path = *p;
      loc.source = "PATH";
      return loc;
    }
  }
  return loc;
}

}  // namespace

std::string ToolLocation::explain_missing() const {
  if (!problem.empty()) return problem;
  std::string where;
  for (const auto& s : searched) where += (where.empty() ? "" : ", ") + s;
  return "not found (looked in: " + where + "); set " + env_var;
}

fs::path tools_dir() {
  if (auto dir = env("OMNILINK_TOOLS_DIR")) return *dir;
  if (auto home = env("HOME")) return fs::path(*home) / ".local" / "omnilink-tools";
  return "/usr/local/lib/omnilink-tools";
}

ToolLocation find_gdb() { return locate("gdb", "OMNILINK_GDB", true, {}, {"gdb"}); }

ToolLocation find_addr2line() { return locate("addr2line", "OMNILINK_ADDR2LINE", true, {}, {"addr2line"}); }

ToolLocation find_chromium() { return locate("chromium", "OMNILINK_CHROMIUM", true, {}, {"chromium"}); }

ToolLocation find_java() {
  std::vector<fs::path> candidates;
  if (auto home = env("JAVA_HOME")) candidates.push_back(fs::path(*home) / "bin" / "java");
  return locate("java", "OMNILINK_JAVA", true, candidates, {"java"});
}

std::optional<std::string> tlc_unavailable() {
  const ToolLocation jar = find_tlc_jar();
  if (!jar.found()) return jar.explain_missing();
  const ToolLocation java = find_java();
  if (!java.found()) return java.explain_missing();
  return std::nullopt;
}

ToolLocation find_tlc_jar() {
  ToolLocation loc = locate("tlc", "OMNILINK_TLC_JAR", false,
                            {tools_dir() / "tla2tools.jar", "/usr/share/java/tla2tools.jar", "/usr/local/lib/tla2tools.jar",
                             "/opt/tlaplus/tla2tools.jar"},
                            {});
  if (loc.found() || !loc.problem.empty()) return loc;
  // A `tlc` launcher on PATH (e.g. nixpkgs' tlaplus: bin/tlc beside share/java/tla2tools.jar).
  loc.searched.push_back("the jar of a tlc launcher on PATH");
  if (auto launcher = find_on_path("tlc")) {
    std::error_code ec;
    const fs::path bin = fs::canonical(*launcher, ec).parent_path();
    for (const fs::path& jar : {bin.parent_path() / "share" / "java" / "tla2tools.jar", bin / "tla2tools.jar"}) {
      if (usable(jar, false)) {
        loc.path = jar;
        loc.source = "tlc on PATH (" + launcher->string() + ")";
        break;
      }
    }
  }
  return loc;
}

ToolLocation find_rr() { return locate("rr", "OMNILINK_RR", true, {tools_dir() / "rr" / "bin" / "rr"}, {"rr"}); }

}  // namespace omnilink
