// The campaign file (docs/campaign.md, format 1): what to run, how often, under which rr mode and
// with which validation limits (either checker's). This module owns that format: it parses the JSON, applies command-line
// overrides, checks every field strictly (unknown fields and bad values are errors naming the
// field), and resolves the paths in it. The result is the effective configuration the engine runs
// and the store records (for `--resume`, which must continue the same plan).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "campaign/file_reader.hpp"
#include "checkers/checker_options.hpp"

namespace omnilink::campaign {

inline constexpr int kCampaignFormat = 1;

// How harness runs are recorded. auto: chaos with whichever rr records here (plain, else -W), or
// off (said loudly) when none does; off: native runs; record: `rr record`; chaos: `rr record --chaos`.
enum class RrMode { automatic, off, record, chaos };
std::string to_string(RrMode mode);
std::optional<RrMode> parse_rr_mode(const std::string& text);

struct TargetConfig {
  std::string name;                        // [A-Za-z0-9][A-Za-z0-9._-]*, unique in the campaign
  std::string description;                 // what the target is (and, for a planted bug, the bug): for reports
  std::filesystem::path harness;           // resolved, absolute
  std::vector<std::string> args;           // extra harness arguments, passed as they are
  std::optional<std::string> clock;        // the harness's --clock for native runs (counter, monotonic, rdtsc); rr runs use counter
  std::filesystem::path spec;              // resolved, absolute
  std::optional<std::filesystem::path> mc; // resolved, absolute
  std::string init = "Init";
  std::string next = "Next";
  std::optional<std::string> view;
  std::vector<std::uint32_t> threads;      // thread counts to run, each >= 1
  std::vector<std::uint64_t> ops;          // operations per thread, each >= 1
  std::uint32_t runs = 1;                  // runs per (threads, ops) configuration
  std::uint64_t seed_base = 1;             // run k of this target (0-based, plan order) uses seed_base + k
};

/// The native checker's budget (docs/campaign.md, `validation.memory`).
struct NativeBudget {
  // The memory limit for all of the campaign's validations at once (they share one process); 0:
  // half the machine's.
  std::uint64_t memory_mb = 0;
};

/// TLC's budget, per validation (docs/campaign.md, `tlc`).
struct TlcBudget {
  std::string heap = "2g";  // -Xmx: digits followed by k, m or g
};

/// How runs are validated (docs/campaign.md, `validation` and `tlc`): which checker, how many at
/// once, how long each may take, and each checker's memory.
struct ValidationConfig {
  checkers::Checker checker = checkers::Checker::automatic;
  // A native FAIL is confirmed by TLC (where TLC is present) for the first this many failing runs
  // of each target: enough to catch a disagreement, without paying TLC on every failure.
  unsigned confirm_failures = 3;
  std::optional<unsigned> jobs;       // validations at once; absent: validation_jobs() decides
  std::chrono::seconds timeout{600};  // one validation, either checker; past it the verdict is unknown
  NativeBudget native;
  TlcBudget tlc;
  // After the runs, the interleaving of each failure signature's first this many recorded runs is
  // read from their rr recordings (campaign/evidence_interleavings.hpp); 0: none.
  unsigned interleavings = 3;
  std::chrono::seconds interleavings_budget{600};  // all of them together; past it the rest are not read
};

inline constexpr std::uint64_t kDefaultRrTimesliceTicks = 2000;
inline constexpr std::uint64_t kRrOwnTimesliceTicks = 2'500'000;  // rr's Scheduler::DEFAULT_MAX_TICKS

/// A share of a campaign's plan (`omnilink campaign --shard I/N`, docs/scale-out.md): the runs at
/// plan positions p with p % count == index, so N shards with indices 0..N-1 cover the plan once.
struct Shard {
  std::uint32_t index = 0;
  std::uint32_t count = 1;

  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
  bool operator==(const Shard&) const = default;
};

/// "I/N" with 0 <= I < N (decimal, no sign); nothing otherwise.
std::optional<Shard> parse_shard(const std::string& text);

struct CampaignConfig {
  std::filesystem::path file;              // the campaign file, absolute
  std::string name;                        // default: the file's stem
  std::filesystem::path store;             // absolute
  RrMode rr = RrMode::automatic;
  // rr's longest timeslice in ticks (retired conditional branches; `rr record --num-cpu-ticks`).
  // rr's own default, 2,500,000, lets a harness thread run most of its operations in one slice, so
  // chaos mode preempts inside an operation rarely; a short bound preempts often, and found the
  // injected bugs far more often (docs/results.md).
  std::uint64_t rr_timeslice_ticks = kDefaultRrTimesliceTicks;
  unsigned jobs = 0;                       // harness runs at once (default: cores)
  std::chrono::seconds run_timeout{300};   // wall clock per harness run
  ValidationConfig validation;
  std::vector<TargetConfig> targets;
  std::optional<Shard> shard;              // only this share of the plan (not from the file: --shard)

