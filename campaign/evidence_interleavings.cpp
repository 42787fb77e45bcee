#include "campaign/evidence_interleavings.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>

#include "campaign/recording.hpp"
#include "campaign/validation_pool.hpp"
#include "explain/explain.hpp"
#include "findings/failure_signature.hpp"
#include "platform/stop_request.hpp"
#include "replay/rr_replay.hpp"
#include "store/outcome.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::campaign {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

bool recorded(const store::RunRecord& run) {
  std::error_code ec;
  return fs::is_directory(trace::RunLayout(run.dir).recording(), ec);
}

/// What explaining `run` with its recording asks for, or nothing when there is nothing to read:
/// not a failure, not recorded, its target unknown, no core of its target's spec and MC module, or
/// an interleaving already read at explanation.json's version. A damaged explanation.json is thrown
/// (ExplanationFileError).
std::optional<explain::ExplainOptions> interleaving_request(const store::RunRecord& run, const CampaignConfig& config) {
  if (store::outcome(run) != store::Outcome::fail || !recorded(run)) return std::nullopt;
  const TargetConfig* target = config.target(run.target);
  if (target == nullptr) return std::nullopt;
  explain::ExplainOptions o;
  o.validate = validate_options(*target, config.validation, false, run.dir);
  o.validate.checker = checkers::Checker::native;
  const std::optional<explain::Explanation> kept = explain::read_explanation(explain::explanation_dir(run.dir));
  const std::string mc = o.validate.mc ? fs::absolute(*o.validate.mc).string() : "";
  // An interleaving read before explanation.json's version 6 is read again (explain.hpp: kExplanationReusedSince).
  const bool read_already = kept && kept->interleaving && kept->version == explain::kExplanationVersion;
  if (!kept || read_already || kept->spec != fs::absolute(o.validate.spec).string() || kept->mc != mc) return std::nullopt;
  // A spec edited since the core was found is explained again: within the validation pool's bound.
  o.core.time_limit = kCampaignCoreTimeLimit;
  o.recording = replay::Recording{run.dir, recorded_with_soft_counters(run.dir)};
  return o;
}

}  // namespace

std::string InterleavingsRead::text() const {
  if (asked == 0 && failed.empty()) return "";
  std::ostringstream s;
  s << "interleavings: read " << read << " of " << asked << (asked == 1 ? " evidence run's recording" : " evidence runs' recordings")
    << " in " << std::fixed << std::setprecision(1) << static_cast<double>(spent.count()) / 1000.0 << " s";
  if (!not_read.empty())
    s << "; " << not_read.size() << " not read, " << (stopped ? "stopped by a signal" : "past validation.interleavings_budget_s")
      << " (omnilink explain " << not_read.front() << " reads one)";
  s << "\n";
  for (const std::string& why : failed) s << "  not read: " << why << "\n";
  return s.str();
}

std::vector<store::RunRecord> first_runs_round_robin(const std::vector<std::vector<store::RunRecord>>& by_signature, unsigned per_signature) {
  std::vector<store::RunRecord> out;
  for (std::size_t k = 0; k < per_signature; ++k)
    for (const auto& runs : by_signature)
      if (k < runs.size()) out.push_back(runs[k]);
  return out;
}

std::vector<store::RunRecord> first_recorded_runs_per_signature(const std::vector<store::RunRecord>& runs, unsigned per_signature) {
  std::vector<const store::RunRecord*> failing;
  for (const auto& run : runs)
    if (store::outcome(run) == store::Outcome::fail && recorded(run)) failing.push_back(&run);
  std::stable_sort(failing.begin(), failing.end(), [](const auto* a, const auto* b) { return a->started_ms < b->started_ms; });
  std::map<std::string, std::size_t> group_of;  // signature id -> its place in by_signature
  std::vector<std::vector<store::RunRecord>> by_signature;
  for (const store::RunRecord* run : failing)
    if (const auto signature = findings::failure_signature(*run)) {
      const auto [group, added] = group_of.try_emplace(signature->id, by_signature.size());
      if (added) by_signature.emplace_back();
      by_signature[group->second].push_back(*run);
    }
  return first_runs_round_robin(by_signature, per_signature);
}

InterleavingsRead read_interleavings(const std::vector<store::RunRecord>& runs, const CampaignConfig& config, const fs::path& rr,
                                     std::ostream& progress) {
  InterleavingsRead result;
  const StopRequest stop;
  const auto started = std::chrono::steady_clock::now();
  const auto spent = [&] { return std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - started); };
  for (const auto& run : runs) {
    try {
      std::optional<explain::ExplainOptions> request = interleaving_request(run, config);
      if (!request) continue;
      ++result.asked;
      const milliseconds left = config.validation.interleavings_budget - spent();
      result.stopped |= stop.requested();
      if (left <= milliseconds::zero() || result.stopped) {
        result.not_read.push_back(run.key());
        continue;
      }
      request->rr = rr;
      // Each probe keeps InterleavingOptions' 60 s, as `omnilink explain`: never cut short by the budget.
      request->interleaving.index_time_limit = left;
      request->interleaving.progress = &progress;
      progress << "reading the interleaving of " << run.key() << " from its recording\n" << std::flush;
      const explain::Explanation e = explain::explain_run(*request);
      if (e.interleaving) ++result.read;
      else result.failed.push_back(run.key() + ": " + e.no_interleaving);
    } catch (const std::exception& error) {  // one run's failure is said, and the others are read
      result.failed.push_back(run.key() + ": " + error.what());
    }
  }
  result.stopped |= stop.requested();
  result.spent = spent();
  return result;
}

}  // namespace omnilink::campaign
