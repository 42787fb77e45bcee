// An explained failure (explain/explanation.hpp) for a terminal: the core as a small table of its
// operations with times from the core's first stamp, the operations outside it that logged its
// values, why no order of it is accepted (the refused operation, the conjunct, the spec state by
// variable, a value nothing is left to take out), the real-time order among its operations and, for
// a recorded run, the interleaving that produced it with its atomicity hints. Also a failed run's
// failure in a few lines: its core where it has one, else its validation's frontier.
#pragma once

#include <string>
#include <vector>

#include "explain/explanation.hpp"
#include "report/run_explanations.hpp"
#include "store/records.hpp"

namespace omnilink::report {

/// The explanation as text, `core_path` naming the core's history file and `validate_hint` the
/// command that validates it (empty: not shown).
std::string explanation_text(const explain::Explanation& e, const std::string& core_path, const std::string& validate_hint);

/// "Failing core: 2 of 12000 operations are rejected on their own, ...", and where every order of
/// the core and its context stops and the conjunct that stops it.
std::string core_headline(const explain::Explanation& e);
std::string core_stops_at(const explain::Explanation& e);
/// "The rule it breaks: RunsAtItsCommit (SerializableKV, defined at ...): ..." (or "The rules
/// it breaks: ..."); empty when no rules are named.
std::string core_breaks(const explain::Explanation& e);
/// "No rule is named: ..." with why, where an explanation names none and says why; else empty.
/// Shown with the whole explanation, not in a failure's summary.
std::string rules_unnamed_text(const explain::Explanation& e);

/// One step of the core's interleaving as a line ("T1  switched out during T1.4 in Queue::push at
/// queue.cpp:88 (preempted); T2 runs"), and one atomicity hint.
std::string schedule_step_text(const explain::ScheduleStep& step, const explain::Explanation& e);
std::string atomicity_hint_text(const explain::AtomicityHint& hint);
/// Said instead of hints where no core operation was switched out in its middle
/// (explain::core_switched_out).
extern const char* const kNoCoreSwitchText;

/// The atomicity hints of `runs` explained failing runs of one signature, ranked by how many runs
/// show each (explain::rank_hints); nothing when fewer than two runs have hints to compare.
std::string ranked_hints_text(const std::vector<explain::RankedHint>& ranked, std::size_t runs);

/// The same in a few lines, for a campaign's or sweep's summary: the headline, the table, and
/// where every order stops.
std::string core_summary(const explain::Explanation& e);

/// A failed run's failure in a few lines, as the campaign report, its JUnit and the results
/// document show it: its core (core_summary) and the commands that say more, where the run keeps an
/// explanation of its validation; else its validation's frontier summary. Then why its explanation
/// cannot be shown, when explanation.json does not read.
std::string failure_summary(const store::RunRecord& run, const RunExplanation& kept);

}  // namespace omnilink::report
