#include "language/evaluator.hpp"

#include <algorithm>

#include "language/action_effects.hpp"

namespace omnilink::language {

namespace {
// Nested calls: a spec recursing deeper is running away (and the native stack is finite).
constexpr std::size_t kMaxDepth = 2000;
}  // namespace

/// What a LAMBDA or LET definition passed as an operator sees: the bound names where it was
/// written, whatever the callee binds meanwhile (a recursive callee binds the same names again).
struct Evaluator::Closure::Captured {
  std::vector<std::pair<const Symbol*, Value>> env;
  std::vector<std::pair<const Symbol*, Closure>> operators;
};

/// One operator call: the recursion guard and the names the call binds, both undone however the
/// call ends.
class Evaluator::CallScope {
 public:
  CallScope(Evaluator& ev, const Expr& at)
      : ev_(ev), env_depth_(ev.env_.size()), operators_depth_(ev.operators_.size()), assignable_depth_(ev.assignable_params_.size()) {
    if (++ev_.depth_ > kMaxDepth) {
      --ev_.depth_;
      ev_.fail(at, "recursion deeper than " + std::to_string(kMaxDepth) + " calls");
    }
  }
  ~CallScope() {
    ev_.env_.resize(env_depth_);
    ev_.operators_.resize(operators_depth_);
    ev_.assignable_params_.resize(assignable_depth_);
    --ev_.depth_;
  }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

 private:
  Evaluator& ev_;
  std::size_t env_depth_, operators_depth_, assignable_depth_;
};

/// One evaluation of a LET, entered for as long as this lives (the LET's body evaluated, or acted
/// on with its continuations), so that its once_per_let definitions are evaluated once in it.
class Evaluator::LetScope {
 public:
  // Only where a value cannot change under it: not in an initial predicate (which assigns the
  // unprimed variables such a definition reads) nor while a parameter stands for a variable the
  // action has yet to assign (read through, it is the next state).
  LetScope(Evaluator& ev, const Expr& let) : ev_(ev) {
    if (ev.init_mode_ || !ev.assignable_params_.empty()) return;
    if (std::none_of(let.definitions.begin(), let.definitions.end(), [](const auto& d) { return d->once_per_let; })) return;
    ev.lets_.push_back(LetValues{&let, ev.current_, ev.primed_, std::vector<std::optional<Value>>(let.definitions.size())});
    pushed_ = true;
  }
  ~LetScope() {
    if (pushed_) ev_.lets_.pop_back();
  }
  LetScope(const LetScope&) = delete;
  LetScope& operator=(const LetScope&) = delete;

