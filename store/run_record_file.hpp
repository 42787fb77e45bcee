// RUN/run.json (format "omnilink-run-record", docs/campaign.md "The run directory"): the store's
// row of a run and its newest validation, mirrored into the run directory each time the store
// writes them. The index is then a cache of the directories: `omnilink store rebuild` restores a
// run from its directory exactly as the index had it, planned or not (a sweep's runs are not).
// Where the run lives (its campaign and directory) is not in the file: it is where the file is.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "store/store.hpp"

namespace omnilink::store {

inline constexpr int kRunRecordVersion = 1;

/// What RUN/run.json holds: the run's row and its place among the store's rows when written.
struct RunRecordFile {
  RunRecord run;             // campaign and dir empty: the reader's caller knows them
  std::int64_t position = 0;  // runs.ord: orders runs that started in the same millisecond
};

std::filesystem::path run_record_file(const std::filesystem::path& run_dir);

/// Writes RUN/run.json whole (a temporary file renamed over it). Throws StoreError when it cannot.
void write_run_record_file(const std::filesystem::path& run_dir, const RunRecord& run, std::int64_t position);

/// Reads RUN/run.json; nullopt when the run directory has none (a run made before omnilink wrote
/// them). Throws StoreError naming the file and the field when it is not such a file.
std::optional<RunRecordFile> read_run_record_file(const std::filesystem::path& run_dir);

}  // namespace omnilink::store
