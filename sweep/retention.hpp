// What a store keeps (docs/sweep.md, "Retention"). Evidence is every run a signature points to:
// for each signature of each campaign name in the store, its first `evidence_runs` failing runs
// (findings/signature_history.hpp). Evidence is never pruned. Everything else may be, oldest campaign and run
// first, in three tiers: the rr recordings of runs (passing runs' first, then failing ones that are
// not evidence), then the traces of passing runs, then those of failing runs that are not
// evidence; every verdict stays, in the index and in RUN/run.json. A
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

#include "store/store.hpp"

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
  std::optional<std::uint64_t> quota;   // what the store was pruned to, if anything
  bool default_quota = false;           // the quota was default_store_quota's, not the sweep file's
};

/// The runs ("<campaign>/<run>") some signature in the store points to.
std::set<std::string> evidence_runs(store::Store& store, std::uint32_t per_signature);

/// Removes the run's rr recording (and rr pack's log), noting it in RUN/pruned.json; the bytes it
/// held (0 when there was none). Throws std::filesystem::filesystem_error when a removal fails.
std::uint64_t prune_recording(const std::filesystem::path& run_dir);

/// Prunes the store by `policy`. Throws std::filesystem::filesystem_error when a removal fails.
PruneReport prune_store(store::Store& store, const RetentionPolicy& policy);

/// The quota a sweep prunes its store to when its file sets none: the store's size when the sweep
/// starts plus half of what is free on its file system then. A night of sweeping thus leaves at
/// least half the free space it found, whatever the target's failure rate.
std::uint64_t default_store_quota(const std::filesystem::path& store);

/// "1.5 GiB", "300 KiB", "12 bytes": a size for people.
std::string size_text(std::uint64_t bytes);

/// "500m", "20g", "1t", "4096": bytes (k, m, g, t: powers of 1024); nothing when malformed.
std::optional<std::uint64_t> parse_size(const std::string& text);

/// The bytes of the files under `path` (0 when it does not exist).
std::uint64_t disk_size(const std::filesystem::path& path);

/// RUN/pruned.json: what retention removed from the run directory (nothing when absent).
std::filesystem::path pruned_record(const std::filesystem::path& run_dir);

}  // namespace omnilink::sweep
