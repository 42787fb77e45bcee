// The run directory as a whole against its meta.json (docs/trace-format.md, "Integrity"): one
// thread file per thread, each header's thread index matching its file and in range, every file
// of the run's clock and trace version, and an end record in every file when meta.json says the
// run ended normally. A file from another run, a lost file or a file cut short behind a run that
// claims to have finished is an error, never a silent pass.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "trace/reader.hpp"
#include "trace/run_dir.hpp"

namespace omnilink::history {

/// What reading one thread file found, for the whole-run checks.
struct ThreadFileSummary {
  std::filesystem::path file;
  std::optional<trace::ThreadHeader> header;
  std::optional<trace::ThreadEnd> end;
  std::optional<trace::TraceError> error;
  bool has_pending = false;
  std::uint64_t last_end = 0;  // ThreadTraceReader::last_end()
};

/// The thread index a file's name gives ("thread-0012.msgpack" -> 12), or nullopt.
std::optional<std::uint32_t> thread_index_of(const std::filesystem::path& file);

/// Checks the thread files against each other and meta.json. Returns the first violation, naming
/// the file; nullopt when the directory is consistent.
std::optional<std::string> check_run_integrity(const trace::RunDir& run, const std::vector<ThreadFileSummary>& files);

}  // namespace omnilink::history
