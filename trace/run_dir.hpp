// The run directory (docs/trace-format.md, "Run directory"): meta.json plus one trace file per
// thread under trace/. Opening one checks the layout and parses meta.json; reading the traces is
// left to ThreadTraceReader, so a large run can be streamed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/reader.hpp"

namespace omnilink::trace {

class RunDirError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// How the harness's run ended, as meta.json's `exit.status` says (docs/trace-format.md).
enum class ExitStatus { running, ok, stopped, error, crashed, interrupted };
/// meta.json's name for `status`.
std::string to_string(ExitStatus status);
/// The harness ended the run itself (ok, stopped, error): every thread closed its file first.
bool finished_by_harness(ExitStatus status);

struct RunMeta {
  nlohmann::json json;  // the whole file, for fields not summarised here
  std::uint64_t seed = 0;
  std::uint32_t threads = 0;
  std::uint64_t ops_per_thread = 0;
  std::string clock;
  ExitStatus exit_status = ExitStatus::running;
  std::optional<int> exit_signal;
  std::string executable;  // the harness, as it ran
  /// A crash: where the signal struck, then its callers, as addresses in `executable` (may be empty).
  std::vector<std::uint64_t> crash_frames;
};

struct RunDir {
  std::filesystem::path root;
  std::optional<RunMeta> meta;
  std::string meta_error;                     // why meta is absent, if it is
  std::vector<std::filesystem::path> thread_files;  // sorted by name (= thread index)

  // Throws RunDirError if `root` is not a run directory (no such directory, no trace/ folder).
  static RunDir open(const std::filesystem::path& root);
};

// Parses a meta.json; throws RunDirError naming the file and what is wrong.
RunMeta read_run_meta(const std::filesystem::path& file);

// Every thread file of a run, read whole.
std::vector<ThreadTrace> read_run_traces(const RunDir& run);

}  // namespace omnilink::trace
