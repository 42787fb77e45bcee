// Reading TLA+ text: the TLA+ community's tree-sitter grammar (npm @tlaplus/tree-sitter-tlaplus,
// fetched by scripts/setup, compiled in by CMake) parses a module; this file turns its concrete
// syntax tree into the abstract syntax of ast.hpp. It knows nothing of what names mean.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "language/ast.hpp"

namespace omnilink::language {

/// The spec is wrong as TLA+ in a way TLC refuses too (a syntax error, an unknown name, a wrong
/// number of arguments, a circular EXTENDS, a module whose name is not its file's): no checker can
/// use it. The message starts with file:line:col.
class SpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The text is not TLA+ the grammar accepts. The message starts with file:line:col.
class SyntaxError : public SpecError {
 public:
  using SpecError::SpecError;
};

/// How deep expressions may nest in a module: converting, binding and evaluating each recurse once
/// per level, and a file must not drive them past the stack. Deeper is a SyntaxError.
inline constexpr int kMaxExpressionNesting = 1000;

/// One level of a recursion over a module's expressions, entered for as long as it lives: `depth`
/// counts the levels open. Its caller refuses a level past kMaxExpressionNesting as its input's error.
class ExpressionLevel {
 public:
  explicit ExpressionLevel(int& depth) : depth_(++depth) {}
  ~ExpressionLevel() { --depth_; }
  ExpressionLevel(const ExpressionLevel&) = delete;
  ExpressionLevel& operator=(const ExpressionLevel&) = delete;
  bool too_deep() const { return depth_ > kMaxExpressionNesting; }

 private:
  int& depth_;
};

/// Parses the first module of `text`, read from `file`, or reads its parse from the parse cache
/// when the cache is on and an earlier process kept it (parse_cache.hpp). Throws SyntaxError.
Module parse_module(const std::string& file, const std::string& text);

/// Which grammar omnilink was built with: "@tlaplus/tree-sitter-tlaplus 1.5.0".
std::string grammar_description();

/// The largest module file read, in bytes, unless OMNILINK_MAX_SPEC_BYTES says otherwise: far
/// above any spec written by hand (the TLA+ examples' largest modules are tens of kilobytes), and
/// low enough that a file that is no spec is refused before the parser spends memory on it.
inline constexpr std::uint64_t kDefaultMaxSpecBytes = 4u << 20;

/// Reads and parses `path`: a regular file (a device, FIFO or directory is named as such) of at
/// most kDefaultMaxSpecBytes (or OMNILINK_MAX_SPEC_BYTES). Throws SyntaxError (also when it cannot
/// be read).
Module parse_module_file(const std::string& path);

}  // namespace omnilink::language
