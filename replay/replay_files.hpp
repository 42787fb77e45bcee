// RUN/replay/, written for every failed validation: for each operation at the failure frontier (the
// pending operations no linearization could take), a gdb command file `T<t>.<i>.gdb` that stops a
// replay there (gdb_commands.hpp), and a README.txt listing the operations with the exact commands
// to replay each. Owner of that directory's layout (docs/replay.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "trace/reader.hpp"
#include "trace/run_dir.hpp"

namespace omnilink::replay {

std::filesystem::path replay_dir(const std::filesystem::path& run_dir);
std::filesystem::path command_file(const std::filesystem::path& run_dir, const trace::Operation& op);
/// RUN/replay/core/<k+1>-T<t>.<i>.gdb: the k-th stop of `omnilink replay --core` (the directory is made).
std::filesystem::path core_command_file(const std::filesystem::path& run_dir, const trace::Operation& op, std::size_t k);
/// RUN/replay/crash.gdb: the stop of `omnilink replay --crash` (stop_at_signal).
std::filesystem::path signal_command_file(const std::filesystem::path& run_dir);

// How the run was recorded, for the commands README.txt gives.
struct RecordingFacts {
  bool recorded = false;       // RUN/rr holds an rr recording
  bool soft_counters = false;  // made with rr -W, so replayed with -W
};

// Whether the run re-executes to the same operations under plain gdb (`omnilink replay --rerun`):
// one thread and the counter clock, so nothing but its seed decides what it does.
bool reruns_the_same(const trace::RunMeta& meta);
// ... of the run in `run_dir`, from its meta.json; false when that does not read.
bool reruns_the_same(const std::filesystem::path& run_dir);

// Replaces RUN/replay/ with the files for `frontier`. `run_name` is how `omnilink replay` should
// be told about the run (a store key, or the run directory).
void write_replay_files(const std::filesystem::path& run_dir, const std::string& run_name,
                        const std::vector<trace::Operation>& frontier, const RecordingFacts& recording);

}  // namespace omnilink::replay
