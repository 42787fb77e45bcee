#include "language/value.hpp"

#include <algorithm>
#include <cstring>
#include <atomic>
#include <limits>
#include <mutex>
#include <unordered_map>

#include "trace/value.hpp"

namespace omnilink::language {

struct Hash128 {
  std::uint64_t high = 0, low = 0;
};

/// What a non-scalar value holds. One struct for every kind keeps Value a single pointer.
struct ValueNode {
  enum class SymbolicKind : std::uint8_t { Nat, Int, String, Interval, SeqSet, Subset, FunctionSet, RecordSet, Product };

  std::string text;            // String, Model
  std::vector<Value> items;    // Seq items; Fcn keys; Set elements; Symbolic operand sets
  std::vector<Value> values;   // Fcn values
  std::vector<std::string> fields;  // RecordSet field names
  SymbolicKind symbolic = SymbolicKind::Nat;
  std::int64_t low = 0, high = 0;  // Interval
  Value::Kind kind = Value::Kind::Set;
  // The hash, computed when first asked for (most intermediate values, a Tail about to be appended
  // to, are never hashed). Atomics: two threads asking at once both store the same value.
  mutable std::atomic<bool> hashed{false};
  mutable std::atomic<std::uint64_t> hash_high{0}, hash_low{0};
  // A sequence's hash is polynomial in its items, sum of e(item k) * B^k per lane, so that Append
  // and Tail derive it from their operand's in O(1): a long queue is not rehashed every step.
  mutable std::atomic<bool> poly_ready{false};
  mutable std::atomic<std::uint64_t> poly_high{0}, poly_low{0}, power_high{1}, power_low{1};
};

namespace {


std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Two lanes with different constants, so the 128-bit fingerprint is two independent hashes.
void absorb(Hash128& h, std::uint64_t x) {
  h.low = mix(h.low ^ (x + 0x9e3779b97f4a7c15ULL));
  h.high = mix(h.high + (x ^ 0xc2b2ae3d27d4eb4fULL) * 0x165667b19e3779f9ULL);
}

Hash128 node_hash(const ValueNode& node);

// A scalar's hash is its kind and bits, absorbed directly; a node's is its cached hash.
void absorb(Hash128& h, const Value& v) {
  if (v.node() == nullptr) {
    absorb(h, (static_cast<std::uint64_t>(v.kind()) << 60) ^ static_cast<std::uint64_t>(v.kind() == Value::Kind::Bool ? (v.as_bool() ? 1 : 0) : v.as_int()));
    return;
  }
  const Hash128 inner = node_hash(*v.node());
  absorb(h, inner.low);
  absorb(h, inner.high);
}

Hash128 hash_of(const Value& v) {
  if (v.node() != nullptr) return node_hash(*v.node());
  Hash128 h{0x5ca1a7, 0xb0015};
  absorb(h, v);
  return h;
}

Hash128 seed_for(Value::Kind kind) { return {static_cast<std::uint64_t>(kind) + 101, static_cast<std::uint64_t>(kind) * 7919}; }

// The polynomial bases (odd, so invertible modulo 2^64) and their inverses.
constexpr std::uint64_t kBaseHigh = 0x9e3779b97f4a7c15ULL | 1, kBaseLow = 0xc2b2ae3d27d4eb4fULL | 1;
constexpr std::uint64_t inverse(std::uint64_t b) {
  std::uint64_t x = b;  // Newton's iteration: each step doubles the correct low bits
  for (int k = 0; k < 6; ++k) x *= 2 - b * x;
  return x;
}
constexpr std::uint64_t kInverseHigh = inverse(kBaseHigh), kInverseLow = inverse(kBaseLow);

// An item's contribution to a sequence's polynomial hash, per lane.
Hash128 item_hash(const Value& v) {
  Hash128 h{0x1234567, 0x89abcdef};
  absorb(h, v);
  return h;
}

struct Poly {
  std::uint64_t high, low, power_high, power_low;
};

Poly seq_poly(const ValueNode& node) {
  if (node.poly_ready.load(std::memory_order_acquire))
    return {node.poly_high.load(std::memory_order_relaxed), node.poly_low.load(std::memory_order_relaxed),
            node.power_high.load(std::memory_order_relaxed), node.power_low.load(std::memory_order_relaxed)};
  Poly p{0, 0, 1, 1};
  for (const Value& v : node.items) {
    const Hash128 e = item_hash(v);
    p.high += e.high * p.power_high;
    p.low += e.low * p.power_low;
    p.power_high *= kBaseHigh;
    p.power_low *= kBaseLow;
  }
  return p;
}

void set_poly(const ValueNode& node, const Poly& p) {
  node.poly_high.store(p.high, std::memory_order_relaxed);
  node.poly_low.store(p.low, std::memory_order_relaxed);
  node.power_high.store(p.power_high, std::memory_order_relaxed);
  node.power_low.store(p.power_low, std::memory_order_relaxed);
  node.poly_ready.store(true, std::memory_order_release);
}

Hash128 node_hash(const ValueNode& node) {
  if (node.hashed.load(std::memory_order_acquire))
    return {node.hash_high.load(std::memory_order_relaxed), node.hash_low.load(std::memory_order_relaxed)};
  Hash128 h = seed_for(node.kind);
  switch (node.kind) {
    case Value::Kind::String: case Value::Kind::Model: {
      // Eight bytes at a time: a store of long strings (a key-value history's appends) hashes
      // every new value once, and a byte at a time that was most of a step's cost.
      const std::string& t = node.text;
      std::size_t k = 0;
      for (; k + 8 <= t.size(); k += 8) {
        std::uint64_t word;
        std::memcpy(&word, t.data() + k, 8);
        absorb(h, word);
      }
      std::uint64_t rest = 0;
      std::memcpy(&rest, t.data() + k, t.size() - k);
      absorb(h, rest);
      absorb(h, t.size());
      break;
    }
    case Value::Kind::Seq: {
      const Poly p = seq_poly(node);
      set_poly(node, p);
      absorb(h, p.high);
      absorb(h, p.low);
      absorb(h, node.items.size());
      break;
    }
    case Value::Kind::Set:
      for (const Value& v : node.items) absorb(h, v);
      absorb(h, node.items.size());
      break;
    case Value::Kind::Fcn:
      for (std::size_t k = 0; k < node.items.size(); ++k) {
        absorb(h, node.items[k]);
        absorb(h, node.values[k]);
      }
      break;
    default:  // Symbolic
      absorb(h, static_cast<std::uint64_t>(node.symbolic));
      absorb(h, static_cast<std::uint64_t>(node.low));
      absorb(h, static_cast<std::uint64_t>(node.high));
      for (const Value& v : node.items) absorb(h, v);
      for (const auto& f : node.fields)
        for (unsigned char c : f) absorb(h, c);
      break;
  }
  node.hash_high.store(h.high, std::memory_order_relaxed);
  node.hash_low.store(h.low, std::memory_order_relaxed);
  node.hashed.store(true, std::memory_order_release);
  return h;
}

// Materialises a product or record set: every combination of one element per operand set.
void combinations(const std::vector<std::vector<Value>>& sets, std::vector<Value>& current, std::vector<std::vector<Value>>& out) {
  if (current.size() == sets.size()) {
    out.push_back(current);
    return;
  }
  for (const Value& v : sets[current.size()]) {
    current.push_back(v);
    combinations(sets, current, out);
    current.pop_back();
  }
}

// TLC enumerates any finite set it can hold; so does omnilink, up to what one value may take of
// the memory (about 150 bytes an element: 10 million is 1.5 GB), past which a spec is refused
// rather than the machine exhausted.
constexpr std::size_t kEnumerationLimit = 10'000'000;

void check_size(double n, const char* what) {
  if (n > static_cast<double>(kEnumerationLimit))
    throw EvalError(std::string("enumerating ") + what + " would produce more than 10 million elements (omnilink's memory budget for one set)");
}

// Values about to be stored inside another: only symbolic sets can change (copying the rest would
// cost a reference count each).
void canonicalise(std::vector<Value>& values) {
  for (Value& v : values)
    if (v.kind() == Value::Kind::Symbolic) v = v.canonical();
}

// Which kinds TLC can compare with each other: sequences with functions, finite sets with sets.
int comparison_class(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::Seq: return static_cast<int>(Value::Kind::Fcn);
    case Value::Kind::Symbolic: return static_cast<int>(Value::Kind::Set);
    default: return static_cast<int>(kind);
  }
}

}  // namespace

