#include "checkers/search_space.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "language/action_effects.hpp"
#include "trace/value.hpp"

namespace omnilink::checkers {
namespace {

using language::Definition;
using language::Value;

/// A logged value as TLA+ (its integers fit TLC's: make_problem checked).
Value to_value(const trace::Value& v) {
  return std::visit(
      [&](const auto& x) -> Value {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          return Value::boolean(x);
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return Value::integer(x);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return Value::string(x);
        } else if constexpr (std::is_same_v<T, trace::Tuple> || std::is_same_v<T, trace::Set>) {
          std::vector<Value> items;
          for (const auto& i : x.items) items.push_back(to_value(i));
          return std::is_same_v<T, trace::Tuple> ? Value::seq(std::move(items)) : Value::set(std::move(items));
        } else {
          std::vector<Value> keys, values;
          for (const auto& e : x.entries) keys.push_back(to_value(e.key)), values.push_back(to_value(e.value));
          return Value::function(std::move(keys), std::move(values));
        }
      },
      v.data);
}

// An action the interface found: refused here if the embedded checker cannot evaluate it.
const Definition* evaluable(const Definition* d) {
  if (!d->unsupported.empty()) throw language::FragmentError(d->unsupported);
  return d;
}

}  // namespace

SearchSpace::SearchSpace(const history::Problem& problem, language::LoadedSpec& spec, const NativeSearchOptions& options)
    : problem_(problem), spec_(spec), options_(options), evaluator_(spec, hooks()) {
  prepare();
}

language::TraceHooks SearchSpace::hooks() {
  return {[this](const std::string& op, std::int64_t position) {
    // OmniLinkFieldValues: every value logged for completed operations `op`, parameter `position`.
    std::vector<Value> values;
    for (const auto& thread : problem_.threads)
      for (const history::ProblemOp& p : thread)
        if (p.op->name == op && !p.op->pending() && position >= 1 && static_cast<std::size_t>(position) <= p.args.size())
          values.push_back(to_value(*p.args[static_cast<std::size_t>(position - 1)]));
    return Value::set(std::move(values));
  }};
}

std::vector<Value> SearchSpace::domain(const std::string& op, std::size_t k, const history::Domain& d) {
  if (d.boolean) return {Value::boolean(false), Value::boolean(true)};
  if (d.defined) {
    const std::string name = history::domain_override_name(op, problem_.params.at(op).names[k]);
    const Definition* def = spec_.mc_definition(name);
    if (def == nullptr) throw history::ValidationError("the MC module has no " + name);
    return evaluator_.evaluate(*def, {}).elements();
  }
  std::vector<Value> values;
  for (const auto& v : d.values) values.push_back(to_value(v));
  return values;
}

