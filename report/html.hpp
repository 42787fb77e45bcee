// The page every HTML report is. Every string that reaches a page (operation names and values from
// a trace, spec text, file names, store ids) goes through html_escape (escape.hpp), and pages are
// whole documents that load nothing: the style sheet is inline, there is no script, so a page opens
// from disk, with no server, the same on every machine.
#pragma once

#include <string>

#include "report/escape.hpp"

namespace omnilink::report {

/// A whole page: doctype, UTF-8, `title` (escaped here), the shared inline style sheet, and `body`
/// (already HTML).
std::string html_page(const std::string& title, const std::string& body);

}  // namespace omnilink::report