namespace {
[[noreturn]] void overflow(std::int64_t a, const char* symbol, std::int64_t b, const char* operation) {
  throw EvalError(std::string("integer overflow in ") + operation + ": " + std::to_string(a) + " " + symbol + " " +
                  std::to_string(b) + " is outside 64-bit integers");
}
}  // namespace

std::int64_t checked_add(std::int64_t a, std::int64_t b, const char* operation) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) overflow(a, "+", b, operation);
  return r;
}

std::int64_t checked_sub(std::int64_t a, std::int64_t b, const char* operation) {
  std::int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) overflow(a, "-", b, operation);
  return r;
}

std::int64_t checked_mul(std::int64_t a, std::int64_t b, const char* operation) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) overflow(a, "*", b, operation);
  return r;
}

Value Value::boolean(bool b) { return Value(b); }

Value Value::integer(std::int64_t i) { return Value(Kind::Int, i, nullptr); }

Value Value::string(std::string s) {
  auto node = std::make_shared<ValueNode>();
  node->kind = Kind::String;
  node->text = std::move(s);
  return Value(Kind::String, 0, std::move(node));
}

Value Value::interned(const std::string& s) {
  // Never destroyed: the values bound into specs may outlive any static.
  static auto* pool = new std::unordered_map<std::string, Value>;
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  auto [it, added] = pool->try_emplace(s);
  if (added) it->second = string(s);
  return it->second;
}

