// The sweep file (docs/sweep.md, format 1): a campaign file with a `sweep` object, read by the same
// strict rules (campaign/file_reader.hpp). It says how long a sweep runs (`for` or `until`), its
// caps, and which configurations it draws runs from: every combination of a target's threads, ops,
// perturbation modes and rates, and rr timeslices, each given as a list or a range. This module owns
// that format and the list of configurations; how runs are shared among them is the allocator's.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "campaign/campaign_file.hpp"
#include "store/store.hpp"

namespace omnilink::sweep {

/// One cell of a sweep's grid: a target and a value for each dimension. Runs of one configuration
/// differ only in their seed.
struct Configuration {
  std::size_t target = 0;  // index into CampaignConfig::targets
  std::uint32_t threads = 0;
  std::uint64_t ops = 0;
  std::optional<std::string> perturb;            // --perturb, when the target lists modes
  std::optional<double> perturb_rate;            // --perturb-rate, when the target lists rates
  std::optional<std::uint64_t> timeslice_ticks;  // rr's longest timeslice, when the target lists them
  // "<target>.t<threads>.o<ops>[.p<mode>][.pr<rate>][.ts<ticks>]": how run ids and reports name it.
  std::string name;
};

/// The time a sweep may run: a duration (`for`) or a wall-clock time of day (`until`).
struct Budget {
  std::optional<std::chrono::seconds> duration;
  std::optional<std::string> until;  // "HH:MM", local time: the next such moment after the start
};

struct SweepSettings {
  Budget budget;
  std::optional<std::uint64_t> max_runs;      // stop starting runs after this many
  std::optional<std::uint64_t> max_failures;  // ... or once this many runs failed or crashed
  std::uint32_t min_runs = 3;                 // runs of every configuration before allocation adapts
  bool keep_passing_recordings = false;       // else a passing run's rr recording is removed once validated
  bool keep_failing_recordings = false;       // else a failing run's recording goes once it is no signature's evidence
  std::uint32_t evidence_runs = 3;            // per signature: the first this many failing runs are evidence
  std::optional<std::uint64_t> store_quota;   // bytes: after the sweep, the store is pruned to this (retention.hpp)
  double fixed_confidence = 0.95;             // a signature is fixed once its absence is this unlikely by chance
};

struct SweepConfig {
  campaign::CampaignConfig campaign;
  SweepSettings sweep;
  std::vector<Configuration> configurations;  // in the file's order: targets, then each dimension

  /// The effective sweep as JSON: the campaign's (CampaignConfig::to_json) with `sweep` and the
  /// configurations added; stored as the campaign's configuration and compared on --resume.
  nlohmann::json to_json() const;
};

/// A sweep read back from the store: the part SweepConfig::to_json adds to the campaign's stored
/// configuration (the campaign's own part is campaign::stored_campaign's). The one reader of that
/// part: whether a stored configuration is a sweep's is this returning something.
struct StoredSweep {
  SweepSettings settings;                   // fields a store written before they existed: the defaults
  std::vector<std::string> configurations;  // their names, in the grid's order: what decides the plan
};

/// Nothing for a campaign's configuration. Throws campaign::CampaignFileError naming `origin`
/// when the part is not one omnilink wrote.
std::optional<StoredSweep> stored_sweep(const nlohmann::json& stored, const std::string& origin);

/// What `--for` and `--until` set, over the file's budget.
struct BudgetOverride {
  std::optional<std::string> duration;
  std::optional<std::string> until;
  bool resuming = false;  // the sweep's saved clock holds its budget: the file need not give one
};

/// Reads, overrides, checks and resolves a sweep file. Throws campaign::CampaignFileError.
SweepConfig load_sweep(const std::filesystem::path& file, const campaign::LoadOptions& options, const BudgetOverride& budget);

/// "8h", "90m", "1h30m", "45s": seconds; nothing if the text is not such a duration.
std::optional<std::chrono::seconds> parse_duration(const std::string& text);
/// "06:00": minutes after midnight; nothing if the text is not HH:MM.
std::optional<int> parse_time_of_day(const std::string& text);

/// Why a sweep stored with configuration `stored` cannot be continued (or reported) with `now`
/// ("" when it can): its targets, its grid and its shard decide which runs belong to it; budget,
/// caps, jobs and limits may change between sessions.
std::string plan_difference(const nlohmann::json& stored, const nlohmann::json& now);

/// The configuration a sweep run's id names ("<configuration>.r<digits>"), or nothing for an id
/// of another shape.
std::optional<std::string_view> configuration_name(std::string_view run_id);
/// The configuration a run of this sweep belongs to (by its id), or nullptr.
const Configuration* configuration_of(const SweepConfig& config, const store::RunRecord& run);

}  // namespace omnilink::sweep
