// The embedded evaluator against TLC on thousands of random, well-typed constant expressions
// (integers near the 32-bit edge, sets, functions, records, sequences, strings, CHOOSE, EXCEPT
// with @, quantifiers, LAMBDA): each one's value, or its error, must be TLC's. TLC evaluates them
// in batches, one `ASSUME PrintT(<<k, e>>)` per expression; an expression TLC refuses stops its
// batch, so the batch goes on after it in a new run. SKIPPED without TLC.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>

#include "language/evaluator.hpp"
#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;
using namespace omnilink;

namespace {

constexpr const char* kExtends = "EXTENDS Naturals, Integers, Sequences, FiniteSets, TLC";

/// Random TLA+ constant expressions of a given type. Bound integer names (from \E, \A, CHOOSE,
/// set constructors, function constructors and LAMBDA) are used where an integer is wanted.
class ExpressionGenerator {
 public:
  explicit ExpressionGenerator(std::uint64_t seed) : rng_(seed) {}

  std::string any() {
    switch (pick(7)) {
      case 0: return integer(3);
      case 1: return boolean(3);
      case 2: return string(3);
      case 3: return int_set(3);
      case 4: return int_seq(3);
      case 5: return record(3);
      default: return function(3);
    }
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(int percent) { return pick(100) < percent; }
  std::string fresh() { return "v" + std::to_string(names_++); }

  std::string literal_int() {
    static const char* const kEdges[] = {"2147483647", "2147483646", "(-2147483647 - 1)", "(-2147483647)", "65536", "46341", "(-1)", "0"};
    if (chance(15)) return kEdges[pick(8)];
    const int v = pick(21) - 10;
    return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v);
  }

  std::string small_int(int depth) {  // an integer expression that stays small (for indexes, ranges)
    if (depth <= 0 || chance(50)) return std::to_string(pick(6));
    return "(" + small_int(depth - 1) + (chance(50) ? " + " : " - ") + std::to_string(pick(3)) + ")";
  }

  std::string integer(int depth) {
    if (!bound_.empty() && chance(30)) return bound_[pick(static_cast<int>(bound_.size()))];
    if (depth <= 0) return literal_int();
    switch (pick(19)) {
      case 0: return "(" + integer(depth - 1) + " + " + integer(depth - 1) + ")";
      case 1: return "(" + integer(depth - 1) + " - " + integer(depth - 1) + ")";
      case 2: return "(" + integer(depth - 1) + " * " + integer(depth - 1) + ")";
      case 3: return "(" + integer(depth - 1) + " \\div " + integer(depth - 1) + ")";
      case 4: return "(" + integer(depth - 1) + " % " + integer(depth - 1) + ")";
      case 5: return "(-" + integer(depth - 1) + ")";
      case 6: return "(" + std::to_string(pick(5) - 1) + " ^ " + std::to_string(pick(12)) + ")";
      case 7: return "Len(" + (chance(70) ? int_seq(depth - 1) : string(depth - 1)) + ")";
      case 8: return "Cardinality(" + int_set(depth - 1) + ")";
      case 9: {
        const std::string set = int_set(depth - 1), v = fresh();
        bound_.push_back(v);
        const std::string body = boolean(depth - 1);
        bound_.pop_back();
        return "(CHOOSE " + v + " \\in " + set + " : " + body + ")";
      }
      case 10: return "(IF " + boolean(depth - 1) + " THEN " + integer(depth - 1) + " ELSE " + integer(depth - 1) + ")";
      case 11: return "(CASE " + boolean(depth - 1) + " -> " + integer(depth - 1) + " [] " + boolean(depth - 1) + " -> " +
                      integer(depth - 1) + (chance(50) ? " [] OTHER -> " + integer(depth - 1) : "") + ")";
      case 12: {
        const std::string v = fresh(), value = integer(depth - 1);
        bound_.push_back(v);
        const std::string body = integer(depth - 1);
        bound_.pop_back();
        return "(LET " + v + " == " + value + " IN " + body + ")";
      }
      case 13: return record(depth - 1) + ".a";
      case 14: return function(depth - 1) + "[" + small_int(1) + "]";
      case 15: return "Head(" + int_seq(depth - 1) + ")";
      case 16: return int_seq(depth - 1) + "[" + small_int(1) + "]";
      case 17: {
        const std::string v = fresh();
        bound_.push_back(v);
        const std::string body = integer(depth - 1);
        bound_.pop_back();
        return "Apply(LAMBDA " + v + " : " + body + ", " + integer(depth - 1) + ")";
      }
      default: return literal_int();
    }
  }

