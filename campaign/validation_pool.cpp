#include "campaign/validation_pool.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <boost/asio/post.hpp>

#include "campaign/recording.hpp"
#include "explain/explain.hpp"
#include "platform/memory.hpp"
#include "replay/replay_files.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::campaign {
namespace {

// A validation's result as the store keeps it.
store::ValidationRecord validation_record(const results::ValidationResult& result, const std::filesystem::path& spec) {
  store::ValidationRecord v;
  v.verdict = result.verdict;
  v.reason = result.reason;
  v.spec = spec.string();
  v.duration_ms = result.duration.count();
  v.peak_rss_kb = result.peak_rss_kb;
  v.states_generated = result.states_generated;
  v.states_distinct = result.states_distinct;
  v.operations = result.operations;
  v.linearized = result.linearized;
  if (result.verdict == results::Verdict::fail) v.frontier_summary = result.summary();
  // A pass on a consistent cut, or with pending operations, says so where a pass has no reason.
  if (result.verdict == results::Verdict::pass)
    for (const auto& caveat : result.caveats) v.reason += (v.reason.empty() ? "" : "; ") + caveat;
  v.created_ms = store::now_ms();
  return v;
}

/// A failing run's core, found while this worker holds the spec (explain/), kept in RUN/explain/
/// for the campaign's summary to show. A failure the native checker cannot explain (a spec outside
/// its fragment, decided by TLC) keeps only its frontier; the result itself is never changed.
void explain_failure(const checkers::ValidateOptions& options, results::ValidationResult& result) {
  explain::ExplainOptions o;
  o.validate = options;
  o.validate.checker = checkers::Checker::native;
  o.core.time_limit = kCampaignCoreTimeLimit;
  // Reading the interleaving replays the recording: the campaign does it after its runs, for each
  // signature's first runs (evidence_interleavings.hpp); `omnilink explain` for any run.
  o.no_interleaving = std::filesystem::is_directory(trace::RunLayout(options.run_dir).recording())
                          ? "not read: a campaign reads it for each signature's first runs (validation.interleavings); omnilink explain reads it for any"
                          : "the run was not recorded with rr";
  try {
    explain::explain_run(o);
  } catch (const explain::NothingToExplain&) {
    // Nothing natively decided to explain: the frontier is what the summary shows.
  } catch (const std::exception& e) {
    result.caveats.push_back(std::string("no failing core: ") + e.what());
  }
}

}  // namespace

ValidationPool::ValidationPool(boost::asio::io_context& io, unsigned jobs)
    : io_(io), jobs_(std::max(1u, jobs)), pool_(std::max(1u, jobs)) {}

ValidationPool::~ValidationPool() {
  cancel_ = true;
  pool_.join();
}

void ValidationPool::submit(checkers::ValidateOptions options, std::function<void()> on_start,
                            std::function<void(results::ValidationResult)> on_done) {
  options.cancel = &cancel_;
  boost::asio::post(pool_, [this, options = std::move(options), on_start = std::move(on_start),
                            on_done = std::move(on_done)]() mutable {
    results::ValidationResult result;
    if (cancel_) {
      result.verdict = results::Verdict::unknown;
      result.reason = "not validated: the campaign was interrupted";
      result.cancelled = true;
    } else {
      boost::asio::post(io_, on_start);
      result = checkers::validate_run(options);
      if (result.verdict == results::Verdict::fail && !cancel_) explain_failure(options, result);
    }
    boost::asio::post(io_, [on_done = std::move(on_done), result = std::move(result)]() mutable { on_done(std::move(result)); });
  });
}

checkers::ValidateOptions validate_options(const TargetConfig& target, const ValidationConfig& checks, bool confirm,
                                             const std::filesystem::path& run_dir) {
  checkers::ValidateOptions options;
  options.checker = checks.checker;
  options.confirm_failures = confirm;
  options.max_memory_mb = checks.native.memory_mb;
  options.jobs = 1;  // a campaign validates runs at once already
  options.run_dir = run_dir;
  options.spec = target.spec;
  options.mc = target.mc;
  options.init = target.init;
  options.next = target.next;
  options.view = target.view;
  options.heap = checks.tlc.heap;
  options.timeout = checks.timeout;
  return options;
}

void write_failure_replay_files(const std::filesystem::path& run_dir, const std::string& run_name,
                                const results::ValidationResult& result) {
  std::vector<trace::Operation> frontier;
  for (const auto& f : result.frontier) frontier.push_back(f.op);
  const bool recorded = std::filesystem::is_directory(trace::RunLayout(run_dir).recording());
  replay::write_replay_files(run_dir, run_name, frontier, {recorded, recorded_with_soft_counters(run_dir)});
}

void record_validation(store::Store& store, store::RunRecord& run, const results::ValidationResult& result, const std::filesystem::path& spec) {
  const store::ValidationRecord v = validation_record(result, spec);
  if (result.corrupt_trace && run.status == store::RunStatus::ok) {
    run.status = store::RunStatus::bad_trace;
    run.detail = result.reason;
  }
  if (result.cut) run.detail += std::string(run.detail.empty() ? "" : "; ") + "validated on its consistent cut: " + result.cut->describe(result.clock);
  if (result.verdict == results::Verdict::fail) write_failure_replay_files(run.dir, run.key(), result);
  run.finished_ms = store::now_ms();
  store.add_validation(run.campaign, run.id, v);
  store.update_run(run);
  run.validation = v;
}

ValidationJobs validation_jobs(const ValidationConfig& checks, unsigned harness_jobs, bool tlc_available) {
  constexpr std::uint64_t kJvmOverhead = 256ull << 20;
  const unsigned cap = std::max(1u, harness_jobs);
  if (checks.jobs) return {*checks.jobs, std::to_string(*checks.jobs) + " (validation.jobs)"};
  const bool tlc_may_run = tlc_available && checks.checker != checkers::Checker::native;
  if (!tlc_may_run)
    return {cap, std::to_string(cap) + ", one per harness job (the native checker's, in this process, within its memory budget)"};
  const auto per_tlc = platform::parse_byte_size(checks.tlc.heap);
  const auto available = platform::available_memory_bytes();
  if (!per_tlc || !available) return {cap, std::to_string(cap) + ", one per harness job (free memory unknown)"};
  const std::uint64_t fit = (*available / 4 * 3) / (*per_tlc + kJvmOverhead);
  const unsigned jobs = static_cast<unsigned>(std::clamp<std::uint64_t>(fit, 1, cap));
  std::string why = std::to_string(jobs) + " (TLC may run each: " + std::to_string(*available >> 20) + " MiB available, heap " +
                    checks.tlc.heap + " + JVM each" + (fit < cap ? "" : ", capped at the job count") + ")";
  if (fit == 0) why += "; WARNING: even one TLC at this heap may not fit in free memory";
  return {jobs, why};
}

}  // namespace omnilink::campaign
