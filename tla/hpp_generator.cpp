#include "tla/hpp_generator.hpp"

#include <cctype>
#include <set>
#include <sstream>
#include <stdexcept>

namespace omnilink::tla {
namespace {

// A small recursive-descent parser for Apalache type expressions.
class TypeParser {
 public:
  explicit TypeParser(const std::string& text) : s_(text) {}

  std::string parse_all() {
    std::string t = type();
    skip_space();
    if (i_ != s_.size()) throw std::invalid_argument("unexpected '" + s_.substr(i_) + "' in type '" + s_ + "'");
    return t;
  }

  // "(T1, T2) => R": the parameter types of an operator annotation.
  std::vector<std::string> operator_params() {
    skip_space();
    std::vector<std::string> params;
    if (!eat("(")) throw std::invalid_argument("an operator's type starts with '(': '" + s_ + "'");
    skip_space();
    if (!eat(")")) {
      do params.push_back(type());
      while (eat(","));
      if (!eat(")")) throw std::invalid_argument("expected ')' in '" + s_ + "'");
    }
    if (!eat("=>")) throw std::invalid_argument("expected '=>' after the parameter types in '" + s_ + "'");
    type();  // the result (Bool for an action) is not logged
    skip_space();
    if (i_ != s_.size()) throw std::invalid_argument("unexpected '" + s_.substr(i_) + "' in '" + s_ + "'");
    return params;
  }

 private:
  void skip_space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(const char* token) {
    skip_space();
    const std::string t(token);
    if (s_.compare(i_, t.size(), t) != 0) return false;
    i_ += t.size();
    return true;
  }
  std::string word() {
    skip_space();
    std::size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    return s_.substr(start, i_ - start);
  }

  // type := primary ('->' type)?
  std::string type() {
    std::string left = primary();
    if (eat("->")) return "std::map<" + left + ", " + type() + ">";
    return left;
  }
  std::string primary() {
    if (eat("(")) {
      std::string t = type();
      if (!eat(")")) throw std::invalid_argument("expected ')' in '" + s_ + "'");
      return t;
    }
    if (eat("<<")) {
      std::vector<std::string> items;
      do items.push_back(type());
      while (eat(","));
      if (!eat(">>")) throw std::invalid_argument("expected '>>' in '" + s_ + "'");
      if (items.size() != 2) throw std::invalid_argument("only pairs <<A, B>> are supported as tuple types, in '" + s_ + "'");
      return "std::pair<" + items[0] + ", " + items[1] + ">";
    }
    const std::string w = word();
    if (w == "Int" || w == "Nat") return "std::int64_t";
    if (w == "Bool") return "bool";
    if (w == "Str") return "std::string";
    if (w == "Seq" || w == "Set") {
      if (!eat("(")) throw std::invalid_argument("expected '(' after " + w + " in '" + s_ + "'");
      std::string inner = type();
      if (!eat(")")) throw std::invalid_argument("expected ')' in '" + s_ + "'");
      return (w == "Seq" ? "std::vector<" : "std::set<") + inner + ">";
    }
    throw std::invalid_argument("unsupported type '" + (w.empty() ? s_.substr(i_) : w) +
                                "' (supported: Int, Nat, Bool, Str, Seq(T), Set(T), T -> U, <<A, B>>)");
  }

