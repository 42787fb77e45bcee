// What a run came to: its outcome, which folds the newest validation verdict into the harness
// phase's status, and is what summaries count and exit codes are computed from. Derived from the
// run's record alone, so every reader of the store (reports, findings, sweeps) computes it alike.
#pragma once

#include <array>
#include <iosfwd>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace omnilink::store {

/// A fail verdict wins over the run's status (a crashed run whose prefix is not linearizable is a
/// found bug); a run without a final validation (pending, running, or ok but not validated yet) is
/// interrupted.
enum class Outcome { pass, fail, unknown, crashed, timeout, bad_trace, error, interrupted };

/// Every outcome, in the order summaries list them.
inline constexpr std::array<Outcome, 8> kOutcomes{Outcome::pass,    Outcome::fail,      Outcome::unknown, Outcome::crashed,
                                                  Outcome::timeout, Outcome::bad_trace, Outcome::error,   Outcome::interrupted};

/// "pass", "fail", ..., "bad-trace": the outcome's name in text, JSON and reports.
std::string to_string(Outcome outcome);
std::ostream& operator<<(std::ostream& out, Outcome outcome);
/// As its name: nlohmann's default would write the enum's number.
void to_json(nlohmann::json& j, Outcome outcome);

Outcome outcome(const RunRecord& run);

/// Whether the run has its outcome: a session that continues the campaign will not carry it out again.
inline bool has_outcome(const RunRecord& run) { return outcome(run) != Outcome::interrupted; }

/// 0 every run passed; 1 some run failed validation; 2 otherwise, when any run is not a pass
/// (unknown, crashed, timeout, bad-trace, error, interrupted).
int exit_code_for(const std::vector<RunRecord>& runs);
int exit_code_of(const std::vector<Outcome>& outcomes);  // the same, of outcomes already known

}  // namespace omnilink::store
