// The native checker's search: the linearization search of OmniLinkTrace.tla, done in-process
// over the spec's own actions (language/evaluator.hpp). A state is each thread's position, the
// multi-step operation it has begun (and, for a pending one, the arguments it chose), and the
// spec's variables. Depth-first, trying the thread whose next operation ends earliest first, and
// when that one cannot go, the threads whose next operation would let it (a linearizable history is
// then accepted in about one pass), with a visited set of 128-bit state
// fingerprints (the memoisation of Wing & Gong and Lowe), so a rejected history costs what TLC's
// breadth-first search costs: every reachable state once. Same viability rule, same treatment of
// pending operations, a VIEW when given.
//
// Restarts: a wrong early guess (which of two overlapping enqueues came first) may show only
// hundreds of operations later, and chronological backtracking then tries every placement of
// everything in between. An attempt that stalls (restart_budget states without getting further)
// looks at its deepest failure of the most urgent operation, prefers from then on the operations
// that logged the same identifying values (a dequeued element's enqueue), and starts again. States
// it finished exploring stay visited (they are dead whatever the order), so no work is repeated
// except the path back; the budget doubles while restarts gain nothing, so the search stays
// complete, and a rejected history still costs each reachable state about once.
//
// An optional operation (ProblemOp::optional, a failing core's question) is linearized or left
// out; leaving it out is a step of its own, taken where linearizing it could be.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "language/modules.hpp"
#include "validation/problem.hpp"

namespace omnilink::validation {

struct NativeSearchOptions {
  std::string init = "Init";
  std::optional<std::string> view;  // an MC-module operator over the spec's variables
  std::chrono::milliseconds time_limit{600'000};
  std::uint64_t max_states = 20'000'000;  // distinct states kept
  std::uint64_t max_memory_mb = 0;         // the process's resident memory, checked as it grows; 0: no limit
  /// Fields whose values the spec treats as atoms (OmniLinkDataIndependent, dead_values.hpp):
  /// states equal up to a renaming of values no operation left has logged are searched once.
  std::vector<std::string> data_independent;
  std::uint64_t restart_budget = 2'000;  // states an attempt may stall before it restarts
  const std::atomic<bool>* cancel = nullptr;
};

struct SearchReport {
  enum class Outcome { accepted, rejected, no_initial_state, limit, cancelled };
  Outcome outcome = Outcome::rejected;
  std::string limit;  // which limit stopped it
  std::int64_t linearized = 0;  // completed operations linearized at the deepest (or accepting) state
  std::vector<std::size_t> next;  // per thread: the index of its next operation there
  std::string spec_state;         // the spec's variables there, <<v1, v2>> as TLC prints them
  std::vector<std::string> spec_values;  // the same, one TLA+ text per variable (LoadedSpec::variables order)
  struct Taken {
    std::size_t thread = 0, position = 0;  // position in Problem::threads[thread]
    std::vector<std::string> arguments;    // TLA+ text, in parameter order
  };
  std::vector<Taken> pending_taken;  // pending operations linearized there
  /// Rejected: the most urgent operation at the deepest state (the viable one ending earliest)
  /// that the spec refuses there, the conjunct that refuses it (language::Evaluator::refusal), and
  /// the operations tied to it by the values of the parameters that conjunct mentions (a value at
  /// most kIdentifyingUses operations logged; booleans never).
  struct Refused {
    std::size_t thread = 0, position = 0;  // in Problem::threads
    std::string action;                    // X, X_Step or X_Done
    std::string at;                        // the conjunct: file:line:col
    std::string conjunct;                  // its source, to the end of its line
    struct Tie {
      std::size_t thread = 0, position = 0;
      bool linearized = false;  // there
    };
    std::vector<Tie> related;
    std::vector<std::string> unmatched;  // those parameters whose value no other operation logged
    /// A value the refused comparison found in the state where the operation's own should have
    /// been (the head a dequeue's element was compared with; an element of the queue an empty
    /// dequeue found), identifying (at most kIdentifyingUses operations logged it), that no
    /// operation is left to take out: every one that logged it is linearized there. A lost element
    /// shows as different conjuncts (an empty dequeue, a dequeue of the next element); this is
    /// what they share. The first such value, operands in order, a sequence from its head.
    struct Lost {
      std::string value;         // TLA+ text
      std::vector<Tie> logged_by;  // all linearized
    };
    std::optional<Lost> lost;
    /// The first identifying value the refused comparison found in the state in the operation's
    /// own place (as for `lost`), and every operation that logged it, linearized there or not:
    /// what an explanation says stood in the way (`lost` is the case where all are linearized).
    std::optional<Lost> in_place;
  };
  std::optional<Refused> refused;
  std::uint64_t states_generated = 0, states_distinct = 0;
};

/// Searches for a linearization of `problem` that `spec` accepts. Throws ValidationError,
/// language::EvalError (the spec failed to evaluate) and language::FragmentError.
SearchReport search_linearization(const Problem& problem, language::LoadedSpec& spec, const NativeSearchOptions& options);

/// The same for several problems (the partitions of one history), up to `jobs` at once. Binding
/// the spec happens first, on this thread; the searches then only evaluate, each with its own
/// evaluator. Reports in the order of `problems`; the first exception thrown is rethrown.
std::vector<SearchReport> search_linearizations(const std::vector<Problem>& problems, language::LoadedSpec& spec,
                                                const NativeSearchOptions& options, unsigned jobs);

}  // namespace omnilink::validation
