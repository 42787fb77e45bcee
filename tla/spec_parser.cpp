#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "tla/spec.hpp"

// Reading a module: split it into units (EXTENDS, CONSTANTS, VARIABLES, definitions, ...) by
// scanning tokens at nesting depth 0, then parse the body of Next as a tree of disjunctions,
// quantifiers, LET and parentheses whose leaves are action references. Only Next's structure is
// parsed; other bodies are kept as token ranges.

namespace omnilink::tla {
namespace {

// +1 for an opening bracket, -1 for a closing one, 0 otherwise: nesting depth for skipping
// balanced sub-expressions.
int bracket_delta(const Token& t) {
  if (t.is("(") || t.is("[") || t.is("{") || t.is("<<")) return 1;
  if (t.is(")") || t.is("]") || t.is("}") || t.is(">>")) return -1;
  return 0;
}

// Reserved words that can start an expression but never name an action.
bool is_reserved(const Token& t) {
  static const std::set<std::string> words = {"IF", "THEN", "ELSE", "CASE", "OTHER", "CHOOSE", "TRUE", "FALSE", "UNCHANGED",
                                              "ENABLED", "SUBSET", "UNION", "DOMAIN", "EXCEPT", "LAMBDA", "INSTANCE", "WITH",
                                              "BOOLEAN", "STRING", "IN", "LET", "WF_", "SF_"};
  return words.count(t.text) > 0;
}

bool is_unit_keyword(const Token& t) {
  static const std::set<std::string> keywords = {"EXTENDS", "CONSTANT", "CONSTANTS", "VARIABLE", "VARIABLES", "ASSUME",
                                                 "ASSUMPTION", "AXIOM", "THEOREM", "LEMMA", "PROPOSITION", "COROLLARY",
                                                 "RECURSIVE", "LOCAL"};
  return t.kind == TokenKind::identifier && keywords.count(t.text) > 0;
}

class ModuleParser {
 public:
  ModuleParser(std::string file, const std::string& text) : lexed_(lex(file, text)) { spec_.file = std::move(file); }

  // `next` empty: the module's interface only.
  Spec parse(const std::string& next) {
    header();
    while (!at_module_end()) unit();
    if (!next.empty()) {
      spec_.next_name = next;
      NextParser(spec_, lexed_).run();
    }
    return std::move(spec_);
  }

 private:
  const Token& tok(std::size_t k = 0) const { return toks()[std::min(i_ + k, toks().size() - 1)]; }
  const std::vector<Token>& toks() const { return lexed_.tokens; }
  [[noreturn]] void fail(const Token& t, const std::string& expected) const {
    throw SpecError(spec_.file, t.pos, "expected " + expected + ", found '" + t.text + "'");
  }
  const Token& expect_identifier(const std::string& what) {
    if (tok().kind != TokenKind::identifier) fail(tok(), what);
    return toks()[i_++];
  }
  bool at_module_end() const { return tok().kind == TokenKind::equals_bar || tok().kind == TokenKind::end; }

  void header() {
    // Text before the header (e.g. a licence comment in plain text) is not TLA+; TLC skips it too.
    while (tok().kind != TokenKind::end && !(tok().kind == TokenKind::dashes && tok(1).is("MODULE"))) ++i_;
    if (tok().kind == TokenKind::end) fail(tok(), "a module header '---- MODULE Name ----'");
    i_ += 2;
    spec_.module = expect_identifier("the module name").text;
    if (tok().kind != TokenKind::dashes) fail(tok(), "'----' closing the module header");
    ++i_;
  }