Value Value::model(std::string name) {
  auto node = std::make_shared<ValueNode>();
  node->kind = Kind::Model;
  node->text = std::move(name);
  return Value(Kind::Model, 0, std::move(node));
}

Value Value::seq(std::vector<Value> items) {
  canonicalise(items);
  auto node = std::make_shared<ValueNode>();
  node->kind = Kind::Seq;
  node->items = std::move(items);
  return Value(Kind::Seq, 0, std::move(node));
}

Value Value::appended(const Value& sequence, Value item) {
  std::vector<Value> items = sequence.items();
  if (item.kind() == Kind::Symbolic) item = item.canonical();
  const Hash128 e = item_hash(item);
  items.push_back(std::move(item));
  Value out = seq(std::move(items));
  Poly p = seq_poly(*sequence.node_);
  set_poly(*sequence.node_, p);
  p.high += e.high * p.power_high;
  p.low += e.low * p.power_low;
  p.power_high *= kBaseHigh;
  p.power_low *= kBaseLow;
  set_poly(*out.node_, p);
  return out;
}

Value Value::tail(const Value& sequence) {
  const std::vector<Value>& all = sequence.items();
  if (all.empty()) throw EvalError("Tail of the empty sequence");
  Value out = seq(std::vector<Value>(all.begin() + 1, all.end()));
  Poly p = seq_poly(*sequence.node_);
  set_poly(*sequence.node_, p);
  const Hash128 e = item_hash(all.front());
  p.high = (p.high - e.high) * kInverseHigh;
  p.low = (p.low - e.low) * kInverseLow;
  p.power_high *= kInverseHigh;
  p.power_low *= kInverseLow;
  set_poly(*out.node_, p);
  return out;
}

