// Every path inside a run directory (docs/campaign.md, "The run directory"): the one place their
// names are written. It lives with the run directory's reader (run_dir.hpp) rather than with the
// store because the harness's files, validation's and replay's are all below the store.
#pragma once

#include <filesystem>
#include <system_error>

namespace omnilink::trace {

/// The parts of one run directory, by what they are. Owns their names only: each file's format
/// stays with its one reader and writer (named beside each part).
struct RunLayout {
  std::filesystem::path root;

  explicit RunLayout(std::filesystem::path run_dir) : root(std::move(run_dir)) {}

  /// The harness's run metadata (trace/run_dir.hpp).
  std::filesystem::path meta() const { return root / "meta.json"; }
  /// The per-thread trace files (trace/reader.hpp).
  std::filesystem::path traces() const { return root / "trace"; }
  /// The newest validation's files (checkers/validate.hpp).
  std::filesystem::path validation() const { return root / "validation"; }
  /// Its verdict (results/result_file.hpp).
  std::filesystem::path result() const { return validation() / "result.json"; }
  /// The store's row of the run (store/run_record_file.hpp).
  std::filesystem::path run_record() const { return root / "run.json"; }
  /// The harness's (or `rr record`'s) output.
  std::filesystem::path harness_out() const { return root / "harness.out"; }
  std::filesystem::path harness_err() const { return root / "harness.err"; }
  /// The rr recording, and how it was made (campaign/recording.hpp).
  std::filesystem::path recording() const { return root / "rr"; }
  std::filesystem::path recording_facts() const { return root / "recording.json"; }
  /// What `rr pack` said.
  std::filesystem::path pack_log() const { return root / "rr-pack.log"; }
  std::filesystem::path pack_errors() const { return root / "rr-pack.log.err"; }
  /// Where a crash struck (findings/crash_site.hpp).
  std::filesystem::path crash_site() const { return root / "crash.json"; }
  /// What retention removed (sweep/retention.hpp).
  std::filesystem::path pruned_record() const { return root / "pruned.json"; }
  /// gdb command files and the replay README (replay/replay_files.hpp).
  std::filesystem::path replay() const { return root / "replay"; }
  /// A failure's explanation, cached: its core and why (explain/explanation.hpp).
  std::filesystem::path explanation() const { return root / "explain"; }

  /// The harness got as far as writing trace files: there is something to validate.
  bool has_trace() const {
    std::error_code ec;
    return std::filesystem::is_directory(traces(), ec) && !std::filesystem::is_empty(traces(), ec);
  }
};

}  // namespace omnilink::trace
