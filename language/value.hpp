// TLA+ values as TLC represents them: booleans, integers (64-bit where TLC's are 32-bit: a history
// of wider values is checked natively only; leaving 64 bits is an error, never a wrap), strings, model values, sets, and functions (sequences, tuples and records
// are functions: <<a, b>> = [i \in 1..2 |-> ...], and a record is a function on strings).
//
// Values are immutable and share their parts. Each value has one canonical representation, so
// equality and hashing are structural: a function whose domain is 1..n is always stored as a
// sequence, the empty function as <<>>, and a set's elements are sorted and distinct. Infinite
// and large sets (Nat, Int, STRING, Seq(S), SUBSET S, [S -> T], a..b) stay symbolic until
// something enumerates them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace omnilink::language {

/// An evaluation error TLC would report as one (an overflow, a comparison of an integer with a
/// string, a function applied outside its domain, CHOOSE with nothing to choose).
class EvalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ValueNode;

class Value {
 public:
  enum class Kind : std::uint8_t { Bool, Int, String, Model, Seq, Fcn, Set, Symbolic };

  Value() : Value(false) {}
  static Value boolean(bool b);
  static Value integer(std::int64_t i);
  static Value string(std::string s);
  /// The one string value of this text in the process, for the names and literals a spec is
  /// bound with: records' keys compare equal by identity, without comparing their text.
  static Value interned(const std::string& s);
  static Value model(std::string name);  // a model value: equal only to itself
  static Value seq(std::vector<Value> items);
  /// Append(s, item) and Tail(s): like seq() of the new items, with the hash derived from s's in
  /// constant time.
  static Value appended(const Value& sequence, Value item);
  static Value tail(const Value& sequence);
  /// A function from keys[k] to values[k]; keys need not be sorted or distinct-checked by the
  /// caller (a repeated key is an error). Normalised: domain 1..n becomes a sequence.
  static Value function(std::vector<Value> keys, std::vector<Value> values);
  /// A function on keys sorted, distinct and not 1..n already (a record constructor's fields,
  /// sorted once when it is bound; the keys of a function EXCEPT changes): not checked again.
  static Value sorted_function(const std::vector<Value>& keys, std::vector<Value> values);
  static Value set(std::vector<Value> elements);  // sorted and deduplicated here

  // Symbolic sets.
  static Value nat();
  static Value integers();
  static Value strings();
  static Value interval(std::int64_t low, std::int64_t high);
  static Value seq_set(Value of);                // Seq(S)
  static Value subset(Value of);                 // SUBSET S
  static Value function_set(Value domain, Value range);  // [S -> T]
  static Value record_set(std::vector<std::string> fields, std::vector<Value> sets);  // [f : S, ...]
  static Value product(std::vector<Value> sets);  // S \X T \X ...