void SearchSpace::prepare() {
  std::map<const language::Operation*, SearchOp> actions;
  for (std::size_t t = 0; t < problem_.threads.size(); ++t) {
    std::vector<SearchOp>& thread = ops_.emplace_back();
    thread.reserve(problem_.threads[t].size());
    for (const history::ProblemOp& p : problem_.threads[t]) {
      const std::string& name = p.spec_op->name;
      // The operation's action(s), checked once per spec operation, not once per logged one.
      auto [known, added] = actions.try_emplace(p.spec_op);
      if (added) {
        if (p.spec_op->multi_step) {
          known->second.step = evaluable(p.spec_op->action);
          known->second.done = evaluable(p.spec_op->done);
        } else {
          known->second.action = evaluable(p.spec_op->action);
          known->second.read = language::only_stutters(*known->second.action, spec_.variables().size());
        }
      }
      SearchOp s = known->second;
      s.pending = p.op->pending();
      s.optional = p.optional;
      s.start = p.op->start;
      s.end = s.pending ? kNever : p.op->end;
      // The argument tuples: the logged ones; for a pending operation, each unknown field from
      // its domain (the cartesian product).
      std::vector<std::vector<Value>> choices;
      for (std::size_t k = 0; k < p.args.size(); ++k) {
        if (p.args[k] != nullptr) {
          choices.push_back({to_value(*p.args[k])});
          continue;
        }
        const auto& slots = problem_.domains.at(name);
        choices.push_back(slots.at(k) ? domain(name, k, *slots[k]) : std::vector<Value>{});
      }
      std::vector<std::vector<Value>> tuples{{}};
      for (const auto& options : choices) {
        std::vector<std::vector<Value>> longer;
        for (const auto& prefix : tuples)
          for (const auto& v : options) {
            longer.push_back(prefix);
            longer.back().push_back(v);
          }
        tuples = std::move(longer);
        if (tuples.size() > 1'000'000)
          throw history::ValidationError(history::operation_name(*p.op) + ": its unknown fields' domains allow over a million argument tuples");
      }
      s.candidates = std::move(tuples);
      s.read = s.read && !s.pending && !s.optional;  // the action's syntax, read once per spec operation above
      thread.push_back(std::move(s));
    }
    for (const SearchOp& s : thread) total_ += s.pending || s.optional ? 0 : 1;
    // Groups: each runs on from its first operation while the next continues it.
    for (std::size_t i = 0; i < thread.size(); ++i) {
      if (!thread[i].optional) continue;
      const std::uint64_t group = problem_.threads[t][i].op->optional_group;
      const bool continues = group != 0 && i > 0 && thread[i - 1].optional && problem_.threads[t][i - 1].op->optional_group == group;
      if (continues) continue;
      std::size_t last = i;
      while (group != 0 && last + 1 < thread.size() && thread[last + 1].optional && problem_.threads[t][last + 1].op->optional_group == group) ++last;
      thread[i].leaves = static_cast<std::uint32_t>(last - i + 1);
    }
  }
  init_ = spec_.spec_definition(options_.init);
  if (init_ == nullptr)
    throw history::ValidationError(spec_.spec_module().file + ": no initial predicate '" + options_.init + "' (use --init to name it)");
  if (options_.view) {
    view_ = spec_.mc_definition(*options_.view);
    if (view_ == nullptr) throw history::ValidationError("--view " + *options_.view + ": no such operator in the MC module");
  }
  index_data_independent_values();
}

/// dead_values_: every atom each operation logged (or, pending, may return) in a declared field;
/// none if another field logged one of them too (data_independence_unused_ says which).
void SearchSpace::index_data_independent_values() {
  const auto& fields = options_.data_independent;
  auto declared = [&](const std::string& param) { return std::find(fields.begin(), fields.end(), param) != fields.end(); };
  // Each logged value of field k of operation (t, i): the one logged, or a pending one's candidates.
  auto each_value = [&](std::uint32_t t, std::uint32_t i, std::size_t k, const auto& visit) {
    const history::ProblemOp& p = problem_.threads[t][i];
    if (p.args[k] != nullptr) return visit(to_value(*p.args[k]));
    for (const auto& candidate : ops_[t][i].candidates) visit(candidate[k]);
  };
  for (std::uint32_t t = 0; t < problem_.threads.size(); ++t)
    for (std::uint32_t i = 0; i < problem_.threads[t].size(); ++i)
      for (std::size_t k = 0; k < problem_.threads[t][i].spec_op->params.size(); ++k)
        if (declared(problem_.threads[t][i].spec_op->params[k])) each_value(t, i, k, [&](const Value& v) { dead_values_.add_use({t, i}, v); });
  if (dead_values_.empty()) return;
  // The declaration promises that nothing else in the state takes the declared fields' values; a
  // value also logged in another field (a transaction id equal to a key) may be in the state as
  // that too, and renaming it there could merge states whose futures differ. The history breaks
  // the promise: search it without.
  for (std::uint32_t t = 0; t < problem_.threads.size(); ++t)
    for (std::uint32_t i = 0; i < problem_.threads[t].size(); ++i) {
      const history::ProblemOp& p = problem_.threads[t][i];
      for (std::size_t k = 0; k < p.spec_op->params.size() && data_independence_unused_.empty(); ++k) {
        if (declared(p.spec_op->params[k])) continue;
        each_value(t, i, k, [&](const Value& v) {
          if (!data_independence_unused_.empty()) return;
          if (const auto shared = dead_values_.shared_atom(v)) {
            const history::ProblemOp& user = problem_.threads[shared->second.first][shared->second.second];
            data_independence_unused_ = "OmniLinkDataIndependent was not used: " + shared->first.text() + " is " + p.op->id() + "'s " +
                                        p.spec_op->params[k] + " and a value of a declared field too (" + user.op->id() +
                                        "), so renaming it could merge states that differ";
          }
        });
      }
      if (!data_independence_unused_.empty()) {
        dead_values_ = DeadValues{};
        return;
      }
    }
}

