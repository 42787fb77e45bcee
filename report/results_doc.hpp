// The results document (docs/results.md): what a store's campaigns found, as Markdown, computed
// from store records and each failed run's explanation or validation, never typed by hand
// (scripts/results regenerates it). Three kinds of campaign feed it:
//   - result campaigns: per target its configuration, verdict counts, validation time and, for
//     every failure, the failure as the campaign report shows it (report::failure_summary: its
//     failing core, or its frontier) and the replay command;
//   - hunt campaigns (one target each, run with jobs 1): how many runs and how much wall time the
//     target's first failure took, per lane (rr chaos, native perturbation, neither);
//   - sweeps: per target the configurations drawn, runs, operations, verdicts and distinct
//     interleaving windows seen (read from each run's trace), then its failures as a result
//     campaign's: what a long search explored, whether it found something or not.
// Everything taken from a trace or a file is escaped: the document may be rendered as HTML.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace omnilink::report {

struct CampaignRuns {
  store::CampaignRecord campaign;
  std::vector<store::RunRecord> runs;  // plan order
};

struct SweepRuns {
  CampaignRuns sweep;
  std::optional<std::chrono::milliseconds> spent;  // its clock's time in all its sessions; none if unrecorded (merged)
};

struct ResultsInput {
  std::string store;                  // shown in the header
  std::vector<CampaignRuns> results;  // result campaigns, in the order to show
  std::vector<CampaignRuns> hunts;    // hunt campaigns
  std::vector<SweepRuns> sweeps;
  std::size_t failures_shown = 3;     // per target; the rest are counted
  /// Paths under this directory (the repository, for docs/results.md) are written relative to it:
  /// a committed document names no directory of the machine it was made on. Empty: as they are.
  std::string relative_to;
};

std::string results_markdown(const ResultsInput& input);

// The lane a hunt run belongs to, from how it was run: "rr chaos, timeslice 2000 ticks", "rr
// record, ...", "native + perturb mixed 0.05" (the harness's last --perturb and --perturb-rate), or
// "native".
std::string hunt_lane(std::optional<store::RecordingMode> rr_mode, const std::vector<std::string>& harness_args,
                      std::uint64_t rr_timeslice_ticks);

}  // namespace omnilink::report
