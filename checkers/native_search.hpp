// The native checker's search: the linearization search of OmniLinkTrace.tla, done in-process
// over the spec's own actions, with the same viability rule, the same treatment of pending
// operations and a VIEW when given. Four parts, one file each:
//   - the space (search_space.hpp): states, steps, fingerprints, which threads may go next;
//   - the core (native_search.cpp): depth-first, a visited set of 128-bit fingerprints (the
//     memoisation of Wing & Gong and Lowe, so a rejected history costs what TLC's breadth-first
//     search costs: every reachable state once), and restarts;
//   - the heuristics (search_heuristics.hpp): which thread to try first, and what a stalled
//     attempt learns for the next (of a partitioned history, a spare core races a second
//     search in the other order on a part left: search_linearizations);
//   - the explainer (refusal_explainer.hpp), run once on the node reported: why the search got
//     no further there. The heuristics ask it too, and both read one value index
//     (history/value_index.hpp).
//
// Restarts: a wrong early guess may show only hundreds of operations later, and chronological
// backtracking then tries every placement of everything in between. An attempt that stalls
// (restart_budget states without getting further) learns from its deepest failure and starts
// again. States it finished exploring stay visited (they are dead whatever the order), so no work
// is repeated except the path back; the budget doubles while restarts gain nothing, so the search
// stays complete, and a rejected history still costs each reachable state about once.
//
// An optional operation (ProblemOp::optional, a failing core's question) is linearized or left
// out; leaving it out is a step of its own, taken where linearizing it could be. A group of them
// (a transaction) is left out whole, in one step where its first operation could be taken.
//
// A beginning searched once: search_end_states finds every state the orders of a problem end in
// (the search goes on past each acceptance), and a later search may start from those states
// (StartAfter) instead of Init, for the questions that all begin with the same long past.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "language/modules.hpp"
#include "language/value.hpp"
#include "history/problem.hpp"
#include "checkers/search_report.hpp"

namespace omnilink::checkers {

/// A problem's first operations searched already (search_end_states): each thread past its first
/// `positions[t]` operations, in one of `states`. Those operations must be completed and required,
/// and every order of the problem must take them before any other (each ends before every other
/// operation starts: a quiescent point), so the orders from `states` are all the problem's orders.
/// A question asked many times with the same long beginning (a failing core's given past) then
/// searches that beginning once.
struct StartAfter {
  std::vector<std::uint32_t> positions;
  std::vector<std::vector<language::Value>> states;
};

struct NativeSearchOptions {
  std::string init = "Init";
  std::optional<std::string> view;  // an MC-module operator over the spec's variables
  std::chrono::milliseconds time_limit{600'000};
  /// When time_limit began to run: the search's own start unless set (several searches of one
  /// history share one limit).
  std::optional<std::chrono::steady_clock::time_point> since;
  std::uint64_t max_states = 20'000'000;  // distinct states kept
  std::uint64_t max_memory_mb = 0;         // the process's resident memory, checked as it grows; 0: no limit
  /// Fields whose values the spec treats as atoms (OmniLinkDataIndependent, dead_values.hpp):
  /// states equal up to a renaming of values no operation left has logged are searched once.
  std::vector<std::string> data_independent;
  std::uint64_t restart_budget = 2'000;  // states an attempt may stall before it restarts
  const std::atomic<bool>* cancel = nullptr;
  /// Where the search starts instead of Init's states (StartAfter); none: from Init.
  std::shared_ptr<const StartAfter> start;
};

/// Every state of the spec's variables in which an order of a problem ends (search_end_states).
struct EndStates {
  bool complete = false;  // every order was searched; else `limit` says what stopped it
  std::string limit;
  std::vector<std::vector<language::Value>> states;  // distinct up to the VIEW
};

/// Searches for a linearization of `problem` that `spec` accepts. Throws ValidationError,
/// language::EvalError (the spec failed to evaluate) and language::FragmentError.
SearchReport search_linearization(const history::Problem& problem, language::LoadedSpec& spec, const NativeSearchOptions& options);

/// Every state in which an order of `problem` that `spec` accepts ends: the search goes on past
/// each acceptance until every reachable state is visited. Without data independence, whatever
/// `options.data_independent` says: a value only operations after `problem`'s log is dead in it,
/// and states differing in one are alike to it but not to what follows. Throws as
/// search_linearization does.
EndStates search_end_states(const history::Problem& problem, language::LoadedSpec& spec, const NativeSearchOptions& options);

/// How search_linearizations treats several problems.
enum class PartsPolicy {
  /// Each problem searched to its end (or its limits): a report for every part.
  every_part,
  /// The problems are the parts of one history, which any rejected part rejects: they are searched
  /// in rounds of growing room (kFirstRoundStates distinct states each, then four times as many,
  /// up to the options' own limits), each round giving every part not yet decided the same room,
  /// and the first round in which some part is rejected ends the search. A part out of room pauses
  /// and goes on from there in the next round, so no work is repeated. A rejection that is quick
  /// to find is then found quickly however hard the other parts are to decide, as Porcupine finds
  /// it by running every part at once and stopping at the first failure. In a round, a rejected
  /// part stops the parts after it in key order at once and leaves them undecided whatever they
  /// reported (the first rejected in key order decides), and the parts before it get their whole
  /// room, so the result is the same whatever the timing (only the states counted are not). A part
  /// left undecided reports `limit`.
  until_rejected,
};

/// Distinct states each undecided part may take in the first round of PartsPolicy::until_rejected.
inline constexpr std::uint64_t kFirstRoundStates = 4'096;

/// The same for several problems (the partitions of one history), up to `jobs` at once (after
/// the first round of PartsPolicy::until_rejected, up to `later_jobs` if more: parts still
/// undecided then are worth a thread each). With fewer parts left than jobs, the spare threads
/// race a second search on the first of them, in the other order (Urgency::began_first): its
/// acceptance decides the part (a limit of the first search waits for the end of the round); its
/// rejection, limit or error only ends it, since a failure is always reported by the first
/// search. Binding the spec happens on this thread; the searches then only evaluate, each with
/// its own evaluator. Reports in the order of `problems`; the first exception thrown is rethrown.
std::vector<SearchReport> search_linearizations(const std::vector<history::Problem>& problems, language::LoadedSpec& spec,
                                                const NativeSearchOptions& options, unsigned jobs,
                                                PartsPolicy policy = PartsPolicy::every_part, unsigned later_jobs = 0);

}  // namespace omnilink::checkers
