#include "language/library.hpp"

#include <map>

namespace omnilink::language {

const std::map<std::string, std::string>& library_module_texts();  // generated: embed_library.cmake

namespace {

// The standard modules' operators evaluated natively, by name (operators written as symbols, + or
// \o, are recognised by the parser).
constexpr StandardOperator kStandard[] = {
    {"Naturals", "Nat", Builtin::Nat, 0},
    // Operators written as symbols are named by the symbol, which no identifier can meet.
    {"Naturals", "+", Builtin::Plus, 2},
    {"Naturals", "-", Builtin::Minus, 2},
    {"Naturals", "*", Builtin::Mul, 2},
    {"Naturals", "^", Builtin::Pow, 2},
    {"Naturals", "\\div", Builtin::Div, 2},
    {"Naturals", "%", Builtin::Mod, 2},
    {"Naturals", "<", Builtin::Lt, 2},
    {"Naturals", "<=", Builtin::Leq, 2},
    {"Naturals", ">", Builtin::Gt, 2},
    {"Naturals", ">=", Builtin::Geq, 2},
    {"Naturals", "..", Builtin::Range, 2},
    {"Integers", "Int", Builtin::Int, 0},
    {"Integers", "-.", Builtin::Negate, 1},
    {"Sequences", "\\o", Builtin::Concat, 2},
    {"TLC", ":>", Builtin::MapsTo, 2},
    {"TLC", "@@", Builtin::Compose, 2},
    {"Sequences", "Seq", Builtin::Seq, 1},
    {"Sequences", "Len", Builtin::Len, 1},
    {"Sequences", "Append", Builtin::Append, 2},
    {"Sequences", "Head", Builtin::Head, 1},
    {"Sequences", "Tail", Builtin::Tail, 1},
    {"Sequences", "SubSeq", Builtin::SubSeq, 3},
    {"Sequences", "SelectSeq", Builtin::SelectSeq, 2},
    {"FiniteSets", "Cardinality", Builtin::Cardinality, 1},
    {"FiniteSets", "IsFiniteSet", Builtin::IsFiniteSet, 1},
    {"TLC", "Assert", Builtin::Assert, 2},
    {"TLC", "ToString", Builtin::ToString, 1},
    {"TLC", "Print", Builtin::Print, 2},
    {"TLC", "PrintT", Builtin::PrintT, 1},
    {"TLC", "Permutations", Builtin::Permutations, 1},
    {"TLC", "SortSeq", Builtin::SortSeq, 2},
    {"TLC", "TLCEval", Builtin::TLCEval, 1},
    {"TLC", "RandomElement", Builtin::None, 1,
     "RandomElement draws at random, and a verdict must not depend on a draw: write \\E x \\in S (every element) or "
     "CHOOSE x \\in S : TRUE (a fixed one)"},
    {"TLC", "TLCGet", Builtin::None, 1, "TLCGet reads TLC's own registers and statistics, which validation does not have"},
    {"TLC", "TLCSet", Builtin::None, 2, "TLCSet writes TLC's own registers, which validation does not have"},
    {"TLC", "JavaTime", Builtin::None, 0, "JavaTime reads the clock, and a verdict must not depend on when it ran"},
    {"TLC", "Any", Builtin::None, 0, "Any is TLC's set of every value, which cannot be enumerated"},
    {"OmniLinkTrace", "OmniLinkFieldValues", Builtin::OmniLinkFieldValues, 2},
};

std::vector<std::string> standard_extends(const std::string& m) {
  if (m == "Integers" || m == "Sequences" || m == "FiniteSets" || m == "TLC") return {"Naturals"};
  if (m == "OmniLinkTrace") return {"Integers", "Sequences", "FiniteSets", "TLC"};
  return {};
}

}  // namespace

bool is_standard_module(const std::string& m) {
  return m == "Naturals" || m == "Integers" || m == "Sequences" || m == "FiniteSets" || m == "TLC" || m == "OmniLinkTrace";
}

bool proof_only_module(const std::string& m) { return (m.size() > 8 && m.ends_with("Theorems")) || m.ends_with("_proofs"); }

std::vector<const StandardOperator*> standard_operators(const std::string& module) {
  std::vector<const StandardOperator*> out;
  for (const auto& base : standard_extends(module)) {
    auto inner = standard_operators(base);
    out.insert(out.end(), inner.begin(), inner.end());
  }
  for (const auto& op : kStandard)
    if (module == op.module) out.push_back(&op);
  return out;
}

const char* module_of_builtin(Builtin builtin) {
  for (const auto& op : kStandard)
    if (op.builtin == builtin) return op.module;
  return nullptr;
}

const std::string* library_module_text(const std::string& name) {
  const auto& texts = library_module_texts();
  auto it = texts.find(name);
  return it == texts.end() ? nullptr : &it->second;
}

const char* unimplemented_module(const std::string& name) {
  static const std::pair<const char*, const char*> kUnimplemented[] = {
      {"Reals", "real numbers"},
      {"RealTime", "real time"},
      {"TLCExt", "TLC's extensions (its state graph, traces and caches)"},
      {"Json", "reading and writing JSON files"},
      {"IOUtils", "running programs and reading files"},
      {"CSV", "reading and writing CSV files"},
      {"Randomization", "random subsets (a verdict must not depend on a draw)"},
      {"Toolbox", "the Toolbox's trace explorer"},
      {"Statistics", "statistical tests over TLC's runs"},
      {"VectorClocks", "vector clocks of TLC's traces"},
      {"DyadicRationals", "dyadic rationals"},
      {"Graphs", "graphs"},
  };
  for (const auto& [module, what] : kUnimplemented)
    if (name == module) return what;
  return nullptr;
}

}  // namespace omnilink::language
