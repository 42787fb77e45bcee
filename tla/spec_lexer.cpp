#include "tla/spec_lexer.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace omnilink::tla {
namespace {

// Longest symbols first, so "<=>" wins over "<=" and "|->" over "|-".
constexpr std::array kSymbols = {
    "<=>", "|->", "...", "==", "/\\", "\\/", "<<", ">>", "->", "<-", "<=", ">=", "=<", "/=", "..", "::", ":>",
    "@@", "=>", "~>", "[]", "<>", "++", "--", "**", "||", "|-", "-+->", "'",
};

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Lexer {
 public:
  Lexer(const std::string& file, const std::string& text) : file_(file), text_(text) {}

  LexedModule run() {
    LexedModule out;
    while (true) {
      skip_space_and_comments(out);
      if (at_end()) break;
      out.tokens.push_back(next_token());
    }
    out.tokens.push_back(Token{TokenKind::end, "end of file", here()});
    return out;
  }

 private:
  bool at_end() const { return i_ >= text_.size(); }
  char peek(std::size_t k = 0) const { return i_ + k < text_.size() ? text_[i_ + k] : '\0'; }
  Position here() const { return {line_, col_}; }
  void advance() {
    if (text_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++i_;
  }
  bool starts_with(std::string_view s) const { return std::string_view(text_).substr(i_, s.size()) == s; }

  void skip_space_and_comments(LexedModule& out) {
    while (!at_end()) {
      if (std::isspace(static_cast<unsigned char>(peek()))) {
        advance();
      } else if (starts_with("\\*")) {
        const Position start = here();
        std::string comment;
        while (!at_end() && peek() != '\n') comment += peek(), advance();
        note_annotation(comment, start, out);
      } else if (starts_with("(*")) {
        const Position start = here();
        std::string comment;
        int depth = 0;
        do {
          if (at_end()) throw SpecError(file_, start, "unterminated comment: '(*' without '*)'");
          if (starts_with("(*")) ++depth, comment += "(*", advance(), advance();
          else if (starts_with("*)")) --depth, comment += "*)", advance(), advance();
          else comment += peek(), advance();
        } while (depth > 0);
        note_annotation(comment, start, out);
      } else {
        return;
      }
    }
  }

  static void note_annotation(const std::string& comment, Position pos, LexedModule& out) {
    const auto at = comment.find("@type:");
    if (at == std::string::npos) return;
    std::string type = comment.substr(at + 6);
    if (auto semi = type.find(';'); semi != std::string::npos) type.resize(semi);
    out.annotations.push_back({type, pos});
  }

  Token next_token() {
    const Position start = here();
    const char c = peek();
    if (c == '"') {
      advance();
      std::string s;
      while (!at_end() && peek() != '"') {
        if (peek() == '\n') throw SpecError(file_, start, "unterminated string");
        if (peek() == '\\') advance();
        if (!at_end()) s += peek(), advance();
      }
      if (at_end()) throw SpecError(file_, start, "unterminated string");
      advance();
      return {TokenKind::string, s, start};
    }
    if (c == '-' && starts_with("----")) return run_of('-', TokenKind::dashes, start);
    if (c == '=' && starts_with("====")) return run_of('=', TokenKind::equals_bar, start);
    if (is_word_char(c)) {
      std::string w;
      while (is_word_char(peek())) w += peek(), advance();
      const bool has_letter = std::any_of(w.begin(), w.end(), [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)) || ch == '_'; });
      return {has_letter ? TokenKind::identifier : TokenKind::number, w, start};
    }
    if (c == '\\' && std::isalpha(static_cast<unsigned char>(peek(1)))) {  // \E, \A, \in, \cup, ...
      std::string w = "\\";
      advance();
      while (std::isalpha(static_cast<unsigned char>(peek()))) w += peek(), advance();
      return {TokenKind::symbol, w, start};
    }
    for (const char* sym : kSymbols) {
      if (starts_with(sym)) {
        for (std::size_t k = 0; sym[k] != '\0'; ++k) advance();
        return {TokenKind::symbol, sym, start};
      }
    }
    advance();
    return {TokenKind::symbol, std::string(1, c), start};
  }

  Token run_of(char ch, TokenKind kind, Position start) {
    std::string s;
    while (peek() == ch) s += ch, advance();
    return {kind, s, start};
  }

  const std::string& file_;
  const std::string& text_;
  std::size_t i_ = 0;
  int line_ = 1;
  int col_ = 1;
};

}  // namespace

LexedModule lex(const std::string& file, const std::string& text) { return Lexer(file, text).run(); }

}  // namespace omnilink::tla
