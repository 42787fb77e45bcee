#include "findings/signature_history.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

#include "platform/enum_names.hpp"
#include "store/outcome.hpp"

namespace omnilink::findings {
using store::RunRecord;

namespace {

// The z for a two-sided `confidence`: erfc(z / sqrt 2) = 1 - confidence, by bisection (erfc falls
// monotonically; 100 halvings of [0, 40] are far below double precision's need).
double z_for(double confidence) {
  double low = 0, high = 40;
  for (int i = 0; i < 100; ++i) {
    const double mid = (low + high) / 2;
    (std::erfc(mid / std::sqrt(2.0)) > 1 - confidence ? low : high) = mid;
  }
  return (low + high) / 2;
}

struct Tracked {
  SignatureHistory history;
  std::uint64_t target_runs_at_first = 0;  // its target's run count when it was first seen (that run included)
  bool was_fixed = false;                   // fixed as of the end of an earlier sweep
  bool seen_in_newest = false;
  bool regressed_in_newest = false;
};

void settle(Tracked& t, double confidence) {
  SignatureHistory& h = t.history;
  // The first sighting opened the window, so it is not counted as evidence of the rate.
  h.rate_low = h.count > 1 ? wilson_lower(h.count - 1, h.window, confidence) : 0.0;
  h.runs_needed = runs_to_rule_out(h.rate_low, confidence);
}

bool fixed(const SignatureHistory& h) { return h.runs_needed > 0 && h.runs_since >= h.runs_needed; }

constexpr platform::EnumNames<SignatureStatus, 5> kStatusNames{{{
    {SignatureStatus::new_, "new"},
    {SignatureStatus::regressed, "regressed"},
    {SignatureStatus::recurring, "recurring"},
    {SignatureStatus::quiet, "quiet"},
    {SignatureStatus::fixed, "fixed"},
}}};
static_assert(kStatusNames.names.size() == kSignatureStatuses.size());

}  // namespace

std::string to_string(SignatureStatus status) { return kStatusNames.name(status); }
std::ostream& operator<<(std::ostream& out, SignatureStatus status) { return out << to_string(status); }
void to_json(nlohmann::json& j, SignatureStatus status) { j = to_string(status); }

double wilson_lower(std::uint64_t successes, std::uint64_t trials, double confidence) {
  if (trials == 0) return 0;
  const double n = static_cast<double>(trials), p = static_cast<double>(successes) / n, z = z_for(confidence);
  const double centre = p + z * z / (2 * n), spread = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
  return std::max(0.0, (centre - spread) / (1 + z * z / n));
}

double wilson_upper(std::uint64_t successes, std::uint64_t trials, double confidence) {
  if (trials == 0) return 1;
  const double n = static_cast<double>(trials), p = static_cast<double>(successes) / n, z = z_for(confidence);
  const double centre = p + z * z / (2 * n), spread = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
  return std::min(1.0, (centre + spread) / (1 + z * z / n));
}

std::uint64_t runs_to_rule_out(double rate, double confidence) {
  if (rate <= 0) return 0;
  if (rate >= 1) return 1;
  return static_cast<std::uint64_t>(std::ceil(std::log(1 - confidence) / std::log(1 - rate)));
}

std::string fixed_after(const SignatureHistory& h) {
  if (h.runs_needed == 0) return "cannot tell yet (seen once)";
  return std::to_string(h.runs_needed) + " runs without it";
}

std::vector<store::CampaignRecord> sweeps_in_history(store::Store& store, const std::string& name, const std::string& as_of) {
  std::vector<store::CampaignRecord> ended, running;
  std::optional<store::CampaignRecord> last;
  for (auto& c : store.campaigns()) {  // in the order they were made
    if (c.name != name) continue;
    if (c.id == as_of) last = std::move(c);
    else (c.ended_seq != 0 ? ended : running).push_back(std::move(c));
  }
  std::stable_sort(ended.begin(), ended.end(), [](const auto& a, const auto& b) { return a.ended_seq < b.ended_seq; });
  if (!as_of.empty()) {
    // As of a sweep: those that ended before it did (all that ended, if it has not), then it.
    if (!last) return {};
    std::erase_if(ended, [&](const auto& c) { return last->ended_seq != 0 && c.ended_seq > last->ended_seq; });
    ended.push_back(std::move(*last));
    return ended;
  }
  ended.insert(ended.end(), std::make_move_iterator(running.begin()), std::make_move_iterator(running.end()));
  return ended;
}

std::vector<SignatureHistory> signature_history(store::Store& store, const std::string& name, const HistoryOptions& options) {
  const std::vector<store::CampaignRecord> sweeps = sweeps_in_history(store, name, options.as_of);
  std::map<std::string, Tracked> tracked;          // by signature id
  std::map<std::string, std::uint64_t> target_runs;  // final runs per target so far
  for (std::size_t k = 0; k < sweeps.size(); ++k) {
    const bool newest = k + 1 == sweeps.size();
    // In the order they started, which a rebuilt index has too (its insertion order may differ).
    std::vector<store::RunRecord> runs = store.runs(sweeps[k].id);
    std::stable_sort(runs.begin(), runs.end(), [](const store::RunRecord& a, const store::RunRecord& b) { return a.started_ms < b.started_ms; });
    for (store::RunRecord run : runs) {
      if (store::outcome(run) == store::Outcome::interrupted) continue;  // not a run that happened
      // Where the run is now (a store may have been moved), not where the database says it was.
      run.dir = store::run_directory(store.directory(), run.campaign, run.id).string();
      const std::uint64_t n = ++target_runs[run.target];
      for (auto& [id, t] : tracked)
        if (t.history.target == run.target) ++t.history.runs_since;
      const auto signature = findings::failure_signature(run);
      if (!signature) continue;
      auto [it, inserted] = tracked.try_emplace(signature->id);
      Tracked& t = it->second;
      SignatureHistory& h = t.history;
      if (inserted) {
        h.signature = *signature;
        h.target = run.target;
        h.first_seen = run.campaign;
        h.first_seen_ms = run.finished_ms;
        t.target_runs_at_first = n;
      }
      if (newest && !t.seen_in_newest && t.was_fixed) t.regressed_in_newest = true;
      if (newest) t.seen_in_newest = true;
      else t.was_fixed = false;  // seen again: a later absence has to make the case anew
      ++h.count;
      h.last_seen = run.campaign;
      h.last_seen_ms = run.finished_ms;
      h.window = n - t.target_runs_at_first + 1;
      h.runs_since = 0;
      if (h.runs.size() < options.evidence_runs) h.runs.push_back(run.key());
      auto symptom = std::find_if(h.symptoms.begin(), h.symptoms.end(),
                                  [&](const SymptomHistory& known) { return known.symptom.id == signature->symptom.id; });
      if (symptom == h.symptoms.end()) {
        symptom = h.symptoms.insert(h.symptoms.end(), {signature->symptom, 0, run.campaign, run.key(), newest && h.first_seen != run.campaign});
        // An example of every symptom is kept, beyond the signature's first runs.
        if (std::find(h.runs.begin(), h.runs.end(), run.key()) == h.runs.end()) h.runs.push_back(run.key());
      }
      ++symptom->count;
    }
    for (auto& [id, t] : tracked) {
      settle(t, options.confidence);
      if (!newest && fixed(t.history)) t.was_fixed = true;
    }
  }
  std::vector<SignatureHistory> out;
  for (auto& [id, t] : tracked) {
    SignatureHistory& h = t.history;
    if (t.seen_in_newest)
      h.status = h.first_seen == sweeps.back().id ? SignatureStatus::new_
                 : t.regressed_in_newest          ? SignatureStatus::regressed
                                                  : SignatureStatus::recurring;
    else h.status = fixed(h) ? SignatureStatus::fixed : SignatureStatus::quiet;
    h.fixed_now = h.status == SignatureStatus::fixed && !t.was_fixed;
    std::stable_sort(h.symptoms.begin(), h.symptoms.end(), [](const SymptomHistory& a, const SymptomHistory& b) { return a.count > b.count; });
    out.push_back(std::move(h));
  }
  std::sort(out.begin(), out.end(), [](const SignatureHistory& a, const SignatureHistory& b) {
    if (a.status != b.status) return a.status < b.status;  // the enum's order is the reports
    if (a.count != b.count) return a.count > b.count;
    return a.signature.id < b.signature.id;
  });
  return out;
}

}  // namespace omnilink::findings