 private:
  Evaluator& ev_;
  bool pushed_ = false;
};

std::optional<std::pair<std::size_t, std::size_t>> Evaluator::let_slot(const Definition& def) const {
  for (std::size_t i = lets_.size(); i-- > 0;) {
    const auto& definitions = lets_[i].let->definitions;
    for (std::size_t d = 0; d < definitions.size(); ++d) {
      if (definitions[d].get() != &def) continue;
      // A reference in another state (inside \cdot) or primed expression than the LET's reads
      // other variables: evaluated as it is.
      if (lets_[i].state != current_ || lets_[i].primed != primed_) return std::nullopt;
      return std::make_pair(i, d);
    }
  }
  return std::nullopt;
}

Evaluator::Evaluator(const LoadedSpec& spec, TraceHooks hooks) : spec_(spec), hooks_(std::move(hooks)) {}

void Evaluator::fail(const Expr& at, const std::string& what) const { throw EvalError(at.pos.text() + ": " + what); }

std::string Evaluator::variable_name(std::size_t index) const {
  return index < spec_.variables().size() ? spec_.variables()[index] : "#" + std::to_string(index);
}

const Value& Evaluator::lookup(const Symbol* s, const Expr& at) const {
  for (auto it = assignable_params_.rbegin(); it != assignable_params_.rend(); ++it)
    if (it->first == s) {
      if (!next_[it->second])
        fail(at, variable_name(it->second) + (init_mode_ ? "" : "'") + " (as " + s->name + ") is read before it is assigned");
      return *next_[it->second];
    }
  for (auto it = env_.rbegin(); it != env_.rend(); ++it)
    if (it->first == s) return it->second;
  fail(at, "internal: " + s->name + " is not bound");
}

Value Evaluator::variable(std::size_t index, bool primed, const Expr& at) const {
  if (init_mode_ || primed || primed_) {
    if (index >= next_.size() || !next_[index])
      fail(at, (primed ? variable_name(index) + "' is read before the action assigns it"
                       : variable_name(index) + " is read before the initial predicate assigns it"));
    return *next_[index];
  }
  if (current_ == nullptr) fail(at, "the variable " + variable_name(index) + " in a constant expression");
  return (*current_)[index];
}

std::vector<State> Evaluator::initial_states(const Definition& init) {
  std::vector<State> out;
  init_mode_ = true;
  current_ = nullptr;
  next_.assign(spec_.variables().size(), std::nullopt);
  act(*init.body, [&] {
    State s;
    for (std::size_t k = 0; k < next_.size(); ++k) {
      if (!next_[k]) fail(*init.body, "the initial predicate " + init.name + " does not assign " + variable_name(k));
      s.push_back(*next_[k]);
    }
    out.push_back(std::move(s));
  });
  init_mode_ = false;
  return out;
}

void Evaluator::successors(const Definition& action, const std::vector<Value>& args, const State& from, std::vector<State>& out) {
  current_ = &from;
  init_mode_ = false;
  next_.assign(from.size(), std::nullopt);
  CallScope call(*this, *action.body);
  for (std::size_t k = 0; k < action.params.size(); ++k) push(action.params[k].get(), args.at(k));
  act(*action.body, [&] {
    State s;
    s.reserve(next_.size());
    for (std::size_t k = 0; k < next_.size(); ++k) {
      if (!next_[k]) fail(*action.body, "the action " + action.name + " does not determine " + variable_name(k) + "'");
      s.push_back(*next_[k]);
    }
    out.push_back(std::move(s));
  });
}

std::optional<Evaluator::Refusal> Evaluator::refusal(const Definition& action, const std::vector<Value>& args, const State& from) {
  std::optional<Refusal> found;
  std::vector<State> out;
  refusal_ = &found;
  conjuncts_held_ = 0;
  try {
    successors(action, args, from, out);
  } catch (...) {
    refusal_ = nullptr;
    throw;
  }
  refusal_ = nullptr;
  if (!out.empty()) return std::nullopt;
  return found ? found : Refusal{action.body.get(), 0, {}};  // nothing false on the way: the action as a whole
}

void Evaluator::refused(const Expr& e, bool tested) {
  if (refusal_ == nullptr || (*refusal_ && conjuncts_held_ <= (*refusal_)->depth)) return;
  *refusal_ = Refusal{&e, conjuncts_held_, {}};
  static constexpr Builtin kComparisons[] = {Builtin::Eq, Builtin::Neq, Builtin::In,  Builtin::NotIn,
                                             Builtin::Lt, Builtin::Leq, Builtin::Gt, Builtin::Geq};
  const bool comparison = tested && e.kind == ExprKind::RefBuiltin && e.kids.size() == 2 &&
                          std::find(std::begin(kComparisons), std::end(kComparisons), e.builtin) != std::end(kComparisons);
  // Both operands were just evaluated, in this environment, to find the comparison false.
  if (comparison)
    for (const auto& operand : e.kids) (*refusal_)->operands.push_back(eval(*operand));
}

Value Evaluator::evaluate(const Definition& def, const State& state) {
  current_ = state.empty() ? nullptr : &state;
  init_mode_ = false;
  return call_values(def, {}, *def.body);
}

// ---------------------------------------------------------------------------------------------
// Actions.

void Evaluator::act_conjunction(const Expr& e, std::size_t from, const Continuation& k) {
  if (from == e.kids.size()) return k();
  act(*e.kids[from], [&] {
    ++conjuncts_held_;
    act_conjunction(e, from + 1, k);
    --conjuncts_held_;
  });
}

void Evaluator::act(const Expr& e, const Continuation& k) {
  switch (e.kind) {
    case ExprKind::Conj:
      return act_conjunction(e, 0, k);
    case ExprKind::Disj:
      for (const auto& branch : e.kids) {
        const auto saved = next_;
        act(*branch, k);
        next_ = saved;
      }
      return;
    case ExprKind::Exists: {
      bool bound = false;
      for_each_binding(e.bounds, [&] {
        bound = true;
        const auto saved = next_;
        act(*e.kids[0], k);
        next_ = saved;
        return true;
      });
      if (!bound) refused(e);
      return;
    }
    case ExprKind::If:
      return act(*e.kids[truth(*e.kids[0]) ? 1 : 2], k);
    case ExprKind::Case:
      return act(case_arm(e), k);
    case ExprKind::Let: {
      LetScope let(*this, e);
      return act(*e.kids[0], k);
    }
    case ExprKind::RefDefinition: {
      const Definition& def = *e.definition;
      if (def.constant || !def.function_bounds.empty()) break;  // a value: test it below
      // An argument the action may still assign is bound by name (the call is then part of the
      // action, whatever its body reads); the others by value.
      ByName by_name;
      for (std::size_t p = 0; p < e.kids.size(); ++p)
        if (def.params[p]->arity == 0)
          if (const auto target = assignable(*e.kids[p])) by_name.emplace_back(def.params[p].get(), *target);
      if (by_name.empty() && !def.uses_state && !def.in_let) break;
      CallScope call(*this, e);
      bind_call(def, e.kids, e, by_name);
      return act(*def.body, k);
    }
    case ExprKind::RefBuiltin: {
      if (e.builtin == Builtin::Cdot) return act_composition(e, k);
      if ((e.builtin != Builtin::Eq && e.builtin != Builtin::In) || e.kids.size() != 2) break;
      const std::optional<std::size_t> target = assignable(*e.kids[0]);
      if (!target) break;
      const Value rhs = eval(*e.kids[1]);
      if (e.builtin == Builtin::Eq) {
        next_[*target] = rhs.canonical();  // x' = 1..3 and x' = {1, 2, 3} are one state
        k();
      } else {
        const std::vector<Value> elements = rhs.elements();
        if (elements.empty()) refused(e);
        for (const Value& v : elements) {
          next_[*target] = v;
          k();
        }
      }
      next_[*target].reset();
      return;
    }
    case ExprKind::Unchanged: {
      if (current_ == nullptr) fail(e, "UNCHANGED in an initial predicate");
      VariableIndices assigned, variables;
      if (!unchanged_variables(e, variables)) break;  // UNCHANGED f(x): f(x)' = f(x), tested below
      bool holds = true;
      for (std::size_t index : variables) {
        if (!next_[index]) {
          next_[index] = (*current_)[index];
          assigned.push_back(index);
        } else if (!next_[index]->equals((*current_)[index])) {
          holds = false;
        }
      }
      if (holds) k();
      else refused(e);
      for (std::size_t index : assigned) next_[index].reset();
      return;
    }
    default:
      break;
  }
  if (truth(e)) k();
  else refused(e, /*tested=*/true);
}

void Evaluator::act_composition(const Expr& e, const Continuation& k) {
  // s -(A \cdot B)-> u  iff  s -A-> t -B-> u, as TLC (tlc2.tool.impl.Tool.cdot) computes it: t
  // holds what A assigns and, for a variable A leaves alone, its value before (in s, or as assigned
  // before the composition); B then goes from t.
  if (init_mode_) fail(e, "action composition (\\cdot) in an initial predicate");
  const State* s = current_;
  const std::vector<std::optional<Value>> before = next_;
  std::vector<State> middle;
  act(*e.kids[0], [&] {
    State t;
    for (std::size_t v = 0; v < next_.size(); ++v) t.push_back(next_[v] ? *next_[v] : (*s)[v]);
    middle.push_back(std::move(t));
  });
  next_ = before;
  for (const State& t : middle) {
    current_ = &t;
    act(*e.kids[1], [&] {
      current_ = s;  // what follows the composition reads s, as the action does
      k();
      current_ = &t;
    });
    current_ = s;
    next_ = before;
  }
}

std::optional<std::size_t> Evaluator::assignable(const Expr& e) const {
  // Asked of every x = e and every argument of an action's call: most are none of these.
  std::optional<std::size_t> index;
  switch (e.kind) {
    case ExprKind::RefPrimed:
      if (!init_mode_) index = e.index;
      break;
    case ExprKind::RefVariable:
      if (init_mode_) index = e.index;
      break;
    case ExprKind::RefBound:
      for (auto it = assignable_params_.rbegin(); it != assignable_params_.rend() && !index; ++it)
        if (it->first == e.symbol) index = it->second;
      break;
    default:
      return std::nullopt;
  }
  if (index && next_[*index]) return std::nullopt;  // assigned already: a test
  return index;
}

// ---------------------------------------------------------------------------------------------
// Expressions.

const Expr& Evaluator::case_arm(const Expr& e) {
  const std::size_t arms = (e.kids.size() - (e.has_other ? 1 : 0)) / 2;
  for (std::size_t a = 0; a < arms; ++a)
    if (truth(*e.kids[2 * a])) return *e.kids[2 * a + 1];
  if (e.has_other) return *e.kids.back();
  fail(e, "no CASE arm applies and there is no OTHER");
}

bool Evaluator::truth(const Expr& e) {
  const Value v = eval(e);
  if (!v.is_bool()) fail(e, "expected a boolean, got " + v.describe() + ": " + v.text());
  return v.as_bool();
}

std::optional<std::pair<std::int64_t, std::int64_t>> Evaluator::written_range(const Bound& b) {
  if (!b.set || b.set->kind != ExprKind::RefBuiltin || b.set->builtin != Builtin::Range || b.set->kids.size() != 2) return std::nullopt;
  const Value low = eval(*b.set->kids[0]), high = eval(*b.set->kids[1]);
  if (!low.is_int() || !high.is_int()) return std::nullopt;  // bound_set says what is wrong
  return std::pair{low.as_int(), high.as_int()};
}

Value Evaluator::bound_set(const Bound& b) {
  if (!b.set)
    throw EvalError(b.names[0]->pos.text() + ": an unbounded CHOOSE or quantifier over " + b.names[0]->name +
                    " cannot be evaluated, by TLC either: bound it (\\in S), or give the definition a value in an MC module");
  Value set = eval(*b.set);
  if (!set.is_set()) fail(*b.set, "expected a set to bind " + b.names[0]->name + " to, got " + set.describe() + ": " + set.text());
  return set;
}

const std::vector<Value>& Evaluator::bound_elements(const Bound& b, const Value& set, std::vector<Value>& storage) {
  if (set.kind() == Value::Kind::Set) return set.members();
  try {
    storage = set.elements();
  } catch (const EvalError& err) {
    fail(*b.set, err.what());
  }
  return storage;
}

template <class Body>
void Evaluator::for_each_binding(const std::vector<Bound>& bounds, const Body& body) {
  // One name over one set (\E x \in S, {x \in S : P}, [x \in S |-> e]): most quantifiers, looped
  // without the general case's recursion.
  if (bounds.size() == 1 && !bounds[0].tuple && bounds[0].names.size() == 1) {
    const Symbol* name = bounds[0].names[0].get();
    const auto bind = [&](const Value& v) {
      push(name, v);
      const bool go_on = body();
      pop(1);
      return go_on;
    };
    // An interval (i \in 1..Len(s) written so, k \in DOMAIN s of a sequence): its integers
    // counted, without building the set.
    const auto count = [&](std::pair<std::int64_t, std::int64_t> range) {
      for (std::int64_t i = range.first; i <= range.second; ++i)
        if (!bind(Value::integer(i)) || i == range.second) return;
    };
    if (const auto range = written_range(bounds[0])) return count(*range);
    const Value set = bound_set(bounds[0]);
    if (const auto range = set.interval_ends()) return count(*range);
    std::vector<Value> storage;
    for (const Value& v : bound_elements(bounds[0], set, storage))
      if (!bind(v)) return;
    return;
  }
  std::vector<Value> held(bounds.size());
  std::vector<std::vector<Value>> storage(bounds.size());
  std::vector<const std::vector<Value>*> sets;
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    held[i] = bound_set(bounds[i]);
    sets.push_back(&bound_elements(bounds[i], held[i], storage[i]));
  }
  std::function<bool(std::size_t)> level = [&](std::size_t i) -> bool {
    if (i == bounds.size()) return body();
    const Bound& b = bounds[i];
    if (b.tuple) {  // <<a, b>> \in S: each element of S split over the names
      for (const Value& v : *sets[i]) {
        if (v.kind() != Value::Kind::Seq || v.items().size() != b.names.size())
          fail(*b.set, "cannot bind a tuple of " + std::to_string(b.names.size()) + " names to " + v.text());
        const std::size_t depth = env_.size();
        for (std::size_t n = 0; n < b.names.size(); ++n) push(b.names[n].get(), v.items()[n]);
        const bool go_on = level(i + 1);
        env_.resize(depth);
        if (!go_on) return false;
      }
      return true;
    }
    // x, y \in S: each name ranges over S.
    std::function<bool(std::size_t)> names = [&](std::size_t n) -> bool {
      if (n == b.names.size()) return level(i + 1);
      for (const Value& v : *sets[i]) {
        push(b.names[n].get(), v);
        const bool go_on = names(n + 1);
        pop(1);
        if (!go_on) return false;
      }
      return true;
    };
    return names(0);
  };
  level(0);
}