Value Value::function(std::vector<Value> keys, std::vector<Value> values) {
  canonicalise(keys);
  canonicalise(values);
  // Keys already in order and distinct (a record's, a function over a set's elements) are taken
  // as they are, without sorting.
  bool sorted = true;
  for (std::size_t k = 1; k < keys.size() && sorted; ++k) sorted = keys[k - 1] < keys[k];
  std::vector<Value> sorted_keys, sorted_values;
  if (sorted) {
    sorted_keys = std::move(keys);
    sorted_values = std::move(values);
  } else {
    std::vector<std::size_t> order(keys.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    sorted_keys.reserve(keys.size());
    sorted_values.reserve(keys.size());
    for (std::size_t k : order) {
      if (!sorted_keys.empty() && sorted_keys.back() == keys[k]) throw EvalError("a function maps " + keys[k].text() + " twice");
      sorted_keys.push_back(keys[k]);
      sorted_values.push_back(std::move(values[k]));
    }
  }
  bool one_to_n = true;
  for (std::size_t k = 0; k < sorted_keys.size() && one_to_n; ++k)
    one_to_n = sorted_keys[k].is_int() && sorted_keys[k].as_int() == static_cast<std::int64_t>(k) + 1;
  if (one_to_n) return seq(std::move(sorted_values));
  auto node = std::make_shared<ValueNode>();
  node->kind = Kind::Fcn;
  node->items = std::move(sorted_keys);
  node->values = std::move(sorted_values);
  return Value(Kind::Fcn, 0, std::move(node));
}

Value Value::sorted_function(const std::vector<Value>& keys, std::vector<Value> values) {
  canonicalise(values);
  auto node = std::make_shared<ValueNode>();
  node->kind = Kind::Fcn;
  node->items = keys;
  node->values = std::move(values);
  return Value(Kind::Fcn, 0, std::move(node));
}

Value Value::set(std::vector<Value> elements) {
  canonicalise(elements);
  // Most sets arrive in order already (a filter of a set, a function's domain): one pass tells,
  // where sorting would compare each element log n times.
  const bool ascending = std::adjacent_find(elements.begin(), elements.end(),
                                            [](const Value& a, const Value& b) { return !(a < b); }) == elements.end();
  if (!ascending) {
    std::sort(elements.begin(), elements.end());
    elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
  }
  // TLC sorts a set's elements with its comparison, which fails on two that cannot be compared
  // ({1, "a"}); model values compare with anything. Sorting groups the kinds, so neighbours tell.
  const Value* previous = nullptr;
  for (const Value& v : elements) {
    if (v.kind() == Kind::Model) continue;
    if (previous != nullptr && comparison_class(previous->kind()) != comparison_class(v.kind()))
      throw EvalError("a set of values that cannot be compared: " + previous->describe() + " (" + previous->text() + ") and " +
                      v.describe() + " (" + v.text() + ")");
    previous = &v;
  }
  auto node = std::make_shared<ValueNode>();
  node->kind = Kind::Set;
  node->items = std::move(elements);
  return Value(Kind::Set, 0, std::move(node));
}

namespace {
Value symbolic(ValueNode::SymbolicKind kind, std::vector<Value> operands, std::int64_t low = 0, std::int64_t high = 0,
               std::vector<std::string> fields = {}) {
  auto node = std::make_shared<ValueNode>();
  node->symbolic = kind;
  node->low = low;
  node->high = high;
  node->kind = Value::Kind::Symbolic;
  node->items = std::move(operands);
  node->fields = std::move(fields);
  return Value::from_node(std::move(node));
}
}  // namespace

Value Value::from_node(std::shared_ptr<const ValueNode> node) {
  const Kind kind = node->kind;
  return Value(kind, 0, std::move(node));
}

Value Value::nat() { return symbolic(ValueNode::SymbolicKind::Nat, {}); }
Value Value::integers() { return symbolic(ValueNode::SymbolicKind::Int, {}); }
Value Value::strings() { return symbolic(ValueNode::SymbolicKind::String, {}); }
Value Value::interval(std::int64_t low, std::int64_t high) {
  if (high < low) return set({});
  return symbolic(ValueNode::SymbolicKind::Interval, {}, low, high);
}
Value Value::seq_set(Value of) { return symbolic(ValueNode::SymbolicKind::SeqSet, {std::move(of)}); }
Value Value::subset(Value of) { return symbolic(ValueNode::SymbolicKind::Subset, {std::move(of)}); }
Value Value::function_set(Value domain, Value range) {
  return symbolic(ValueNode::SymbolicKind::FunctionSet, {std::move(domain), std::move(range)});
}
Value Value::record_set(std::vector<std::string> fields, std::vector<Value> sets) {
  // Sorted by field name: [a : S, b : T] = [b : T, a : S].
  std::vector<std::size_t> order(fields.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return fields[a] < fields[b]; });
  std::vector<std::string> f;
  std::vector<Value> s;
  for (std::size_t k : order) f.push_back(fields[k]), s.push_back(sets[k]);
  return symbolic(ValueNode::SymbolicKind::RecordSet, std::move(s), 0, 0, std::move(f));
}
Value Value::product(std::vector<Value> sets) { return symbolic(ValueNode::SymbolicKind::Product, std::move(sets)); }

bool Value::as_bool() const {
  if (kind_ != Kind::Bool) throw EvalError("expected a boolean, got " + describe() + ": " + text());
  return scalar_ != 0;
}

std::int64_t Value::as_int() const {
  if (kind_ != Kind::Int) throw EvalError("expected an integer, got " + describe() + ": " + text());
  return scalar_;
}

