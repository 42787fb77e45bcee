// After a campaign's runs, or a sweep's night: the interleavings of its failures' evidence, read
// from their rr recordings into their explanations (RUN/explain/, explain/explain.hpp), so the
// campaign's summary, the sweep's report and the HTML signature pages show how the recording ran
// each failing core, with its atomicity hints ranked across runs, without `omnilink explain`.
//
// Why after the runs and not in the validation pool: reading an interleaving replays the
// recording (an indexing replay once, then two probing ones; seconds to a minute), and only the
// runs a report points to need it. The pool has already kept each failing run's core, so what is
// left here is the recording's part. A run whose explanation already has its interleaving costs
// nothing: a resumed campaign or the next night does not read it again.
//
// Leaves to its caller which runs are evidence (a campaign's: first_recorded_runs_per_signature; a
// sweep's: findings::signature_history), which rr replays them, and whether this machine should:
// a recording replays only on a machine like the one that made it, so shards and Slurm campaigns
// leave it to `omnilink explain` where the runs were recorded.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "campaign/campaign_file.hpp"
#include "store/store.hpp"

namespace omnilink::campaign {

/// What one pass read, for the terminal.
struct InterleavingsRead {
  std::size_t asked = 0;  // recorded failing runs with a core and no interleaving yet
  std::size_t read = 0;   // of those, read now
  std::vector<std::string> failed;    // "<campaign>/<run>: why" (the explanation says why too; tried again next time)
  std::vector<std::string> not_read;  // "<campaign>/<run>": left when the budget ran out or a stop was asked
  bool stopped = false;               // SIGINT or SIGTERM during the pass
  std::chrono::milliseconds spent{0};

  /// "interleavings: read 3 of 4 evidence runs' recordings in 21.4 s; ...", or empty when none
  /// was asked for and nothing failed.
  std::string text() const;
};

/// The first `per_signature` runs of each signature (`by_signature`: each signature's runs in
/// order): every signature's first, then every signature's second, and so on, so that a budget
/// that runs out leaves each signature's later runs first.
std::vector<store::RunRecord> first_runs_round_robin(const std::vector<std::vector<store::RunRecord>>& by_signature, unsigned per_signature);

/// The first `per_signature` failing runs of each failure signature among `runs` (a campaign's)
/// that were recorded with rr, by start, in first_runs_round_robin's order.
std::vector<store::RunRecord> first_recorded_runs_per_signature(const std::vector<store::RunRecord>& runs, unsigned per_signature);

/// Reads the interleaving of each of `runs` that failed, was recorded (RUN/rr), has a failing core
/// of its target's spec and MC module (kept by the validation pool) and no interleaving yet, with
/// `rr`, in order. No run's reading starts once `config.validation.interleavings_budget` is spent,
/// and each is bounded (its seek index by what is left, each of its two probes by 60 s), so the
/// pass ends at most about two minutes past the budget. SIGINT or SIGTERM stop it before the next
/// run. A run whose target `config` lacks is skipped. Never throws for one run: what failed is
/// said in the result and in the run's explanation.
InterleavingsRead read_interleavings(const std::vector<store::RunRecord>& runs, const CampaignConfig& config,
                                     const std::filesystem::path& rr, std::ostream& progress);

}  // namespace omnilink::campaign
