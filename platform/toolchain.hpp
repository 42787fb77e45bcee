// Finding the external tools omnilink drives: gdb, java, TLC (tla2tools.jar) and rr. Each is
// looked up in a fixed order, and the result says where it came from, so `omnilink doctor` can
// tell the user which setting is in effect:
//   1. its environment variable (OMNILINK_GDB, OMNILINK_JAVA, OMNILINK_TLC_JAR, OMNILINK_RR);
//      if set but wrong, that is reported, not silently replaced by another copy;
//   2. conventional locations, including the hand-built tools prefix OMNILINK_TOOLS_DIR
//      (default ~/.local/omnilink-tools: tla2tools.jar, rr/bin/rr);
//   3. PATH (java also via JAVA_HOME; TLC as the jar beside a `tlc` launcher on PATH).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace omnilink {

struct ToolLocation {
  std::string tool;                           // "gdb", "java", "tlc", "rr", "addr2line", "chromium"
  std::string env_var;                        // the variable that overrides the search
  std::optional<std::filesystem::path> path;  // absent: not found
  std::string source;                         // how it was found: "$OMNILINK_RR", "PATH", a location
  std::string problem;                        // why it is absent (or the env var is wrong)
  std::vector<std::string> searched;          // what was tried, for the error message

  bool found() const { return path.has_value(); }
  // "not found: set OMNILINK_RR (looked in: ...)" or the problem.
  std::string explain_missing() const;
};

std::filesystem::path tools_dir();  // $OMNILINK_TOOLS_DIR or ~/.local/omnilink-tools

ToolLocation find_gdb();
ToolLocation find_java();
ToolLocation find_tlc_jar();  // the tla2tools.jar file
/// Why TLC cannot run here (no tla2tools.jar, or no java to run it), with where omnilink looked;
/// nothing where it can.
std::optional<std::string> tlc_unavailable();
ToolLocation find_rr();
ToolLocation find_addr2line();  // binutils': names a crash's frames (findings/crash_site.hpp)
ToolLocation find_chromium();   // Debian's headless browser: only the HTML report's browser test needs it

}  // namespace omnilink