  std::string boolean(int depth) {
    if (depth <= 0) return chance(50) ? "TRUE" : "FALSE";
    switch (pick(15)) {
      case 0: return "(" + integer(depth - 1) + " < " + integer(depth - 1) + ")";
      case 1: return "(" + integer(depth - 1) + " <= " + integer(depth - 1) + ")";
      case 2: return "(" + integer(depth - 1) + " = " + integer(depth - 1) + ")";
      case 3: return "(" + integer(depth - 1) + " \\in " + int_set(depth - 1) + ")";
      case 4: return "(" + int_set(depth - 1) + " \\subseteq " + int_set(depth - 1) + ")";
      case 5: return "(" + boolean(depth - 1) + " /\\ " + boolean(depth - 1) + ")";
      case 6: return "(" + boolean(depth - 1) + " \\/ " + boolean(depth - 1) + ")";
      case 7: return "(~" + boolean(depth - 1) + ")";
      case 8: return "(" + boolean(depth - 1) + " => " + boolean(depth - 1) + ")";
      case 9: case 10: {
        const std::string set = int_set(depth - 1), v = fresh();
        bound_.push_back(v);
        const std::string body = boolean(depth - 1);
        bound_.pop_back();
        return std::string("(") + (pick(2) ? "\\E " : "\\A ") + v + " \\in " + set + " : " + body + ")";
      }
      case 11: return "(" + int_seq(depth - 1) + " = " + int_seq(depth - 1) + ")";
      case 12: return "(" + string(depth - 1) + " = " + string(depth - 1) + ")";
      case 13: return "(" + record(depth - 1) + " = " + record(depth - 1) + ")";
      default: return "(" + int_set(depth - 1) + " # " + int_set(depth - 1) + ")";
    }
  }

  std::string string(int depth) {
    static const char* const kLiterals[] = {"\"\"", "\"a\"", "\"abc\"", "\"xy z\"", "\"q\\\"t\""};
    if (depth <= 0) return kLiterals[pick(5)];
    switch (pick(6)) {
      case 0: return "(" + string(depth - 1) + " \\o " + string(depth - 1) + ")";
      case 1: return "SubSeq(" + string(depth - 1) + ", " + small_int(1) + ", " + small_int(1) + ")";
      case 2: return "Tail(" + string(depth - 1) + ")";
      case 3: return record(depth - 1) + ".b";
      case 4: return "(IF " + boolean(depth - 1) + " THEN " + string(depth - 1) + " ELSE " + string(depth - 1) + ")";
      default: return kLiterals[pick(5)];
    }
  }

  std::string int_set(int depth) {
    if (depth <= 0) {
      std::string s = "{";
      for (int k = pick(4); k > 0; --k) s += literal_int() + (k > 1 ? ", " : "");
      return s + "}";
    }
    switch (pick(12)) {
      case 0: return "(" + small_int(1) + " .. " + small_int(1) + ")";
      case 1: return "(" + int_set(depth - 1) + " \\cup " + int_set(depth - 1) + ")";
      case 2: return "(" + int_set(depth - 1) + " \\cap " + int_set(depth - 1) + ")";
      case 3: return "(" + int_set(depth - 1) + " \\ " + int_set(depth - 1) + ")";
      case 4: {
        const std::string set = int_set(depth - 1), v = fresh();
        bound_.push_back(v);
        const std::string body = boolean(depth - 1);
        bound_.pop_back();
        return "{" + v + " \\in " + set + " : " + body + "}";
      }
      case 5: {
        const std::string set = int_set(depth - 1), v = fresh();
        bound_.push_back(v);
        const std::string body = integer(depth - 1);
        bound_.pop_back();
        return "{" + body + " : " + v + " \\in " + set + "}";
      }
      case 6: return "DOMAIN " + int_seq(depth - 1);
      case 7: return "DOMAIN " + function(depth - 1);
      case 8: return "UNION {" + int_set(depth - 1) + ", " + int_set(depth - 1) + "}";
      case 9: return "{Cardinality(s) : s \\in SUBSET " + int_set(depth - 1) + "}";
      default: return "{" + integer(depth - 1) + ", " + integer(depth - 1) + "}";
    }
  }