const std::string& Value::as_string() const {
  if (kind_ != Kind::String && kind_ != Kind::Model) throw EvalError("expected a string, got " + describe() + ": " + text());
  return node_->text;
}

const std::vector<Value>& Value::items() const {
  if (kind_ != Kind::Seq) throw EvalError("expected a sequence, got " + describe() + ": " + text());
  return node_->items;
}

const std::vector<Value>& Value::keys() const {
  if (kind_ != Kind::Fcn) throw EvalError("expected a function, got " + describe() + ": " + text());
  return node_->items;
}

const std::vector<Value>& Value::values() const {
  if (kind_ != Kind::Fcn) throw EvalError("expected a function, got " + describe() + ": " + text());
  return node_->values;
}

std::vector<Value> Value::domain() const {
  if (kind_ == Kind::Fcn) return node_->items;
  std::vector<Value> d;
  d.reserve(items().size());
  for (std::size_t k = 1; k <= items().size(); ++k) d.push_back(integer(static_cast<std::int64_t>(k)));
  return d;
}

std::optional<Value> Value::apply(const Value& key) const {
  const Value canonical_key = key.kind() == Kind::Symbolic ? key.canonical() : Value();
  const Value& argument = key.kind() == Kind::Symbolic ? canonical_key : key;
  if (kind_ == Kind::Seq) {
    if (!argument.is_int()) return std::nullopt;
    const std::int64_t k = argument.as_int();
    if (k < 1 || k > static_cast<std::int64_t>(node_->items.size())) return std::nullopt;
    return node_->items[static_cast<std::size_t>(k - 1)];
  }
  if (kind_ != Kind::Fcn) throw EvalError("cannot apply " + describe() + " (" + text() + ") to an argument: it is not a function");
  const std::size_t k = key_index(argument);
  if (k == node_->items.size()) return std::nullopt;
  return node_->values[k];
}

std::size_t Value::key_index(const Value& argument) const {
  const auto& keys = node_->items;
  // A record's field read by name: both are interned (Value::interned), so a few pointer
  // comparisons find it where a binary search would compare the names' text.
  if (argument.kind_ == Kind::String && keys.size() <= 16)
    for (std::size_t k = 0; k < keys.size(); ++k)
      if (keys[k].node_ == argument.node_) return k;
  auto it = std::lower_bound(keys.begin(), keys.end(), argument);
  if (it == keys.end() || !(*it == argument)) return keys.size();
  return static_cast<std::size_t>(it - keys.begin());
}

Value Value::except(const Value& key, Value new_value) const {
  const Value canonical_key = key.kind() == Kind::Symbolic ? key.canonical() : Value();
  const Value& argument = key.kind() == Kind::Symbolic ? canonical_key : key;
  if (kind_ == Kind::Seq) {
    std::vector<Value> items = node_->items;
    const std::int64_t k = argument.is_int() ? argument.as_int() : 0;
    if (k < 1 || k > static_cast<std::int64_t>(items.size()))
      throw EvalError("EXCEPT: " + argument.text() + " is not in the domain of " + text());
    items[static_cast<std::size_t>(k - 1)] = std::move(new_value);
    return seq(std::move(items));
  }
  if (kind_ != Kind::Fcn) throw EvalError("EXCEPT applied to " + describe() + " (" + text() + "), not a function");
  const std::size_t k = key_index(argument);
  if (k == node_->items.size()) throw EvalError("EXCEPT: " + argument.text() + " is not in the domain of " + text());
  std::vector<Value> values = node_->values;
  values[k] = std::move(new_value);
  // The keys are this function's: sorted and distinct, and not 1..n (else it would be a sequence).
  return sorted_function(node_->items, std::move(values));
}

Value Value::canonical() const {
  if (kind_ != Kind::Symbolic || !finite()) return *this;
  return set(elements());
}

bool Value::finite() const {
  if (kind_ == Kind::Set) return true;
  if (kind_ != Kind::Symbolic) return false;
  using S = ValueNode::SymbolicKind;
  switch (node_->symbolic) {
    case S::Nat: case S::Int: case S::String: case S::SeqSet: return false;
    case S::Interval: return true;
    case S::Subset: return node_->items[0].finite();
    case S::FunctionSet: return node_->items[0].finite() && node_->items[1].finite();
    case S::RecordSet: case S::Product:
      return std::all_of(node_->items.begin(), node_->items.end(), [](const Value& s) { return s.finite(); });
  }
  return false;
}

