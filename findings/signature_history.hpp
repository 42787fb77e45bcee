// Night to night (docs/sweep.md, "Signatures over time"): every failure signature seen by the
// sweeps of one name (one sweep file) in a store, with when it was first and last seen, how many
// runs it failed, how many runs of its target have passed without it since, and its status in the
// newest sweep:
//   new        first seen in the newest sweep
//   recurring  seen in the newest sweep and before
//   regressed  seen in the newest sweep after it had been fixed
//   fixed      not seen across `runs_needed` runs of its target, enough that a bug still failing at
//              its measured rate would have shown up with the configured confidence
//   quiet      not seen in the newest sweep, but not across enough runs to call it fixed
// Everything is computed from the store's campaigns and runs (the order sweeps ended in, the
// order runs started in) and their result.json / crash.json, so it needs no state of its own and a
// rebuilt store says the same.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "findings/failure_signature.hpp"
#include "store/store.hpp"

namespace omnilink::findings {

/// One symptom of a signature (findings::FailureSymptom) over the sweeps of the name.
struct SymptomHistory {
  findings::FailureSymptom symptom;
  std::uint64_t count = 0;   // failing runs that showed it
  std::string first_seen;    // campaign id of the sweep
  std::string first_run;     // "<campaign>/<run>": kept as evidence
  bool new_in_newest = false;  // first seen in the newest sweep, in a signature seen before it
};

/// A signature's standing as of a sweep, in the order reports list them: first seen in it (new),
/// seen again after it had counted as fixed (regressed), seen again (recurring), not seen but not
/// yet fixed (quiet), not seen for as many runs as its measured rate makes fixed (fixed).
enum class SignatureStatus { new_, regressed, recurring, quiet, fixed };

inline constexpr std::array<SignatureStatus, 5> kSignatureStatuses{SignatureStatus::new_, SignatureStatus::regressed,
                                                                   SignatureStatus::recurring, SignatureStatus::quiet,
                                                                   SignatureStatus::fixed};

/// "new", "regressed", "recurring", "quiet", "fixed": its name in reports, JSON and HTML classes.
std::string to_string(SignatureStatus status);
std::ostream& operator<<(std::ostream& out, SignatureStatus status);
/// As its name: nlohmann's default would write the enum's number.
void to_json(nlohmann::json& j, SignatureStatus status);
/// News for a sweep's report and exit code: new or regressed.
inline bool is_news(SignatureStatus status) { return status == SignatureStatus::new_ || status == SignatureStatus::regressed; }
/// Seen in the sweep: new, regressed or recurring.
inline bool seen_now(SignatureStatus status) { return is_news(status) || status == SignatureStatus::recurring; }

struct SignatureHistory {
  findings::FailureSignature signature;
  std::string target;
  SignatureStatus status = SignatureStatus::quiet;
  bool fixed_now = false;  // fixed, and was not yet after the previous sweep: news
  std::string first_seen;  // campaign id of the sweep
  std::string last_seen;
  std::int64_t first_seen_ms = 0;  // when its first run finished (Unix epoch milliseconds)
  std::int64_t last_seen_ms = 0;
  std::uint64_t count = 0;        // failing runs with this signature
  std::uint64_t window = 0;       // runs of its target from its first run to its last, both included
  std::uint64_t runs_since = 0;   // runs of its target after its last run
  double rate_low = 0;            // lower confidence bound of its failure rate (0: too few sightings)
  std::uint64_t runs_needed = 0;  // runs without it that make it fixed (0: cannot tell yet)
  std::vector<std::string> runs;  // its evidence: its first `evidence_runs` failing runs ("<campaign>/<run>"), and the
                                  // first run of each symptom not among them, oldest first
  std::vector<SymptomHistory> symptoms;  // most runs first
};

struct HistoryOptions {
  double confidence = 0.95;
  std::uint32_t evidence_runs = 3;
  /// The sweep whose news the statuses are (its id): the history is that of the sweeps of its name
  /// that ended before it did (store::CampaignRecord::ended_seq), then its own. Empty: every
  /// sweep of the name, those that ended in the order they did, then those still running.
  std::string as_of;
};

/// The signatures of the campaigns named `name` in `store`, statuses as of the last sweep of the
/// history (HistoryOptions::as_of), new and regressed first, then recurring, quiet and fixed; most
/// runs first within each. Two sweeps that run at once are told apart by the order they end in:
/// the first to end reports what it found first as new, the second as recurring.
std::vector<SignatureHistory> signature_history(store::Store& store, const std::string& name, const HistoryOptions& options);

/// When the signature counts as fixed, for reports: "N runs without it", or "cannot tell yet (seen once)".
std::string fixed_after(const SignatureHistory& h);

/// The lower bound of the Wilson score interval for `successes` of `trials` at a two-sided
/// `confidence` (0 without trials).
double wilson_lower(std::uint64_t successes, std::uint64_t trials, double confidence);
/// ... and its upper bound (1 without trials).
double wilson_upper(std::uint64_t successes, std::uint64_t trials, double confidence);

/// Runs without a failure that a failure rate of `rate` would fail at least once with probability
/// `confidence`: ceil(ln(1 - confidence) / ln(1 - rate)); 0 when the rate is 0 (it cannot be told).
std::uint64_t runs_to_rule_out(double rate, double confidence);

}  // namespace omnilink::findings
