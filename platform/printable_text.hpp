// Text from a file or a process (a history's bytes, a parser's message quoting them) made safe to
// print on a terminal: what is not printable UTF-8 cannot move the cursor, recolour the screen or
// break a line of a report.
#pragma once

#include <string>
#include <string_view>

namespace omnilink::platform {

/// `text` with every control byte (tab and newline included, so the text stays one line) and every
/// byte that is not part of well-formed UTF-8 written as \xNN; printable UTF-8 kept as it is.
std::string printable_text(std::string_view text);

}  // namespace omnilink::platform
