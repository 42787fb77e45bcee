// What every checker decides: a run's history (history.hpp) checked against the spec's
// operations. Each logged operation is matched to its spec operation (one action, or an
// X_Step/X_Done pair), its fields put in the action's parameter order, and a pending operation's
// unknown fields given their domains (pending_domains.hpp). Errors name the operation.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "language/interface.hpp"
#include "history/history.hpp"
#include "history/pending_domains.hpp"

namespace omnilink::history {

/// The run cannot be validated against this spec (an operation the spec lacks, a field that is
/// not a parameter, an integer wider than TLC's 32 bits). The message names the operation.
class ValidationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A logged value shared by at most this many operations ties them together (a queue's element: its
/// enqueue and its dequeue); one that many share (TRUE, a small counter) says nothing. The native
/// search learns from such ties, and a failure's report names them.
inline constexpr std::size_t kIdentifyingUses = 4;

/// One logged operation as the spec sees it.
struct ProblemOp {
  const trace::Operation* op = nullptr;         // in Problem::history
  const language::Operation* spec_op = nullptr;  // in the SpecInterface given to make_problem
  /// The arguments in parameter order; null where a pending operation's field is unknown.
  std::vector<const trace::Value*> args;
  /// Completed, but the native search may leave it out as well as linearize it (within its
  /// timebox, with its logged results): how a failing core (explain/failing_core.hpp) asks whether the
  /// operations outside it could explain the ones inside. In a run's own problem, set only where its
  /// history file marks the operation optional (a core.jsonl's context, docs/explain.md). Its
  /// operation's optional_group says which others it is taken or left out with.
  bool optional = false;
};

/// A history matched to a spec. Owns the history; points into it and into the SpecInterface,
/// which must outlive it. Not copyable (the pointers would dangle).
struct Problem {
  History history;
  std::vector<std::vector<ProblemOp>> threads;  // as history.threads
  std::map<std::string, OperationParams> params;
  /// Domains of the unknown fields of pending operations (pending_domains).
  std::map<std::string, std::vector<std::optional<Domain>>> domains;
  std::uint64_t operations = 0;  // completed and not optional: every one must be linearized
  std::uint64_t pending = 0;     // may be linearized or left out
  // Some unknown field ranges over the values logged in the run (the domain rule's third case),
  // which need not include its real result: a FAIL must be certified (checkers/validate.cpp).
  bool logged_value_domains = false;
  std::vector<std::string> caveats;  // the history's, and the domain rule's

  /// The operation logged as T<thread>.<index>, or null if the problem does not hold it (a part or
  /// a core holds a few of the run's operations). A scan: for the few lookups of an explanation.
  const ProblemOp* find(std::uint32_t thread, std::uint64_t index) const;

  Problem() = default;
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;
  Problem(Problem&&) = default;
  Problem& operator=(Problem&&) = default;
};

/// The spec's parameters of each operation, for the domain rule: Bool-typed ones from the @type
/// annotations, and those whose domain the MC module defines (OmniLinkDomain_<Op>_<param>).
std::map<std::string, OperationParams> operation_params(const language::SpecInterface& spec, const language::LoadedSpec& loaded);

/// Matches `history` to `spec`, and checks every integer fits TLC's 32 bits. Throws ValidationError.
Problem make_problem(History history, const language::SpecInterface& spec, const language::LoadedSpec& loaded);

/// What split_problem makes of a completed operation: optional or not, and with which others it is
/// taken all or none (trace::Operation::optional_group; 0: on its own).
struct MadeOptional {
  bool optional = false;
  std::uint64_t group = 0;
};

/// `problem` split into `parts` problems: each operation goes to the part `part_of` gives it (less
/// than `parts`), in its thread's order; everything else (domains, caveats) is the same in each.
/// For checking the parts of a history on their own; one pass over the operations. A completed
/// operation that `optional` (if given) makes optional is optional in its part (ProblemOp::optional,
/// and its copy in the part's history says so, with its group).
std::vector<Problem> split_problem(const Problem& problem, std::size_t parts,
                                   const std::function<std::size_t(const ProblemOp&)>& part_of,
                                   const std::function<MadeOptional(const ProblemOp&)>& optional = {});

/// "T1.4 Dequeue": how errors and reports name an operation.
std::string operation_name(const trace::Operation& op);

}  // namespace omnilink::history