  const std::string& s_;
  std::size_t i_ = 0;
};

// C++ keywords an action parameter may collide with: the field gets a trailing underscore.
bool is_cpp_keyword(const std::string& w) {
  static const std::set<std::string> keywords = {
      "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class", "concept", "const",
      "consteval", "constexpr", "constinit", "continue", "co_await", "co_return", "co_yield", "decltype", "default",
      "delete", "do", "double", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend",
      "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "nullptr", "operator",
      "or", "private", "protected", "public", "register", "requires", "return", "short", "signed", "sizeof", "static",
      "struct", "switch", "template", "this", "throw", "true", "try", "typedef", "typeid", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "while", "xor"};
  return keywords.count(w) > 0;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string cpp_type_of(const std::string& apalache_type) { return TypeParser(apalache_type).parse_all(); }

std::vector<std::string> cpp_param_types(const language::Operation& op) {
  if (!op.type) return std::vector<std::string>(op.params.size(), "std::int64_t");
  std::vector<std::string> types;
  try {
    types = TypeParser(*op.type).operator_params();
  } catch (const std::invalid_argument& e) {
    throw language::SpecError(op.pos.text() + ": in the @type annotation of " + op.name + ": " + e.what());
  }
  if (types.size() != op.params.size()) {
    throw language::SpecError(op.pos.text() + ": the @type annotation of " + op.name + " lists " + std::to_string(types.size()) +
                              " parameter types, the action has " + std::to_string(op.params.size()));
  }
  return types;
}

std::string generate_hpp(const language::SpecInterface& spec, const HppOptions& options) {
  const std::string ns = options.namespace_name.empty() ? lower(spec.module) : options.namespace_name;
  std::ostringstream out;
  out << "// Generated by `omnilink gen-hpp` from " << spec.file << " (module " << spec.module << ", next-state relation "
      << spec.next << ").\n"
      << "// Do not edit: regenerate after changing the spec. One struct per logged operation; a workload\n"
      << "// registers each with SpecHarness::op<Op>() or declares it with SpecHarness::unsupported<Op>().\n"
      << "#pragma once\n\n"
      << "#include <array>\n#include <cstdint>\n#include <map>\n#include <set>\n#include <string>\n#include <string_view>\n"
      << "#include <utility>\n#include <vector>\n\n"
      << "#include <omnilink/spec_harness.hpp>\n\n"
      << "namespace " << ns << " {\n";
  std::string list;
  for (const language::Operation& op : spec.operations) {
    const std::vector<std::string> types = cpp_param_types(op);
    const std::string type_note = op.type ? "types from the @type annotation"
                                          : "untyped parameters are logged as Int (annotate the action with \\* @type: (...) => Bool;)";
    out << "\n// " << op.name << "(";
    for (std::size_t k = 0; k < op.params.size(); ++k) out << (k ? ", " : "") << op.params[k];
    out << ")";
    if (op.multi_step) out << ": " << op.name << "_Step any number of times, then " << op.name << "_Done";
    out << " -- " << spec.file << ":" << op.pos.line << "; " << (op.params.empty() ? "no parameters" : type_note) << "\n";
    out << "struct " << op.name << " {\n"
        << "  static constexpr std::string_view omnilink_name = \"" << op.name << "\";\n";
    if (op.multi_step) out << "  static constexpr bool omnilink_multi_step = true;\n";
    if (op.inputs) {
      // The fields set before the call (the action's @inputs annotation): a call in flight when the
      // run dies is logged pending with them (docs/harness.md, Inputs and results).
      out << "  static constexpr std::array<std::string_view, " << op.inputs->size() << "> omnilink_inputs{";
      for (std::size_t k = 0; k < op.inputs->size(); ++k) out << (k ? ", " : "") << "\"" << (*op.inputs)[k] << "\"";
      out << "};\n";
    }
    std::string visit;
    for (std::size_t k = 0; k < op.params.size(); ++k) {
      const std::string& p = op.params[k];
      const std::string field = is_cpp_keyword(p) ? p + "_" : p;
      out << "  " << types[k] << " " << field << "{};\n";
      visit += "    field(\"" + p + "\", " + field + ");\n";
    }
    out << "  template <class V>\n  void omnilink_fields(" << (visit.empty() ? "V&&" : "V&& field") << ") const {"
        << (visit.empty() ? "}\n" : "\n" + visit + "  }\n") << "};\n";
    list += (list.empty() ? "" : ", ") + op.name;
  }
  out << "\n// Every operation of " << spec.next << ": SpecHarness::run() fails to compile unless each is covered.\n"
      << "using Operations = omnilink::OperationList<" << list << ">;\n\n"
      << "}  // namespace " << ns << "\n";
  return out.str();
}

}  // namespace omnilink::tla
