#include "platform/printable_text.hpp"

#include <cstdio>

namespace omnilink::platform {
// RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF.
std::size_t utf8_sequence_at(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // the second byte's range
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead == 0xe0) length = 3, low = 0xa0;
  else if (lead >= 0xe1 && lead <= 0xef) length = 3, high = lead == 0xed ? 0x9f : 0xbf;
  else if (lead == 0xf0) length = 4, low = 0x90;
  else if (lead >= 0xf1 && lead <= 0xf3) length = 4;
  else if (lead == 0xf4) length = 4, high = 0x8f;
  else return 0;
  if (at + length > text.size() || byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (byte(at + k) < 0x80 || byte(at + k) > 0xbf) return 0;
  return length;
}

std::string printable_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const auto c = static_cast<unsigned char>(text[at]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++at;
    } else if (const std::size_t length = c >= 0x80 ? utf8_sequence_at(text, at) : 0; length > 0) {
      out.append(text.substr(at, length));
      at += length;
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
      ++at;
    }
  }
  return out;
}

std::size_t invalid_utf8_at(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    if (static_cast<unsigned char>(text[at]) < 0x80) {
      ++at;
    } else if (const std::size_t length = utf8_sequence_at(text, at); length > 0) {
      at += length;
    } else {
      return at;
    }
  }
  return std::string_view::npos;
}

}  // namespace omnilink::platform