  // The definition starting at token k, if one does: "Name ==", "Name(p, q) ==", "Name[x \in S] ==".
  // Returns the index of the "==" token.
  std::optional<std::size_t> definition_at(std::size_t k) const {
    const auto& t = toks();
    if (t[k].kind != TokenKind::identifier || is_unit_keyword(t[k])) return std::nullopt;
    if (t[k + 1].is("==")) return k + 1;
    if (t[k + 1].is("(") || t[k + 1].is("[")) {
      const std::string close = t[k + 1].is("(") ? ")" : "]";
      int depth = 0;
      for (std::size_t j = k + 1; t[j].kind != TokenKind::end; ++j) {
        depth += bracket_delta(t[j]);
        if (depth == 0) return t[j + 1].is("==") ? std::optional(j + 1) : std::nullopt;
      }
    }
    return std::nullopt;
  }

  // Skips to the start of the next unit: a keyword or definition at nesting depth 0 outside LETs.
  std::size_t unit_end(std::size_t from) const {
    int depth = 0, let_depth = 0;
    for (std::size_t k = from;; ++k) {
      const Token& t = toks()[k];
      if (t.kind == TokenKind::end || t.kind == TokenKind::equals_bar || t.kind == TokenKind::dashes) return k;
      if (const int delta = bracket_delta(t); delta != 0) depth += delta;
      else if (t.is("LET")) ++let_depth;
      else if (t.is("IN") && let_depth > 0) --let_depth;
      else if (depth == 0 && let_depth == 0 && k > from && (is_unit_keyword(t) || definition_at(k))) return k;
    }
  }

  std::vector<std::string> identifier_list() {
    std::vector<std::string> names;
    do {
      names.push_back(expect_identifier("a name").text);
      if (tok().is("(")) {  // a constant operator: Op(_, _)
        while (!tok().is(")") && tok().kind != TokenKind::end) ++i_;
        ++i_;
      }
    } while (tok().is(",") && ++i_);
    return names;
  }

  void unit() {
    const Token& t = tok();
    if (t.kind == TokenKind::dashes) {
      ++i_;
      return;
    }
    if (t.is("EXTENDS")) {
      ++i_;
      spec_.extends = identifier_list();
      return;
    }
    if (t.is("CONSTANT") || t.is("CONSTANTS")) {
      ++i_;
      for (auto& n : identifier_list()) spec_.constants.push_back(n);
      return;
    }
    if (t.is("VARIABLE") || t.is("VARIABLES")) {
      ++i_;
      for (auto& n : identifier_list()) spec_.variables.push_back(n);
      return;
    }
    if (t.is("LOCAL")) {
      ++i_;
      return;
    }
    if (auto eq = definition_at(i_)) {
      definition(*eq);
      return;
    }
    if (is_unit_keyword(t)) {  // ASSUME, THEOREM, RECURSIVE, ...: not needed, skipped whole
      i_ = unit_end(i_ + 1);
      return;
    }
    fail(t, "a definition, EXTENDS, CONSTANTS, VARIABLES, ASSUME or '===='");
  }

  void definition(std::size_t eq) {
    OperatorDef def;
    def.name = tok().text;
    def.pos = tok().pos;
    if (tok(1).is("(")) {
      for (std::size_t k = i_ + 2; k < eq - 1; ++k) {
        const Token& p = toks()[k];
        if (p.kind == TokenKind::identifier) {
          def.params.push_back(p.text);
          if (toks()[k + 1].is("(")) {  // a higher-order parameter F(_, _)
            while (!toks()[k].is(")")) ++k;
          }
        } else if (!p.is(",")) {
          fail(p, "a parameter name");
        }
      }
    }
    def.type = annotation_before(def.pos);
    def.body_begin = eq + 1;
    def.body_end = unit_end(eq + 1);
    for (std::size_t k = def.body_begin; k < def.body_end; ++k)
      if (toks()[k].kind == TokenKind::identifier) def.mentions.insert(toks()[k].text);
    i_ = def.body_end;
    spec_.operators.push_back(std::move(def));
  }

