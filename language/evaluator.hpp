// Evaluating the fragment with TLC's semantics: expressions to values, and actions as relations,
// enumerating every successor state TLC would (conjuncts left to right; `x' = e` and `x' \in S`
// assign an unassigned primed variable and test an assigned one; disjunctions, \E, IF and CASE
// branch; UNCHANGED; operators inlined). Errors are EvalError, quoting the construct's position.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "language/modules.hpp"
#include "language/value.hpp"

namespace omnilink::language {

/// A state: the value of each variable, in LoadedSpec::variables() order.
using State = std::vector<Value>;

/// What the checker provides to the OmniLinkTrace operators an MC module may call.
struct TraceHooks {
  /// OmniLinkFieldValues(op, position): every value logged for op's parameter `position` (1-based).
  std::function<Value(const std::string& op, std::int64_t position)> field_values;
};

/// Evaluates one loaded spec. Not thread-safe: one per thread (they share the LoadedSpec, which
/// must be fully bound first).
class Evaluator {
 public:
  explicit Evaluator(const LoadedSpec& spec, TraceHooks hooks = {});

  /// Every initial state `init` allows, in the order TLC enumerates them.
  std::vector<State> initial_states(const Definition& init);
  /// Every successor of `from` under `action` applied to `args` (appended to `out`).
  void successors(const Definition& action, const std::vector<Value>& args, const State& from, std::vector<State>& out);
  /// A state function (a VIEW) in `state`, or a constant expression (state empty).
  Value evaluate(const Definition& def, const State& state);

  /// Why an action has no successor: the conjunct found false (or the `x' \in S` with S empty, or
  /// the UNCHANGED that fails) on the way that got furthest through the action's conjunctions, the
  /// first such in TLC's order. `depth` counts the conjuncts that held before it, so that refusals
  /// of several actions or argument tuples can be compared.
  struct Refusal {
    const Expr* conjunct = nullptr;
    std::size_t depth = 0;
    /// A comparison refused (`=`, `#`, `\in`, `\notin`, `<`, `<=`, `>`, `>=`): its two operands'
    /// values there, e.g. the head a dequeue's element was compared with. Empty otherwise.
    std::vector<Value> operands;
  };
  /// The refusal of `action` applied to `args` in `from`; nothing if it has a successor there.
  std::optional<Refusal> refusal(const Definition& action, const std::vector<Value>& args, const State& from);

  /// Integer results outside TLC's 32 bits are overflow errors from here on, as in TLC: for
  /// comparing the two evaluators where TLC errs. Validation keeps 64-bit integers.
  void use_tlc_integers() { tlc_integers_ = true; }

 private:
  /// What happens once an action's conjuncts so far hold: a reference to a callable, not an owner
  /// (std::function would allocate for every conjunct of every action evaluated).
  class Continuation {
   public:
    // Implicit, so a lambda is passed as it is; it must outlive the call it is passed to.
    template <class F>
    Continuation(const F& f) : target_(&f), call_([](const void* t) { (*static_cast<const F*>(t))(); }) {}
    void operator()() const { call_(target_); }

