// What a store keeps (docs/sweep.md, "Retention"). Evidence is every run a signature points to:
// for each signature of each campaign name in the store, its first `evidence_runs` failing runs
// (signature_history.hpp). Evidence is never pruned. Everything else may be, oldest campaign and run
// first, in two tiers: the rr recordings of runs (passing runs' first, then failing ones that are
// not evidence), then the traces of passing runs; a failing run's trace and every verdict stay. A
// pruned run gets RUN/pruned.json saying what went and when, so `show` and `replay` can tell a
// pruned run from a damaged one. Runs not yet final (pending, running) are never touched: a
// campaign may be writing them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "campaign/store.hpp"

namespace omnilink::sweep {

struct RetentionPolicy {
  // Prune until the store is at most this large; without one every recording that is not evidence
  // goes (what a sweep drops by default), and no trace.
  std::optional<std::uint64_t> quota_bytes;
  std::uint32_t evidence_runs = 3;
  bool dry_run = false;  // say what would go, remove nothing
};

struct PruneReport {
  std::uint64_t size_before = 0;
  std::uint64_t freed = 0;
  std::size_t evidence = 0;             // runs kept as evidence
  std::vector<std::string> pruned;      // "<campaign>/<run>: <part> (<bytes> bytes)"
  bool quota_met = true;                // false: only evidence and what is never pruned is left above the quota
};

/// The runs ("<campaign>/<run>") some signature in the store points to.
std::set<std::string> evidence_runs(campaign::Store& store, std::uint32_t per_signature);

/// Removes the run's rr recording (and rr pack's log), noting it in RUN/pruned.json; the bytes it
/// held (0 when there was none). Throws std::filesystem::filesystem_error when a removal fails.
std::uint64_t prune_recording(const std::filesystem::path& run_dir);

/// Prunes the store by `policy`. Throws std::filesystem::filesystem_error when a removal fails.
PruneReport prune_store(campaign::Store& store, const RetentionPolicy& policy);

/// "500m", "20g", "1t", "4096": bytes (k, m, g, t: powers of 1024); nothing when malformed.
std::optional<std::uint64_t> parse_size(const std::string& text);

/// The bytes of the files under `path` (0 when it does not exist).
std::uint64_t disk_size(const std::filesystem::path& path);

/// RUN/pruned.json: what retention removed from the run directory (nothing when absent).
std::filesystem::path pruned_record(const std::filesystem::path& run_dir);

}  // namespace omnilink::sweep