Value Evaluator::bound_value(const std::vector<Bound>& bounds, const Expr& at) const {
  if (!binds_tuples(bounds)) return lookup(bounds[0].names[0].get(), at);
  std::vector<Value> parts;
  for (const Bound& b : bounds)
    for (const auto& n : b.names) parts.push_back(lookup(n.get(), at));
  return Value::seq(std::move(parts));
}

bool Evaluator::binds_tuples(const std::vector<Bound>& bounds) {
  return bounds.size() > 1 || bounds[0].tuple || bounds[0].names.size() > 1;
}

void Evaluator::no_constant_value(const Definition& def, const Expr& at) const {
  fail(at, "the constant " + def.name + " has no value: define " + def.name +
               " in an MC module (--mc), e.g. from the trace with OmniLinkFieldValues");
}

Value Evaluator::construct_function(const std::vector<Bound>& bounds, const Expr& body, const Expr& at) {
  std::vector<Value> keys, values;
  // Room for the small functions a spec's state is mostly made of, in one allocation each.
  keys.reserve(4);
  values.reserve(4);
  for_each_binding(bounds, [&] {
    keys.push_back(bound_value(bounds, at));
    values.push_back(eval(body));
    return true;
  });
  return Value::function(std::move(keys), std::move(values));
}

Value Evaluator::apply_defined_function(const Definition& def, const Value& argument, const Expr& at) {
  // f[x \in S] == body applied to a: the body at x = a, without building f (it may be recursive
  // over an infinite S, like fact[n \in Nat]).
  std::size_t names = 0;
  for (const Bound& b : def.function_bounds) names += b.names.size();
  std::vector<Value> parts{argument};
  if (binds_tuples(def.function_bounds)) {
    if (argument.kind() != Value::Kind::Seq || argument.items().size() != names)
      fail(at, argument.text() + " is not in the domain of " + def.name);
    parts = argument.items();
  }
  CallScope call(*this, at);
  std::size_t p = 0;
  for (const Bound& b : def.function_bounds) {
    const Value set = eval(*b.set);
    // <<a, b>> \in S: the tuple is S's element; x, y \in S: each is.
    if (b.tuple) {
      const Value element = Value::seq(std::vector<Value>(parts.begin() + p, parts.begin() + p + b.names.size()));
      if (!set.contains(element)) fail(at, element.text() + " is not in the domain of " + def.name);
    }
    for (const auto& n : b.names) {
      if (!b.tuple && !set.contains(parts[p])) fail(at, parts[p].text() + " is not in the domain of " + def.name);
      push(n.get(), parts[p++]);
    }
  }
  return eval(*def.body);
}

