// A failing run's core: the few operations that are the failure, out of the thousands a run logs.
//
// What a core claims: no order of its operations is accepted, even when each other operation of
// the run may be placed (within its timebox, with its logged results) or left out as the search
// likes. So the core is rejected on its own, and its failure is the run's: an operation outside it
// that could have explained it (the enqueue of a dequeued element, a concurrent erase) is allowed
// back in. Deleting operations outright would not do: a dequeue without its enqueue fails on its
// own, and would pass for a core of one.
//
// How: delta debugging (Zeller's ddmin, complements only) over the completed operations, each
// question asked of the native search with the others optional (ProblemOp::optional). It starts
// from the smallest of a few seeds that is rejected: the projection on the values the failure's
// refusal involves (a spec closed under projection), the operations up to the refused one's end,
// all of them. One-minimal when it finishes: leaving any one operation optional makes it pass.
//
// Transactions (a spec's `@groups` field, CoreOptions::group_field): a transaction with no core
// operation is optional whole, taken all or none (trace::Operation::optional_group), as it
// happened or not; the other operations of one the core is in are optional one by one. So the
// minimisation removes whole transactions first, whose questions take a few states where
// operations left out one by one let the search try every part of every transaction, and then
// single operations of the transactions left.
//
// Keeping the questions small: an optional operation that starts after every core operation ended
// cannot come before any of them and is dropped; for a spec closed under projection, neither can
// one on values no core operation logged help (a linearization without it is one too). A
// partitioned spec's core comes from its failing part. Each question has a budget of states; an
// undecided one counts as "needed" (the core stays sound, and says it may not be minimal). A
// candidate asked again is answered from memory.
//
// Presumed, then proven (CoreOptions::presumption): a rejected question costs tens of times what an
// accepted one does, and narrowing a core asks several. So the core is first narrowed with each
// question stopped a little past what an accepted one takes and presumed rejected there, within a
// third of the time limit; the core that comes out is then asked (unless its own question was
// decided on the way, within the presumption's budget). Only a core so proven is returned:
// one-minimal if every removal of one of its operations was answered accepted (an accepted answer
// needs no presumption). A core that is not proven rejected, or is not minimal, is narrowed again
// with every question decided, as without the presumption, in the time that is left: from it if it
// was proven, else from the smallest core the first pass decided rejected on the way, else from the
// seeds. With a presumption, "decided" means within Presumption::proof_factor times its budget.
//
// Given the past (GivenPast): past that budget (late in a long run, every earlier operation
// optional: millions of states), the narrowing stops, and the presumed core, then the core narrowed
// so far, is asked again with the operations that ended before its transactions began required, as
// the run logged them; if that past passes on its own and the core is rejected given it, the core
// is narrowed given it and returned so, saying what it was given. The past's beginning that every
// order takes first (searched_beginning.hpp) is searched once for all those questions. If neither
// is (the past fails on its own where the failure recurs earlier in the run, or the core passes
// given it where the presumption was wrong), the run's first failure is found by bisecting its
// prefixes, each asked with its operations required, and its last transaction is asked given the
// past before it, which passes (a shorter prefix did). Failing that, the narrowing goes on with
// every question decided in full (the question's own budget), from that first failure if found.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "explain/given_past.hpp"
#include "language/modules.hpp"
#include "history/history.hpp"
#include "history/problem.hpp"
#include "results/result.hpp"
#include "checkers/checker_options.hpp"

namespace omnilink::explain {

/// While a core is narrowed: a question still undecided after `base + per_operation * n` distinct
/// states (n: the operations it holds, core and context) is presumed rejected. An accepted
/// question finds its order within a few states per operation (at most 2.8 per operation, and
/// never more than 1,100 states, in the write-skew and timestamp runs measured), a rejected one
/// searches every choice of its optional context (35 to 400 per operation there).
struct Presumption {
  std::uint64_t base = 1'000;
  std::uint64_t per_operation = 4;
  /// After the presumption, a question is decided within this many times the budget above, and
  /// past it the core is proven given the past (GivenPast) if it can be, else decided in full.
  /// A rejected question needs 35 to 400 states per operation; write skew's about 40. A presumed
  /// core's own question decided rejected took up to 9.1 times the budget (docs/explain.md).
  std::uint64_t proof_factor = 10;
};

struct CoreOptions {
  std::chrono::milliseconds time_limit{60'000};  // the whole minimisation
  std::uint64_t question_states = 200'000;       // distinct states each question may search
  std::optional<std::string> group_field;        // the spec's @groups parameter (SpecInterface::group_field)
  std::optional<Presumption> presumption = Presumption{};  // none: every question is decided in full
};

/// A failing core and how it was found.
struct FailingCore {
  /// The core's operations, in their threads (a thread with none is empty), with their original
  /// thread, index and timebox; no pending operations (they are optional already).
  history::History history;
  std::uint64_t operations = 0;
  bool minimal = false;     // every one-operation removal was asked and passes
  std::string not_minimal;  // why not, when not
  std::string seed;         // where the minimisation started ("the projection on {5, 7}", ...)
  std::optional<GivenPast> given;  // proven given the past, not on its own; none: on its own
  std::uint64_t questions = 0;  // searches asked
  std::chrono::milliseconds duration{0};
};

/// The transactions of `history`: per thread, each run of consecutive operations that log one value
/// of `field` is a transaction, numbered from 1 across the history; 0 for an operation that logs
/// none, and for all when there is no field. An operation that failed without effect (a run's
/// traces keep it, its history does not) is in none and does not split one. As threads[t][i].
std::vector<std::vector<std::uint64_t>> transaction_groups(const history::History& history, const std::optional<std::string>& field);

/// transaction_groups by operation: (thread, index) -> its transaction; those of none are absent.
using TransactionOf = std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint64_t>;
TransactionOf transactions_by_operation(const history::History& history, const std::optional<std::string>& field);

/// The core of `problem`, which the native checker rejected with `failed` (its refusal and its
/// failing partition seed the minimisation). A FAIL certified on the quiescent prefix (validate.cpp)
/// is the prefix's: pass that problem. Throws ValidationError if `failed` is not a native FAIL,
/// language::EvalError as the search does.
FailingCore find_failing_core(const history::Problem& problem, const results::ValidationResult& failed, language::LoadedSpec& spec,
                              const checkers::ValidateOptions& validate, const CoreOptions& options);

}  // namespace omnilink::explain
