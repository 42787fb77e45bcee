#include "validation/native_search.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <unordered_map>

#include "language/evaluator.hpp"
#include "platform/memory.hpp"
#include "trace/value.hpp"
#include "validation/dead_values.hpp"

namespace omnilink::validation {
namespace {

using language::Definition;
using language::Fingerprint;
using language::State;
using language::Value;

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();  // a pending operation's end

// A logged value as TLA+ (its integers fit TLC's: make_problem checked).
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

/// One operation, ready for the search.
struct SearchOp {
  const Definition* action = nullptr;  // single-step
  const Definition* step = nullptr;    // multi-step: X_Step and X_Done
  const Definition* done = nullptr;
  bool pending = false;
  bool optional = false;  // completed, but may be left out (ProblemOp::optional)
  std::uint64_t start = 0, end = 0;
  std::vector<std::vector<Value>> candidates;  // argument tuples: one if completed
};

struct Node {
  std::vector<std::uint32_t> pc;     // per thread: operations linearized
  std::vector<std::int32_t> choice;  // per thread: -1, or the candidate its begun multi-step operation uses
  State spec;
};

struct Successor {
  Node node;
  std::int32_t taken_thread = -1;  // a pending operation linearized by this step: its thread and candidate
  std::int32_t taken_candidate = -1;
};

struct Frame {
  Node node;
  std::vector<std::uint32_t> order;  // threads to try, earliest end of their next operation first
  std::size_t next_thread = 0;
  std::vector<Successor> successors;  // of the thread being tried
  std::size_t next_successor = 0;
  // Entries of `taken_path` to drop when this frame is: pending operations linearized on the way
  // here (its own step's, and those of exhausted parents it replaced).
  std::uint32_t taken = 0;
  Fingerprint id;                    // of `node`, in the visited set
  std::vector<Fingerprint> replaced;  // the exhausted parents this frame replaced: settled when it is
};

/// The deepest state of an attempt where the most urgent viable operation (the earliest to end)
/// could not be linearized.
struct Failure {
  std::int64_t progress = -1;
  Node at;
  std::uint32_t thread = 0;
};

/// An operation of the problem: its thread and its position there.
using OpRef = std::pair<std::uint32_t, std::uint32_t>;

/// The visited set: fingerprints in one open-addressed table (no allocation per state; a state is
/// 16 bytes at a load of at most one half).
class FingerprintSet {
 public:
  void reserve(std::size_t n) {
    std::size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    if (capacity > slots_.size()) rehash(capacity);
  }
  /// False if it was there already.
  bool insert(Fingerprint f) {
    if (f == Fingerprint{}) f.low = 1;  // {0, 0} marks an empty slot
    if (2 * (size_ + 1) > slots_.size()) rehash(slots_.empty() ? 16 : 2 * slots_.size());
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t k = static_cast<std::size_t>(f.low) & mask;; k = (k + 1) & mask) {
      if (slots_[k] == f) return false;
      if (slots_[k] == Fingerprint{}) {
        slots_[k] = f;
        ++size_;
        return true;
      }
    }
  }
  /// Removes `f` if present (backward-shift deletion keeps every probe chain unbroken).
  void erase(Fingerprint f) {
    if (f == Fingerprint{}) f.low = 1;
    if (slots_.empty()) return;
    const std::size_t mask = slots_.size() - 1;
    std::size_t k = static_cast<std::size_t>(f.low) & mask;
    while (!(slots_[k] == f)) {
      if (slots_[k] == Fingerprint{}) return;
      k = (k + 1) & mask;
    }
    for (std::size_t next = (k + 1) & mask; !(slots_[next] == Fingerprint{}); next = (next + 1) & mask) {
      // The entry at `next` may move into the hole at `k` unless its home slot lies cyclically in (k, next].
      const std::size_t home = static_cast<std::size_t>(slots_[next].low) & mask;
      if (((next - home) & mask) >= ((next - k) & mask)) {
        slots_[k] = slots_[next];
        k = next;
      }
    }
    slots_[k] = Fingerprint{};
    --size_;
  }
  std::size_t size() const { return size_; }

 private:
  void rehash(std::size_t capacity) {
    std::vector<Fingerprint> old = std::move(slots_);
    slots_.assign(capacity, Fingerprint{});
    size_ = 0;
    for (const Fingerprint& f : old)
      if (!(f == Fingerprint{})) insert(f);
  }
  std::vector<Fingerprint> slots_;
  std::size_t size_ = 0;
};

class Search {
 public:
  Search(const Problem& problem, language::LoadedSpec& spec, const NativeSearchOptions& options)
      : problem_(problem), spec_(spec), options_(options), evaluator_(spec, hooks()) {
    prepare();
  }