Value Evaluator::call_values(const Definition& def, Arguments args, const Expr& at) {
  if (def.constant) no_constant_value(def, at);
  if (def.once_per_let)
    if (const auto slot = let_slot(def)) {
      if (const auto& kept = lets_[slot->first].values[slot->second]) return *kept;
      Value v;
      {
        CallScope call(*this, at);  // a definition that refers to itself ends as a deep recursion would
        v = def.function_bounds.empty() ? eval(*def.body) : construct_function(def.function_bounds, *def.body, at);
      }
      // Evaluating it may have entered other LETs, all left again: the slot is where it was.
      lets_[slot->first].values[slot->second] = v;
      return v;
    }
  const bool cacheable = args.empty() && !def.in_let && !def.uses_state;
  if (cacheable)
    if (auto it = cache_.find(&def); it != cache_.end()) return it->second;
  if (!def.function_bounds.empty()) {
    Value f = construct_function(def.function_bounds, *def.body, at);
    if (cacheable) cache_.emplace(&def, f);
    return f;
  }
  Value v;
  {
    CallScope call(*this, at);
    for (std::size_t p = 0; p < def.params.size(); ++p) push(def.params[p].get(), std::move(args[p]));
    v = eval(*def.body);
  }
  if (cacheable) cache_.emplace(&def, v);
  return v;
}