std::vector<Node> SearchSpace::nodes_after(const StartAfter& start) const {
  std::vector<Node> nodes;
  // What StartAfter's caller promises, checked: a wrong start would decide another question.
  if (start.positions.size() != ops_.size())
    throw history::ValidationError("a start after a searched beginning names " + std::to_string(start.positions.size()) +
                                   " threads, the problem has " + std::to_string(ops_.size()));
  std::int64_t progress = 0;
  for (std::size_t t = 0; t < ops_.size(); ++t) {
    if (start.positions[t] > ops_[t].size())
      throw history::ValidationError("a start after a searched beginning is past thread " + std::to_string(t) + "'s operations");
    for (std::uint32_t k = 0; k < start.positions[t]; ++k) {
      if (ops_[t][k].pending || ops_[t][k].optional)
        throw history::ValidationError("a searched beginning holds an operation that is not required: " +
                                       history::operation_name(*problem_.threads[t][k].op));
      ++progress;
    }
  }
  // Every order takes the beginning first only if it all ends before anything else starts.
  std::uint64_t last_end = 0, first_start = kNever;
  for (std::size_t t = 0; t < ops_.size(); ++t)
    for (std::size_t k = 0; k < ops_[t].size(); ++k)
      if (k < start.positions[t]) last_end = std::max(last_end, ops_[t][k].end);
      else first_start = std::min(first_start, ops_[t][k].start);
  if (last_end >= first_start)
    throw history::ValidationError("a searched beginning is not quiescent: it ends at " + std::to_string(last_end) +
                                   ", after an operation outside it started at " + std::to_string(first_start));
  for (const language::State& s : start.states)
    nodes.push_back({start.positions, std::vector<std::int32_t>(ops_.size(), -1), s, progress, 0});
  return nodes;
}

std::vector<Node> SearchSpace::initial_nodes() {
  if (options_.start) return nodes_after(*options_.start);
  std::vector<Node> nodes;
  for (language::State& s : evaluator_.initial_states(*init_))
    nodes.push_back({std::vector<std::uint32_t>(ops_.size(), 0), std::vector<std::int32_t>(ops_.size(), -1), std::move(s), 0, 0});
  return nodes;
}

bool SearchSpace::begun(const Node& n) {
  return std::any_of(n.choice.begin(), n.choice.end(), [](std::int32_t c) { return c >= 0; });
}

language::Fingerprint SearchSpace::fingerprint(const Node& n) {
  language::Fingerprint seed{0x51ed27, 0xa11ce};
  for (std::size_t t = 0; t < n.pc.size(); ++t) {
    seed.high = (seed.high ^ n.pc[t]) * 0x100000001b3ULL + static_cast<std::uint64_t>(n.choice[t] + 2);
    seed.low = (seed.low + n.pc[t] * 0x9e3779b97f4a7c15ULL) ^ (static_cast<std::uint64_t>(n.choice[t] + 2) << 32 | t);
    seed.low ^= seed.low >> 29;
  }
  std::vector<Value> viewed;
  if (view_ != nullptr) viewed.push_back(evaluator_.evaluate(*view_, n.spec));
  const std::vector<Value>& seen = view_ != nullptr ? viewed : n.spec;
  return dead_values_.empty() ? language::fingerprint(seen, seed) : dead_values_.fingerprint(seen, n.pc, seed);
}

SearchSpace::Blocking SearchSpace::blocking(const Node& n) const {
  Blocking b{kNever, kNever, ops_.size()};
  for (std::size_t t = 0; t < ops_.size(); ++t) {
    if (n.pc[t] >= ops_[t].size()) continue;
    const std::uint64_t e = ops_[t][n.pc[t]].end;
    if (e < b.first) b.second = b.first, b.first = e, b.first_thread = t;
    else if (e < b.second) b.second = e;
  }
  return b;
}