  SearchReport run();

 private:
  /// One depth-first pass from the initial states: a report, or nothing if it stalled and learned.
  std::optional<SearchReport> attempt(std::uint64_t budget);
  /// From the attempt's deepest failure: the operations that logged the same identifying values as
  /// the one that failed there are preferred from now on. False if that adds nothing new.
  bool learn();
  /// From the failure's refused comparison: which operations should precede which. False if that
  /// adds nothing new.
  bool learn_order(std::uint32_t failing_thread);
  void index_values();
  /// The operations that logged `value` (TLA+ text), if it identifies them: at most
  /// kIdentifyingUses did. Null otherwise.
  const std::vector<OpRef>* identifying_users(const std::string& value) const {
    const auto users = value_users_.find(value);
    return users == value_users_.end() || users->second.size() > kIdentifyingUses ? nullptr : &users->second;
  }
  /// The values (TLA+ text) operation `op` logged.
  std::vector<std::string> logged_values(const OpRef& op) const {
    std::vector<std::string> values;
    for (const trace::Value* field : problem_.threads[op.first][op.second].args)
      if (field != nullptr) values.push_back(trace::to_tla(*field));
    return values;
  }
  /// Takes out of the visited set what an abandoned attempt had not finished exploring.
  void forget_unfinished(const std::vector<Frame>& stack);
  /// Some thread is inside a multi-step operation: such a state may lie on a cycle of steps, so
  /// finishing it proves nothing beyond the attempt that finished it.
  static bool begun(const Node& n) {
    return std::any_of(n.choice.begin(), n.choice.end(), [](std::int32_t c) { return c >= 0; });
  }

  language::TraceHooks hooks() {
    return {[this](const std::string& op, std::int64_t position) {
      // OmniLinkFieldValues: every value logged for completed operations `op`, parameter `position`.
      std::vector<Value> values;
      for (const auto& thread : problem_.threads)
        for (const ProblemOp& p : thread)
          if (p.op->name == op && !p.op->pending() && position >= 1 && static_cast<std::size_t>(position) <= p.args.size())
            values.push_back(to_value(*p.args[static_cast<std::size_t>(position - 1)]));
      return Value::set(std::move(values));
    }};
  }

  // An action the interface found: refused here if the embedded checker cannot evaluate it.
  static const Definition* evaluable(const Definition* d) {
    if (!d->unsupported.empty()) throw language::FragmentError(d->unsupported);
    return d;
  }

  std::vector<Value> domain(const std::string& op, std::size_t k, const Domain& d) {
    if (d.boolean) return {Value::boolean(false), Value::boolean(true)};
    if (d.defined) {
      const std::string name = domain_override_name(op, problem_.params.at(op).names[k]);
      const Definition* def = spec_.mc_definition(name);
      if (def == nullptr) throw ValidationError("the MC module has no " + name);
      return evaluator_.evaluate(*def, {}).elements();
    }
    std::vector<Value> values;
    for (const auto& v : d.values) values.push_back(to_value(v));
    return values;
  }