Value Evaluator::call(const Definition& def, const Expr& e) {
  const bool operators = std::any_of(def.params.begin(), def.params.end(), [](const auto& p) { return p->arity > 0; });
  if (!operators && !e.kids.empty() && !def.constant && def.function_bounds.empty()) {
    // The arguments go straight onto the environment, nameless until all are evaluated (they are
    // evaluated where the call is written: one may name a parameter the call binds again), which
    // spares a vector for each call.
    CallScope call(*this, e);
    const std::size_t first = env_.size();
    for (const auto& a : e.kids) push(nullptr, eval(*a));
    for (std::size_t p = 0; p < def.params.size(); ++p) env_[first + p].first = def.params[p].get();
    return eval(*def.body);
  }
  if (!operators) {
    Arguments values;
    for (const auto& a : e.kids) values.push_back(eval(*a));
    return call_values(def, std::move(values), e);
  }
  CallScope call(*this, e);
  bind_call(def, e.kids, e);
  return eval(*def.body);
}

void Evaluator::bind_call(const Definition& def, const std::vector<ExprPtr>& args, const Expr& at,
                          const ByName& by_name) {
  const auto named = [&](std::size_t p) {
    return std::any_of(by_name.begin(), by_name.end(), [&](const auto& b) { return b.first == def.params[p].get(); });
  };
  // Every argument first, in the caller's environment: a recursive call's arguments name the
  // parameters the call is about to bind again.
  Arguments values(args.size());
  boost::container::small_vector<std::optional<Closure>, 4> operators(args.size());
  for (std::size_t p = 0; p < args.size(); ++p) {
    if (def.params[p]->arity > 0) operators[p] = closure_of(*args[p]);
    else if (!named(p)) values[p] = eval(*args[p]);
  }
  (void)at;
  for (std::size_t p = 0; p < args.size(); ++p) {
    if (operators[p]) operators_.emplace_back(def.params[p].get(), std::move(*operators[p]));
    else if (!named(p)) push(def.params[p].get(), std::move(values[p]));
  }
  assignable_params_.insert(assignable_params_.end(), by_name.begin(), by_name.end());
}

