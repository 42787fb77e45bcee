// The native search's problem as states and steps. A state (Node) is each thread's position, the
// multi-step operation it has begun (for a pending one, the arguments it chose), and the spec's
// variables; a step linearizes one thread's next operation (or one step of it, or, optional, leaves
// it out) through the spec's own actions (language/evaluator.hpp). Owns the evaluator, the
// operations' argument tuples and the fingerprint (with a VIEW and data independence); knows
// which threads may go next by real time. Leaves the order of trying them to the heuristics
// (search_heuristics.hpp) and the exploring to the search core (native_search.cpp).
#pragma once

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "language/evaluator.hpp"
#include "checkers/dead_values.hpp"
#include "checkers/native_search.hpp"
#include "history/value_index.hpp"

namespace omnilink::checkers {

inline constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();  // a pending operation's end

/// One operation, ready for the search.
struct SearchOp {
  const language::Definition* action = nullptr;  // single-step
  const language::Definition* step = nullptr;    // multi-step: X_Step and X_Done
  const language::Definition* done = nullptr;
  bool pending = false;
  bool optional = false;  // completed, but may be left out (ProblemOp::optional)
  /// How many operations leaving this one out skips: 1 for an optional one on its own, its group's
  /// size for the first of a group (trace::Operation::optional_group: all or none, so the rest of
  /// it is left out with it), 0 for the others of a group and for a required one.
  std::uint32_t leaves = 0;
  /// Completed, required, single-step, and its action only stutters (language/action_effects.hpp):
  /// a read. Where it is viable and the state accepts it, taking it at once loses no order (forced_step).
  bool read = false;
  std::uint64_t start = 0, end = 0;
  std::vector<std::vector<language::Value>> candidates;  // argument tuples: one if completed
};

struct Node {
  std::vector<std::uint32_t> pc;     // per thread: operations linearized (or left out)
  std::vector<std::int32_t> choice;  // per thread: -1, or the candidate its begun multi-step operation uses
  language::State spec;
  // Kept as the steps are taken, not summed over the threads at every state: the required
  // operations linearized (SearchSpace::progress) and the optional ones passed.
  std::int64_t progress = 0, optional_passed = 0;
};

struct Successor {
  Node node;
  std::int32_t taken_thread = -1;  // a pending operation linearized by this step: its thread and candidate
  std::int32_t taken_candidate = -1;
};

class SearchSpace {
 public:
  /// Throws ValidationError (no such Init or VIEW, a domain too large) and language::FragmentError
  /// (an action the embedded checker cannot evaluate).
  SearchSpace(const history::Problem& problem, language::LoadedSpec& spec, const NativeSearchOptions& options);
  SearchSpace(const SearchSpace&) = delete;
  SearchSpace& operator=(const SearchSpace&) = delete;

  const history::Problem& problem() const { return problem_; }
  language::Evaluator& evaluator() { return evaluator_; }
  std::size_t threads() const { return ops_.size(); }
  const SearchOp& op(const history::OpRef& op) const { return ops_[op.first][op.second]; }
  /// Thread t's next operation in `n` (t must have one left).
  const SearchOp& next_op(const Node& n, std::uint32_t t) const { return ops_[t][n.pc[t]]; }

  /// The initial nodes: every thread at its first operation, one per initial state of the spec;
  /// or, with NativeSearchOptions::start, each thread past the beginning, one per state it ends in.
  std::vector<Node> initial_nodes();
  /// Completed operations that must be linearized (neither pending nor optional).
  std::int64_t total() const { return total_; }
  /// Why the spec's OmniLinkDataIndependent declaration is not used on this problem; empty when
  /// it is (or there is none).
  const std::string& data_independence_unused() const { return data_independence_unused_; }
  /// Of those, how many `n` has linearized.
  static std::int64_t progress(const Node& n) { return n.progress; }
  /// Optional operations `n` is past (linearized or left out): of two states as deep, the one
  /// further past them is where a refusal of a required operation shows (ProblemOp::optional).
  static std::int64_t optional_passed(const Node& n) { return n.optional_passed; }
  /// Some thread is inside a multi-step operation: such a state may lie on a cycle of steps, so
  /// finishing it proves nothing beyond the attempt that finished it.
  static bool begun(const Node& n);
  /// `n` as the visited set knows it: positions, choices and the spec's variables (through the
  /// VIEW, with dead values renamed).
  language::Fingerprint fingerprint(const Node& n);

  /// The threads whose next operation may be linearized in `n` by real time (none that must end
  /// first is left), in thread order.
  std::vector<std::uint32_t> viable(const Node& n) const;
  /// The argument tuples thread t's next operation may use in `n`: all of them, or the one a begun
  /// pending operation chose.
  std::pair<std::size_t, std::size_t> candidate_range(const Node& n, std::uint32_t t) const;
  /// The nodes one step of thread t's next operation leads to from `n`, into `out`.
  void successors(const Node& n, std::uint32_t t, std::vector<Successor>& out);
  /// A step every order from `n` may take first, into `out`: a viable read the state accepts.
  /// Otherwise `viable` holds viable(n) (one pass over the threads for both).
  /// Moving a read earlier, to where real time already allows it, changes no state the others see
  /// and only frees operations that waited for it, so whatever any order from `n` reaches, the
  /// order that takes the read first reaches too (as deep or deeper). The search then tries no
  /// other step from `n`. False (and `out` empty) if there is none; then `refused` holds the
  /// threads whose next operation is a viable read the state refuses (none has a step from `n`,
  /// so the search need not evaluate them again).
  bool forced_step(const Node& n, std::vector<Successor>& out, std::vector<std::uint32_t>& refused, std::vector<std::uint32_t>& viable);

 private:
  /// The two smallest ends among the threads' next operations, and whose is the smallest: thread
  /// t may go next unless an operation of another thread ended before t's began.
  struct Blocking {
    std::uint64_t first = kNever, second = kNever;
    std::size_t first_thread = 0;
  };
  Blocking blocking(const Node& n) const;
  /// The nodes after a searched beginning, once the problem is checked to have one there (throws
  /// ValidationError where it has not).
  std::vector<Node> nodes_after(const StartAfter& start) const;
  bool viable(const Node& n, std::size_t t, const Blocking& b) const;
  void prepare();
  std::vector<language::Value> domain(const std::string& op, std::size_t k, const history::Domain& d);
  void index_data_independent_values();
  language::TraceHooks hooks();

  const history::Problem& problem_;
  language::LoadedSpec& spec_;
  const NativeSearchOptions& options_;
  language::Evaluator evaluator_;
  const language::Definition* init_ = nullptr;
  const language::Definition* view_ = nullptr;
  std::vector<std::vector<SearchOp>> ops_;
  std::int64_t total_ = 0;  // completed operations that must be linearized
  DeadValues dead_values_;
  std::string data_independence_unused_;
  std::vector<language::State> states_;  // successors' scratch
};

}  // namespace omnilink::checkers
