// Validations of a campaign, run beside its harness runs: a fixed number of worker threads, each
// running one validation at a time (validate_run: the native checker in-process, TLC as a JVM),
// with results handed back on the engine's event loop. The number is the campaign's validation
// budget: by default as many as the free memory holds at the configured TLC heap, so TLC never
// pushes the machine into swap. A failing run is explained by the same worker right after
// (explain/explain.hpp: its failing core, kept in RUN/explain/), which the summaries show.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>

#include "campaign/campaign_file.hpp"
#include "store/store.hpp"
#include "checkers/validate.hpp"

namespace omnilink::campaign {

/// The minimisation's share of a campaign's validation of a failing run: the injected bugs' cores
/// take tens of milliseconds (docs/explain.md); past this, the core found so far is kept, said not
/// minimal.
inline constexpr std::chrono::seconds kCampaignCoreTimeLimit{10};

class ValidationPool {
 public:
  ValidationPool(boost::asio::io_context& io, unsigned jobs);
  ~ValidationPool();  // cancels what is running and waits for the workers
  ValidationPool(const ValidationPool&) = delete;
  ValidationPool& operator=(const ValidationPool&) = delete;

  // `on_start` and `on_done` run on the event loop. After cancel(), queued validations do not start
  // (on_done gets a cancelled unknown result) and running ones stop TLC.
  void submit(checkers::ValidateOptions options, std::function<void()> on_start,
              std::function<void(results::ValidationResult)> on_done);
  void cancel() { cancel_ = true; }
  unsigned jobs() const { return jobs_; }

 private:
  boost::asio::io_context& io_;
  unsigned jobs_;
  std::atomic<bool> cancel_{false};
  boost::asio::thread_pool pool_;
};

// What validating one run of `target` takes: its spec, MC module, operators, the checker and the
// limits. `confirm`: a native FAIL is confirmed by TLC (ValidationConfig::confirm_failures).
checkers::ValidateOptions validate_options(const TargetConfig& target, const ValidationConfig& checks, bool confirm,
                                             const std::filesystem::path& run_dir);

// Records a finished validation of `run` in the store and in `run` (which becomes the run's newest):
// a trace the reader rejects turns an `ok` run into `bad-trace`, with the reader's error; a fail
// writes RUN/replay/ (replay/replay_files.hpp).
void record_validation(store::Store& store, store::RunRecord& run, const results::ValidationResult& result, const std::filesystem::path& spec);

// After a failed validation: RUN/replay/ for its frontier (replay/replay_files.hpp), with how the
// run was recorded read from the run directory. `run_name` is how `omnilink replay` is told about it.
void write_failure_replay_files(const std::filesystem::path& run_dir, const std::string& run_name,
                                const results::ValidationResult& result);

/// How many validations run at once, decided once per campaign (or revalidation), and why.
struct ValidationJobs {
  unsigned count = 1;
  std::string why;  // for the header line: "2 (validation.jobs)", "4, one per harness job (...)"
};

/// `checks.jobs` where given. Otherwise, where every validation is the native checker's (checker
/// native, or TLC absent), one per harness job (`harness_jobs`): they share one process and its
/// memory budget. Where TLC may run a validation, as many as fit in MemAvailable * 3/4 at TLC's
/// heap + 256 MiB of JVM each, at least 1 and at most `harness_jobs`.
ValidationJobs validation_jobs(const ValidationConfig& checks, unsigned harness_jobs, bool tlc_available);

}  // namespace omnilink::campaign