  // The target named `name`, or nullptr.
  const TargetConfig* target(const std::string& name) const;

  // The effective configuration as JSON (overrides applied, paths resolved, defaults filled in):
  // stored with the campaign, and compared on --resume.
  nlohmann::json to_json() const;
};

struct LoadOptions {
  // FIELD=VALUE assignments applied to the file's JSON before it is checked (`--set`, and the
  // dedicated flags such as --jobs). FIELD is a dotted path: `jobs`, `tlc.heap`,
  // `targets.NAME.runs` or `targets.*.runs` (every target). VALUE is read as JSON when it parses as
  // JSON, else as a string.
  std::vector<std::string> overrides;
  // --store: relative to the current directory (a `store` in the file is relative to the file).
  std::optional<std::filesystem::path> store;
  // Where a bare harness name (no '/') is looked up, in order, before PATH.
  std::vector<std::filesystem::path> harness_dirs;
  // Where a bare spec or MC file name is looked up when it is not beside the campaign file.
  std::vector<std::filesystem::path> spec_dirs;
  // --only: keep just these targets (in the file's order); each must be a target of the file.
  std::vector<std::string> only_targets;
  // --harness-arg: appended to every kept target's `args` (a later harness option wins).
  std::vector<std::string> extra_harness_args;
};

/// What a file that extends the campaign file (the sweep file) adds to it: the fields the campaign
/// reading accepts and leaves to the extension's own reading, and the target fields it refuses.
struct FileExtension {
  std::vector<std::string_view> top_fields;
  std::vector<std::string_view> target_fields;
  std::vector<std::string_view> refused_target_fields;
  std::string refused_why;  // the error for a refused field
};

/// An extended file read as a campaign file: its configuration, and its document (overrides
/// applied) and errors for the extension to read its own fields with.
struct ExtendedCampaign {
  CampaignConfig config;
  nlohmann::json document;
  FileErrors errors;
};
ExtendedCampaign load_extended_campaign(const std::filesystem::path& file, const LoadOptions& options, const FileExtension& extension);

// "targets[1] (racy-queue)": how errors name a target of the file (the index always, since the name
// may be missing or wrong; the name when known).
std::string target_path(std::size_t index, const nlohmann::json& target);

// Reads, overrides, checks and resolves a campaign file. Throws CampaignFileError.
CampaignConfig load_campaign(const std::filesystem::path& file, const LoadOptions& options);

// The same, on an already parsed document (`file` names it in errors and anchors relative paths).
CampaignConfig parse_campaign(nlohmann::json document, const std::filesystem::path& file, const LoadOptions& options);

// A campaign's effective configuration read back from the store (CampaignConfig::to_json(), checked
// when the campaign started). Nothing is resolved or checked on disk again: `revalidate` needs the
// specs and TLC settings even when the harness is gone. Throws CampaignFileError naming `origin`.
CampaignConfig stored_campaign(const nlohmann::json& effective, const std::string& origin);

// The configuration `omnilink store rebuild` records for a campaign whose campaign.json was lost:
// only what its runs' run.json tell (the names of its targets). stored_campaign and plan_difference
// refuse it, saying the configuration was lost, so nothing revalidates, explains, merges or resumes
// such a campaign with settings that were guessed.
nlohmann::json recovered_config(const std::vector<std::string>& targets);
bool is_recovered_config(const nlohmann::json& effective);
// Why a recovered configuration cannot be used, for the messages that refuse it.
inline constexpr const char* kLostConfiguration =
    "its configuration was lost (campaign.json and its copy, configuration.json, were missing when `omnilink store rebuild` recovered the campaign from its runs' "
    "run.json): its runs and verdicts are kept, but rerun the campaign file for a campaign that can be resumed, revalidated or explained";

}  // namespace omnilink::campaign