bool SearchSpace::viable(const Node& n, std::size_t t, const Blocking& b) const {
  if (n.pc[t] >= ops_[t].size()) return false;
  const std::uint64_t blocked_by = t == b.first_thread ? b.second : b.first;
  return n.choice[t] >= 0 || !(blocked_by < ops_[t][n.pc[t]].start);
}

std::vector<std::uint32_t> SearchSpace::viable(const Node& n) const {
  const Blocking b = blocking(n);
  std::vector<std::uint32_t> out;
  for (std::size_t t = 0; t < ops_.size(); ++t)
    if (viable(n, t, b)) out.push_back(static_cast<std::uint32_t>(t));
  return out;
}

bool SearchSpace::forced_step(const Node& n, std::vector<Successor>& out, std::vector<std::uint32_t>& refused,
                              std::vector<std::uint32_t>& viable_threads) {
  out.clear();
  refused.clear();
  viable_threads.clear();
  const Blocking b = blocking(n);
  for (std::uint32_t t = 0; t < ops_.size(); ++t) {
    if (!viable(n, t, b)) continue;
    viable_threads.push_back(t);
    if (!ops_[t][n.pc[t]].read) continue;
    successors(n, t, out);
    if (!out.empty()) {
      out.resize(1);  // a read leads to the state it read
      refused.clear();
      viable_threads.clear();
      return true;
    }
    refused.push_back(t);
  }
  return false;
}

std::pair<std::size_t, std::size_t> SearchSpace::candidate_range(const Node& n, std::uint32_t t) const {
  const SearchOp& op = ops_[t][n.pc[t]];
  if (n.choice[t] >= 0 && op.pending) return {static_cast<std::size_t>(n.choice[t]), static_cast<std::size_t>(n.choice[t]) + 1};
  return {0, op.candidates.size()};
}

void SearchSpace::successors(const Node& n, std::uint32_t t, std::vector<Successor>& out) {
  out.clear();
  const SearchOp& op = ops_[t][n.pc[t]];
  const auto [first, last] = candidate_range(n, t);
  for (std::size_t c = first; c < last; ++c) {
    auto emit = [&](const Definition* action, bool finishes) {
      states_.clear();
      evaluator_.successors(*action, op.candidates[c], n.spec, states_);
      for (language::State& s : states_) {
        // A pending operation (its thread's last, never blocking another) that would finish
        // here without changing the spec's variables leaves a state that the one where it is
        // left out simulates: every step open to it is open there too. Searching it is waste,
        // and each pending operation would double the states. So for an optional one left out
        // on its own (not for a group's first: leaving it out leaves the group out).
        if ((op.pending || op.leaves == 1) && finishes && n.choice[t] < 0 && s == n.spec) continue;
        Successor next{Node{n.pc, n.choice, std::move(s), n.progress, n.optional_passed}, -1, -1};
        if (finishes) {
          ++next.node.pc[t];
          next.node.choice[t] = -1;
          if (op.optional) ++next.node.optional_passed;
          else if (!op.pending) ++next.node.progress;
        } else {
          next.node.choice[t] = static_cast<std::int32_t>(c);
        }
        if (op.pending) next.taken_thread = static_cast<std::int32_t>(t), next.taken_candidate = static_cast<std::int32_t>(c);
        out.push_back(std::move(next));
      }
    };
    if (op.action != nullptr) {
      emit(op.action, true);
    } else {
      emit(op.step, false);
      emit(op.done, true);
    }
  }
  // An optional operation (or group) left out: a step that changes nothing, taken where it is
  // viable, so that the threads' positions still advance in real-time order (leaving it out
  // anywhere else allows no order this does not). A group's later operations have no such step:
  // once its first is taken, the rest is taken too, or the search ends before them.
  if (op.leaves > 0 && n.choice[t] < 0) {
    Successor skipped{Node{n.pc, n.choice, n.spec, n.progress, n.optional_passed + op.leaves}, -1, -1};
    skipped.node.pc[t] += op.leaves;
    out.push_back(std::move(skipped));
  }
}

}  // namespace omnilink::checkers
