// What a native search reports (native_search.hpp): its outcome, the deepest state it reached (each
// thread's position, the spec's variables, the pending operations it linearized on the way) and,
// when rejected or stopped, why the search got no further there (refusal_explainer.hpp). Written by
// the search core; read by native_check (a verdict and its frontier) and the failing core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "history/value_index.hpp"
#include "results/refusal.hpp"

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
  /// Rejected or stopped: why the search got no further at the deepest state, each operation
  /// named by its place in Problem::threads (thread, position). The first held value is taken,
  /// operands in order, a sequence from its head.
  using Refused = results::Refusal<history::OpRef>;
  std::optional<Refused> refused;
  std::uint64_t states_generated = 0, states_distinct = 0;
  /// Why the spec's data-independence declaration was not used (SearchSpace), else empty.
  std::string data_independence_unused;
};

}  // namespace omnilink::checkers