  // The "@type:" annotation closest before `pos`, if no other definition lies between them.
  std::optional<TypeAnnotation> annotation_before(Position pos) const {
    std::optional<TypeAnnotation> found;
    for (const auto& a : lexed_.annotations) {
      if (a.pos.line > pos.line || (a.pos.line == pos.line && a.pos.col > pos.col)) break;
      found = a;
    }
    if (!found) return std::nullopt;
    for (const auto& d : spec_.operators)
      if (d.pos.line > found->pos.line || (d.pos.line == found->pos.line && d.pos.col > found->pos.col)) return std::nullopt;
    return found;
  }

  // Parses Next's body into action references.
  class NextParser {
   public:
    NextParser(Spec& spec, const LexedModule& lexed) : spec_(spec), toks_(lexed.tokens) {}

    void run() {
      const OperatorDef* next = spec_.find_operator(spec_.next_name);
      if (next == nullptr)
        throw SpecError(spec_.file, {1, 1}, "no definition of " + spec_.next_name + " (the next-state relation) in module " + spec_.module);
      if (!next->params.empty()) throw SpecError(spec_.file, next->pos, spec_.next_name + " must not take parameters");
      i_ = next->body_begin;
      end_ = next->body_end;
      disjunction(0);
      if (i_ < end_) fail("'\\/' or the end of " + spec_.next_name);
      group_operations();
    }

   private:
    const Token& tok() const { return toks_[i_ < end_ ? i_ : end_]; }
    bool at_end(int limit) const { return i_ >= end_ || tok().pos.col <= limit; }
    [[noreturn]] void fail(const std::string& expected) const {
      const Token& t = tok();
      const std::string found = i_ >= end_ ? "the end of " + spec_.next_name : "'" + t.text + "'";
      throw SpecError(spec_.file, i_ >= end_ ? toks_[end_ - 1].pos : t.pos, "in " + spec_.next_name + ": expected " + expected + ", found " + found);
    }

    // disjunction := junction-list | unary ('\/' unary)*    (tokens at column <= limit end it)
    void disjunction(int limit) {
      if (at_end(limit)) fail("an action");
      if (tok().is("\\/")) {
        junction_list(limit);
      } else {
        unary(limit);
      }
      while (!at_end(limit) && tok().is("\\/")) {
        ++i_;
        unary(limit);
      }
      if (!at_end(limit) && tok().is("/\\"))
        fail("a disjunction of actions ('/\\' combines actions into one step; define that step as an action)");
    }

    // A bulleted list: every item starts with '\/' at the same column; an item ends at the first
    // token at or left of that column.
    void junction_list(int limit) {
      const int column = tok().pos.col;
      while (!at_end(limit) && tok().is("\\/") && tok().pos.col == column) {
        ++i_;
        disjunction(column);
      }
    }

    void unary(int limit) {
      if (at_end(limit)) fail("an action");
      const Token& t = tok();
      if (t.is("(")) {
        ++i_;
        disjunction(0);
        if (!tok().is(")") || i_ >= end_) fail("')'");
        ++i_;
      } else if (t.is("\\E") || t.is("\\A") || t.is("\\EE") || t.is("\\AA")) {
        ++i_;
        skip_balanced_until(":");
        ++i_;
        disjunction(limit);
      } else if (t.is("LET")) {
        ++i_;
        int lets = 1;
        while (i_ < end_ && lets > 0) {
          if (tok().is("LET")) ++lets;
          if (tok().is("IN")) --lets;
          ++i_;
        }
        if (lets > 0) fail("IN closing the LET");
        disjunction(limit);
      } else if (t.kind == TokenKind::identifier && !is_reserved(t)) {
        reference();
      } else if (t.is("/\\")) {
        fail("a disjunction of actions ('/\\' combines actions into one step; define that step as an action)");
      } else {
        fail("an action, '\\/', '\\E', '\\A', LET or '('");
      }
    }