   private:
    const void* target_;
    void (*call_)(const void*);
  };
  /// An operator given as an argument: a definition (with the instance parameters it was given),
  /// a LAMBDA or LET definition with the names bound where it was written, or a standard operator.
  struct Closure {
    const Definition* definition = nullptr;
    Builtin builtin = Builtin::None;
    std::vector<Value> prefix;
    struct Captured;
    std::shared_ptr<const Captured> captured;
  };
  /// `applied_here`: the closure is applied only while the names bound now are (a standard
  /// operator's argument), so it need not capture them.
  Closure closure_of(const Expr& argument, bool applied_here = false);
  /// A call's argument values, held inline: most operators take a few, and a call is too
  /// frequent a step to allocate for them.
  using Arguments = boost::container::small_vector<Value, 4>;
  /// Parameters bound by name to the variable they may assign.
  using ByName = boost::container::small_vector<std::pair<const Symbol*, std::size_t>, 4>;
  Value apply_closure(const Closure& op, Arguments args, const Expr& at);
  /// Evaluates a call's arguments (values and operators) in the caller's environment, then binds
  /// them to the callee's parameters, those in `by_name` to the variable they may assign; the
  /// caller holds a CallScope that undoes it.
  void bind_call(const Definition& def, const std::vector<ExprPtr>& args, const Expr& at,
                 const ByName& by_name = {});
  /// The variable `e` may assign here: x' in an action, x in the initial predicate, or a parameter
  /// standing for one of those (assignable_params_), while it has no value yet.
  std::optional<std::size_t> assignable(const Expr& e) const;
  Value eval(const Expr& e);
  bool truth(const Expr& e);
  void act(const Expr& e, const Continuation& k);
  void act_conjunction(const Expr& e, std::size_t from, const Continuation& k);
  void act_composition(const Expr& e, const Continuation& k);
  Value call(const Definition& def, const Expr& e);
  Value call_values(const Definition& def, Arguments args, const Expr& at);
  Value builtin(const Expr& e);
  Value except(const Expr& e);
  Value apply_function(const Value& f, const Value& argument, const Expr& at);
  Value apply_defined_function(const Definition& def, const Value& argument, const Expr& at);
  Value construct_function(const std::vector<Bound>& bounds, const Expr& body, const Expr& at);
  const Expr& case_arm(const Expr& e);
  /// The value the bounds' names are bound to now: the one name's value, or the tuple of them
  /// (several names, or <<a, b>> \in S), as CHOOSE, {x \in S : P} and function keys take it.
  Value bound_value(const std::vector<Bound>& bounds, const Expr& at) const;
  static bool binds_tuples(const std::vector<Bound>& bounds);
  class CallScope;
  /// One evaluation of a LET: the values of its once_per_let definitions as they are first needed.
  /// They hold while its body is evaluated (or acted on, continuations included) in the state and
  /// with the names in force where it began; a LET entered again, by recursion, is a new one.
  struct LetValues {
    const Expr* let = nullptr;
    const State* state = nullptr;
    bool primed = false;
    std::vector<std::optional<Value>> values;  // in the order of the LET's definitions
  };
  class LetScope;
  /// Where `def`'s value for the innermost evaluation of its LET is kept (lets_ index, slot), if
  /// it may be kept there now.
  std::optional<std::pair<std::size_t, std::size_t>> let_slot(const Definition& def) const;
  [[noreturn]] void no_constant_value(const Definition& def, const Expr& at) const;
  /// Calls `body` once per binding of the bounds' names to elements of their sets, while it
  /// returns true. A template, not a std::function: a quantifier is evaluated at most steps, and a
  /// std::function of a lambda that captures more than two references allocates.
  template <class Body>
  void for_each_binding(const std::vector<Bound>& bounds, const Body& body);
  /// a..b's ends, where a bound's set is written so and both are integers.
  std::optional<std::pair<std::int64_t, std::int64_t>> written_range(const Bound& b);
  /// The set a bound ranges over (an error if it has none or it is not a set).
  Value bound_set(const Bound& b);
  /// `set`'s elements: its own where it holds them, else enumerated into `storage`.
  const std::vector<Value>& bound_elements(const Bound& b, const Value& set, std::vector<Value>& storage);
  const Value& lookup(const Symbol* s, const Expr& at) const;
  Value variable(std::size_t index, bool primed, const Expr& at) const;
  void push(const Symbol* s, Value v) { env_.emplace_back(s, std::move(v)); }
  void pop(std::size_t n) { env_.resize(env_.size() - n); }
  [[noreturn]] void fail(const Expr& at, const std::string& what) const;
  std::string variable_name(std::size_t index) const;

  const LoadedSpec& spec_;
  TraceHooks hooks_;
  bool tlc_integers_ = false;
  const State* current_ = nullptr;
  std::vector<std::optional<Value>> next_;  // the successor (or initial state) being built
  bool init_mode_ = false;
  std::vector<std::pair<const Symbol*, Value>> env_;
  std::vector<std::pair<const Symbol*, Closure>> operators_;  // operator parameters in force
  // Parameters of action-level calls whose argument is a variable the action has yet to assign
  // (Send(p, d, mem, mem') with Send(p, d, old, new) == new = ...): bound by name, as TLC binds
  // arguments lazily, so that `new = e` assigns mem'. Read through, they are that variable.
  std::vector<std::pair<const Symbol*, std::size_t>> assignable_params_;
  bool primed_ = false;  // evaluating e' for an expression e: variables are read in the next state
  std::vector<Value> at_;  // @ in the EXCEPT being evaluated
  std::map<const Definition*, Value> cache_;  // constant-level zero-arity definitions
  std::vector<LetValues> lets_;  // the LETs being evaluated, innermost last
  std::vector<const Definition*> evaluating_;  // to catch a definition that depends on itself
  std::size_t depth_ = 0;
  // refusal(): conjuncts holding on the current way through the action, and the deepest refusal.
  std::size_t conjuncts_held_ = 0;
  std::optional<Refusal>* refusal_ = nullptr;
  /// `e` refused the action; `tested`: found false by evaluating it as a whole (so a comparison's
  /// operands can be evaluated again, where an `x' \in S` assigns x' and reads no value of it).
  void refused(const Expr& e, bool tested = false);
};

}  // namespace omnilink::language
