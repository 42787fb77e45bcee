// What a native search reports (native_search.hpp): its outcome, the deepest state it reached (each
// thread's position, the spec's variables, the pending operations it linearized on the way) and,
// when rejected or stopped, why the search got no further there (refusal_explainer.hpp). Written by
// the search core; read by native_check (a verdict and its frontier) and the failing core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace omnilink::checkers {

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

}  // namespace omnilink::checkers