  std::string int_seq(int depth) {
    if (depth <= 0) {
      std::string s = "<<";
      for (int k = pick(4); k > 0; --k) s += literal_int() + (k > 1 ? ", " : "");
      return s + ">>";
    }
    switch (pick(10)) {
      case 0: return "Append(" + int_seq(depth - 1) + ", " + integer(depth - 1) + ")";
      case 1: return "(" + int_seq(depth - 1) + " \\o " + int_seq(depth - 1) + ")";
      case 2: return "Tail(" + int_seq(depth - 1) + ")";
      case 3: return "SubSeq(" + int_seq(depth - 1) + ", " + small_int(1) + ", " + small_int(1) + ")";
      case 4: {
        const std::string v = fresh();
        const std::string n = small_int(1);
        bound_.push_back(v);
        const std::string body = integer(depth - 1);
        bound_.pop_back();
        return "[" + v + " \\in 1 .. " + n + " |-> " + body + "]";
      }
      case 5: return "[" + int_seq(depth - 1) + " EXCEPT ![" + small_int(1) + "] = " + (chance(50) ? "@ + " : "") + integer(depth - 1) + "]";
      case 6: {
        const std::string v = fresh();
        bound_.push_back(v);
        const std::string body = boolean(depth - 1);
        bound_.pop_back();
        return "SelectSeq(" + int_seq(depth - 1) + ", LAMBDA " + v + " : " + body + ")";
      }
      case 7: return "SortSeq(" + int_seq(depth - 1) + ", LAMBDA p, q : p < q)";
      default: return "<<" + integer(depth - 1) + ", " + integer(depth - 1) + ">>";
    }
  }

  std::string record(int depth) {
    if (depth <= 0 || chance(60)) return "[a |-> " + integer(depth - 1) + ", b |-> " + string(depth - 1) + "]";
    return "[" + record(depth - 1) + " EXCEPT !.a = " + (chance(50) ? "@ * " : "") + integer(depth - 1) + "]";
  }

  std::string function(int depth) {
    if (depth <= 0) return "(" + literal_int() + " :> " + literal_int() + ")";
    switch (pick(4)) {
      case 0: {
        const std::string set = int_set(depth - 1), v = fresh();
        bound_.push_back(v);
        const std::string body = integer(depth - 1);
        bound_.pop_back();
        return "[" + v + " \\in " + set + " |-> " + body + "]";
      }
      case 1: return "((" + small_int(1) + " :> " + integer(depth - 1) + ") @@ " + function(depth - 1) + ")";
      case 2: return "[" + function(depth - 1) + " EXCEPT ![" + small_int(1) + "] = " + integer(depth - 1) + "]";
      default: return "(" + literal_int() + " :> " + integer(depth - 1) + ")";
    }
  }