bool Value::contains(const Value& element) const {
  const Value canonical_element = element.kind() == Kind::Symbolic ? element.canonical() : Value();
  const Value& v = element.kind() == Kind::Symbolic ? canonical_element : element;
  if (kind_ == Kind::Set) {
    const auto& e = node_->items;
    // TLC compares, so an integer against a set of strings is an error: equals says so.
    const auto comparable = std::find_if(e.begin(), e.end(), [](const Value& x) { return x.kind() != Kind::Model; });
    if (comparable != e.end() && v.kind() != Kind::Model) (void)comparable->equals(v);
    return std::binary_search(e.begin(), e.end(), v);
  }
  if (kind_ != Kind::Symbolic) throw EvalError("\\in applied to " + describe() + " (" + text() + "), not a set");
  using S = ValueNode::SymbolicKind;
  switch (node_->symbolic) {
    case S::Nat: return v.is_int() ? v.as_int() >= 0 : throw EvalError("cannot decide whether " + v.text() + " is in Nat");
    case S::Int: if (!v.is_int()) throw EvalError("cannot decide whether " + v.text() + " is in Int"); return true;
    case S::String: return v.is_string();
    case S::Interval:
      if (!v.is_int()) throw EvalError("cannot decide whether " + v.text() + " is in " + text());
      return v.as_int() >= node_->low && v.as_int() <= node_->high;
    case S::SeqSet: {
      // TLC cannot tell whether a string is a sequence: it says so, and so do we.
      if (v.is_string()) throw EvalError("cannot decide whether the string " + v.text() + " is in " + text() + " (TLC cannot either)");
      if (v.kind() != Kind::Seq) return false;
      for (const Value& item : v.items())
        if (!node_->items[0].contains(item)) return false;
      return true;
    }
    case S::Subset: {
      if (!v.is_set()) return false;
      for (const Value& x : v.elements())
        if (!node_->items[0].contains(x)) return false;
      return true;
    }
    case S::FunctionSet: {
      if (!v.is_function()) return false;
      const std::vector<Value> d = v.domain();
      if (!Value::set(d).equals(node_->items[0])) return false;  // equals enumerates a finite symbolic set
      for (const Value& k : d)
        if (!node_->items[1].contains(*v.apply(k))) return false;
      return true;
    }
    case S::RecordSet: {
      if (v.kind() != Kind::Fcn || v.keys().size() != node_->fields.size()) return false;
      for (std::size_t k = 0; k < node_->fields.size(); ++k) {
        auto value = v.apply(string(node_->fields[k]));
        if (!value || !node_->items[k].contains(*value)) return false;
      }
      return true;
    }
    case S::Product: {
      if (v.kind() != Kind::Seq || v.items().size() != node_->items.size()) return false;
      for (std::size_t k = 0; k < node_->items.size(); ++k)
        if (!node_->items[k].contains(v.items()[k])) return false;
      return true;
    }
  }
  return false;
}

const std::vector<Value>& Value::members() const {
  if (kind_ != Kind::Set) throw EvalError("expected a finite set, got " + describe() + ": " + text());
  return node_->items;
}

