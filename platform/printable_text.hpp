// Text from a file or a process (a history's bytes, a parser's message quoting them) made safe to
// print on a terminal: what is not printable UTF-8 cannot move the cursor, recolour the screen or
// break a line of a report. It also says where a text stops being UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace omnilink::platform {

/// `text` with every control byte (tab and newline included, so the text stays one line) and every
/// byte that is not part of well-formed UTF-8 written as \xNN; printable UTF-8 kept as it is.
std::string printable_text(std::string_view text);

/// The length of the well-formed UTF-8 character starting at `text[at]`, or 0 where none does.
std::size_t utf8_sequence_at(std::string_view text, std::size_t at);

/// Where the first byte of `text` that is not part of well-formed UTF-8 (RFC 3629: no overlong
/// forms, no surrogates, nothing past U+10FFFF) is, or std::string_view::npos.
std::size_t invalid_utf8_at(std::string_view text);

}  // namespace omnilink::platform
