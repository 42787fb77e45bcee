// The TLA+ grammar run within bounds: time linear in the text, and memory that a file of junk
// cannot blow up. Two things in tree-sitter 0.20 (Debian bookworm's runtime) need help:
// - The grammar's external scanner asks the lexer for the current column at every token (junction
//   lists are aligned by column), and the runtime answers by reading the line again from its
//   start: a line of n tokens cost n² (200,000 parentheses on one line took 339 s). Upstream
//   tree-sitter later cached the column (its issue 1626); here a table of the text answers.
// - After a syntax error the parser recovers and goes on to the end of the file, keeping every
//   token it skips and every partial definition it finds: 4 MiB of junk after a module header took
//   820 MB. Only the first error is reported, so a parse that reads far past its first error is
//   stopped and the text up to the end of that error's line parsed instead.
#pragma once

#include <cstdint>
#include <string_view>

#include <tree_sitter/api.h>

namespace omnilink::language {

/// A tree from parse_with_columns. `cut_at` is where the text was cut when the parse read too far
/// past its first syntax error (the end of the line the recovery began on; the tree is of the
/// text before it), else 0.
struct GrammarParse {
  TSTree* tree = nullptr;  // the caller owns it
  std::uint32_t cut_at = 0;
};

/// How far past its first syntax error a parse may read before it is stopped: the largest spec
/// modules written by hand are tens of kilobytes, and what the parser keeps after the error
/// (about 150 bytes per byte of junk) stays within about 10 MB.
inline constexpr std::uint32_t kMaxRecoveryBytes = 64u << 10;

/// Parses `text` with `parser` (its language set to TLA+). The scanner's column questions are
/// answered from a table of `text` built once (a column per byte, counted in code points from the
/// line's start as tree-sitter counts them); `text` must be valid UTF-8, since the table is read
/// where each whole character starts. A parse that reads kMaxRecoveryBytes past its first syntax
/// error is cancelled, and the text up to the end of that error's line parsed instead.
GrammarParse parse_with_columns(TSParser* parser, std::string_view text);

}  // namespace omnilink::language