std::vector<Value> Value::elements() const {
  if (kind_ == Kind::Set) return node_->items;
  if (kind_ != Kind::Symbolic) throw EvalError("expected a set, got " + describe() + ": " + text());
  if (!finite()) throw EvalError("cannot enumerate the infinite set " + text());
  using S = ValueNode::SymbolicKind;
  std::vector<Value> out;
  switch (node_->symbolic) {
    case S::Interval:
      check_size(static_cast<double>(node_->high) - static_cast<double>(node_->low) + 1, text().c_str());
      for (std::int64_t k = node_->low; k <= node_->high; ++k) out.push_back(integer(k));
      return out;  // already sorted
    case S::Subset: {
      const std::vector<Value> base = node_->items[0].elements();
      if (base.size() > 20) throw EvalError("enumerating SUBSET of a set of " + std::to_string(base.size()) + " elements");
      for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << base.size()); ++mask) {
        std::vector<Value> s;
        for (std::size_t k = 0; k < base.size(); ++k)
          if (mask & (std::uint64_t{1} << k)) s.push_back(base[k]);
        out.push_back(set(std::move(s)));
      }
      break;
    }
    case S::FunctionSet: {
      const std::vector<Value> d = node_->items[0].elements(), r = node_->items[1].elements();
      double n = 1;
      for (std::size_t k = 0; k < d.size(); ++k) n *= static_cast<double>(r.size());
      check_size(n, text().c_str());
      std::vector<std::vector<Value>> ranges(d.size(), r), combos;
      std::vector<Value> current;
      combinations(ranges, current, combos);
      for (auto& c : combos) out.push_back(function(d, std::move(c)));
      break;
    }
    case S::RecordSet: case S::Product: {
      std::vector<std::vector<Value>> sets, combos;
      double n = 1;
      for (const Value& s : node_->items) sets.push_back(s.elements()), n *= static_cast<double>(sets.back().size());
      check_size(n, text().c_str());
      std::vector<Value> current;
      combinations(sets, current, combos);
      for (auto& c : combos) {
        if (node_->symbolic == S::Product) {
          out.push_back(seq(std::move(c)));
        } else {
          std::vector<Value> keys;
          for (const auto& f : node_->fields) keys.push_back(string(f));
          out.push_back(function(std::move(keys), std::move(c)));
        }
      }
      break;
    }
    default: break;
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t Value::cardinality() const {
  if (const auto ends = interval_ends()) {
    const std::uint64_t size = static_cast<std::uint64_t>(ends->second) - static_cast<std::uint64_t>(ends->first) + 1;
    if (size == 0 || size > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      throw EvalError("the cardinality of " + text() + " is outside 64-bit integers");
    return static_cast<std::size_t>(size);
  }
  return elements().size();
}

std::optional<std::pair<std::int64_t, std::int64_t>> Value::interval_ends() const {
  if (kind_ != Kind::Symbolic || node_->symbolic != ValueNode::SymbolicKind::Interval) return std::nullopt;
  return std::pair{node_->low, node_->high};
}

bool Value::equals(const Value& other) const {
  if (kind_ == Kind::Model || other.kind_ == Kind::Model) return kind_ == other.kind_ && node_->text == other.node_->text;
  if (is_set() && other.is_set()) {
    if (kind_ == Kind::Set && other.kind_ == Kind::Set) return *this == other;
    if (*this == other) return true;
    if (!finite() || !other.finite()) throw EvalError("cannot compare the infinite set " + (finite() ? other : *this).text());
    const std::vector<Value> a = elements(), b = other.elements();
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k)
      if (!a[k].equals(b[k])) return false;
    return true;
  }
  if (is_function() && other.is_function()) {
    if (kind_ != other.kind_) return false;
    const auto& a = kind_ == Kind::Seq ? node_->items : node_->values;
    const auto& b = kind_ == Kind::Seq ? other.node_->items : other.node_->values;
    if (a.size() != b.size()) return false;
    if (kind_ == Kind::Fcn)
      for (std::size_t k = 0; k < a.size(); ++k)
        if (!node_->items[k].equals(other.node_->items[k])) return false;
    for (std::size_t k = 0; k < a.size(); ++k)
      if (!a[k].equals(b[k])) return false;
    return true;
  }
  if (kind_ != other.kind_)
    throw EvalError("attempted to compare " + describe() + " (" + text() + ") with " + other.describe() + " (" + other.text() + ")");
  return *this == other;
}

int Value::compare(const Value& other) const {
  if (kind_ != other.kind_) return kind_ < other.kind_ ? -1 : 1;
  switch (kind_) {
    case Kind::Bool: case Kind::Int: return scalar_ < other.scalar_ ? -1 : scalar_ > other.scalar_ ? 1 : 0;
    case Kind::String: case Kind::Model: {
      if (node_ == other.node_) return 0;
      const int c = node_->text.compare(other.node_->text);
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    default: break;
  }
  if (node_ == other.node_) return 0;
  if (kind_ == Kind::Symbolic) {
    if (node_->symbolic != other.node_->symbolic) return node_->symbolic < other.node_->symbolic ? -1 : 1;
    if (node_->low != other.node_->low) return node_->low < other.node_->low ? -1 : 1;
    if (node_->high != other.node_->high) return node_->high < other.node_->high ? -1 : 1;
    if (node_->fields != other.node_->fields) return node_->fields < other.node_->fields ? -1 : 1;
  }
  // TLC's order: the larger set, sequence or function is the greater; equal sizes compare
  // element by element (a function's keys before its values).
  const std::size_t size = node_->items.size(), other_size = other.node_->items.size();
  if (kind_ != Kind::Symbolic && size != other_size) return size < other_size ? -1 : 1;
  auto lexicographic = [](const std::vector<Value>& a, const std::vector<Value>& b) {
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k)
      if (int c = a[k].compare(b[k]); c != 0) return c;
    return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
  };
  if (int c = lexicographic(node_->items, other.node_->items); c != 0) return c;
  return lexicographic(node_->values, other.node_->values);
}

