// language/grammar_parse against the tree-sitter runtime it works around: the column table must
// answer the grammar's scanner exactly as the runtime's own get_column does (so every tree is the
// same), on every spec the repository holds and on junction lists aligned after multi-byte
// characters, where a column counted in bytes would end a list the runtime keeps.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <tree_sitter/api.h>

#include "language/grammar_parse.hpp"

extern "C" const TSLanguage* tree_sitter_tlaplus(void);

namespace {

namespace fs = std::filesystem;
using omnilink::language::parse_with_columns;

struct Parser {
  TSParser* parser = ts_parser_new();
  Parser() { REQUIRE(ts_parser_set_language(parser, tree_sitter_tlaplus())); }
  ~Parser() { ts_parser_delete(parser); }
};

// The tree as an S-expression: what two parses must agree on.
std::string sexp(TSTree* tree) {
  char* text = ts_node_string(ts_tree_root_node(tree));
  std::string out(text);
  std::free(text);
  ts_tree_delete(tree);
  return out;
}

std::string by_runtime(const std::string& text) {
  Parser p;
  return sexp(ts_parser_parse_string(p.parser, nullptr, text.data(), static_cast<std::uint32_t>(text.size())));
}

std::string by_table(const std::string& text) {
  Parser p;
  const auto parse = parse_with_columns(p.parser, text);
  REQUIRE(parse.cut_at == 0);
  return sexp(parse.tree);
}

}  // namespace

TEST_CASE("the column table parses every spec of the repository as the runtime does", "[language][grammar]") {
  int specs = 0;
  for (const char* folder : {"tla", "tests/specs", "examples", "language/library", "bench"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(OMNILINK_SOURCE_DIR) / folder)) {
      if (entry.path().extension() != ".tla") continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      INFO(entry.path());
      CHECK(by_table(text.str()) == by_runtime(text.str()));
      ++specs;
    }
  }
  CHECK(specs > 20);
}

TEST_CASE("junction lists after multi-byte characters align by characters, as the runtime counts", "[language][grammar]") {
  // The inner list's first bullet follows a three-byte ∧ on its line: in characters it is at
  // column 10, in bytes at 12, and the next line's ∨ (after ASCII spaces) at column 10.
  const std::string text =
      "---- MODULE U ----\nVARIABLE x\n"
      "Init == \xE2\x88\xA7 x = 1\n"
      "        \xE2\x88\xA7 \xE2\x88\xA8 x = 2\n"
      "          \xE2\x88\xA8 x = \"\xC3\xA9\xC3\xA9\" \xE2\x88\xA8 x = 3\n"
      "        \xE2\x88\xA7 x = 4\n"
      "====\n";
  const std::string tree = by_table(text);
  CHECK(tree == by_runtime(text));
  CHECK(tree.find("ERROR") == std::string::npos);
  CHECK(tree.find("MISSING") == std::string::npos);
}

TEST_CASE("a recovery from a syntax error that runs long is cut at the line it started on", "[language][grammar]") {
  std::string text = "---- MODULE J ----\nA == 1\nB == )(\n";
  for (int k = 0; k < 200000; ++k) text += k % 50 == 49 ? "\n" : ") ";
  text += "\n====\n";
  Parser p;
  const auto parse = parse_with_columns(p.parser, text);
  REQUIRE(parse.tree != nullptr);
  CHECK(parse.cut_at == text.find('\n', text.find("B == ")));
  const TSNode root = ts_tree_root_node(parse.tree);
  CHECK(ts_node_has_error(root));
  CHECK(ts_node_end_byte(root) <= parse.cut_at);
  ts_tree_delete(parse.tree);
}