Evaluator::Closure Evaluator::closure_of(const Expr& argument, bool applied_here) {
  // A closure applied only where it is made (by SelectSeq or SortSeq, before anything is bound or
  // unbound) sees the names it was written among as they are: copying them would cost a copy of
  // the environment for the closure and another for each application.
  auto capture = [&] {
    return applied_here ? nullptr : std::make_shared<const Closure::Captured>(Closure::Captured{env_, operators_});
  };
  if (argument.kind == ExprKind::Lambda) return Closure{argument.definitions[0].get(), Builtin::None, {}, capture()};
  if (argument.symbol != nullptr) {
    for (auto it = operators_.rbegin(); it != operators_.rend(); ++it)
      if (it->first == argument.symbol) return it->second;
    fail(argument, "internal: the operator parameter " + argument.symbol->name + " is not bound");
  }
  if (argument.definition != nullptr) {
    Closure c{argument.definition, Builtin::None, {}, argument.definition->in_let ? capture() : nullptr};
    for (const auto& k : argument.kids) c.prefix.push_back(eval(*k));
    return c;
  }
  return Closure{nullptr, argument.builtin, {}, nullptr};
}

Value Evaluator::apply_closure(const Closure& op, Arguments args, const Expr& at) {
  if (op.definition == nullptr) {  // a standard operator: applied to its arguments as literals
    Expr call;
    call.kind = ExprKind::RefBuiltin;
    call.builtin = op.builtin;
    call.pos = at.pos;
    call.text = at.text;
    for (Value& v : args) {
      auto literal = std::make_unique<Expr>();
      literal->kind = ExprKind::Literal;
      literal->value = std::move(v);
      literal->pos = at.pos;
      call.kids.push_back(std::move(literal));
    }
    return builtin(call);
  }
  const Definition& def = *op.definition;
  if (std::any_of(def.params.begin(), def.params.end(), [](const auto& p) { return p->arity > 0; }))
    fail(at, "an operator with operator parameters (" + def.name + ") passed as an argument");
  Arguments all(op.prefix.begin(), op.prefix.end());
  for (Value& v : args) all.push_back(std::move(v));
  if (!op.captured) return call_values(def, std::move(all), at);
  // Evaluated among the names bound where it was written.
  // The LETs being evaluated are set aside too: a LET definition's value kept for the innermost
  // evaluation of its LET may not be the one the closure's names give (a recursion passes one down).
  auto env = std::move(env_);
  auto operators = std::move(operators_);
  auto lets = std::move(lets_);
  env_ = op.captured->env;
  operators_ = op.captured->operators;
  lets_.clear();
  struct Restore {
    Evaluator& ev;
    decltype(env_)& env;
    decltype(operators_)& operators;
    decltype(lets_)& lets;
    ~Restore() {
      ev.env_ = std::move(env);
      ev.operators_ = std::move(operators);
      ev.lets_ = std::move(lets);
    }
  } restore{*this, env, operators, lets};
  CallScope call(*this, at);
  for (std::size_t p = 0; p < def.params.size(); ++p) push(def.params[p].get(), std::move(all[p]));
  return eval(*def.body);
}

