// Running TLC on a generated validation module: the command line (an argument vector), the
// limits (heap, wall clock), and what came back, read from TLC's exit code and its `-tool`
// messages (each tagged with a message code), not from its prose.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace omnilink::checkers {

struct TlcRun {
  std::filesystem::path java;
  std::filesystem::path jar;
  std::filesystem::path work_dir;              // holds the module; TLC's metadir goes inside
  std::string module;                          // root module name (file work_dir/module.tla)
  std::vector<std::filesystem::path> library;  // where the spec and MC modules are
  std::string heap = "2g";                     // -Xmx
  std::chrono::seconds timeout{600};
  // Set by another thread to stop TLC early (a campaign being interrupted); TLC runs in its own
  // process group then, since its caller handles Ctrl-C.
  const std::atomic<bool>* cancel = nullptr;
};

struct TlcMessage {
  int code = 0;
  int severity = 0;  // 0 info, 1 error, 2 TLC bug, 3 warning, 4 progress (TLC's classes)
  std::string text;
};

struct TlcOutcome {
  std::vector<std::string> command;
  bool started = false;
  std::string start_error;
  int exit_code = -1;
  int signal = 0;
  bool timed_out = false;
  bool cancelled = false;
  bool out_of_memory = false;
  std::vector<TlcMessage> messages;
  std::optional<std::uint64_t> states_generated;
  std::optional<std::uint64_t> states_distinct;
  std::uint64_t peak_rss_kb = 0;
  std::chrono::milliseconds duration{0};
  std::string raw_output;  // TLC's stdout, kept for the validation directory

  // The text of every error-class message (or the tail of the output when there is none).
  std::string error_text() const;
};

TlcOutcome run_tlc(const TlcRun& run);

// Parses TLC `-tool` output into messages (exposed for tests).
std::vector<TlcMessage> parse_tool_messages(const std::string& output);

}  // namespace omnilink::checkers
