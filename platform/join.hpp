// Names joined into one line, as the campaign's error messages, reports and signatures list them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace omnilink {

/// "a, b, c" for join({"a", "b", "c"}, ", "); "" for no items.
inline std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

/// "a", "a and b", "a, b and c": items as a sentence lists them.
inline std::string listed(const std::vector<std::string>& items) {
  if (items.size() < 2) return join(items, "");
  return join({items.begin(), items.end() - 1}, ", ") + " and " + items.back();
}

}  // namespace omnilink