  void prepare() {
    std::map<const language::Operation*, SearchOp> actions;
    for (std::size_t t = 0; t < problem_.threads.size(); ++t) {
      std::vector<SearchOp>& thread = ops_.emplace_back();
      thread.reserve(problem_.threads[t].size());
      for (const ProblemOp& p : problem_.threads[t]) {
        const std::string& name = p.spec_op->name;
        // The operation's action(s), checked once per spec operation, not once per logged one.
        auto [known, added] = actions.try_emplace(p.spec_op);
        if (added) {
          if (p.spec_op->multi_step) {
            known->second.step = evaluable(p.spec_op->action);
            known->second.done = evaluable(p.spec_op->done);
          } else {
            known->second.action = evaluable(p.spec_op->action);
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
            throw ValidationError(operation_name(*p.op) + ": its unknown fields' domains allow over a million argument tuples");
        }
        s.candidates = std::move(tuples);
        thread.push_back(std::move(s));
      }
      preferred_.emplace_back(thread.size(), 0);
      std::vector<std::uint32_t>& required = required_before_.emplace_back(1, 0);
      std::vector<std::uint32_t>& optional = optional_before_.emplace_back(1, 0);
      for (const SearchOp& s : thread) {
        required.push_back(required.back() + (s.pending || s.optional ? 0 : 1));
        optional.push_back(optional.back() + (s.optional ? 1 : 0));
      }
      total_ += required.back();
    }
    init_ = spec_.spec_definition(options_.init);
    if (init_ == nullptr)
      throw ValidationError(spec_.spec_module().file + ": no initial predicate '" + options_.init + "' (use --init to name it)");
    if (options_.view) {
      view_ = spec_.mc_definition(*options_.view);
      if (view_ == nullptr) throw ValidationError("--view " + *options_.view + ": no such operator in the MC module");
    }
    index_data_independent_values();
  }

  /// dead_values_: every atom each operation logged (or, pending, may return) in a declared field.
  void index_data_independent_values() {
    for (std::uint32_t t = 0; t < problem_.threads.size(); ++t)
      for (std::uint32_t i = 0; i < problem_.threads[t].size(); ++i) {
        const ProblemOp& p = problem_.threads[t][i];
        for (std::size_t k = 0; k < p.spec_op->params.size(); ++k) {
          const auto& fields = options_.data_independent;
          if (std::find(fields.begin(), fields.end(), p.spec_op->params[k]) == fields.end()) continue;
          if (p.args[k] != nullptr) {
            dead_values_.add_use({t, i}, to_value(*p.args[k]));
          } else {
            for (const auto& candidate : ops_[t][i].candidates) dead_values_.add_use({t, i}, candidate[k]);
          }
        }
      }
  }

  std::int64_t progress(const Node& n) const {
    std::int64_t p = 0;
    for (std::size_t t = 0; t < n.pc.size(); ++t) p += required_before_[t][n.pc[t]];
    return p;
  }

  Fingerprint fingerprint(const Node& n) {
    Fingerprint seed{0x51ed27, 0xa11ce};
    for (std::size_t t = 0; t < n.pc.size(); ++t) {
      seed.high = (seed.high ^ n.pc[t]) * 0x100000001b3ULL + static_cast<std::uint64_t>(n.choice[t] + 2);
      seed.low = (seed.low + n.pc[t] * 0x9e3779b97f4a7c15ULL) ^ (static_cast<std::uint64_t>(n.choice[t] + 2) << 32 | t);
      seed.low ^= seed.low >> 29;
    }
    std::vector<Value> seen = view_ != nullptr ? std::vector<Value>{evaluator_.evaluate(*view_, n.spec)} : n.spec;
    if (!dead_values_.empty()) seen = dead_values_.renamed(seen, n.pc);
    return language::fingerprint(seen, seed);
  }

  // The threads whose next operation may be linearized in `n`, earliest end first.
  std::vector<std::uint32_t> viable(const Node& n) const {
    // Two smallest ends among the threads' next operations: thread t is blocked by the smallest
    // end of the others.
    std::uint64_t first = kNever, second = kNever;
    std::size_t first_thread = ops_.size();
    for (std::size_t t = 0; t < ops_.size(); ++t) {
      if (n.pc[t] >= ops_[t].size()) continue;
      const std::uint64_t e = ops_[t][n.pc[t]].end;
      if (e < first) second = first, first = e, first_thread = t;
      else if (e < second) second = e;
    }
    std::vector<std::uint32_t> out;
    for (std::size_t t = 0; t < ops_.size(); ++t) {
      if (n.pc[t] >= ops_[t].size()) continue;
      const SearchOp& op = ops_[t][n.pc[t]];
      const std::uint64_t blocking = t == first_thread ? second : first;
      if (n.choice[t] >= 0 || !(blocking < op.start)) out.push_back(static_cast<std::uint32_t>(t));
    }
    std::stable_sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) {
      // An operation whose learned predecessor has not yet come waits behind the others.
      if (!learned_after_.empty()) {
        const bool wa = waits_for_predecessor(n, a), wb = waits_for_predecessor(n, b);
        if (wa != wb) return wb;
      }
      const std::uint32_t pa = preferred_[a][n.pc[a]], pb = preferred_[b][n.pc[b]];
      return pa != pb ? pa > pb : ops_[a][n.pc[a]].end < ops_[b][n.pc[b]].end;
    });
    return out;
  }

  static std::uint64_t key(const OpRef& op) { return static_cast<std::uint64_t>(op.first) << 32 | op.second; }

  /// Thread t's next operation has a learned predecessor that `n` has not linearized yet.
  bool waits_for_predecessor(const Node& n, std::uint32_t t) const {
    const auto it = learned_after_.find(key({t, n.pc[t]}));
    if (it == learned_after_.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(), [&](const OpRef& before) { return n.pc[before.first] <= before.second; });
  }