Value Evaluator::apply_function(const Value& f, const Value& argument, const Expr& at) {
  if (!f.is_function()) fail(at, "cannot apply " + f.describe() + " (" + f.text() + ") to " + argument.text() + ": not a function");
  auto v = f.apply(argument);
  if (!v) fail(at, argument.text() + " is not in the domain of " + f.text());
  return *v;
}

Value Evaluator::except(const Expr& e) {
  Value f = eval(*e.kids[0]);
  for (const ExceptUpdate& u : e.updates) {
    // Walks the path, then rebuilds it from the inside out with the new value. A key outside the
    // domain leaves the function as it is ([f EXCEPT ![x] = e] is f on DOMAIN f), as in TLC, which
    // then does not evaluate e either.
    std::vector<Value> along{f}, keys;
    bool in_domain = true;
    for (const auto& step : u.path) {
      Value key = step.argument ? eval(*step.argument) : step.field_key;
      if (!along.back().is_function()) apply_function(along.back(), key, step.argument ? *step.argument : e);  // says why
      auto next = along.back().apply(key);
      if (!next) {
        in_domain = false;
        break;
      }
      keys.push_back(key);
      along.push_back(*next);
    }
    if (!in_domain) continue;
    at_.push_back(along.back());
    Value replacement = eval(*u.value);
    at_.pop_back();
    for (std::size_t k = keys.size(); k-- > 0;) replacement = along[k].except(keys[k], std::move(replacement));
    f = std::move(replacement);
  }
  return f;
}

