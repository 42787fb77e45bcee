// The standard operators the evaluator computes itself (Evaluator::builtin): logic, sets and
// functions, integers (Naturals and Integers; TLC's 32-bit range when asked, overflow checked),
// sequences, FiniteSets, TLC's operators and OmniLinkTrace's hook. A table of operators a few lines
// each, kept apart from how expressions and actions are evaluated (evaluator.cpp).
#include <algorithm>
#include <iostream>
#include <limits>

#include "language/evaluator.hpp"

namespace omnilink::language {

namespace {
/// Integer division rounding toward minus infinity, as TLA+'s \div does (C++ rounds toward 0).
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
}  // namespace

Value Evaluator::builtin(const Expr& e) {
  auto arg = [&](std::size_t k) { return eval(*e.kids.at(k)); };
  auto integer = [&](std::size_t k) {
    const Value v = arg(k);
    if (!v.is_int()) fail(*e.kids[k], "expected an integer, got " + v.describe() + ": " + v.text());
    return v.as_int();
  };
  auto set = [&](std::size_t k) {
    const Value v = arg(k);
    if (!v.is_set()) fail(*e.kids[k], "expected a set, got " + v.describe() + ": " + v.text());
    return v;
  };
  auto sequence = [&](std::size_t k) {
    const Value v = arg(k);
    if (v.kind() != Value::Kind::Seq) fail(*e.kids[k], "expected a sequence, got " + v.describe() + ": " + v.text());
    return v;
  };
  auto boolean = [&](std::size_t k) { return truth(*e.kids.at(k)); };
  auto B = Value::boolean;
  const char* const operation = e.text.c_str();
  auto I = [&](std::int64_t v) {
    if (tlc_integers_ && (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max()))
      fail(e, "integer overflow in " + e.text + ": " + std::to_string(v) + " is outside TLC's 32-bit integers");
    return Value::integer(v);
  };
  switch (e.builtin) {
    case Builtin::Not: return B(!boolean(0));
    case Builtin::And: return B(boolean(0) && boolean(1));  // /\ passed as an operator
    case Builtin::Or: return B(boolean(0) || boolean(1));
    case Builtin::TLCEval: return arg(0);
    case Builtin::Implies: return B(!boolean(0) || boolean(1));
    case Builtin::Equiv: return B(boolean(0) == boolean(1));
    case Builtin::Eq: return B(arg(0).equals(arg(1)));
    case Builtin::Neq: return B(!arg(0).equals(arg(1)));
    case Builtin::In: { const Value x = arg(0); return B(set(1).contains(x)); }
    case Builtin::NotIn: { const Value x = arg(0); return B(!set(1).contains(x)); }
    case Builtin::Cup: {
      std::vector<Value> a = set(0).elements(), b = set(1).elements();
      a.insert(a.end(), b.begin(), b.end());
      return Value::set(std::move(a));
    }
    case Builtin::Cap: {
      const Value a = set(0), b = set(1);
      const Value& finite = a.finite() ? a : b;
      const Value& other = a.finite() ? b : a;
      std::vector<Value> out;
      for (const Value& x : finite.elements())
        if (other.contains(x)) out.push_back(x);
      return Value::set(std::move(out));
    }
    case Builtin::SetMinus: {
      const Value a = set(0), b = set(1);
      std::vector<Value> out;
      for (const Value& x : a.elements())
        if (!b.contains(x)) out.push_back(x);
      return Value::set(std::move(out));
    }
    case Builtin::Subseteq: {
      const Value a = set(0), b = set(1);
      for (const Value& x : a.elements())
        if (!b.contains(x)) return B(false);
      return B(true);
    }
    case Builtin::Subset: return Value::subset(set(0));
    case Builtin::Union: {
      std::vector<Value> out;
      for (const Value& s : set(0).elements()) {
        if (!s.is_set()) fail(e, "UNION of a set that holds " + s.describe() + ": " + s.text());
        for (const Value& x : s.elements()) out.push_back(x);
      }
      return Value::set(std::move(out));
    }
    case Builtin::Domain: {
      const Value f = arg(0);
      if (!f.is_function()) fail(e, "DOMAIN of " + f.describe() + ": " + f.text());
      // A sequence's domain is 1..Len(s), kept symbolic as TLC keeps it: a test of membership or
      // a loop over it need not build it.
      if (f.kind() == Value::Kind::Seq) return Value::interval(1, static_cast<std::int64_t>(f.items().size()));
      return Value::set(f.domain());
    }
    case Builtin::Times: {
      std::vector<Value> sets;
      for (std::size_t k = 0; k < e.kids.size(); ++k) sets.push_back(set(k));
      return Value::product(std::move(sets));
    }
    case Builtin::Plus: return I(checked_add(integer(0), integer(1), operation));
    case Builtin::Minus: return I(checked_sub(integer(0), integer(1), operation));
    case Builtin::Negate: return I(checked_sub(0, integer(0), operation));
    case Builtin::Mul: return I(checked_mul(integer(0), integer(1), operation));
    case Builtin::Div: {
      const std::int64_t a = integer(0), b = integer(1);
      if (b == 0) fail(e, "division by zero");
      if (b == -1) return I(checked_sub(0, a, operation));  // the one quotient outside 64 bits
      return I(floor_div(a, b));
    }
    case Builtin::Mod: {
      const std::int64_t a = integer(0), b = integer(1);
      if (b <= 0) fail(e, "the divisor of % must be positive, not " + std::to_string(b));
      const std::int64_t r = a % b;  // a - b * floor(a / b), without the product's overflow
      return I(r < 0 ? r + b : r);
    }
    case Builtin::Pow: {
      const std::int64_t a = integer(0), b = integer(1);
      if (b < 0) fail(e, "a negative exponent");
      if (a == 0 && b == 0) fail(e, "0^0 is undefined (as in TLC)");
      std::int64_t r = 1;
      // Squaring, so that 1^(2^62) is 62 steps; every product is checked (TLC's is too).
      for (std::int64_t base = a, n = b; n > 0; n >>= 1) {
        if (n & 1) r = checked_mul(r, base, operation);
        if (n > 1) base = checked_mul(base, base, operation);
      }
      return I(r);
    }
    case Builtin::Lt: return B(integer(0) < integer(1));
    case Builtin::Leq: return B(integer(0) <= integer(1));
    case Builtin::Gt: return B(integer(0) > integer(1));
    case Builtin::Geq: return B(integer(0) >= integer(1));
    case Builtin::Range: return Value::interval(integer(0), integer(1));
    case Builtin::Nat: return Value::nat();
    case Builtin::Int: return Value::integers();
    case Builtin::Seq: return Value::seq_set(set(0));
    // Strings are TLC's own values, not sequences: Len, Tail, \o and SubSeq take them as TLC does
    // (a string result); Head, Append, s[i] and Seq(S) membership do not.
    case Builtin::Len: {
      const Value s = arg(0);
      if (s.is_string()) return I(static_cast<std::int64_t>(s.as_string().size()));
      if (s.kind() != Value::Kind::Seq) fail(*e.kids[0], "expected a sequence, got " + s.describe() + ": " + s.text());
      return I(static_cast<std::int64_t>(s.items().size()));
    }
    case Builtin::Append: return Value::appended(sequence(0), arg(1));
    case Builtin::Head: {
      const Value s = sequence(0);
      if (s.items().empty()) fail(e, "Head of the empty sequence");
      return s.items().front();
    }
    case Builtin::Tail: {
      const Value s = arg(0);
      if (s.is_string()) {
        if (s.as_string().empty()) fail(e, "Tail of the empty string");
        return Value::string(s.as_string().substr(1));
      }
      if (s.kind() != Value::Kind::Seq) fail(*e.kids[0], "expected a sequence, got " + s.describe() + ": " + s.text());
      if (s.items().empty()) fail(e, "Tail of the empty sequence");
      return Value::tail(s);
    }
    case Builtin::Concat: {
      const Value a = arg(0), b = arg(1);
      if (a.is_string() || b.is_string()) {
        if (!a.is_string() || !b.is_string()) fail(e, "\\o of a string and " + (a.is_string() ? b : a).describe() + " (TLC concatenates two strings or two sequences)");
        return Value::string(a.as_string() + b.as_string());
      }
      if (a.kind() != Value::Kind::Seq) fail(*e.kids[0], "expected a sequence, got " + a.describe() + ": " + a.text());
      if (b.kind() != Value::Kind::Seq) fail(*e.kids[1], "expected a sequence, got " + b.describe() + ": " + b.text());
      std::vector<Value> items = a.items();
      items.insert(items.end(), b.items().begin(), b.items().end());
      return Value::seq(std::move(items));
    }
    case Builtin::SubSeq: {
      const Value s = arg(0);
      const std::int64_t m = integer(1), n = integer(2);
      const std::size_t length = s.is_string() ? s.as_string().size() : sequence(0).items().size();
      if (m > n) return s.is_string() ? Value::string("") : Value::seq({});
      if (m < 1 || n > static_cast<std::int64_t>(length))
        fail(e, "SubSeq(s, " + std::to_string(m) + ", " + std::to_string(n) + ") of a " + (s.is_string() ? "string" : "sequence") +
                    " of length " + std::to_string(length));
      if (s.is_string()) return Value::string(s.as_string().substr(m - 1, n - m + 1));
      return Value::seq(std::vector<Value>(s.items().begin() + (m - 1), s.items().begin() + n));
    }
    case Builtin::SelectSeq: {
      const Value s = sequence(0);
      const Closure test = closure_of(*e.kids[1], /*applied_here=*/true);
      std::vector<Value> kept;
      for (const Value& x : s.items()) {
        const Value keep = apply_closure(test, {x}, e);
        if (!keep.is_bool()) fail(e, "the test of SelectSeq gave " + keep.describe() + ", not a boolean");
        if (keep.as_bool()) kept.push_back(x);
      }
      return Value::seq(std::move(kept));
    }
    case Builtin::SortSeq: {
      std::vector<Value> items = sequence(0).items();
      const Closure less = closure_of(*e.kids[1], /*applied_here=*/true);
      // std::stable_sort needs a strict weak order; an error thrown by the comparison leaves it.
      std::stable_sort(items.begin(), items.end(), [&](const Value& a, const Value& b) {
        const Value r = apply_closure(less, {a, b}, e);
        if (!r.is_bool()) fail(e, "the order of SortSeq gave " + r.describe() + ", not a boolean");
        return r.as_bool();
      });
      return Value::seq(std::move(items));
    }
    case Builtin::Cardinality: return I(static_cast<std::int64_t>(set(0).cardinality()));
    case Builtin::IsFiniteSet: return B(set(0).finite());
    case Builtin::MapsTo: return Value::function({arg(0)}, {arg(1)});
    case Builtin::Compose: {
      const Value f = arg(0), g = arg(1);
      if (!f.is_function() || !g.is_function()) fail(e, "@@ of something that is not a function");
      std::vector<Value> keys = f.domain(), values;
      for (const Value& k : keys) values.push_back(*f.apply(k));
      for (const Value& k : g.domain())
        if (!f.apply(k)) keys.push_back(k), values.push_back(*g.apply(k));
      return Value::function(std::move(keys), std::move(values));
    }
    case Builtin::Assert: {
      if (boolean(0)) return B(true);
      const Value message = arg(1);
      fail(e, "Assert failed: " + (message.is_string() ? message.as_string() : message.text()));
    }
    case Builtin::ToString: return Value::string(arg(0).text());
    case Builtin::Print: {
      const Value out = arg(0), v = arg(1);
      std::cerr << out.text() << "  " << v.text() << "\n";
      return v;
    }
    case Builtin::PrintT: std::cerr << arg(0).text() << "\n"; return B(true);
    case Builtin::Permutations: {
      std::vector<Value> s = set(0).elements(), out;
      if (s.size() > 9) fail(e, "Permutations of a set of " + std::to_string(s.size()) + " elements");
      std::vector<Value> image = s;
      do out.push_back(Value::function(s, image));
      while (std::next_permutation(image.begin(), image.end()));
      return Value::set(std::move(out));
    }
    case Builtin::OmniLinkFieldValues: {
      if (!hooks_.field_values) fail(e, "OmniLinkFieldValues needs a trace");
      const Value op = arg(0);
      return hooks_.field_values(op.as_string(), integer(1));
    }
    case Builtin::Cdot:
      fail(e, "action composition (\\cdot) where a value is expected: it is an action, for Next");
    default:
      fail(e, "internal: builtin not evaluated");
  }
}

}  // namespace omnilink::language
