// The names of an enum's values, as one table: an enum that becomes a string only at the edges
// (an index, a JSON file, a report) names its values here once, and both directions read the same
// table, so a name written is always a name read back.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace omnilink::platform {

template <class Enum, std::size_t N>
struct EnumNames {
  std::array<std::pair<Enum, std::string_view>, N> names;

  /// The value's name; the table must list every value (a value it lacks is a bug: "?").
  std::string name(Enum value) const {
    for (const auto& [v, n] : names)
      if (v == value) return std::string(n);
    return "?";
  }
  /// The value named `name`; nothing for a name that is none.
  std::optional<Enum> parse(std::string_view name) const {
    for (const auto& [v, n] : names)
      if (n == name) return v;
    return std::nullopt;
  }
};

}  // namespace omnilink::platform