Value Evaluator::eval(const Expr& e) {
  try {
    switch (e.kind) {
      case ExprKind::Literal: return e.value;
      case ExprKind::RefVariable: return variable(e.index, false, e);
      case ExprKind::RefPrimed: return variable(e.index, true, e);
      case ExprKind::RefBound: return lookup(e.symbol, e);
      case ExprKind::RefDefinition: return call(*e.definition, e);
      case ExprKind::RefOperatorParam: {
        Arguments args;  // first: evaluating them may bind more operators (and move operators_)
        for (const auto& a : e.kids) args.push_back(eval(*a));
        for (auto it = operators_.rbegin(); it != operators_.rend(); ++it)
          if (it->first == e.symbol) return apply_closure(Closure(it->second), std::move(args), e);
        fail(e, "internal: the operator parameter " + e.symbol->name + " is not bound");
      }
      case ExprKind::Enabled: {
        if (current_ == nullptr || init_mode_) fail(e, "ENABLED outside an action or a state predicate");
        if (primed_) fail(e, "ENABLED inside a primed expression");
        // Whether the action has a successor from the current state, whatever this action has
        // assigned so far: its primed variables are its own.
        auto next = std::move(next_);
        auto refusal = refusal_;
        const std::size_t held = conjuncts_held_;
        next_.assign(spec_.variables().size(), std::nullopt);
        refusal_ = nullptr;
        bool enabled = false;
        struct Restore {
          Evaluator& ev;
          decltype(next_)& next;
          std::optional<Refusal>* refusal;
          std::size_t held;
          ~Restore() {
            ev.next_ = std::move(next);
            ev.refusal_ = refusal;
            ev.conjuncts_held_ = held;
          }
        } restore{*this, next, refusal, held};
        act(*e.kids[0], [&] { enabled = true; });
        return Value::boolean(enabled);
      }
      case ExprKind::Prime: {
        if (primed_) fail(e, "a primed expression inside a primed expression");
        if (init_mode_ || current_ == nullptr) fail(e, "a primed expression outside an action");
        primed_ = true;
        struct Unprime {
          bool& primed;
          ~Unprime() { primed = false; }
        } unprime{primed_};
        return eval(*e.kids[0]);
      }
      case ExprKind::RefBuiltin: return builtin(e);
      case ExprKind::Conj:
        for (const auto& k : e.kids)
          if (!truth(*k)) return Value::boolean(false);
        return Value::boolean(true);
      case ExprKind::Disj:
        for (const auto& k : e.kids)
          if (truth(*k)) return Value::boolean(true);
        return Value::boolean(false);
      case ExprKind::If: return eval(*e.kids[truth(*e.kids[0]) ? 1 : 2]);
      case ExprKind::Case: return eval(case_arm(e));
      case ExprKind::Let: {
        LetScope let(*this, e);
        return eval(*e.kids[0]);
      }
      case ExprKind::Exists: case ExprKind::Forall: {
        const bool exists = e.kind == ExprKind::Exists;
        bool result = !exists;
        for_each_binding(e.bounds, [&] {
          if (truth(*e.kids[0]) == exists) {
            result = exists;
            return false;
          }
          return true;
        });
        return Value::boolean(result);
      }
      case ExprKind::Choose: {
        std::optional<Value> chosen;
        for_each_binding(e.bounds, [&] {
          if (!truth(*e.kids[0])) return true;
          chosen = bound_value(e.bounds, e);
          return false;
        });
        if (!chosen) fail(e, "CHOOSE found no element that satisfies its predicate");
        return *chosen;
      }
      case ExprKind::SetEnum: {
        std::vector<Value> elements;
        for (const auto& k : e.kids) elements.push_back(eval(*k));
        return Value::set(std::move(elements));
      }
      case ExprKind::SetFilter: {
        std::vector<Value> kept;
        for_each_binding(e.bounds, [&] {
          if (truth(*e.kids[0])) kept.push_back(bound_value(e.bounds, e));
          return true;
        });
        return Value::set(std::move(kept));
      }
      case ExprKind::SetMap: {
        std::vector<Value> images;
        for_each_binding(e.bounds, [&] {
          images.push_back(eval(*e.kids[0]));
          return true;
        });
        return Value::set(std::move(images));
      }
      case ExprKind::FcnConstruct: return construct_function(e.bounds, *e.kids[0], e);
      case ExprKind::FcnApply: {
        Value argument;
        if (e.kids.size() == 2) {
          argument = eval(*e.kids[1]);
        } else {
          std::vector<Value> parts;
          for (std::size_t k = 1; k < e.kids.size(); ++k) parts.push_back(eval(*e.kids[k]));
          argument = Value::seq(std::move(parts));
        }
        const Expr& f = *e.kids[0];
        if (f.kind == ExprKind::RefDefinition && !f.definition->function_bounds.empty()) {
          // A LET's function built already (f[x] after DOMAIN f, say) is looked up, not evaluated at x.
          if (f.definition->once_per_let)
            if (const auto slot = let_slot(*f.definition); slot && lets_[slot->first].values[slot->second])
              return apply_function(*lets_[slot->first].values[slot->second], argument, e);
          return apply_defined_function(*f.definition, argument, e);
        }
        return apply_function(eval(f), argument, e);
      }
      case ExprKind::Tuple: {
        std::vector<Value> items;
        for (const auto& k : e.kids) items.push_back(eval(*k));
        return Value::seq(std::move(items));
      }
      case ExprKind::Record: {
        std::vector<Value> values(e.kids.size());
        for (std::size_t k = 0; k < e.kids.size(); ++k) values[e.field_slots[k]] = eval(*e.kids[k]);
        return Value::sorted_function(e.field_keys, std::move(values));
      }
      case ExprKind::RecordSet: {
        std::vector<Value> sets;
        for (const auto& k : e.kids) sets.push_back(eval(*k));
        return Value::record_set(e.fields, std::move(sets));
      }
      case ExprKind::FunctionSet: return Value::function_set(eval(*e.kids[0]), eval(*e.kids[1]));
      case ExprKind::Field: {
        const Value r = eval(*e.kids[0]);
        if (!r.is_function()) fail(e, "." + e.text + " applied to " + r.describe() + ": " + r.text());
        auto v = r.apply(e.value);
        if (!v) fail(e, "the record " + r.text() + " has no field " + e.text);
        return *v;
      }
      case ExprKind::Except: return except(e);
      case ExprKind::At:
        if (at_.empty()) fail(e, "@ outside an EXCEPT");
        return at_.back();
      case ExprKind::Unchanged: {
        if (VariableIndices variables; unchanged_variables(e, variables)) {
          for (std::size_t index : variables)
            if (!variable(index, true, e).equals(variable(index, false, e))) return Value::boolean(false);
          return Value::boolean(true);
        }
        if (primed_) fail(e, "UNCHANGED inside a primed expression");
        const Value before = eval(*e.kids[0]);
        primed_ = true;
        struct Unprime {
          bool& primed;
          ~Unprime() { primed = false; }
        } unprime{primed_};
        return Value::boolean(eval(*e.kids[0]).equals(before));
      }
      default:
        fail(e, "cannot evaluate this construct");
    }
  } catch (const EvalError& err) {
    // Positions: the innermost construct's message already has one.
    const std::string what = err.what();
    if (what.find(".tla:") != std::string::npos || what.rfind(e.pos.text(), 0) == 0) throw;
    fail(e, what);
  }
}

}  // namespace omnilink::language
