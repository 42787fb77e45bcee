// The grammar's own header, first (it declares what the runtime's api.h leaves out when it comes
// second): the lexer interface exactly as the scanner was compiled against it.
#include <tree_sitter/parser.h>

#include "language/grammar_parse.hpp"
#include "platform/printable_text.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

// The grammar's scanner, renamed when it is compiled (language/CMakeLists.txt) so that the name
// the grammar's tables call is the wrapper below.
extern "C" bool omnilink_tlaplus_grammar_scan(void* payload, TSLexer* lexer, const bool* valid_symbols);

namespace omnilink::language {
namespace {

/// The text being parsed on this thread: its column table, where the lexer stands, and how far
/// error recovery has gone.
struct ColumnSource {
  std::string_view text;
  std::vector<std::uint32_t> column;  // per byte offset, and one past the end
  std::uint32_t offset = 0;           // the start of the last character the lexer read
  bool recovering = false;            // a syntax error was met
  std::uint32_t recovery_from = 0;    // where the lexer stood when recovery began
  std::size_t cancel = 0;             // the parser's cancellation flag
};

thread_local ColumnSource* current_source = nullptr;

// The lexer's input, one character at a time: each read says where the lexer stands, since
// tree-sitter reads again whenever its position leaves the chunk it holds.
const char* read_character(void* payload, std::uint32_t byte, TSPoint, std::uint32_t* bytes_read) {
  auto& source = *static_cast<ColumnSource*>(payload);
  source.offset = byte;
  if (source.recovering && std::uint64_t{byte} > std::uint64_t{source.recovery_from} + kMaxRecoveryBytes) source.cancel = 1;
  if (byte >= source.text.size()) {
    *bytes_read = 0;
    return "";
  }
  const std::uint32_t left = static_cast<std::uint32_t>(source.text.size()) - byte;
  // A byte that starts no well-formed character is read alone (the spec reader refuses such text
  // before parsing; a caller that did not gets a syntax error there).
  const std::size_t length = std::max<std::size_t>(1, platform::utf8_sequence_at(source.text, byte));
  *bytes_read = std::min(static_cast<std::uint32_t>(length), left);
  return source.text.data() + byte;
}

/// The lexer the scanner is handed: the runtime's, but for the column.
struct ColumnLexer {
  TSLexer lexer;  // first: the scanner sees a TSLexer*
  TSLexer* runtime;
};

ColumnLexer& self(const TSLexer* lexer) { return *reinterpret_cast<ColumnLexer*>(const_cast<TSLexer*>(lexer)); }

void advance(TSLexer* lexer, bool skip) {
  TSLexer* runtime = self(lexer).runtime;
  runtime->advance(runtime, skip);
  lexer->lookahead = runtime->lookahead;
}
void mark_end(TSLexer* lexer) { self(lexer).runtime->mark_end(self(lexer).runtime); }
std::uint32_t get_column(TSLexer* lexer) {
  if (current_source == nullptr) return self(lexer).runtime->get_column(self(lexer).runtime);
  return current_source->column[current_source->offset];
}
bool is_at_included_range_start(const TSLexer* lexer) {
  return self(lexer).runtime->is_at_included_range_start(self(lexer).runtime);
}
bool eof(const TSLexer* lexer) { return self(lexer).runtime->eof(self(lexer).runtime); }
// Newer grammars' headers have a debug log that Debian bookworm's runtime lacks: nothing to log.
void no_log(const TSLexer*, const char*, ...) {}

template <class Lexer>
void clear_log(Lexer& lexer) {
  if constexpr (requires { lexer.log; }) lexer.log = no_log;
}

// The parser's log says when recovery from a syntax error begins: "resume version" is written
// when every version of the parse is stuck (a version that fails while another goes on, or a
// token lexed again in error mode, as `![1]` is, is no error of the text). Its cost, a formatted
// line per parser step and per character, is paid only by texts long enough to be cut.
void watch_for_recovery(void* payload, TSLogType type, const char* message) {
  auto& source = *static_cast<ColumnSource*>(payload);
  if (type == TSLogTypeParse && !source.recovering && std::strncmp(message, "resume version", 14) == 0) {
    source.recovering = true;
    source.recovery_from = source.offset;
  }
}

TSTree* parse(TSParser* parser, std::string_view text, ColumnSource& source, bool watch) {
  source.text = text;
  source.column.assign(text.size() + 1, 0);
  std::uint32_t column = 0;
  for (std::size_t k = 0; k < text.size(); ++k) {
    source.column[k] = column;
    const auto byte = static_cast<unsigned char>(text[k]);
    if (byte == '\n') column = 0;
    else if ((byte & 0xC0) != 0x80) ++column;  // a continuation byte is part of the character before
  }
  source.column[text.size()] = column;
  ColumnSource* const outer = current_source;
  current_source = &source;
  ts_parser_set_cancellation_flag(parser, &source.cancel);
  if (watch) ts_parser_set_logger(parser, TSLogger{&source, watch_for_recovery});
  struct Restore {
    TSParser* parser;
    ColumnSource* outer;
    ~Restore() {
      ts_parser_set_logger(parser, TSLogger{nullptr, nullptr});
      ts_parser_set_cancellation_flag(parser, nullptr);
      current_source = outer;
    }
  } restore{parser, outer};
  return ts_parser_parse(parser, nullptr, TSInput{&source, read_character, TSInputEncodingUTF8});
}

}  // namespace

GrammarParse parse_with_columns(TSParser* parser, std::string_view text) {
  ColumnSource source;
  if (TSTree* tree = parse(parser, text, source, text.size() > kMaxRecoveryBytes)) return {tree, 0};
  // Cancelled: recovery ran away. What the first error is depends only on the text before it.
  ts_parser_reset(parser);
  const std::size_t newline = text.find('\n', source.recovery_from);
  const auto cut = static_cast<std::uint32_t>(newline == std::string_view::npos ? text.size() : newline);
  ColumnSource prefix;
  TSTree* tree = parse(parser, text.substr(0, cut), prefix, false);
  return {tree, cut};
}

}  // namespace omnilink::language

extern "C" bool tree_sitter_tlaplus_external_scanner_scan(void* payload, TSLexer* runtime, const bool* valid_symbols) {
  using namespace omnilink::language;
  ColumnLexer proxy{};
  // Member by member: the grammar's TSLexer may be longer than the runtime's.
  proxy.lexer.lookahead = runtime->lookahead;
  proxy.lexer.result_symbol = runtime->result_symbol;
  proxy.lexer.advance = advance;
  proxy.lexer.mark_end = mark_end;
  proxy.lexer.get_column = get_column;
  proxy.lexer.is_at_included_range_start = is_at_included_range_start;
  proxy.lexer.eof = eof;
  clear_log(proxy.lexer);
  proxy.runtime = runtime;
  const bool found = omnilink_tlaplus_grammar_scan(payload, &proxy.lexer, valid_symbols);
  runtime->result_symbol = proxy.lexer.result_symbol;
  return found;
}
