// Tokens of a TLA+ module, with 1-based line and column (columns matter: TLA+ junction lists
// are laid out by column). Comments are dropped except Apalache-style type annotations
// ("\* @type: ...;"), which are kept so definitions can carry field types.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace omnilink::tla {

struct Position {
  int line = 0;
  int col = 0;
};

enum class TokenKind {
  identifier,  // letters, digits, underscores, at least one letter (keywords included)
  number,
  string,      // text without the quotes
  symbol,      // operators and punctuation: ==, \/, /\, \E, \in, (, <<, ...
  dashes,      // ---- (four or more): module header or separator
  equals_bar,  // ==== (four or more): end of module
  end,
};

struct Token {
  TokenKind kind = TokenKind::end;
  std::string text;
  Position pos;
  bool is(const char* s) const { return kind != TokenKind::string && text == s; }
};

struct TypeAnnotation {
  std::string text;  // what follows "@type:", up to the ';'
  Position pos;
};

struct LexedModule {
  std::vector<Token> tokens;  // ends with one TokenKind::end
  std::vector<TypeAnnotation> annotations;
};

// A problem in a spec, located: "FILE:LINE:COL: MESSAGE".
class SpecError : public std::runtime_error {
 public:
  SpecError(const std::string& file, Position pos, const std::string& message)
      : std::runtime_error(file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col) + ": " + message),
        pos_(pos) {}
  Position position() const { return pos_; }

 private:
  Position pos_;
};

LexedModule lex(const std::string& file, const std::string& text);

}  // namespace omnilink::tla
