#include "report/escape.hpp"

#include <algorithm>
#include <sstream>
#include <string_view>

namespace omnilink::report {

namespace {

// The characters markup gives meaning to, as entities; nothing for any other.
const char* entity(char c) {
  switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&apos;";
    default: return nullptr;
  }
}

// Control characters no report format can show (XML 1.0 cannot even hold them).
bool printable(char c) { return static_cast<unsigned char>(c) >= 0x20 || c == '\t'; }

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (const char* e = entity(c)) out += e;
    else if (printable(c) || c == '\n') out += c;
  }
  return out;
}

std::string html_escape(const std::string& text) { return xml_escape(text); }

std::string markdown_text(const std::string& text) {
  static constexpr std::string_view kMarkdownSpecials = "\\`*_[]|#~";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    // Quotes mean nothing to Markdown or to HTML outside attributes: kept readable (a trace's
    // string values are quoted, as in status = "ok").
    if (const char* e = c == '\'' || c == '"' ? nullptr : entity(c)) out += e;
    else if (c == '\n' || c == '\r') out += ' ';
    else if (kMarkdownSpecials.find(c) != std::string_view::npos) (out += '\\') += c;
    else if (printable(c)) out += c;
  }
  return out;
}

std::string markdown_code(const std::string& text) {
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string flat = text;
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  const std::string fence(longest + 1, '`');
  const bool pad = !flat.empty() && (flat.front() == '`' || flat.back() == '`');
  return fence + (pad ? " " : "") + flat + (pad ? " " : "") + fence;
}

std::string markdown_block(const std::string& text) {
  std::istringstream in(text);
  std::string out = "  ```text\n";
  for (std::string line; std::getline(in, line);) {
    std::string clean;
    for (const char c : line)
      if (printable(c)) clean += c;
    out += "      " + clean + "\n";  // list-item indent (2) + 4: can never be read as a closing fence
  }
  return out + "  ```\n";
}

}  // namespace omnilink::report