  std::mt19937_64 rng_;
  std::vector<std::string> bound_;
  int names_ = 0;
};

struct Outcome {
  bool error = false;
  std::string text;  // the value as TLC prints it, or the error
};

/// Our evaluator on each expression, in one module.
std::vector<Outcome> evaluate_natively(const fs::path& dir, const std::vector<std::string>& expressions) {
  std::ostringstream module;
  module << "---- MODULE Native ----\n" << kExtends << "\nApply(F(_), x) == F(x)\n";
  for (std::size_t k = 0; k < expressions.size(); ++k) module << "E" << k << " == " << expressions[k] << "\n";
  module << "====\n";
  std::ofstream(dir / "Native.tla") << module.str();
  auto spec = language::LoadedSpec::load(dir / "Native.tla", std::nullopt);
  language::Evaluator evaluator(*spec);
  evaluator.use_tlc_integers();  // where TLC's 32 bits overflow, both must refuse
  std::vector<Outcome> out;
  for (std::size_t k = 0; k < expressions.size(); ++k) {
    try {
      out.push_back({false, evaluator.evaluate(*spec->spec_definition("E" + std::to_string(k)), {}).text()});
    } catch (const std::exception& e) {
      out.push_back({true, e.what()});
    }
  }
  return out;
}

/// TLC on the expressions `from` onwards, each `ASSUME PrintT(<<k, probe(k)>>)`; fills what it
/// printed, and returns the first one it refused (or expressions.size()).
std::size_t run_tlc(const fs::path& dir, const std::vector<std::string>& expressions, std::size_t from,
                    const std::function<std::string(std::size_t)>& probe, std::map<std::size_t, std::string>& printed,
                    std::string& error) {
  std::ostringstream module;
  module << "---- MODULE Diff ----\n" << kExtends << "\nApply(F(_), x) == F(x)\n";
  for (std::size_t k = from; k < expressions.size(); ++k) module << "ASSUME PrintT(<<\"omnilink-diff\", " << k << ", " << probe(k) << ">>)\n";
  module << "VARIABLE x\nInit == x = 0\nNext == x' = x\n====\n";
  std::ofstream(dir / "Diff.tla") << module.str();
  std::ofstream(dir / "Diff.cfg") << "INIT Init\nNEXT Next\n";
  const auto java = find_java(), jar = find_tlc_jar();
  // TLC makes a directory of its own in java.io.tmpdir at each start: in the scratch directory,
  // not one more in /tmp for every run of this test.
  fs::create_directories(dir / "tmp");
  auto r = run_process(java.path->string(), {"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + (dir / "tmp").string(), "-cp", jar.path->string(), "tlc2.TLC",
                                             "-noGenerateSpecTE", "-workers", "1", "-metadir", (dir / "states").string(), "-config",
                                             (dir / "Diff.cfg").string(), (dir / "Diff.tla").string()},
                       ProcessOptions{std::chrono::milliseconds(300'000), dir, {}, nullptr, false});
  // Each value is printed <<"omnilink-diff", k, value>>; TLC breaks a long one over indented lines
  // (<< "omnilink-diff",\n   k,\n   value >>), which are joined here.
  std::vector<std::string> logical;
  {
    std::istringstream lines(r.out);
    std::string line;
    while (std::getline(lines, line)) {
      if (!logical.empty() && !line.empty() && line[0] == ' ') logical.back() += " " + line.substr(line.find_first_not_of(' '));
      else logical.push_back(line);
    }
  }
  static const std::regex kPrinted(R"(^<<\s*"omnilink-diff",\s*(\d+),\s*(.*?)\s*>>$)");
  std::size_t last = from;
  bool any = false;
  for (const std::string& line : logical) {
    std::smatch m;
    if (!std::regex_match(line, m, kPrinted)) continue;
    last = std::stoul(m[1]);
    printed[last] = m[2];
    any = true;
  }
  const std::size_t next = any ? last + 1 : from;
  if (next < expressions.size() && r.out.find("Evaluating assumption") == std::string::npos)
    FAIL("TLC stopped without evaluating expression " << next << ":\n" << r.out.substr(0, 3000) << r.err.substr(0, 2000));
  if (next < expressions.size()) {
    const auto at = r.out.find("Evaluating assumption");
    error = r.out.substr(at, 400);
  }
  return next;
}

}  // namespace

TEST_CASE("the embedded evaluator gives TLC's value or TLC's error on random constant expressions", "[language][tlc]") {
  if (!find_tlc_jar().found() || !find_java().found()) testing::skip_test("TLC or java not found (see `omnilink doctor`)");
  const char* seed_text = std::getenv("OMNILINK_DIFF_SEED");
  const std::uint64_t seed = seed_text ? std::strtoull(seed_text, nullptr, 10) : 20261126;
  const char* count_text = std::getenv("OMNILINK_DIFF_COUNT");
  const std::size_t count = count_text ? std::strtoull(count_text, nullptr, 10) : 2000;
  // TLC stops at the first expression it refuses, so each error costs a TLC run: every expression
  // our evaluator gives a value goes to TLC in one batch, and this many of those it refuses.
  constexpr std::size_t kErrorsAsked = 25;
  ExpressionGenerator generate(seed);
  std::vector<std::string> generated;
  while (generated.size() < count) generated.push_back(generate.any());

  testing::ScratchDir dir;
  const std::vector<Outcome> native = evaluate_natively(dir.path(), generated);
  std::vector<std::size_t> valued, erroring;
  for (std::size_t k = 0; k < generated.size(); ++k) (native[k].error ? erroring : valued).push_back(k);
  if (erroring.size() > kErrorsAsked) erroring.resize(kErrorsAsked);

  // TLC on a list of the expressions: what it prints, and which it refuses (with its message).
  auto ask_tlc = [&](const std::vector<std::string>& list, std::map<std::size_t, std::string>& printed,
                     std::map<std::size_t, std::string>& refused) {
    for (std::size_t from = 0; from < list.size();) {
      std::string error;
      const std::size_t stopped = run_tlc(dir.path(), list, from, [&](std::size_t k) { return list[k]; }, printed, error);
      if (stopped < list.size()) refused[stopped] = error;
      from = stopped + 1;
    }
  };
  auto pick = [&](const std::vector<std::size_t>& indexes) {
    std::vector<std::string> list;
    for (std::size_t k : indexes) list.push_back(generated[k]);
    return list;
  };

  // Values: TLC must print the same (or, where it orders a set's elements otherwise, agree that
  // its value and ours are equal).
  std::map<std::size_t, std::string> printed, refused;
  ask_tlc(pick(valued), printed, refused);
  std::vector<std::size_t> recheck;
  for (std::size_t j = 0; j < valued.size(); ++j) {
    const std::size_t k = valued[j];
    INFO("expression " << k << ": " << generated[k] << "\nnative: " << native[k].text);
    if (refused.count(j)) {
      FAIL_CHECK("TLC refuses it: " << refused[j]);
      continue;
    }
    REQUIRE(printed.count(j) == 1);
    if (printed[j] != native[k].text) recheck.push_back(j);
  }
  if (!recheck.empty()) {
    // TLC cannot read its own smallest integer as a literal.
    auto literal = [](std::string text) {
      for (std::size_t at; (at = text.find("-2147483648")) != std::string::npos;) text.replace(at, 11, "(-2147483647 - 1)");
      return text;
    };
    std::vector<std::string> equalities;
    for (std::size_t j : recheck) equalities.push_back("(" + generated[valued[j]] + ") = " + literal(native[valued[j]].text));
    std::map<std::size_t, std::string> same, refused_equality;
    ask_tlc(equalities, same, refused_equality);
    for (std::size_t i = 0; i < recheck.size(); ++i) {
      const std::size_t k = valued[recheck[i]];
      INFO("expression " << k << ": " << generated[k] << "\nnative: " << native[k].text << "\nTLC prints: " << printed[recheck[i]]
                         << (refused_equality.count(i) ? "\nTLC refuses the comparison: " + refused_equality[i] : ""));
      CHECK(same[i] == "TRUE");
    }
  }

  // Errors: TLC must refuse each expression our evaluator refuses.
  std::map<std::size_t, std::string> printed_anyway, refused_too;
  ask_tlc(pick(erroring), printed_anyway, refused_too);
  for (std::size_t j = 0; j < erroring.size(); ++j) {
    const std::size_t k = erroring[j];
    INFO("expression " << k << ": " << generated[k] << "\nnative error: " << native[k].text
                       << (printed_anyway.count(j) ? "\nTLC prints: " + printed_anyway[j] : ""));
    CHECK(refused_too.count(j) == 1);
  }
  std::cout << "compared " << generated.size() << " random expressions with TLC (seed " << seed << "): " << valued.size()
            << " values (" << recheck.size() << " printed in another order, compared with =), " << erroring.size()
            << " of the errors\n";
  CHECK(valued.size() > count / 2);
  CHECK(erroring.size() == kErrorsAsked);  // the generator reaches TLC's errors (overflow, division by zero, domains)
}
