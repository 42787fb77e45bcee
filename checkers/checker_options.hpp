// What `omnilink validate` is asked: which run or history file, against which spec, by which
// checker, within which limits. Its own header so that the checkers, the spec cache and the
// campaign's configuration name the options without the validation pipeline (validate.hpp).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace omnilink::checkers {

enum class Checker { native, tlc, automatic, both };

/// "native", "tlc", "auto", "both"; nullopt for anything else.
std::optional<Checker> parse_checker(const std::string& name);
std::string checker_name(Checker checker);

struct ValidateOptions {
  std::filesystem::path run_dir;
  std::filesystem::path spec;
  std::optional<std::filesystem::path> mc;
  std::string next = "Next";
  std::string init = "Init";
  std::optional<std::string> view;
  Checker checker = Checker::automatic;
  bool confirm_failures = true;  // a native FAIL is checked again by TLC, where TLC is present
  std::optional<std::filesystem::path> tlc_jar;  // else found as `omnilink doctor` says
  std::optional<std::filesystem::path> java;
  std::string heap = "2g";  // TLC's Java heap (-Xmx); the native checker's limit is max_memory_mb
  std::chrono::seconds timeout{600};        // either checker; past it the verdict is unknown
  std::uint64_t max_states = 20'000'000;    // the native search's limit of distinct states
  std::uint64_t max_memory_mb = 0;          // the native search's memory limit; 0: half the machine's
  std::uint64_t restart_budget = 2'000;    // states a native search attempt may stall (native_search.hpp)
  std::uint64_t projection_after = 250'000;  // states a first search may take before a projection is tried (projection.hpp)
  unsigned jobs = 0;  // partitions (OmniLinkPartitionBy) checked at once; 0: one per core
  /// Partitioned: decide every part, even after one failed (for reports); by default the first
  /// failing part decides the verdict (PartsPolicy::until_rejected).
  bool all_parts = false;
  const std::atomic<bool>* cancel = nullptr;  // set by another thread: the verdict is unknown
};

}  // namespace omnilink::checkers
