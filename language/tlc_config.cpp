#include "language/tlc_config.hpp"

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "language/syntax.hpp"
#include "platform/special_file.hpp"

namespace omnilink::language {

namespace {

struct Token {
  std::string text;
  std::size_t line = 0;
  bool string = false;
};

std::vector<Token> tokens(const std::string& path, const std::string& text) {
  std::vector<Token> out;
  std::size_t line = 1;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (text.compare(i, 2, "\\*") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (text.compare(i, 2, "(*") == 0) {
      const auto end = text.find("*)", i + 2);
      if (end == std::string::npos) throw SpecError(path + ":" + std::to_string(line) + ": an unterminated (* comment");
      for (std::size_t k = i; k < end; ++k) line += text[k] == '\n';
      i = end + 2;
    } else if (c == '"') {
      std::string s;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) ++i;
        s += text[i];
      }
      if (i >= text.size()) throw SpecError(path + ":" + std::to_string(line) + ": an unterminated string");
      ++i;
      out.push_back({s, line, true});
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
      out.push_back({text.substr(i, j - i), line});
      i = j;
    } else {
      for (const char* symbol : {"<-", "<<", ">>"})
        if (text.compare(i, 2, symbol) == 0) {
          out.push_back({symbol, line});
          i += 2;
          goto next;
        }
      out.push_back({std::string(1, c), line});
      ++i;
    next:;
    }
  }
  return out;
}

class Reader {
 public:
  Reader(std::string path, std::vector<Token> toks) : path_(std::move(path)), toks_(std::move(toks)) {}

  TlcConfig read() {
    static const std::set<std::string> kIgnored = {"INVARIANT", "INVARIANTS", "PROPERTY", "PROPERTIES", "CHECK_DEADLOCK",
                                                   "ALIAS", "POSTCONDITION", "POSTCONDITIONS"};
    static const std::set<std::string> kChanges = {"SYMMETRY", "VIEW", "ACTION_CONSTRAINT", "ACTION_CONSTRAINTS"};
    TlcConfig out;
    std::string section;
    while (i_ < toks_.size()) {
      const Token& t = toks_[i_];
      if (!t.string && (t.text == "CONSTANT" || t.text == "CONSTANTS" || kIgnored.count(t.text) || kChanges.count(t.text) ||
                        t.text == "CONSTRAINT" || t.text == "CONSTRAINTS" || t.text == "INIT" || t.text == "NEXT" ||
                        t.text == "SPECIFICATION")) {
        section = t.text;
        ++i_;
        if (section == "INIT") out.init = name();
        if (section == "NEXT") out.next = name();
        if (section == "SPECIFICATION") out.specification = name();
        if (kChanges.count(section)) out.state_space_changes.push_back(section);
        continue;
      }
      if (section == "CONSTANT" || section == "CONSTANTS") {
        const std::string constant = name();
        const Token& op = take();
        if (op.text == "<-") {
          if (peek("[")) {  // Op <- [Module] Other: the module it is defined in, which every module sees here
            take();
            name();
            expect("]");
          }
          out.substitutions[constant] = name();
        } else if (op.text == "=") {
          if (peek("[")) {  // c = [Module] v: that module's c, also where it is instantiated
            take();
            const std::string module = name();
            expect("]");
            out.module_constants[module][constant] = value();
            continue;
          }
          out.constants[constant] = value();
        } else {
          fail(op, "'=' or '<-' after the constant " + constant);
        }
        continue;
      }
      if (section == "CONSTRAINT" || section == "CONSTRAINTS") {
        out.constraints.push_back(name());
        continue;
      }
      if (section.empty()) fail(t, "a section (CONSTANTS, INIT, NEXT, SPECIFICATION, ...)");
      ++i_;  // names of invariants, properties, a CHECK_DEADLOCK flag: not read
    }
    return out;
  }

 private:
  [[noreturn]] void fail(const Token& at, const std::string& expected) const {
    throw SpecError(path_ + ":" + std::to_string(at.line) + ": expected " + expected + ", found '" + at.text + "'");
  }
  const Token& take() {
    if (i_ >= toks_.size()) throw SpecError(path_ + ": the file ends too early");
    return toks_[i_++];
  }
  bool peek(const char* text) const { return i_ < toks_.size() && !toks_[i_].string && toks_[i_].text == text; }
  void expect(const char* text) {
    const Token& t = take();
    if (t.string || t.text != text) fail(t, std::string("'") + text + "'");
  }
  std::string name() {
    const Token& t = take();
    if (t.string || !(std::isalpha(static_cast<unsigned char>(t.text[0])) || t.text[0] == '_')) fail(t, "a name");
    return t.text;
  }

  Value value() {
    const Token& t = take();
    if (t.string) return Value::string(t.text);
    if (t.text == "-" || std::isdigit(static_cast<unsigned char>(t.text[0]))) {
      const bool negative = t.text == "-";
      const Token& digits = negative ? take() : t;
      if (digits.string || !std::isdigit(static_cast<unsigned char>(digits.text[0]))) fail(digits, "a number");
      return Value::integer((negative ? -1 : 1) * std::stoll(digits.text));
    }
    if (t.text == "TRUE" || t.text == "FALSE") return Value::boolean(t.text == "TRUE");
    if (t.text == "{" || t.text == "<<") {
      const std::string close = t.text == "{" ? "}" : ">>";
      std::vector<Value> items;
      while (!peek(close.c_str())) {
        items.push_back(value());
        if (!peek(close.c_str())) expect(",");
      }
      take();
      return close == "}" ? Value::set(std::move(items)) : Value::seq(std::move(items));
    }
    if (std::isalpha(static_cast<unsigned char>(t.text[0])) || t.text[0] == '_') return Value::model(t.text);  // a model value
    fail(t, "a value (a number, a string, a model value, {...} or <<...>>)");
  }

  std::string path_;
  std::vector<Token> toks_;
  std::size_t i_ = 0;
};

}  // namespace

TlcConfig read_tlc_config(const std::string& path) {
  if (const auto special = platform::not_a_regular_file(path, "a TLC configuration")) throw SpecError(path + ": " + *special);
  std::ifstream in(path);
  if (!in) throw SpecError(path + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return Reader(path, tokens(path, text.str())).read();
}

}  // namespace omnilink::language
