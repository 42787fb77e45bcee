// The one place report text is escaped for the formats reports are written in: XML (JUnit), HTML
// and Markdown. Everything a report shows that came from a trace, a spec, a file or the store goes
// through one of these: a value is whatever the code under test logged.
#pragma once

#include <string>

namespace omnilink::report {

/// Text safe in XML element content and quoted attribute values: &, <, >, " and ' as entities;
/// control characters other than tab and newline dropped (XML 1.0 cannot hold them).
std::string xml_escape(const std::string& text);

/// The same for HTML element content and quoted attribute values.
std::string html_escape(const std::string& text);

/// Text safe in a Markdown table cell or paragraph, also when rendered as HTML: `&`, `<` and `>` as
/// entities (quotes, special only in attributes, kept), Markdown's inline specials and `|`
/// backslash-escaped, newlines as spaces.
std::string markdown_text(const std::string& text);

/// An inline code span holding `text` verbatim (its fence longer than any backtick run inside).
std::string markdown_code(const std::string& text);

/// A fenced block holding `text` verbatim: every line is indented, so no line of it can close the
/// fence whatever it contains.
std::string markdown_block(const std::string& text);

}  // namespace omnilink::report