  Kind kind() const { return kind_; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_int() const { return kind_ == Kind::Int; }
  bool is_string() const { return kind_ == Kind::String; }
  bool is_function() const { return kind_ == Kind::Seq || kind_ == Kind::Fcn; }
  bool is_set() const { return kind_ == Kind::Set || kind_ == Kind::Symbolic; }
  /// The value as it is stored inside another value or a state: a finite symbolic set (1..3,
  /// SUBSET S) becomes its elements, so that {1..3} = {{1, 2, 3}} and both fingerprint alike,
  /// as TLC normalises before comparing or fingerprinting. Anything else is returned as it is.
  Value canonical() const;

  bool as_bool() const;         // EvalError unless a boolean
  std::int64_t as_int() const;  // EvalError unless an integer
  const std::string& as_string() const;  // strings and model values (their name)

  /// A sequence's items (EvalError unless a function with domain 1..n).
  const std::vector<Value>& items() const;
  /// A non-sequence function's keys and values (sorted by key).
  const std::vector<Value>& keys() const;
  const std::vector<Value>& values() const;

  // Functions.
  std::vector<Value> domain() const;          // sorted
  std::optional<Value> apply(const Value& argument) const;  // nullopt outside the domain
  Value except(const Value& argument, Value new_value) const;  // EvalError outside the domain

  // Sets.
  bool finite() const;
  bool contains(const Value& v) const;  // EvalError where TLC cannot decide it
  /// Every element, sorted (EvalError for an infinite set).
  std::vector<Value> elements() const;
  /// A finite set's elements as it holds them, sorted, without a copy (EvalError for a symbolic
  /// set: elements() enumerates those).
  const std::vector<Value>& members() const;
  std::size_t cardinality() const;
  /// A symbolic interval's ends (a..b); nullopt for any other value.
  std::optional<std::pair<std::int64_t, std::int64_t>> interval_ends() const;

  /// TLC's `=`: EvalError when the two cannot be compared (an integer and a string, say).
  bool equals(const Value& other) const;
  /// A total order on canonical values, for sorting sets; not TLA+'s `<`. Within a kind it is
  /// TLC's order (sets, sequences and functions by size first), so that CHOOSE picks what TLC
  /// picks; strings are ordered by their bytes, where TLC orders them by when it first read them.
  int compare(const Value& other) const;
  bool operator==(const Value& other) const { return compare(other) == 0; }
  bool operator<(const Value& other) const { return compare(other) < 0; }
  std::uint64_t hash() const;

  /// TLA+ text as TLC prints it (ToString): <<1, 2>>, [a |-> 1], (1 :> 2 @@ 3 :> 4), {1, 2}.
  std::string text() const;
  /// The kind in words, for errors ("an integer", "a set").
  std::string describe() const;

  const ValueNode* node() const { return node_.get(); }
  static Value from_node(std::shared_ptr<const ValueNode> node);  // its kind is the node's

 private:
  /// Where `argument` is among a function's keys; their number if it is not.
  std::size_t key_index(const Value& argument) const;
  Value(Kind kind, std::int64_t scalar, std::shared_ptr<const ValueNode> node)
      : kind_(kind), scalar_(scalar), node_(std::move(node)) {}
  explicit Value(bool b) : kind_(Kind::Bool), scalar_(b ? 1 : 0) {}

  Kind kind_;
  std::int64_t scalar_ = 0;
  std::shared_ptr<const ValueNode> node_;
};

/// The fingerprint of a tuple of values (a state): 128 bits, so that a collision, which would
/// make the search skip a state it never explored, is practically impossible.
struct Fingerprint {
  std::uint64_t high = 0, low = 0;
  bool operator==(const Fingerprint&) const = default;
};
Fingerprint fingerprint(const std::vector<Value>& values, Fingerprint seed = {});

/// A fingerprint built from parts, in order: what fingerprint() is for a state's values, for a
/// caller that hashes a state it does not build (checkers/dead_values.hpp).
class Fingerprinter {
 public:
  explicit Fingerprinter(Fingerprint seed = {}) : sum_(seed) {}
  /// As fingerprint() absorbs a value: by its own hash (own_hash), a node's cached.
  void add(const Value& v);
  void add(std::uint64_t word);
  void add(const Fingerprint& part) {
    add(part.low);
    add(part.high);
  }
  Fingerprint result() const { return sum_; }

 private:
  Fingerprint sum_;
};
/// A value's own 128-bit hash: a scalar's from its kind and bits, a node's cached.
Fingerprint own_hash(const Value& v);
/// Two hashes mixed into one, each lane apart: a part of a collection hashed as the sum of its
/// parts (a set's element and {}, a function's key and value), so that parts whose hashes are
/// related do not cancel in the sum.
Fingerprint mixed_pair(const Fingerprint& first, const Fingerprint& second);

/// Integer arithmetic on 64-bit integers, as TLC's on its 32-bit ones: a result that does not fit
/// is an EvalError naming `operation`, never a wrap.
std::int64_t checked_add(std::int64_t a, std::int64_t b, const char* operation);
std::int64_t checked_sub(std::int64_t a, std::int64_t b, const char* operation);
std::int64_t checked_mul(std::int64_t a, std::int64_t b, const char* operation);

}  // namespace omnilink::language
