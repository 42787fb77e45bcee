// Where a crashed harness was when the signal struck (docs/campaign.md, "Failure signatures",
// "Crashes"): the addresses its crash handler wrote into meta.json (exit.frames), named by
// binutils' addr2line right after the run, while the executable is the one that ran, and kept in
// RUN/crash.json. A crash's failure signature is built from its innermost frame in the code under
// test.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "trace/run_dir.hpp"

namespace omnilink::findings {

/// One frame, innermost first; inlined calls are frames of their own.
struct CrashFrame {
  std::string address;   // "0x401a2b", in the executable file
  std::string function;  // demangled, as addr2line gives it; "??" when unknown
  std::string file;      // source file; "??" when unknown
  int line = 0;          // 0 when unknown
};

/// RUN/crash.json: owned here (read and written by this module only).
struct CrashSite {
  int signal = 0;
  std::string signal_name;
  std::string executable;
  std::vector<CrashFrame> frames;
  std::string note;  // why the frames are missing or unnamed, if they are

  /// The innermost frame in the code under test (platform/code_under_test.hpp). Null if there is none.
  const CrashFrame* innermost_under_test() const;
};

/// Names the frames of a crash that `meta` records (exit status crashed, with exit.frames) with
/// addr2line; nothing for a run that did not crash. Without addr2line, or frames, `note` says so.
std::optional<CrashSite> locate_crash(const trace::RunMeta& meta);


/// After a run: RUN/crash.json from RUN/meta.json, if the harness crashed and wrote it.
void record_crash_site(const std::filesystem::path& run_dir);

void write_crash_site(const std::filesystem::path& run_dir, const CrashSite& site);
/// RUN/crash.json, if the run has one that reads.
std::optional<CrashSite> read_crash_site(const std::filesystem::path& run_dir);

}  // namespace omnilink::findings