  /// The argument tuples thread t's next operation may use in `n`: all of them, or the one a begun
  /// pending operation chose.
  std::pair<std::size_t, std::size_t> candidate_range(const Node& n, std::uint32_t t) const {
    const SearchOp& op = ops_[t][n.pc[t]];
    if (n.choice[t] >= 0 && op.pending) return {static_cast<std::size_t>(n.choice[t]), static_cast<std::size_t>(n.choice[t]) + 1};
    return {0, op.candidates.size()};
  }

  void successors_of(const Node& n, std::uint32_t t, std::vector<Successor>& out) {
    out.clear();
    const SearchOp& op = ops_[t][n.pc[t]];
    const auto [first, last] = candidate_range(n, t);
    for (std::size_t c = first; c < last; ++c) {
      auto emit = [&](const Definition* action, bool finishes) {
        states_.clear();
        evaluator_.successors(*action, op.candidates[c], n.spec, states_);
        for (State& s : states_) {
          // A pending operation (its thread's last, never blocking another) that would finish
          // here without changing the spec's variables leaves a state that the one where it is
          // left out simulates: every step open to it is open there too. Searching it is waste,
          // and each pending operation would double the states.
          if ((op.pending || op.optional) && finishes && n.choice[t] < 0 && s == n.spec) continue;
          Successor next{Node{n.pc, n.choice, std::move(s)}, -1, -1};
          if (finishes) {
            ++next.node.pc[t];
            next.node.choice[t] = -1;
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
    // An optional operation left out: a step that changes nothing, taken where it is viable, so
    // that the threads' positions still advance in real-time order (leaving it out anywhere else
    // allows no order this does not).
    if (op.optional && n.choice[t] < 0) {
      Successor skipped{Node{n.pc, n.choice, n.spec}, -1, -1};
      ++skipped.node.pc[t];
      out.push_back(std::move(skipped));
    }
  }

  /// The most urgent operation of `f` (its first thread's) cannot be linearized there: the threads
  /// whose next operation would let it are tried first (a dequeue waiting for another dequeue to
  /// take the head before it, rather than an enqueue that merely ends sooner and whose misplacement
  /// would show only much later).
  void try_enablers_first(Frame& f) {
    const std::uint32_t urgent = f.order[0];
    std::stable_partition(f.order.begin() + 1, f.order.end(), [&](std::uint32_t t) {
      successors_of(f.node, t, probe_);
      return std::any_of(probe_.begin(), probe_.end(), [&](const Successor& s) {
        successors_of(s.node, urgent, enabled_probe_);
        return !enabled_probe_.empty();
      });
    });
  }

  /// Why the search got no further than `n`: the first operation, by end, that may go next and
  /// that every action and argument tuple of it refuses (an operation that could go failed only
  /// later, so it says nothing here).
  std::optional<SearchReport::Refused> explain(const Node& n) {
    std::vector<std::uint32_t> threads = viable(n);
    std::stable_sort(threads.begin(), threads.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return ops_[a][n.pc[a]].end < ops_[b][n.pc[b]].end; });
    for (std::uint32_t t : threads)
      if (auto refused = refusal_of(n, t)) return std::move(refused->first);
    return std::nullopt;
  }

  /// Thread t's next operation in `n`, if every action and argument tuple of it refuses: how (the
  /// deepest refusal), with its ties.
  std::optional<std::pair<SearchReport::Refused, language::Evaluator::Refusal>> refusal_of(const Node& n, std::uint32_t t) {
    const SearchOp& op = ops_[t][n.pc[t]];
    const auto [first, last] = candidate_range(n, t);
    std::optional<language::Evaluator::Refusal> deepest;
    const Definition* refusing = nullptr;
    for (const Definition* action : {op.action, op.step, op.done}) {
      if (action == nullptr) continue;
      for (std::size_t c = first; c < last; ++c) {
        auto r = evaluator_.refusal(*action, op.candidates[c], n.spec);
        if (!r) return std::nullopt;
        if (!deepest || r->depth > deepest->depth) deepest = std::move(r), refusing = action;
      }
    }
    if (!deepest) return std::nullopt;
    SearchReport::Refused refused{t, n.pc[t], refusing->name, deepest->conjunct->pos.text(), deepest->conjunct->pos.excerpt(), {}, {}, {}, {}};
    std::vector<std::string> reads;
    mentioned_parameters(*deepest->conjunct, *refusing, reads);
    tie(n, reads, refused);
    refused.lost = lost_value(n, refused, *deepest);
    refused.in_place = value_in_place(n, refused, *deepest);
    return std::make_pair(std::move(refused), std::move(*deepest));
  }

  /// SearchReport::Refused::lost: of the refused comparison's operands, and of the items of those
  /// that are sequences or sets, the first value other than the operation's own that every
  /// operation logging it had put in the state by `n`. None where the operation logged a value no
  /// other did (a dequeue of an element never enqueued): that explains the refusal first.
  std::optional<SearchReport::Refused::Lost> lost_value(const Node& n, const SearchReport::Refused& refused,
                                                        const language::Evaluator::Refusal& how) {
    if (!refused.unmatched.empty()) return std::nullopt;
    const std::vector<std::string> own = logged_values({static_cast<std::uint32_t>(refused.thread), static_cast<std::uint32_t>(refused.position)});
    return first_among_operands(how, [&](const Value& v) -> std::optional<SearchReport::Refused::Lost> {
      auto found = identifying(n, own, v);
      // One that is not linearized is left to take it out.
      if (found && std::all_of(found->logged_by.begin(), found->logged_by.end(), [](const auto& t) { return t.linearized; })) return found;
      return std::nullopt;
    });
  }

  /// SearchReport::Refused::in_place: the first identifying value among the refused comparison's
  /// operands (and their items) other than the operation's own, with who logged it.
  std::optional<SearchReport::Refused::Lost> value_in_place(const Node& n, const SearchReport::Refused& refused,
                                                            const language::Evaluator::Refusal& how) {
    const std::vector<std::string> own = logged_values({static_cast<std::uint32_t>(refused.thread), static_cast<std::uint32_t>(refused.position)});
    return first_among_operands(how, [&](const Value& v) { return identifying(n, own, v); });
  }

  /// `v`, if it is an atom other than one of `own` that identifies the operations that logged it
  /// (identifying_users): with them, each linearized in `n` or not.
  std::optional<SearchReport::Refused::Lost> identifying(const Node& n, const std::vector<std::string>& own, const Value& v) {
    if (v.kind() != Value::Kind::Int && v.kind() != Value::Kind::String && v.kind() != Value::Kind::Model) return std::nullopt;
    const std::string text = v.text();
    if (std::find(own.begin(), own.end(), text) != own.end()) return std::nullopt;
    if (value_users_.empty()) index_values();
    const auto* users = identifying_users(text);
    if (users == nullptr || users->empty()) return std::nullopt;
    SearchReport::Refused::Lost found{text, {}};
    for (const auto& [u, position] : *users) found.logged_by.push_back({u, position, position < n.pc[u]});
    return found;
  }

  /// The first of the refused comparison's operands, operands in order and a sequence's or set's
  /// items after it, for which `pick` gives a value.
  template <class Pick>
  static auto first_among_operands(const language::Evaluator::Refusal& how, const Pick& pick) -> decltype(pick(Value())) {
    for (const Value& operand : how.operands) {
      if (auto found = pick(operand)) return found;
      if (operand.kind() == Value::Kind::Seq)
        for (const Value& item : operand.items())
          if (auto found = pick(item)) return found;
      if (operand.kind() == Value::Kind::Set)
        for (const Value& item : operand.elements())
          if (auto found = pick(item)) return found;
    }
    return std::nullopt;
  }

  /// The refused operation's ties (SearchReport::Refused), from the same index of logged values
  /// the restarts learn from.
  void tie(const Node& n, const std::vector<std::string>& reads, SearchReport::Refused& refused) {
    if (value_users_.empty()) index_values();
    const OpRef self{static_cast<std::uint32_t>(refused.thread), static_cast<std::uint32_t>(refused.position)};
    const ProblemOp& op = problem_.threads[self.first][self.second];
    for (std::size_t k = 0; k < op.args.size(); ++k) {
      const std::string& name = op.spec_op->params[k];
      // Only the values the refusing conjunct is about: a failed dequeue's placeholder element says
      // nothing about `queue = <<>>`. A flag (ok = TRUE) identifies nothing, however rare.
      if (op.args[k] == nullptr || std::holds_alternative<bool>(op.args[k]->data) ||
          std::find(reads.begin(), reads.end(), name) == reads.end())
        continue;
      std::vector<OpRef> others;
      for (const auto& user : value_users_.at(trace::to_tla(*op.args[k])))
        if (user != self && std::find(others.begin(), others.end(), user) == others.end()) others.push_back(user);
      if (others.empty()) refused.unmatched.push_back(name);
      if (others.size() + 1 > kIdentifyingUses) continue;
      for (const auto& [u, position] : others)
        if (std::none_of(refused.related.begin(), refused.related.end(),
                         [&](const auto& known) { return known.thread == u && known.position == position; }))
          refused.related.push_back({u, position, position < n.pc[u]});
    }
  }

  /// The parameters of `action` that `e` mentions, by name (a conjunct inside an operator the
  /// action calls mentions that operator's parameters, whose names may differ: those are not found).
  static void mentioned_parameters(const language::Expr& e, const Definition& action, std::vector<std::string>& out) {
    if (e.kind == language::ExprKind::RefBound && e.symbol != nullptr)
      for (const auto& p : action.params)
        if (p.get() == e.symbol && std::find(out.begin(), out.end(), p->name) == out.end()) out.push_back(p->name);
    for (const auto& kid : e.kids) mentioned_parameters(*kid, action, out);
  }

  /// Optional operations `n` is past (linearized or left out): of two states as deep, the one
  /// further past them is where a refusal of a required operation shows (ProblemOp::optional).
  std::int64_t optional_passed(const Node& n) const {
    std::int64_t passed = 0;
    for (std::size_t t = 0; t < n.pc.size(); ++t) passed += optional_before_[t][n.pc[t]];
    return passed;
  }

  void remember_deepest(const Node& n, std::int64_t p) {
    deepest_progress_ = p;
    deepest_optional_ = optional_passed(n);
    deepest_ = n;
    deepest_taken_ = taken_path_;
  }

  SearchReport report(SearchReport::Outcome outcome, const Node& at, const std::vector<std::pair<std::uint32_t, std::int32_t>>& taken) {
    SearchReport r;
    r.outcome = outcome;
    r.linearized = progress(at);
    for (std::uint32_t pc : at.pc) r.next.push_back(pc);
    r.spec_state = Value::seq(at.spec).text();
    for (const Value& v : at.spec) r.spec_values.push_back(v.text());
    std::vector<std::pair<std::uint32_t, std::int32_t>> seen;
    for (const auto& [t, c] : taken) {
      const std::size_t position = problem_.threads[t].size() - 1;  // pending operations are last
      if (std::find(seen.begin(), seen.end(), std::make_pair(t, c)) != seen.end()) continue;
      seen.emplace_back(t, c);
      SearchReport::Taken entry{t, position, {}};
      for (const Value& v : ops_[t][position].candidates[static_cast<std::size_t>(c)]) entry.arguments.push_back(v.text());
      r.pending_taken.push_back(std::move(entry));
    }
    // A search out of room names its deepest refusal too: what a smaller proof may start from.
    if (outcome == SearchReport::Outcome::rejected || outcome == SearchReport::Outcome::limit) r.refused = explain(at);
    r.states_generated = generated_;
    r.states_distinct = visited_.size();
    return r;
  }

  const Problem& problem_;
  language::LoadedSpec& spec_;
  const NativeSearchOptions& options_;
  language::Evaluator evaluator_;
  const Definition* init_ = nullptr;
  const Definition* view_ = nullptr;
  std::vector<std::vector<SearchOp>> ops_;
  // Per thread: how many of its first k operations must be linearized (neither pending nor
  // optional), and how many are optional.
  std::vector<std::vector<std::uint32_t>> required_before_, optional_before_;
  std::vector<State> initial_;
  std::chrono::steady_clock::time_point started_at_;
  // Learned: per thread and operation, how often a failure asked for it to come earlier.
  std::vector<std::vector<std::uint32_t>> preferred_;
  std::map<std::string, std::vector<OpRef>> value_users_;  // TLA+ text -> the operations that logged it
  // Learned: per operation (key()), the operations a failure showed should come before it.
  std::unordered_map<std::uint64_t, std::vector<OpRef>> learned_after_;
  Failure failure_;
  std::vector<Fingerprint> unsettled_;  // visited states inside a multi-step operation
  std::int64_t total_ = 0;
  std::vector<State> states_;
  std::vector<Successor> probe_, enabled_probe_;  // try_enablers_first's
  FingerprintSet visited_;
  DeadValues dead_values_;
  std::uint64_t generated_ = 0;
  std::vector<std::pair<std::uint32_t, std::int32_t>> taken_path_;  // pending operations linearized on the current path
  std::int64_t deepest_progress_ = -1;
  std::int64_t deepest_optional_ = -1;
  Node deepest_;
  std::vector<std::pair<std::uint32_t, std::int32_t>> deepest_taken_;
};

SearchReport Search::run() {
  started_at_ = std::chrono::steady_clock::now();
  // A linearizable history visits about one state per operation, a small rejected one a few
  // thousand: room for those up front (256 KiB), since growing by doubling rehashes everything.
  visited_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(std::max<std::uint64_t>(static_cast<std::uint64_t>(total_) + 16, 8192), options_.max_states)));
  initial_ = evaluator_.initial_states(*init_);
  if (initial_.empty()) {
    SearchReport r;
    r.outcome = SearchReport::Outcome::no_initial_state;
    r.linearized = -1;
    return r;
  }
  std::uint64_t budget = std::max<std::uint64_t>(1, options_.restart_budget);
  std::int64_t best_at_last_restart = -1;
  for (;;) {
    if (std::optional<SearchReport> r = attempt(budget)) return std::move(*r);
    // A restart that got further than the one before starts a new stretch of trouble: it gets the
    // first budget again. Otherwise the budget doubles, so the search stays complete: progress is
    // bounded, and an attempt whose budget exceeds every state left finishes.
    if (deepest_progress_ > best_at_last_restart) {
      best_at_last_restart = deepest_progress_;
      budget = std::max<std::uint64_t>(1, options_.restart_budget);
    } else {
      budget *= 2;
    }
  }
}

std::optional<SearchReport> Search::attempt(std::uint64_t budget) {
  const std::size_t threads = ops_.size();
  // The root frame's successors are the initial states.
  std::vector<Frame> stack(1);
  for (const State& s : initial_)
    stack[0].successors.push_back({Node{std::vector<std::uint32_t>(threads, 0), std::vector<std::int32_t>(threads, -1), s}, -1, -1});
  taken_path_.clear();
  failure_ = {};
  std::int64_t best = -1;
  std::uint64_t stalled_since = generated_;

  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next_successor < f.successors.size()) {
      Successor s = std::move(f.successors[f.next_successor++]);
      ++generated_;
      if ((generated_ & 255) == 0) {
        if (options_.cancel != nullptr && options_.cancel->load()) {
          SearchReport r = report(SearchReport::Outcome::cancelled, deepest_, deepest_taken_);
          r.limit = "the validation was cancelled";
          return r;
        }
        if (std::chrono::steady_clock::now() - started_at_ > options_.time_limit) {
          SearchReport r = report(SearchReport::Outcome::limit, deepest_, deepest_taken_);
          r.limit = "the native search did not finish within " + std::to_string(options_.time_limit.count() / 1000) + " s";
          return r;
        }
      }
      // Memory: checked every 64k states, about a megabyte of visited set, since reading it costs
      // a system call. The visited set is not all: the stack's frames hold states too.
      if ((generated_ & 65535) == 0 && options_.max_memory_mb != 0) {
        if (platform::resident_memory_bytes() / (1024 * 1024) > options_.max_memory_mb) {
          SearchReport r = report(SearchReport::Outcome::limit, deepest_, deepest_taken_);
          r.limit = "the native search reached its memory limit of " + std::to_string(options_.max_memory_mb) + " MiB (" +
                    std::to_string(visited_.size()) + " distinct states)";
          return r;
        }
      }
      if (generated_ - stalled_since > budget) {
        if (learn()) {
          forget_unfinished(stack);
          return std::nullopt;
        }
        stalled_since = generated_;  // nothing new to learn: go on, and look again after as long once more
        budget *= 2;
      }
      const Fingerprint id = fingerprint(s.node);
      if (!visited_.insert(id)) continue;
      if (visited_.size() > options_.max_states) {
        SearchReport r = report(SearchReport::Outcome::limit, deepest_, deepest_taken_);
        r.limit = "the native search reached its limit of " + std::to_string(options_.max_states) + " distinct states";
        return r;
      }
      Frame next;
      next.id = id;
      if (begun(s.node)) unsettled_.push_back(id);
      next.taken = s.taken_thread >= 0 ? 1 : 0;
      if (next.taken) taken_path_.emplace_back(static_cast<std::uint32_t>(s.taken_thread), s.taken_candidate);
      // A frame with nothing left to try is never returned to: the child replaces it, so a long
      // stretch where one operation at a time is viable keeps one frame, not one per operation.
      if (f.next_successor == f.successors.size() && f.next_thread == f.order.size() && stack.size() > 1) {
        next.taken += f.taken;
        next.replaced = std::move(f.replaced);
        next.replaced.push_back(f.id);
        stack.pop_back();
      }
      const std::int64_t p = progress(s.node);
      if (p > deepest_progress_ || (p == deepest_progress_ && optional_passed(s.node) > deepest_optional_)) remember_deepest(s.node, p);
      if (p > best) best = p, stalled_since = generated_;
      if (p == total_) return report(SearchReport::Outcome::accepted, s.node, taken_path_);
      next.order = viable(s.node);
      next.node = std::move(s.node);
      stack.push_back(std::move(next));
      continue;
    }
    if (f.next_thread < f.order.size()) {
      f.next_successor = 0;
      successors_of(f.node, f.order[f.next_thread++], f.successors);
      if (f.successors.empty() && f.next_thread == 1) {  // the root frame has no threads to try
        const std::int64_t p = progress(f.node);
        if (p >= failure_.progress) failure_ = {p, f.node, f.order[0]};
        try_enablers_first(f);
      }
      continue;
    }
    taken_path_.resize(taken_path_.size() - f.taken);
    stack.pop_back();
  }
  return report(SearchReport::Outcome::rejected, deepest_, deepest_taken_);
}

