#include "trace/value.hpp"

#include <algorithm>
#include <cstdio>

#include "platform/printable_text.hpp"

namespace omnilink::trace {
namespace {

template <class Range, class Cmp>
int compare_ranges(const Range& a, const Range& b, Cmp cmp) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (int c = cmp(a[i], b[i]); c != 0) return c;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

int compare_entries(const MapEntry& a, const MapEntry& b) {
  if (int c = compare(a.key, b.key); c != 0) return c;
  return compare(a.value, b.value);
}

template <class Range>
std::string tla_items(const Range& items) {
  std::string out;
  for (const Value& v : items) out += (out.empty() ? "" : ", ") + to_tla(v);
  return out;
}

}  // namespace

int compare(const Value& a, const Value& b) {
  if (a.data.index() != b.data.index()) return a.data.index() < b.data.index() ? -1 : 1;
  return std::visit(
      [&](const auto& x) -> int {
        using T = std::decay_t<decltype(x)>;
        const T& y = std::get<T>(b.data);
        if constexpr (std::is_same_v<T, Tuple> || std::is_same_v<T, Set>) {
          return compare_ranges(x.items, y.items, [](const Value& p, const Value& q) { return compare(p, q); });
        } else if constexpr (std::is_same_v<T, Map>) {
          return compare_ranges(x.entries, y.entries, compare_entries);
        } else {
          return x < y ? -1 : y < x ? 1 : 0;
        }
      },
      a.data);
}

Set make_set(std::vector<Value> items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  return Set{std::move(items)};
}

Map make_map(std::vector<MapEntry> entries) {
  std::stable_sort(entries.begin(), entries.end(),
                   [](const MapEntry& a, const MapEntry& b) { return compare(a.key, b.key) < 0; });
  std::vector<MapEntry> unique;
  for (auto& e : entries) {
    if (!unique.empty() && unique.back().key == e.key) unique.back() = std::move(e);
    else unique.push_back(std::move(e));
  }
  return Map{std::move(unique)};
}

std::string tla_quote(std::string_view s) {
  std::string out = "\"";
  for (std::size_t at = 0; at < s.size();) {
    const char c = s[at];
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\f': out += "\\f"; break;
      default:
        if (byte >= 0x80) {
          if (const std::size_t length = platform::utf8_sequence_at(s, at); length > 0) {
            out.append(s.substr(at, length));
            at += length;
            continue;
          }
        } else if (byte >= 0x20 && byte != 0x7f) {
          out += c;
          break;
        }
        char escaped[5];
        std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
        out += escaped;
    }
    ++at;
  }
  return out + "\"";
}

std::string to_tla(const Value& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          return x ? "TRUE" : "FALSE";
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return std::to_string(x);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return tla_quote(x);
        } else if constexpr (std::is_same_v<T, Tuple>) {
          return "<<" + tla_items(x.items) + ">>";
        } else if constexpr (std::is_same_v<T, Set>) {
          return "{" + tla_items(x.items) + "}";
        } else {
          if (x.entries.empty()) return "<<>>";
          std::string out;
          for (const MapEntry& e : x.entries) out += (out.empty() ? "" : " @@ ") + to_tla(e.key) + " :> " + to_tla(e.value);
          return "(" + out + ")";
        }
      },
      v.data);
}

}  // namespace omnilink::trace