    // Name or Name(arg, ...): must be an operator defined in the module.
    void reference() {
      const Token& name = tok();
      const OperatorDef* def = spec_.find_operator(name.text);
      if (def == nullptr) {
        throw SpecError(spec_.file, name.pos,
                        "in " + spec_.next_name + ": '" + name.text + "' is not an operator defined in module " + spec_.module +
                            " (expected an action)");
      }
      ++i_;
      std::size_t args = 0;
      if (i_ < end_ && tok().is("(")) {
        ++i_;
        args = 1;
        int depth = 0;
        while (i_ < end_ && !(depth == 0 && tok().is(")"))) {
          depth += bracket_delta(tok());
          if (depth == 0 && tok().is(",")) ++args;
          ++i_;
        }
        if (i_ >= end_) fail("')' closing the arguments of " + name.text);
        ++i_;
      }
      if (args != def->params.size()) {
        throw SpecError(spec_.file, name.pos,
                        "in " + spec_.next_name + ": " + name.text + " is applied to " + std::to_string(args) +
                            " arguments but defined with " + std::to_string(def->params.size()));
      }
      for (const auto& a : spec_.actions)
        if (a.name == def->name) return;
      spec_.actions.push_back(Action{def->name, def->params, def->pos, name.pos});
    }

    void skip_balanced_until(const char* stop) {
      int depth = 0;
      while (i_ < end_ && !(depth == 0 && tok().is(stop))) {
        depth += bracket_delta(tok());
        ++i_;
      }
      if (i_ >= end_) fail(std::string("'") + stop + "' after the quantifier's bounds");
    }

    // X_Step + X_Done (same parameters) form one operation X; every other action is its own.
    void group_operations() {
      auto ends_with = [](const std::string& s, const std::string& suffix) {
        return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
      };
      for (const Action& a : spec_.actions) {
        const OperatorDef* def = spec_.find_operator(a.name);
        if (ends_with(a.name, "_Done")) continue;  // handled with its _Step
        if (ends_with(a.name, "_Step")) {
          const std::string base = a.name.substr(0, a.name.size() - 5);
          auto done = std::find_if(spec_.actions.begin(), spec_.actions.end(), [&](const Action& b) { return b.name == base + "_Done"; });
          if (done == spec_.actions.end())
            throw SpecError(spec_.file, a.def_pos, a.name + " has no matching " + base + "_Done in " + spec_.next_name);
          if (done->params != a.params)
            throw SpecError(spec_.file, done->def_pos, base + "_Done must have the same parameters as " + a.name);
          spec_.operations.push_back(OperationSpec{base, a.params, def->type, true, a.def_pos});
          continue;
        }
        spec_.operations.push_back(OperationSpec{a.name, a.params, def->type, false, a.def_pos});
      }
      for (const Action& a : spec_.actions) {
        if (!ends_with(a.name, "_Done")) continue;
        const std::string base = a.name.substr(0, a.name.size() - 5);
        if (std::none_of(spec_.actions.begin(), spec_.actions.end(), [&](const Action& b) { return b.name == base + "_Step"; }))
          throw SpecError(spec_.file, a.def_pos, a.name + " has no matching " + base + "_Step in " + spec_.next_name);
      }
    }

    Spec& spec_;
    const std::vector<Token>& toks_;
    std::size_t i_ = 0;
    std::size_t end_ = 0;
  };

  LexedModule lexed_;
  Spec spec_;
  std::size_t i_ = 0;
};

}  // namespace

const OperatorDef* Spec::find_operator(const std::string& name) const {
  for (const auto& op : operators)
    if (op.name == name) return &op;
  return nullptr;
}

Spec parse_spec(const std::string& file, const std::string& text, const std::string& next) {
  return ModuleParser(file, text).parse(next);
}

namespace {
std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw SpecError(path, {0, 0}, "cannot open file");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

Spec parse_spec_file(const std::string& path, const std::string& next) { return parse_spec(path, read_text(path), next); }

Spec parse_module_file(const std::string& path) { return ModuleParser(path, read_text(path)).parse(""); }

}  // namespace omnilink::tla
