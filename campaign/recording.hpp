// How a campaign's harness runs are recorded: the campaign's rr mode resolved against what rr can do
// on this machine (auto: chaos with plain rr if it records here, else with `-W`, else off), and
// the command line of one run, with or without rr.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <cstdint>

#include "campaign/campaign_file.hpp"
#include "store/store.hpp"

namespace omnilink::campaign {

struct Recording {
  store::RecordingMode mode = store::RecordingMode::off;  // the campaign's RrMode resolved here
  std::optional<std::filesystem::path> rr;
  bool soft_counters = false;         // rr -W
  bool replays_here = false;          // the probe's replay of a recording made here succeeded
  std::uint64_t timeslice_ticks = kDefaultRrTimesliceTicks;  // rr record --num-cpu-ticks
  std::vector<std::string> notes;     // what the user must be told (loudly, when rr was wanted)
  std::string error;                  // record/chaos asked for and impossible: the campaign cannot run

  /// Runs go under `rr record`.
  bool recorded() const { return mode != store::RecordingMode::off; }
};

// Probes rr (really recording, see platform/rr_probe.hpp) unless the mode is off.
Recording resolve_recording(RrMode requested, std::uint64_t timeslice_ticks);

// The run's command: the harness with its arguments, under
// `rr record [-W] [--chaos] --num-cpu-ticks=N -o RUN/rr`
// when recording. Under rr the harness uses the `counter` clock: rr runs one thread at a time,
// and the counter is the clock whose order rr replays exactly.
struct RunCommand {
  std::filesystem::path exe;
  std::vector<std::string> args;
};
RunCommand run_command(const Recording& recording, const TargetConfig& target, std::uint32_t threads, std::uint64_t ops,
                       std::uint64_t seed, const std::filesystem::path& run_dir);

// RUN/recording.json ({"mode": "chaos", "soft_counters": true, "timeslice_ticks": N, "rr": PATH}), written when a run is
// recorded, so that a run directory alone says how to replay it (rr.soft needs -W for a recording
// made with -W).
void write_recording_facts(const std::filesystem::path& run_dir, const Recording& recording);
// Whether the run in `run_dir` was recorded with -W; false when it says nothing.
bool recorded_with_soft_counters(const std::filesystem::path& run_dir);

}  // namespace omnilink::campaign