bool Search::learn() {
  if (failure_.progress < 0) return false;
  if (value_users_.empty()) index_values();
  const std::uint32_t t = failure_.thread, failing = failure_.at.pc[t];
  if (learn_order(t)) return true;
  bool learned = false;
  for (const trace::Value* field : problem_.threads[t][failing].args) {
    if (field == nullptr) continue;
    const auto* users = identifying_users(trace::to_tla(*field));
    if (users == nullptr) continue;
    for (const auto& [u, position] : *users) {
      if (u == t && position == failing) continue;
      learned |= preferred_[u][position] == 0;
      ++preferred_[u][position];
    }
  }
  return learned;
}

bool Search::learn_order(std::uint32_t t) {
  // The refused comparison says which operations' values the state held where the failing
  // operation's own should have been (a dequeue compared with the head: the head's enqueue). Those
  // that were linearized came too early: the operations tied to the failing one's values (its
  // element's enqueue) should precede them. Preferring those always (as above) would misplace an
  // operation whose window spans thousands of others at the start of it; this says where.
  const auto refusal = refusal_of(failure_.at, t);
  if (!refusal) return false;
  const auto& [refused, how] = *refusal;
  std::vector<OpRef> earlier;  // the failing operation's ties
  for (const auto& r : refused.related) earlier.emplace_back(static_cast<std::uint32_t>(r.thread), static_cast<std::uint32_t>(r.position));
  if (earlier.empty()) return false;
  const std::vector<std::string> own = logged_values({t, failure_.at.pc[t]});
  bool learned = false;
  for (const Value& operand : how.operands) {
    if (operand.kind() != Value::Kind::Int && operand.kind() != Value::Kind::String && operand.kind() != Value::Kind::Model) continue;
    const std::string text = operand.text();
    if (std::find(own.begin(), own.end(), text) != own.end()) continue;
    const auto* users = identifying_users(text);
    if (users == nullptr) continue;
    for (const OpRef& later : *users) {
      if (failure_.at.pc[later.first] <= later.second) continue;  // not linearized there: not too early
      auto& before = learned_after_[key(later)];
      for (const OpRef& e : earlier)
        if (e != later && std::find(before.begin(), before.end(), e) == before.end()) {
          before.push_back(e);
          learned = true;
        }
    }
  }
  return learned;
}

