// The one place report text becomes HTML. Every string that reaches a page (operation names and
// values from a trace, spec text, file names, store ids) goes through html_escape, and pages are
// whole documents that load nothing: the style sheet is inline, there is no script, so a page opens
// from disk, with no server, the same on every machine.
#pragma once

#include <string>

namespace omnilink::report {

/// Text made safe for element content and quoted attribute values: &, <, >, " and ' as entities;
/// control characters other than tab and newline dropped (the same rule as XML reports,
/// campaign::xml_escape, which it uses).
std::string html_escape(const std::string& text);

/// A whole page: doctype, UTF-8, `title` (escaped here), the shared inline style sheet, and `body`
/// (already HTML).
std::string html_page(const std::string& title, const std::string& body);

}  // namespace omnilink::report
