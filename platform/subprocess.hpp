// Running child processes: always an argument vector (never a shell string), with a wall-clock
// limit, capturing stdout and stderr. The campaign engine builds its asynchronous runs on the same
// Boost.Process/Asio foundation.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace omnilink {

struct ProcessResult {
  bool started = false;
  std::string start_error;  // why it could not be started
  int exit_code = -1;       // valid when !signaled && !timed_out
  int signal = 0;           // the signal that ended it, if any
  bool timed_out = false;   // killed at the time limit
  bool cancelled = false;   // killed because ProcessOptions::cancel was set
  std::uint64_t peak_rss_kb = 0;  // the child's VmHWM, sampled every 50 ms while it runs
  std::chrono::milliseconds duration{0};
  std::string out;
  std::string err;

  bool ok() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // "exit 3", "killed by signal 11 (SIGSEGV)", "timed out after the limit", "not started: ..."
  std::string describe() const;
};

struct ProcessOptions {
  std::chrono::milliseconds timeout{60'000};
  std::optional<std::filesystem::path> cwd;
  std::map<std::string, std::string> env_overrides;  // added to (or replacing in) the parent's environment
  // Polled every 50 ms; once true the child (its whole group, with own_process_group) is killed.
  const std::atomic<bool>* cancel = nullptr;
  // Start the child in its own process group (process_group.hpp): for callers that handle Ctrl-C
  // themselves and stop children through `cancel`.
  bool own_process_group = false;
};

ProcessResult run_process(const std::filesystem::path& exe, const std::vector<std::string>& args,
                          const ProcessOptions& options = {});

// The first `max_lines` non-blank lines of a program's output, trimmed and joined by spaces, cut at
// 400 characters: enough to say why a tool failed in one line of a report.
std::string summarize_output(const std::string& text, std::size_t max_lines = 1);

// A command line for a person to copy into a POSIX shell: each argument as it is when it is made of
// safe characters only, else in single quotes (with ' written as '\''). For messages only: omnilink
// itself never runs a shell string.
std::string shell_command_line(const std::vector<std::string>& argv);

// The executable `name` on PATH, if any.
std::optional<std::filesystem::path> find_on_path(const std::string& name);

}  // namespace omnilink