void Search::index_values() {
  for (std::uint32_t t = 0; t < problem_.threads.size(); ++t)
    for (std::uint32_t i = 0; i < problem_.threads[t].size(); ++i)
      for (const trace::Value* field : problem_.threads[t][i].args)
        if (field != nullptr) value_users_[trace::to_tla(*field)].emplace_back(t, i);
}

void Search::forget_unfinished(const std::vector<Frame>& stack) {
  for (std::size_t k = 1; k < stack.size(); ++k) {
    visited_.erase(stack[k].id);
    for (const Fingerprint& f : stack[k].replaced) visited_.erase(f);
  }
  for (const Fingerprint& f : unsettled_) visited_.erase(f);
  unsettled_.clear();
}

}  // namespace

SearchReport search_linearization(const Problem& problem, language::LoadedSpec& spec, const NativeSearchOptions& options) {
  Search search(problem, spec, options);
  return search.run();
}

std::vector<SearchReport> search_linearizations(const std::vector<Problem>& problems, language::LoadedSpec& spec,
                                                const NativeSearchOptions& options, unsigned jobs) {
  std::vector<std::unique_ptr<Search>> searches;
  for (const Problem& p : problems) searches.push_back(std::make_unique<Search>(p, spec, options));  // binds
  std::vector<SearchReport> reports(problems.size());
  std::vector<std::exception_ptr> errors(problems.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k = next++; k < searches.size(); k = next++) {
      try {
        reports[k] = searches[k]->run();
      } catch (...) {
        errors[k] = std::current_exception();
      }
      searches[k].reset();  // its memory back as soon as it is done
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < std::max(1u, jobs) && j < searches.size(); ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return reports;
}

}  // namespace omnilink::validation