std::uint64_t Value::hash() const { return hash_of(*this).low; }

std::string Value::describe() const {
  switch (kind_) {
    case Kind::Bool: return "a boolean";
    case Kind::Int: return "an integer";
    case Kind::String: return "a string";
    case Kind::Model: return "a model value";
    case Kind::Seq: return "a sequence";
    case Kind::Fcn: return "a function";
    case Kind::Set: case Kind::Symbolic: return "a set";
  }
  return "a value";
}

std::string Value::text() const {
  switch (kind_) {
    case Kind::Bool: return scalar_ ? "TRUE" : "FALSE";
    case Kind::Int: return std::to_string(scalar_);
    case Kind::String: return trace::tla_quote(node_->text);
    case Kind::Model: return node_->text;
    case Kind::Seq: {
      std::string s = "<<";
      for (std::size_t k = 0; k < node_->items.size(); ++k) s += (k ? ", " : "") + node_->items[k].text();
      return s + ">>";
    }
    case Kind::Fcn: {
      const bool record = std::all_of(node_->items.begin(), node_->items.end(), [](const Value& k) { return k.is_string(); });
      std::string s = record ? "[" : "(";
      for (std::size_t k = 0; k < node_->items.size(); ++k) {
        if (record) s += (k ? ", " : "") + node_->items[k].as_string() + " |-> " + node_->values[k].text();
        else s += (k ? " @@ " : "") + node_->items[k].text() + " :> " + node_->values[k].text();
      }
      return s + (record ? "]" : ")");
    }
    case Kind::Set: {
      std::string s = "{";
      for (std::size_t k = 0; k < node_->items.size(); ++k) s += (k ? ", " : "") + node_->items[k].text();
      return s + "}";
    }
    case Kind::Symbolic: break;
  }
  using S = ValueNode::SymbolicKind;
  const auto& ops = node_->items;
  switch (node_->symbolic) {
    case S::Nat: return "Nat";
    case S::Int: return "Int";
    case S::String: return "STRING";
    case S::Interval: return std::to_string(node_->low) + ".." + std::to_string(node_->high);
    case S::SeqSet: return "Seq(" + ops[0].text() + ")";
    case S::Subset: return "SUBSET " + ops[0].text();
    case S::FunctionSet: return "[" + ops[0].text() + " -> " + ops[1].text() + "]";
    case S::RecordSet: {
      std::string s = "[";
      for (std::size_t k = 0; k < ops.size(); ++k) s += (k ? ", " : "") + node_->fields[k] + " : " + ops[k].text();
      return s + "]";
    }
    case S::Product: {
      std::string s;
      for (std::size_t k = 0; k < ops.size(); ++k) s += (k ? " \\X " : "") + ops[k].text();
      return s;
    }
  }
  return "?";
}

Fingerprint fingerprint(const std::vector<Value>& values, Fingerprint seed) {
  Fingerprinter f(seed);
  for (const Value& v : values) f.add(v);
  return f.result();
}

void Fingerprinter::add(const Value& v) {
  Hash128 h{sum_.high, sum_.low};
  absorb(h, v);
  sum_ = {h.high, h.low};
}

void Fingerprinter::add(std::uint64_t word) {
  Hash128 h{sum_.high, sum_.low};
  absorb(h, word);
  sum_ = {h.high, h.low};
}

Fingerprint own_hash(const Value& v) {
  const Hash128 h = hash_of(v);
  return {h.high, h.low};
}

Fingerprint mixed_pair(const Fingerprint& first, const Fingerprint& second) {
  return {mix(first.high ^ (second.high * 0x9e3779b97f4a7c15ULL) ^ 0x5e7), mix(first.low + (second.low ^ 0xc2b2ae3d27d4eb4fULL) * 0x165667b19e3779f9ULL)};
}

}  // namespace omnilink::language
