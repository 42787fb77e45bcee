// The embedded checker's TLA+ (language/): every construct of the fragment named in
// docs/validation.md evaluates as TLC does, actions enumerate every successor TLC would, and
// anything outside the fragment is refused at load time with its file:line:col.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "language/evaluator.hpp"
#include "language/explorer.hpp"
#include "language/tlc_config.hpp"
#include "language/modules.hpp"
#include "language/syntax.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;
using namespace omnilink::language;

namespace {

// Writes `body` as module M (EXTENDS the standard modules) and loads it.
std::unique_ptr<LoadedSpec> load(const omnilink::testing::ScratchDir& dir, const std::string& body,
                                 const std::string& extends = "Naturals, Integers, Sequences, FiniteSets, TLC") {
  const fs::path file = dir.path() / "M.tla";
  std::ofstream(file) << "---- MODULE M ----\nEXTENDS " << extends << "\n" << body << "\n====\n";
  return LoadedSpec::load(file, std::nullopt);
}

// The successors of `from` by the parameterless action `name`, each as TLA+ text, in order.
std::string successors_text(Evaluator& ev, LoadedSpec& spec, const std::string& name, const State& from) {
  std::vector<State> out;
  ev.successors(*spec.spec_definition(name), {}, from, out);
  std::string text;
  for (const auto& st : out) text += Value::seq(st).text();
  return text;
}

enum class Integers { native, tlc };

// The TLA+ text of constant expression `expr`, as TLC's ToString prints it.
std::string value_of(const std::string& expr, const std::string& definitions = "", Integers integers = Integers::native) {
  omnilink::testing::ScratchDir dir;
  auto spec = load(dir, definitions + "\nResult == " + expr);
  Evaluator evaluator(*spec);
  if (integers == Integers::tlc) evaluator.use_tlc_integers();
  return evaluator.evaluate(*spec->spec_definition("Result"), {}).text();
}

std::string error_of(const std::string& expr, const std::string& definitions = "", Integers integers = Integers::native) {
  try {
    value_of(expr, definitions, integers);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("integers, booleans and strings evaluate as in TLC", "[language]") {
  CHECK(value_of("1 + 2 * 3") == "7");
  CHECK(value_of("(-7) \\div 2") == "-4");  // \div rounds down
  CHECK(value_of("-7 \\div 2") == "-3");    // unary minus binds looser than \div
  CHECK(value_of("-7 % 2") == "1");
  CHECK(value_of("2 ^ 10") == "1024");
  CHECK(value_of("<<1 < 2, 2 <= 2, 3 > 4, 4 >= 5>>") == "<<TRUE, TRUE, FALSE, FALSE>>");
  CHECK(value_of("~TRUE \\/ (FALSE => FALSE)") == "TRUE");
  CHECK(value_of("TRUE <=> FALSE") == "FALSE");
  CHECK(value_of("\"a\\\"b\"") == "\"a\\\"b\"");
  CHECK(value_of("\"x\" = \"x\" /\\ \"x\" # \"y\"") == "TRUE");
}

TEST_CASE("integers are 64-bit, and overflow is an error, never a wrap", "[language]") {
  // Timestamps as MongoDB makes them (seconds << 32 | counter), ids, hashes: past TLC's 32 bits.
  CHECK(value_of("2147483647 + 1") == "2147483648");
  CHECK(value_of("1795000000 * 4294967296 + 7") == "7709466296320000007");
  CHECK(value_of("9223372036854775807") == "9223372036854775807");
  CHECK(value_of("2 ^ 62") == "4611686018427387904");
  CHECK(value_of("-9223372036854775807 - 1") == "-9223372036854775808");
  CHECK(value_of("(-9223372036854775807 - 1) % 10") == "2");
  CHECK(value_of("(-9223372036854775807 - 1) \\div 10") == "-922337203685477581");
  CHECK(value_of("1 ^ 4611686018427387904") == "1");  // by squaring: 62 products, not 2^62
  CHECK(value_of("4294967296 \\in 0..9223372036854775807") == "TRUE");
  CHECK_THAT(error_of("9223372036854775807 + 1"), Catch::Contains("overflow"));
  CHECK_THAT(error_of("2 ^ 63"), Catch::Contains("overflow"));
  CHECK_THAT(error_of("-9223372036854775807 - 2"), Catch::Contains("overflow"));
  CHECK_THAT(error_of("4294967296 * 4294967296"), Catch::Contains("overflow"));
  CHECK_THAT(error_of("-(-9223372036854775807 - 1)"), Catch::Contains("overflow"));
  CHECK_THAT(error_of("(-9223372036854775807 - 1) \\div (-1)"), Catch::Contains("overflow"));
  CHECK_THAT(error_of("Cardinality(-1..9223372036854775807)"), Catch::Contains("outside 64-bit integers"));
  CHECK_THAT(error_of("9223372036854775808"), Catch::Contains("does not fit 64-bit integers"));
  CHECK_THAT(error_of("1 \\div 0"), Catch::Contains("division by zero"));
  // Found by the random comparison with TLC (evaluator_vs_tlc_test): TLC leaves 0^0 undefined.
  CHECK_THAT(error_of("0 ^ 0"), Catch::Contains("0^0 is undefined"));
  CHECK(value_of("<<0 ^ 1, 5 ^ 0>>") == "<<0, 1>>");
}

TEST_CASE("with TLC's integers, a result outside 32 bits is TLC's overflow error", "[language]") {
  CHECK_THAT(error_of("2147483647 + 1", "", Integers::tlc), Catch::Contains("overflow") && Catch::Contains("32-bit"));
  CHECK_THAT(error_of("2 ^ 31", "", Integers::tlc), Catch::Contains("overflow"));
  CHECK_THAT(error_of("-2147483647 - 2", "", Integers::tlc), Catch::Contains("overflow"));
  CHECK(value_of("-2147483647 - 1", "", Integers::tlc) == "-2147483648");
  CHECK(value_of("(2147483647 + 0) \\div 2", "", Integers::tlc) == "1073741823");
}

TEST_CASE("comparing values of different kinds is an error, as in TLC", "[language]") {
  CHECK_THAT(error_of("1 = \"a\""), Catch::Contains("attempted to compare"));
  CHECK_THAT(error_of("1 = \"a\""), Catch::Contains("M.tla:"));
}

TEST_CASE("sets: enumeration, filter, map, operators, SUBSET, UNION", "[language]") {
  CHECK(value_of("{3, 1, 2, 1}") == "{1, 2, 3}");
  CHECK(value_of("{x \\in 1..6 : x % 2 = 0}") == "{2, 4, 6}");
  CHECK(value_of("{x * y : x \\in {1, 2}, y \\in {10, 20}}") == "{10, 20, 40}");
  CHECK(value_of("{a + b : <<a, b>> \\in {<<1, 2>>, <<3, 4>>}}") == "{3, 7}");
  CHECK(value_of("({1, 2} \\cup {3}) \\ {1}") == "{2, 3}");
  CHECK(value_of("{1, 2} \\cap 2..5") == "{2}");
  CHECK(value_of("<<{1} \\subseteq {1, 2}, {3} \\subseteq {1, 2}, 3 \\notin {1}>>") == "<<TRUE, FALSE, TRUE>>");
  CHECK(value_of("{s : s \\in SUBSET {1, 2}}") == "{{}, {1}, {2}, {1, 2}}");  // TLC's order: by size first
  CHECK(value_of("SUBSET {1, 2}") == "SUBSET {1, 2}");  // kept symbolic, as TLC prints it
  CHECK(value_of("UNION {{1}, {2, 3}}") == "{1, 2, 3}");
  CHECK(value_of("Cardinality(1..10) + Cardinality({})") == "10");
  CHECK(value_of("<<5 \\in Nat, -1 \\in Nat, -1 \\in Int, \"s\" \\in STRING, IsFiniteSet(1..3)>>") == "<<TRUE, FALSE, TRUE, TRUE, TRUE>>");
  CHECK(value_of("{p : p \\in {1, 2} \\X {\"a\"}}") == "{<<1, \"a\">>, <<2, \"a\">>}");
  CHECK(value_of("{} = {x \\in {1} : FALSE}") == "TRUE");
  CHECK(value_of("BOOLEAN") == "{FALSE, TRUE}");
}

TEST_CASE("quantifiers, CHOOSE, IF, CASE, LET", "[language]") {
  CHECK(value_of("\\E x \\in 1..3 : x > 2") == "TRUE");
  CHECK(value_of("\\A x, y \\in 1..3 : x + y < 6") == "FALSE");
  CHECK(value_of("\\A x \\in {} : FALSE") == "TRUE");
  CHECK(value_of("CHOOSE x \\in 1..10 : x * x > 10") == "4");
  CHECK_THAT(error_of("CHOOSE x \\in 1..3 : x > 5"), Catch::Contains("CHOOSE found no element"));
  CHECK(value_of("IF 1 > 2 THEN \"a\" ELSE \"b\"") == "\"b\"");
  CHECK(value_of("CASE 1 > 2 -> 1 [] 2 > 1 -> 2 [] OTHER -> 3") == "2");
  CHECK(value_of("CASE 1 > 2 -> 1 [] OTHER -> 3") == "3");
  CHECK_THAT(error_of("CASE 1 > 2 -> 1"), Catch::Contains("no CASE arm applies"));
  CHECK(value_of("LET Sq(n) == n * n  K == 3 IN Sq(K) + 1") == "10");
  CHECK(value_of("/\\ TRUE\n  /\\ \\/ FALSE\n     \\/ TRUE") == "TRUE");
}

TEST_CASE("functions, records, sequences, EXCEPT with @", "[language]") {
  CHECK(value_of("[x \\in 1..3 |-> x * 2]") == "<<2, 4, 6>>");  // domain 1..n: a sequence, as in TLC
  CHECK(value_of("[x \\in {\"a\", \"b\"} |-> 0]") == "[a |-> 0, b |-> 0]");
  CHECK(value_of("[x \\in {2, 3} |-> x]") == "(2 :> 2 @@ 3 :> 3)");
  CHECK(value_of("[x \\in 1..3 |-> x][2]") == "2");
  CHECK(value_of("[a |-> 1, b |-> \"s\"].b") == "\"s\"");
  CHECK(value_of("[a |-> 1, b |-> 2] = [b |-> 2, a |-> 1]") == "TRUE");
  CHECK(value_of("[[a |-> 1, b |-> <<1, 2>>] EXCEPT !.a = @ + 10, !.b[2] = 7]") == "[a |-> 11, b |-> <<1, 7>>]");
  CHECK(value_of("[f EXCEPT ![2] = \"x\"]", "f == <<1, 2, 3>>") == "<<1, \"x\", 3>>");
  CHECK(value_of("DOMAIN [a |-> 1, b |-> 2]") == "{\"a\", \"b\"}");
  CHECK(value_of("<<1, 2>> = [i \\in 1..2 |-> i]") == "TRUE");
  CHECK(value_of("(1 :> \"a\" @@ 2 :> \"b\") @@ (2 :> \"c\" @@ 5 :> \"d\")") == "(1 :> \"a\" @@ 2 :> \"b\" @@ 5 :> \"d\")");
  CHECK(value_of("[x, y \\in {1, 2} |-> x + y][<<2, 2>>]") == "4");
  // A tuple of names binds the tuple, in a constructor and a function definition alike.
  CHECK(value_of("<<[<<a>> \\in {<<1>>, <<2>>} |-> a * 10][<<2>>], f[<<2>>], DOMAIN f>>", "f[<<a>> \\in {<<1>>, <<2>>}] == a") ==
        "<<20, 2, {<<1>>, <<2>>}>>");
  CHECK(value_of("{r : r \\in [a : {1, 2}, b : {TRUE}]}") == "{[a |-> 1, b |-> TRUE], [a |-> 2, b |-> TRUE]}");
  CHECK(value_of("{f : f \\in [{1, 2} -> {0}]}") == "{<<0, 0>>}");
  CHECK(value_of("<<[a |-> 5] \\in [a : Nat], <<1, 2>> \\in Seq(Nat), <<1>> \\in [{1} -> {1}]>>") == "<<TRUE, TRUE, TRUE>>");
  CHECK(value_of("Append(<<1>>, 2) \\o <<3>>") == "<<1, 2, 3>>");
  CHECK(value_of("<<Len(<<1, 2>>), Head(<<7, 8>>), Tail(<<7, 8>>), SubSeq(<<1, 2, 3, 4>>, 2, 3), SubSeq(<<1>>, 2, 1)>>") ==
        "<<2, 7, <<8>>, <<2, 3>>, <<>>>>");
  CHECK_THAT(error_of("Head(<<>>)"), Catch::Contains("Head of the empty sequence"));
  CHECK_THAT(error_of("<<1, 2>>[3]"), Catch::Contains("not in the domain"));
  CHECK_THAT(error_of("[a |-> 1].b"), Catch::Contains("no field b"));
  // Found by the random comparison with TLC: EXCEPT at a key outside the domain changes nothing
  // (and the new value is not evaluated).
  CHECK(value_of("<<[<<1, 2>> EXCEPT ![3] = 1 \\div 0], [[a |-> 1] EXCEPT !.b = 2], [(3 :> 4) EXCEPT ![6][1] = 0]>>") ==
        "<<<<1, 2>>, [a |-> 1], (3 :> 4)>>");
}

TEST_CASE("the evaluator's shortcuts give what building the values would: intervals counted, records read by interned names", "[language]") {
  // A sequence's domain is the interval 1..n, as TLC keeps it, and the same set as its elements.
  CHECK(value_of("DOMAIN <<\"x\", \"y\">>") == "1..2");
  CHECK(value_of("<<DOMAIN <<5, 6>> = {1, 2}, 2 \\in DOMAIN <<5, 6>>, 3 \\in DOMAIN <<5, 6>>, {DOMAIN <<5>>} = {{1}}>>") ==
        "<<TRUE, TRUE, FALSE, TRUE>>");
  // A quantifier, filter, constructor or CHOOSE over an interval counts it: in order, to its last
  // integer, without overflowing past the largest.
  CHECK(value_of("[k \\in DOMAIN <<5, 6, 7>> |-> k * 10]") == "<<10, 20, 30>>");
  CHECK(value_of("{i \\in DOMAIN <<5, 6, 7>> : i > 1}") == "{2, 3}");
  CHECK(value_of("CHOOSE i \\in DOMAIN <<1, 1, 1>> : i > 1") == "2");
  CHECK(value_of("<<\\A i \\in 1..Len(<<1, 2>>) : i < 3, \\E i \\in 1..0 : TRUE, \\E i \\in 3..3 : i = 3>>") == "<<TRUE, FALSE, TRUE>>");
  CHECK(value_of("Cardinality({i \\in 9223372036854775806..9223372036854775807 : TRUE})") == "2");
  CHECK(value_of("\\E i \\in 9223372036854775806..9223372036854775807 : i = 9223372036854775807") == "TRUE");
  CHECK_THAT(error_of("\\E i \\in 1..\"a\" : TRUE"), Catch::Contains("M.tla:"));
  // A record's field is found by its interned name, and a function with the same string keys,
  // built otherwise, is the same record.
  CHECK(value_of("<<(\"a\" :> 1 @@ \"b\" :> 2).b, [[a |-> 1, b |-> 2] EXCEPT !.b = 3].b>>") == "<<2, 3>>");
  CHECK(value_of("<<[a |-> 1, b |-> 2] = (\"a\" :> 1 @@ \"b\" :> 2), [(\"a\" :> 1 @@ \"b\" :> 2) EXCEPT !.a = 5] = [a |-> 5, b |-> 2]>>") ==
        "<<TRUE, TRUE>>");
  CHECK_THAT(error_of("[a |-> 1, b |-> 2, a |-> 3]"), Catch::Contains("M.tla:") && Catch::Contains("names the field a twice"));
  // A set given in order, with a repeat, is still a set.
  CHECK(value_of("<<{1, 2, 2}, Cardinality({1, 2, 2, 3})>>") == "<<{1, 2}, 3>>");
}

TEST_CASE("values are canonical inside other values, ordered and compared as TLC does", "[language]") {
  // A finite set written as an interval or SUBSET is the same value as its elements, wherever it is.
  CHECK(value_of("<<{1..3} = {{1, 2, 3}}, <<1..2>> = <<{1, 2}>>, [a |-> 1..2] = [a |-> {1, 2}]>>") == "<<TRUE, TRUE, TRUE>>");
  CHECK(value_of("<<1..2 \\in {{1, 2}}, (({1, 2}) :> 5)[1..2], Cardinality({1..2, {1, 2}})>>") == "<<TRUE, 5, 1>>");
  CHECK(value_of("SUBSET {1} \\in {{{}, {1}}}") == "TRUE");
  // TLC orders sets, sequences and records by size first, which decides what CHOOSE picks.
  CHECK(value_of("CHOOSE s \\in {{5}, {1, 2}} : TRUE") == "{5}");
  CHECK(value_of("CHOOSE s \\in {<<9>>, <<1, 1>>} : TRUE") == "<<9>>");
  CHECK(value_of("CHOOSE r \\in {[a |-> 9], [a |-> 1, b |-> 1]} : TRUE") == "[a |-> 9]");
  // A set of values TLC cannot compare is TLC's error, not a value.
  CHECK_THAT(error_of("{1, \"a\"}"), Catch::Contains("cannot be compared"));
  CHECK_THAT(error_of("Cardinality(UNION {{1}, {TRUE}})"), Catch::Contains("cannot be compared"));
  CHECK_THAT(error_of("Cardinality({<<1>>, {1}})"), Catch::Contains("cannot be compared"));
  CHECK(value_of("Cardinality({<<1>>, (2 :> 3)})") == "2");  // a sequence is a function
}

TEST_CASE("RECURSIVE operators and recursive function definitions", "[language]") {
  CHECK(value_of("Fact(5)", "RECURSIVE Fact(_)\nFact(n) == IF n = 0 THEN 1 ELSE n * Fact(n - 1)") == "120");
  CHECK(value_of("fact[6]", "fact[n \\in Nat] == IF n = 0 THEN 1 ELSE n * fact[n - 1]") == "720");
  CHECK(value_of("Sum(<<1, 2, 3>>)",
                 "RECURSIVE Sum(_)\nSum(s) == IF s = <<>> THEN 0 ELSE LET h == Head(s) IN h + Sum(Tail(s))") == "6");
  // A LET definition used before its LET reaches it sees the names in force at the LET.
  CHECK(value_of("\\E x \\in {1} : LET RECURSIVE B\n A == B + x\n B == x + 1 IN A = 3") == "TRUE");
  CHECK_THAT(error_of("Loop(1)", "RECURSIVE Loop(_)\nLoop(n) == Loop(n + 1)"), Catch::Contains("recursion deeper"));
}

TEST_CASE("TLC module operators: :>, @@, Assert, ToString, Permutations", "[language]") {
  CHECK(value_of("ToString(<<1, \"a\", {TRUE}>>)") == "\"<<1, \\\"a\\\", {TRUE}>>\"");
  CHECK(value_of("Assert(1 = 1, \"fine\")") == "TRUE");
  CHECK_THAT(error_of("Assert(1 = 2, \"the message\")"), Catch::Contains("Assert failed: the message"));
  CHECK(value_of("Cardinality(Permutations({1, 2, 3}))") == "6");
}

TEST_CASE("actions enumerate every successor TLC would", "[language]") {
  omnilink::testing::ScratchDir dir;
  auto spec = load(dir, R"(VARIABLES x, y
Init == x = 0 /\ y \in {1, 2}
Inc(n) == x' = x + n /\ UNCHANGED y
Pick == \E v \in {1, 2, 3} : x' = v /\ y' = y
Either == \/ x' = 1 /\ y' = 1
          \/ x' \in {7, 8} /\ y' = y
Guarded(n) == /\ n > x
              /\ x' = n
              /\ y' = IF n > 5 THEN 0 ELSE y
Test == x' = 5 /\ x' = 5 /\ x' > 4 /\ y' = y
Fails == x' = 5 /\ x' = 6 /\ y' = y
Partial == x' = 1
Cond(b) == IF b THEN x' = 1 /\ y' = 1 ELSE UNCHANGED <<x, y>>
Vars == <<x, y>>
Stutter == UNCHANGED Vars
Cased(n) == CASE n = 1 -> x' = 10 /\ y' = y [] OTHER -> x' = 20 /\ y' = y)");
  Evaluator ev(*spec);
  auto text = [](const std::vector<State>& states) {
    std::string s;
    for (const auto& st : states) s += "[" + st[0].text() + "," + st[1].text() + "]";
    return s;
  };
  const auto init = ev.initial_states(*spec->spec_definition("Init"));
  CHECK(text(init) == "[0,1][0,2]");
  const State s{Value::integer(3), Value::integer(1)};
  auto next = [&](const std::string& action, std::vector<Value> args = {}) {
    std::vector<State> out;
    ev.successors(*spec->spec_definition(action), args, s, out);
    return text(out);
  };
  CHECK(next("Inc", {Value::integer(2)}) == "[5,1]");
  CHECK(next("Pick") == "[1,1][2,1][3,1]");
  CHECK(next("Either") == "[1,1][7,1][8,1]");
  CHECK(next("Guarded", {Value::integer(2)}).empty());
  CHECK(next("Guarded", {Value::integer(9)}) == "[9,0]");
  CHECK(next("Test") == "[5,1]");
  CHECK(next("Fails").empty());
  CHECK(next("Cond", {Value::boolean(true)}) == "[1,1]");
  CHECK(next("Cond", {Value::boolean(false)}) == "[3,1]");
  CHECK(next("Stutter") == "[3,1]");
  CHECK(next("Cased", {Value::integer(1)}) == "[10,1]");
  CHECK(next("Cased", {Value::integer(2)}) == "[20,1]");
  CHECK_THROWS_WITH(next("Partial"), Catch::Contains("does not determine y'"));
}

TEST_CASE("a variable an action has yet to assign, passed to an operator, is assigned through its parameter, as in TLC",
          "[language]") {
  // Specifying Systems' MemoryInterface: Send(p, d, memInt, memInt') with Send <- MCSend, where
  // MCSend(p, d, old, new) == new = <<p, d>>. TLC binds arguments lazily; a value would be too early.
  omnilink::testing::ScratchDir dir;
  auto spec = load(dir, R"(VARIABLES x, y
SetTo(v, n) == v = n
Init == SetTo(x, 0) /\ SetTo(y, 0)
Step(old, new) == new = old + 1
Via(new) == Step(10, new)
Both == Step(x, x') /\ Step(y, y')
Nested == Via(x') /\ y' = x' + 1
Again == x' = 4 /\ Step(3, x') /\ UNCHANGED y
Wrong == x' = 5 /\ Step(3, x') /\ UNCHANGED y
Choice == \E k \in {1, 2} : Step(k, x') /\ y' = x'
Early(new) == new > 0 /\ new = 1
ReadsFirst == Early(x') /\ UNCHANGED y)");
  Evaluator ev(*spec);
  const auto init = ev.initial_states(*spec->spec_definition("Init"));
  REQUIRE(init.size() == 1);
  CHECK(Value::seq(init[0]).text() == "<<0, 0>>");
  auto next = [&](const std::string& action) { return successors_text(ev, *spec, action, {Value::integer(3), Value::integer(7)}); };
  CHECK(next("Both") == "<<4, 8>>");
  CHECK(next("Nested") == "<<11, 12>>");  // through two calls, then read back
  CHECK(next("Again") == "<<4, 7>>");     // assigned already: a test
  CHECK(next("Wrong").empty());
  CHECK(next("Choice") == "<<2, 2>><<3, 3>>");
  CHECK_THROWS_WITH(next("ReadsFirst"), Catch::Contains("x' (as new) is read before it is assigned"));
}

TEST_CASE("action composition (cdot): B goes from each state A reaches, as TLC's tlc2.tool.impl.Tool.cdot", "[language]") {
  // The Examples' FiniteMonotonic specs: Increment(n) \cdot Reduction.
  omnilink::testing::ScratchDir dir;
  auto spec = load(dir, R"(VARIABLES x, y
Init == x = 0 /\ y = 0
Inc == x' \in {x + 1, x + 2} /\ y' = y
Double == x' = 2 * x /\ y' = x
Keep == x' = x
Composed == Inc \cdot Double
Then == Keep \cdot (y' = x /\ x' = x + 10)
Either == (Inc \cdot Double) \/ (x' = 100 /\ y' = 100)
Nothing == Inc \cdot (x > 100 /\ x' = x /\ y' = y))");
  Evaluator ev(*spec);
  auto next = [&](const std::string& action) { return successors_text(ev, *spec, action, {Value::integer(3), Value::integer(7)}); };
  CHECK(next("Composed") == "<<8, 4>><<10, 5>>");  // via <<4, 7>> and <<5, 7>>
  CHECK(next("Then") == "<<13, 3>>");              // B reads t = <<3, 7>>, where Keep left y as it was
  CHECK(next("Either") == "<<8, 4>><<10, 5>><<100, 100>>");
  CHECK(next("Nothing").empty());
  CHECK_THROWS_WITH(value_of("1 \\cdot 2"), Catch::Contains("action composition"));
}

TEST_CASE("the shipped specs load and their actions run", "[language]") {
  const fs::path specs = OMNILINK_SPECS_DIR;
  auto spec = LoadedSpec::load(specs / "PerProducerQueue.tla", std::nullopt);
  Evaluator ev(*spec);
  const auto init = ev.initial_states(*spec->spec_definition("Init"));
  REQUIRE(init.size() == 1);
  std::vector<State> after_enqueue, after_bulk, after_step;
  ev.successors(*spec->spec_definition("EnqueueBulk"), {Value::integer(1), Value::seq({Value::integer(4), Value::integer(5)})},
                init[0], after_enqueue);
  REQUIRE(after_enqueue.size() == 1);
  CHECK(after_enqueue[0][0].text() == "<<<<4, 5>>>>");
  const Value elems = Value::seq({Value::integer(4), Value::integer(5)});
  const Value no_token = Value::boolean(false);
  // One step takes a prefix of producer 1's stream: <<4>>, or <<4, 5>> at once.
  ev.successors(*spec->spec_definition("DequeueBulk_Step"), {elems, no_token}, after_enqueue[0], after_step);
  REQUIRE(after_step.size() == 2);
  std::sort(after_step.begin(), after_step.end(), [](const State& a, const State& b) { return a[2].text() < b[2].text(); });
  CHECK(after_step[0][2].text() == "(<<4, 5>> :> [from |-> {1}, last |-> <<1>>, taken |-> 1])");
  CHECK(after_step[1][2].text() == "(<<4, 5>> :> [from |-> {1}, last |-> <<1>>, taken |-> 2])");
  ev.successors(*spec->spec_definition("DequeueBulk_Done"), {elems, no_token}, after_step[0], after_bulk);
  CHECK(after_bulk.empty());  // one of two items taken: not done
  // The call may not take 5 from producer 1 in a second step, with or without a token: it just
  // took from it.
  std::vector<State> second_step;
  ev.successors(*spec->spec_definition("DequeueBulk_Step"), {elems, no_token}, after_step[0], second_step);
  ev.successors(*spec->spec_definition("DequeueBulk_Step"), {elems, Value::boolean(true)}, after_step[0], second_step);
  CHECK(second_step.empty());
  ev.successors(*spec->spec_definition("DequeueBulk_Done"), {elems, no_token}, after_step[1], after_bulk);
  CHECK(after_bulk.size() == 1);

  auto map = LoadedSpec::load(specs / "Map.tla", specs / "MCMap.tla");
  Evaluator map_ev(*map, TraceHooks{[](const std::string&, std::int64_t) { return Value::set({Value::integer(1), Value::integer(2)}); }});
  const auto map_init = map_ev.initial_states(*map->spec_definition("Init"));
  REQUIRE(map_init.size() == 1);
  CHECK(map_init[0][0].text() == "<<[present |-> FALSE, value |-> 0], [present |-> FALSE, value |-> 0]>>");
}

TEST_CASE("what the embedded checker does not evaluate is refused at load, with file:line:col", "[language]") {
  omnilink::testing::ScratchDir dir;
  auto refused = [&](const std::string& body) {
    try {
      auto spec = load(dir, "VARIABLE x\n" + body);
      spec->spec_definition("A");
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(refused("A == x' = 1 /\\ [](x = 1)"), Catch::Contains("M.tla:4:16: a temporal formula"));
  CHECK_THAT(refused("A == x' = 1.5"), Catch::Contains("real numbers"));
  CHECK_THAT(refused("A == x' = RandomElement({1, 2})"), Catch::Contains("M.tla:4:11") && Catch::Contains("a verdict must not depend on a draw"));
  CHECK_THAT(refused("A == x' = TLCGet(\"level\")"), Catch::Contains("TLC's own registers"));
  // A temporal formula the checker never evaluates does not stop the spec from loading.
  CHECK(refused("A == x' = 1\nSpec == x = 0 /\\ [][A]_x") == "accepted");
  CHECK_THAT(refused("A == x' = 1\n"), Catch::Equals("accepted"));
  // A module the embedded checker does not implement: the spec loads (for TLC), and what uses a
  // name that may be the module's is refused.
  auto json = load(dir, "A == 1\nB == ToJson(A)", "Naturals, Json");
  CHECK(json->spec_definition("A") != nullptr);
  CHECK_THROWS_AS(json->spec_definition("B"), FragmentError);
  CHECK_THROWS_WITH(json->spec_definition("B"), Catch::Contains("M.tla:4:6: unknown name ToJson") && Catch::Contains("module Json"));
}

TEST_CASE("what TLC refuses as wrong TLA+ is a SpecError naming file:line:col", "[language]") {
  omnilink::testing::ScratchDir dir;
  auto error = [&](const std::string& body) {
    try {
      auto spec = load(dir, "VARIABLE x\n" + body);
      spec->spec_definition("A");
    } catch (const SpecError& e) {
      return std::string(e.what());
    } catch (const std::exception& e) {
      return std::string("not a SpecError: ") + e.what();
    }
    return std::string("accepted");
  };
  CHECK_THAT(error("A == Undefined(1)"), Catch::Contains("M.tla:4:6: unknown name Undefined"));
  CHECK_THAT(error("Id(y) == y\nApp(F(_), y) == F(y)\nA == x' = Id"), Catch::Contains("M.tla:6:11: the operator Id used without"));
  CHECK_THAT(error("Two(a, b) == a\nA == x' = Two(1)"), Catch::Contains("Two takes 2 argument(s), given 1"));
  CHECK_THAT(error("App(F(_), y) == F(y)\nA == x' = App(LAMBDA a, b : a, 1)"), Catch::Contains("a LAMBDA of 2 parameter(s)"));
  CHECK_THROWS_WITH(load(dir, "A == (1 +"), Catch::Contains("M.tla:") && Catch::Contains("syntax error"));

  // A module whose name is not its file's, and a circular EXTENDS: TLC refuses both (exit 150).
  std::ofstream(dir.path() / "Other.tla") << "---- MODULE Misnamed ----\nB == 1\n====\n";
  CHECK_THROWS_AS(load(dir, "A == 1", "Naturals, Other"), SpecError);
  CHECK_THROWS_WITH(load(dir, "A == 1", "Naturals, Other"), Catch::Contains("Other.tla:1:1") && Catch::Contains("Misnamed"));
  std::ofstream(dir.path() / "P.tla") << "---- MODULE P ----\nEXTENDS Q\n====\n";
  std::ofstream(dir.path() / "Q.tla") << "---- MODULE Q ----\nEXTENDS P\n====\n";
  CHECK_THROWS_WITH(load(dir, "A == 1", "P"), Catch::Contains("circular EXTENDS") && Catch::Contains("P -> Q -> P"));
  // A name defined twice, or again after an EXTENDS, is SANY's "multiply-defined symbol" (TLC
  // exit 150), even in an MC module that means to override the spec's definition; a LOCAL one
  // is not exported, and a configuration's constant is no definition.
  std::ofstream(dir.path() / "Base.tla") << "---- MODULE Base ----\nCONSTANT N\nVARIABLE v\nB == 1\nLOCAL L == 2\n====\n";
  CHECK_THROWS_WITH(load(dir, "B == 2", "Base"), Catch::Contains("M.tla:3:1: multiply-defined symbol B: already defined at") &&
                                                     Catch::Contains("Base.tla:4:1"));
  CHECK_THROWS_WITH(load(dir, "A == 1\nA == 2"), Catch::Contains("M.tla:4:1: multiply-defined symbol A"));
  CHECK_THROWS_WITH(load(dir, "v == 1", "Base"), Catch::Contains("multiply-defined symbol v: already a variable"));
  CHECK_THROWS_WITH(load(dir, "CONSTANT N", "Base"), Catch::Contains("multiply-defined symbol N"));
  CHECK_NOTHROW(load(dir, "L == 3", "Base"));
  {
    std::ofstream(dir.path() / "MCBase.tla") << "---- MODULE MCBase ----\nEXTENDS Base\nB == 3\n====\n";
    CHECK_THROWS_WITH(LoadedSpec::load(dir.path() / "Base.tla", dir.path() / "MCBase.tla"),
                      Catch::Contains("MCBase.tla:3:1: multiply-defined symbol B") && Catch::Contains("must not EXTEND"));
    std::ofstream(dir.path() / "MCBase.tla") << "---- MODULE MCBase ----\nB == 3\n====\n";
    CHECK(LoadedSpec::load(dir.path() / "Base.tla", dir.path() / "MCBase.tla")->mc_overrides().size() == 1);
    std::ofstream(dir.path() / "Empty.tla") << "---- MODULE Empty ----\n====\n";
    std::ofstream(dir.path() / "Top.tla") << "---- MODULE Top ----\nEXTENDS Empty\nCONSTANT N\n====\n";
    std::ofstream(dir.path() / "Top.cfg") << "CONSTANT N = 3\n";
    const auto config = read_tlc_config((dir.path() / "Top.cfg").string());
    CHECK_NOTHROW(LoadedSpec::load(dir.path() / "Top.tla", std::nullopt, &config));
  }
  {
    const fs::path file = dir.path() / "Named.tla";
    std::ofstream(file) << "---- MODULE NotNamed ----\nA == 1\n====\n";
    CHECK_THROWS_AS(LoadedSpec::load(file, std::nullopt), SpecError);
  }
  // Nesting that would drive the converter, binder and evaluator past the stack is an error.
  CHECK_THROWS_WITH(load(dir, "A == " + std::string(20000, '(') + "1" + std::string(20000, ')')),
                    Catch::Contains("nested more than 1000 deep"));
  CHECK(value_of(std::string(200, '(') + "1" + std::string(200, ')')) == "1");
}

TEST_CASE("INSTANCE: named, parameterised, unnamed, LOCAL, with substitutions, nested", "[language]") {
  omnilink::testing::ScratchDir dir;
  std::ofstream(dir.path() / "Counter.tla") << R"(---- MODULE Counter ----
EXTENDS Naturals
CONSTANT Step
VARIABLE c
Inc == c' = c + Step
Value == c
Scaled(k) == k * Step
LOCAL Hidden == 42
Inner == INSTANCE Pair WITH a <- Step, b <- Step + 1
====
)";
  std::ofstream(dir.path() / "Pair.tla") << R"(---- MODULE Pair ----
CONSTANTS a, b
Sum == a + b
LOCAL INSTANCE Naturals
====
)";
  auto spec = load(dir, R"(VARIABLES x, y
One == INSTANCE Counter WITH Step <- 1, c <- x
By(n) == INSTANCE Counter WITH Step <- n, c <- y
INSTANCE Pair WITH a <- 10, b <- 20
Init == x = 0 /\ y = 0
IncBoth(n) == One!Inc /\ By(n)!Inc
Views == <<One!Value, By(3)!Scaled(2), One!Inner!Sum, By(5)!Inner!Sum, Sum>>)");
  Evaluator ev(*spec);
  const State s{Value::integer(4), Value::integer(7)};
  CHECK(ev.evaluate(*spec->spec_definition("Views"), s).text() == "<<4, 6, 3, 11, 30>>");
  std::vector<State> out;
  ev.successors(*spec->spec_definition("IncBoth"), {Value::integer(5)}, s, out);
  REQUIRE(out.size() == 1);
  CHECK(out[0][0].text() == "5");
  CHECK(out[0][1].text() == "12");
  // LOCAL definitions are not seen through an instance.
  CHECK_THROWS_WITH(load(dir, "I == INSTANCE Counter WITH Step <- 1, c <- 0\nA == I!Hidden")->spec_definition("A"),
                    Catch::Contains("unknown name Hidden"));
  // An unsubstituted constant or variable means the name in the instantiating module.
  auto defaults = load(dir, "a == 1\nb == 2\nI == INSTANCE Pair\nA == I!Sum");
  CHECK(Evaluator(*defaults).evaluate(*defaults->spec_definition("A"), {}).text() == "3");
}

TEST_CASE("modules nested in a file, and modules after the first in it, are found by name", "[language]") {
  omnilink::testing::ScratchDir dir;
  const fs::path file = dir.path() / "Outer.tla";
  std::ofstream(file) << R"(---- MODULE Outer ----
EXTENDS Naturals
---- MODULE Inner ----
EXTENDS Naturals
Double(n) == 2 * n
====
I == INSTANCE Inner
A == I!Double(4) + Later!Triple(1)
Later == INSTANCE After
====
---- MODULE After ----
EXTENDS Naturals
Triple(n) == 3 * n
====
)";
  auto spec = LoadedSpec::load(file, std::nullopt);
  Evaluator ev(*spec);
  CHECK(ev.evaluate(*spec->spec_definition("A"), {}).text() == "11");
}

TEST_CASE("operator parameters, LAMBDA and operators as arguments", "[language]") {
  CHECK(value_of("Twice(LAMBDA n : n + 1, 5)", "Twice(F(_), x) == F(F(x))") == "7");
  CHECK(value_of("Twice(Inc, 5)", "Twice(F(_), x) == F(F(x))\nInc(n) == n * 3") == "45");
  CHECK(value_of("Fold(+, 0, <<1, 2, 3>>)", "RECURSIVE Fold(_, _, _)\nFold(Op(_, _), b, s) == IF s = <<>> THEN b ELSE Op(Head(s), Fold(Op, b, Tail(s)))") == "6");
  CHECK(value_of("Fold(\\cup, {}, <<{1}, {2}>>)", "RECURSIVE Fold(_, _, _)\nFold(Op(_, _), b, s) == IF s = <<>> THEN b ELSE Op(Head(s), Fold(Op, b, Tail(s)))") == "{1, 2}");
  // A LAMBDA sees the names bound where it is written, even when the callee recurses and binds
  // its own parameters again (closures, not dynamic scope).
  CHECK(value_of("R(LAMBDA v : v, 3)", "RECURSIVE R(_, _)\nR(F(_), n) == IF n = 0 THEN F(0) ELSE R(LAMBDA v : F(v) + n, n - 1)") == "6");
  CHECK(value_of("\\A k \\in 1..3 : Apply(LAMBDA v : v + k, 0) = k", "Apply(F(_), a) == F(a)") == "TRUE");
  CHECK(value_of("LET Add(a) == a + 10 IN Apply(Add, 1)", "Apply(F(_), a) == F(a)") == "11");
  CHECK(value_of("SelectSeq(<<1, 2, 3, 4>>, LAMBDA v : v % 2 = 0)") == "<<2, 4>>");
  CHECK(value_of("SortSeq(<<3, 1, 2>>, LAMBDA a, b : a > b)") == "<<3, 2, 1>>");
}

TEST_CASE("user-defined infix, prefix and postfix operators, labels", "[language]") {
  CHECK(value_of("<<2 ++ 3, 2 \\oplus 3, 2 (+) 3>>", "a ++ b == a * 10 + b\na \\oplus b == a - b") == "<<23, -1, -1>>");
  CHECK(value_of("{1} ^+", "S ^+ == S \\cup {0}") == "{0, 1}");
  CHECK(value_of("LET a ** b == a * b IN 2 ** 3") == "6");
  CHECK(value_of("l1:: 1 + 1") == "2");
  CHECK(value_of("F(3)", "F(n) == lab(n):: n * 2") == "6");
}

TEST_CASE("strings are TLC's: Len, concatenation, SubSeq and Tail take them, Head and Seq membership do not", "[language]") {
  CHECK(value_of("<<Len(\"abc\"), \"ab\" \\o \"c\", SubSeq(\"abcd\", 2, 3), Tail(\"abc\"), SubSeq(\"ab\", 2, 1)>>") ==
        "<<3, \"abc\", \"bc\", \"bc\", \"\">>");
  CHECK_THAT(error_of("Head(\"abc\")"), Catch::Contains("expected a sequence"));
  CHECK_THAT(error_of("\"abc\" \\in Seq(STRING)"), Catch::Contains("cannot decide"));
  CHECK_THAT(error_of("\"ab\" \\o <<1>>"), Catch::Contains("a string and"));
}

TEST_CASE("an unbounded CHOOSE is TLA+: TLC's error when evaluated, a value when the MC module gives one", "[language]") {
  omnilink::testing::ScratchDir dir;
  const std::string body = "S == {1, 2}\nNoVal == CHOOSE v : v \\notin S\nA == <<NoVal, 1>>\n";
  auto spec = load(dir, body);
  Evaluator ev(*spec);
  CHECK_THROWS_WITH(ev.evaluate(*spec->spec_definition("A"), {}), Catch::Contains("unbounded CHOOSE") && Catch::Contains("TLC either"));
  // The MC module's definition stands for the spec's, as a TLC configuration's `NoVal <- ...`.
  std::ofstream(dir.path() / "MCM.tla") << "---- MODULE MCM ----\nEXTENDS Integers\nNoVal == -1\n====\n";
  auto with_mc = LoadedSpec::load(dir.path() / "M.tla", dir.path() / "MCM.tla");
  Evaluator mc_ev(*with_mc);
  CHECK(mc_ev.evaluate(*with_mc->spec_definition("A"), {}).text() == "<<-1, 1>>");
  CHECK_THAT(error_of("\\E v : v = 1"), Catch::Contains("unbounded"));
}

TEST_CASE("standard modules by INSTANCE and LOCAL INSTANCE, and proof-only modules as what they extend", "[language]") {
  omnilink::testing::ScratchDir dir;
  std::ofstream(dir.path() / "Util.tla") << "---- MODULE Util ----\nLOCAL INSTANCE FiniteSets\nSize(S) == Cardinality(S)\n====\n";
  auto spec = load(dir, "INSTANCE Naturals\nA == Size({1, 2}) + Len(<<1>>)", "Util, TLAPS, NaturalsInduction, SequenceTheorems, SomeTheorems");
  Evaluator ev(*spec);
  CHECK(ev.evaluate(*spec->spec_definition("A"), {}).text() == "3");  // Len: SequenceTheorems extends Sequences
  // LOCAL: Cardinality is Util's, not its users'.
  CHECK_THROWS_WITH(load(dir, "A == Cardinality({1})", "Util")->spec_definition("A"), Catch::Contains("unknown name Cardinality"));
}

TEST_CASE("a LET definition without parameters is evaluated once per evaluation of its LET, where its value cannot change", "[language]") {
  // TLC evaluates such a definition lazily and keeps its value (a LazyValue); so does the embedded
  // checker. PrintT shows how often it is evaluated.
  std::ostringstream printed;
  auto* const err = std::cerr.rdbuf(printed.rdbuf());
  struct Restore {
    std::streambuf* err;
    ~Restore() { std::cerr.rdbuf(err); }
  } restore{err};
  CHECK(value_of("LET x == PrintT(\"x\") IN x /\\ x /\\ x") == "TRUE");
  CHECK(printed.str() == "\"x\"\n");
  printed.str("");
  // Once per evaluation of the LET: inside a quantifier, once per element.
  CHECK(value_of("\\A k \\in 1..3 : LET y == PrintT(k) IN y /\\ y") == "TRUE");
  CHECK(printed.str() == "1\n2\n3\n");
  printed.str("");
  // A function bound by a LET is built once, and applied (not evaluated again at the argument).
  CHECK(value_of("LET f == [k \\in 1..3 |-> IF PrintT(k) THEN k ELSE 0] IN <<f[1], f[2], f[3], f[2]>>") == "<<1, 2, 3, 2>>");
  CHECK(printed.str() == "1\n2\n3\n");
  // A LET operator passed down a recursion reads the names of the evaluation it was passed from,
  // not those of the innermost evaluation of its LET.
  CHECK(value_of("R(2, LAMBDA v : v)", "RECURSIVE R(_, _)\nR(n, F(_)) == LET x == n  G(m) == x + m IN IF n = 0 THEN (IF x = 0 THEN F(0) ELSE -1) ELSE R(n - 1, G)") ==
        "1");
  omnilink::testing::ScratchDir dir;
  auto spec = load(dir, R"(VARIABLES x
Init == LET y == x IN x \in {1, 2} /\ y = x
Move == LET y == x IN x' = x + 1 /\ y' = y + 1)");
  Evaluator ev(*spec);
  // An initial predicate assigns what the definition reads: each branch evaluates it again.
  const auto init = ev.initial_states(*spec->spec_definition("Init"));
  REQUIRE(init.size() == 2);
  CHECK(init[0][0].text() == "1");
  CHECK(init[1][0].text() == "2");
  // y' is x': the definition read in the next state is evaluated there.
  CHECK(successors_text(ev, *spec, "Move", {Value::integer(1)}) == "<<2>>");
}

TEST_CASE("a primed expression and UNCHANGED of an expression are evaluated in the next state", "[language]") {
  omnilink::testing::ScratchDir dir;
  auto spec = load(dir, R"(VARIABLES x, y
Sum == x + y
Move == x' = x + 1 /\ y' = y - 1 /\ UNCHANGED Sum /\ (x + y)' = x + y
Break == x' = x + 1 /\ y' = y /\ UNCHANGED Sum)");
  Evaluator ev(*spec);
  const State s{Value::integer(1), Value::integer(5)};
  std::vector<State> out;
  ev.successors(*spec->spec_definition("Move"), {}, s, out);
  REQUIRE(out.size() == 1);
  CHECK(out[0][0].text() == "2");
  out.clear();
  ev.successors(*spec->spec_definition("Break"), {}, s, out);
  CHECK(out.empty());
}

TEST_CASE("large finite sets are enumerated as TLC does, within a memory budget", "[language]") {
  CHECK(value_of("Cardinality(DOMAIN [p \\in (0..1000) \\X (0..1000) |-> 0])") == "1002001");
  CHECK_THAT(error_of("Cardinality({p : p \\in (0..4000) \\X (0..4000)})"), Catch::Contains("memory budget"));
}

TEST_CASE("ENABLED: whether an action has a successor from the current state", "[language]") {
  omnilink::testing::ScratchDir dir;
  auto spec = load(dir, R"(VARIABLES x
Up == x < 3 /\ x' = x + 1
Reset == ~ENABLED Up /\ x' = 0
Stuck == ENABLED (x' \in {}) /\ x' = x)");
  Evaluator ev(*spec);
  auto next = [&](const std::string& action, std::int64_t from) {
    std::vector<State> out;
    ev.successors(*spec->spec_definition(action), {}, State{Value::integer(from)}, out);
    return out.size() == 1 ? out[0][0].text() : std::to_string(out.size()) + " successors";
  };
  CHECK(next("Reset", 2) == "0 successors");
  CHECK(next("Reset", 3) == "0");
  CHECK(next("Stuck", 1) == "0 successors");
}

TEST_CASE("an operator constant of an instantiated module is substituted by an operator", "[language]") {
  omnilink::testing::ScratchDir dir;
  std::ofstream(dir.path() / "Channel.tla") << "---- MODULE Channel ----\nCONSTANT Send(_, _)\nTwice(a) == Send(a, a)\n====\n";
  auto spec = load(dir, "Plus(a, b) == a + b\nC == INSTANCE Channel WITH Send <- Plus\nL == INSTANCE Channel WITH Send <- LAMBDA a, b : <<a, b>>\n"
                        "S == INSTANCE Channel WITH Send <- \\cup\nA == <<C!Twice(2), L!Twice(3), S!Twice({1})>>");
  CHECK(Evaluator(*spec).evaluate(*spec->spec_definition("A"), {}).text() == "<<4, <<3, 3>>, {1}>>");
}

TEST_CASE("a sequence built by Append and Tail hashes as the same sequence built whole", "[language]") {
  auto ints = [](std::initializer_list<std::int64_t> xs) {
    std::vector<Value> v;
    for (auto x : xs) v.push_back(Value::integer(x));
    return Value::seq(std::move(v));
  };
  Value queue = ints({});
  for (std::int64_t k = 1; k <= 5; ++k) queue = Value::appended(queue, Value::integer(k));
  queue = Value::tail(Value::tail(queue));
  queue = Value::appended(queue, Value::seq({Value::integer(9)}));
  const Value whole = Value::seq({Value::integer(3), Value::integer(4), Value::integer(5), Value::seq({Value::integer(9)})});
  CHECK(queue == whole);
  CHECK(queue.hash() == whole.hash());
  CHECK(fingerprint({queue}) == fingerprint({whole}));
  CHECK_FALSE(fingerprint({queue}) == fingerprint({ints({3, 4, 5})}));
  CHECK_FALSE(fingerprint({ints({1, 2})}) == fingerprint({ints({2, 1})}));
}

TEST_CASE("a constant-looking definition that reads state through a recursive one is evaluated in each state", "[language]") {
  // B has no parameters and mentions no variable itself, but A, which refers back to B (and so
  // is only half bound when B is), reads x: B must not be cached as a constant.
  omnilink::testing::ScratchDir dir;
  auto spec = load(dir, R"(VARIABLES x, y
RECURSIVE A(_), B
A(n) == IF n = 1 THEN B ELSE x
B == A(0)
Step == x' = x /\ y' = A(1))");
  Evaluator ev(*spec);
  const Definition& step = *spec->spec_definition("Step");
  for (std::int64_t x : {1, 2, 7}) {
    std::vector<State> out;
    ev.successors(step, {}, State{Value::integer(x), Value::integer(0)}, out);
    REQUIRE(out.size() == 1);
    CHECK(out[0][1].text() == std::to_string(x));
  }
}

TEST_CASE("a refused action names the conjunct found false on its furthest way through", "[language]") {
  omnilink::testing::ScratchDir dir;
  auto spec = load(dir, R"(VARIABLES x
Take(n) ==
  /\ n > 0  \* a comment is not quoted
  /\ \E k \in {1, 2} :
       /\ k = n
       /\ x' = x + k
Empty == \E k \in {} : x' = k
Choose == x' \in {}
Keep == UNCHANGED x /\ x' = 6)");
  Evaluator ev(*spec);
  const State s{Value::integer(5)};
  auto refusal = [&](const std::string& action, std::vector<Value> args = {}) -> std::string {
    const auto r = ev.refusal(*spec->spec_definition(action), args, s);
    if (!r) return "enabled";
    return r->conjunct->pos.excerpt() + " @" + std::to_string(r->depth);
  };
  CHECK(refusal("Take", {Value::integer(2)}) == "enabled");
  CHECK(refusal("Take", {Value::integer(0)}) == "n > 0 @0");
  // Both bindings of k fail at `k = n`, after `n > 0` held.
  CHECK(refusal("Take", {Value::integer(7)}) == "k = n @1");
  CHECK(refusal("Empty") == "\\E k \\in {} : x' = k @0");
  CHECK(refusal("Choose") == "x' \\in {} @0");
  CHECK(refusal("Keep") == "x' = 6 @1");  // UNCHANGED held, then x' is tested
}

TEST_CASE("a TLC configuration's constants and substitutions, and exploring the first levels as TLC counts them", "[language]") {
  omnilink::testing::ScratchDir dir;
  std::ofstream(dir.path() / "Cnt.tla") << R"(---- MODULE Cnt ----
EXTENDS Naturals, FiniteSets
CONSTANTS Starts, Step, Procs
VARIABLE x
Limit == 1000
Init == x \in Starts
Next == \/ x' = x + Step
        \/ x' = x + 2 * Step
        \/ x < Limit /\ x' = x + Cardinality(Procs)
Small == 3
Bounded == x < 101
NotHundred == x # 100
====
)";
  std::ofstream(dir.path() / "Cnt.cfg") << "\\* a comment\nCONSTANTS\n  Starts = {0, 100}\n  Step = [Cnt] 1\n  Procs = {p1, p2}\n"
                                           "  Limit <- Small\n(* more *)\nINIT Init\nNEXT Next\nINVARIANT Whatever\n";
  const TlcConfig config = read_tlc_config((dir.path() / "Cnt.cfg").string());
  CHECK(config.constants.at("Starts").text() == "{0, 100}");
  CHECK(config.constants.at("Procs").text() == "{p1, p2}");  // model values
  CHECK(config.substitutions.at("Limit") == "Small");
  CHECK(config.init == std::optional<std::string>("Init"));
  CHECK(config.state_space_changes.empty());
  auto spec = LoadedSpec::load(dir.path() / "Cnt.tla", std::nullopt, &config);
  // Level 1: {0, 100}; level 2: 1, 2 (0 < Small, so +2 again gives 2) and 101, 102.
  const Exploration two = explore(*spec, "Init", "Next", 2, 1000);
  CHECK(two.initial == 2);
  CHECK(two.distinct == 6);
  CHECK(two.levels == 2);
  const Exploration capped = explore(*spec, "Init", "Next", 50, 10);
  CHECK(capped.truncated);
  std::ofstream(dir.path() / "Bad.cfg") << "CONSTANTS\n  Step == 1\n";
  CHECK_THROWS_WITH(read_tlc_config((dir.path() / "Bad.cfg").string()), Catch::Contains("Bad.cfg:2: expected a value"));
  // A state constraint, as in TLC: a state outside it, initial or not, is neither counted nor explored.
  std::ofstream(dir.path() / "Cons.cfg") << "CONSTANTS Starts = {0, 100} Step = 1 Procs = {p1, p2} Limit <- Small\n"
                                            "CONSTRAINT Bounded\n";
  const TlcConfig constrained = read_tlc_config((dir.path() / "Cons.cfg").string());
  CHECK(constrained.constraints == std::vector<std::string>{"Bounded"});
  CHECK(constrained.state_space_changes.empty());
  auto cons = LoadedSpec::load(dir.path() / "Cnt.tla", std::nullopt, &constrained);
  CHECK(explore(*cons, "Init", "Next", 2, 1000, {"Bounded"}).distinct == 4);  // 101 and 102 are out
  const Exploration without_hundred = explore(*cons, "Init", "Next", 2, 1000, {"Bounded", "NotHundred"});
  CHECK(without_hundred.initial == 1);
  CHECK(without_hundred.distinct == 3);
  CHECK_THROWS_WITH(explore(*cons, "Init", "Next", 2, 1000, {"Small"}), Catch::Contains("the constraint Small is not a boolean"));
  // Nat and Int are the standard modules' definitions: a configuration may replace them (Bakery's Nat <- NatOverride).
  std::ofstream(dir.path() / "Nats.tla") << "---- MODULE Nats ----\nEXTENDS Integers\nVARIABLE x\nSmall == 0 .. 2\n"
                                            "Init == x \\in Nat\nNext == x' \\in Int /\\ x' > x\n====\n";
  std::ofstream(dir.path() / "Nats.cfg") << "CONSTANTS Nat <- Small Int <- Small\n";
  const TlcConfig nats = read_tlc_config((dir.path() / "Nats.cfg").string());
  auto small = LoadedSpec::load(dir.path() / "Nats.tla", std::nullopt, &nats);
  CHECK(explore(*small, "Init", "Next", 5, 1000).distinct == 3);
  CHECK_THROWS_WITH(explore(*LoadedSpec::load(dir.path() / "Nats.tla", std::nullopt), "Init", "Next", 5, 1000),
                    Catch::Contains("cannot enumerate the infinite set Nat"));
  // c = [M] v: M's definition c, also inside a named instance of M (Nano's NoHash = [Nano]NoHashVal).
  std::ofstream(dir.path() / "Inner.tla") << "---- MODULE Inner ----\nNone == CHOOSE v : v \\notin {1, 2}\nVals == {1, 2, None}\n====\n";
  std::ofstream(dir.path() / "Outer.tla") << "---- MODULE Outer ----\nVARIABLE x\nI == INSTANCE Inner\nInit == x \\in I!Vals\n"
                                             "Next == x' = x\n====\n";
  std::ofstream(dir.path() / "Outer.cfg") << "CONSTANT None = [Inner] none\n";
  const TlcConfig scoped = read_tlc_config((dir.path() / "Outer.cfg").string());
  CHECK(scoped.module_constants.at("Inner").at("None").text() == "none");
  CHECK(scoped.constants.empty());
  CHECK(explore(*LoadedSpec::load(dir.path() / "Outer.tla", std::nullopt, &scoped), "Init", "Next", 2, 100).initial == 3);
  CHECK_THROWS_WITH(explore(*LoadedSpec::load(dir.path() / "Outer.tla", std::nullopt), "Init", "Next", 2, 100),
                    Catch::Contains("an unbounded CHOOSE"));
  // Seq <- Short replaces the standard operator itself: inside an instance too (Majority's MC module).
  std::ofstream(dir.path() / "Seqs.tla") << "---- MODULE Seqs ----\nEXTENDS Sequences\nVARIABLE s\nInit == s \\in Seq({1})\n"
                                            "Next == s' = s\n====\n";
  std::ofstream(dir.path() / "MCSeqs.tla") << "---- MODULE MCSeqs ----\nVARIABLE s\nINSTANCE Seqs\nShort(S) == {<<>>, <<1>>}\n====\n";
  std::ofstream(dir.path() / "MCSeqs.cfg") << "CONSTANT Seq <- Short\n";
  const TlcConfig short_seqs = read_tlc_config((dir.path() / "MCSeqs.cfg").string());
  CHECK(explore(*LoadedSpec::load(dir.path() / "MCSeqs.tla", std::nullopt, &short_seqs), "Init", "Next", 2, 100).initial == 2);
  std::ofstream(dir.path() / "Sym.cfg") << "CONSTANT Step = 1\nSYMMETRY Perms\nVIEW v\n";
  CHECK(read_tlc_config((dir.path() / "Sym.cfg").string()).state_space_changes == std::vector<std::string>{"SYMMETRY", "VIEW"});
}
