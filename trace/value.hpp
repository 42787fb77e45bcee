// A decoded trace value (paper Fig. 3): boolean, integer, string, tuple, set or map, nested freely.
// Sets and maps are kept in canonical order (sorted, duplicates removed), so equal values compare
// equal however the harness happened to iterate them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace omnilink::trace {

struct Value;

struct Tuple {
  std::vector<Value> items;
};
struct Set {
  std::vector<Value> items;  // sorted, unique
};
struct MapEntry;
struct Map {
  std::vector<MapEntry> entries;  // sorted by key, keys unique
};

struct Value {
  using Data = std::variant<bool, std::int64_t, std::string, Tuple, Set, Map>;
  Data data;

  Value() : data(false) {}
  template <class T>
    requires std::is_constructible_v<Data, T&&> && (!std::is_same_v<std::decay_t<T>, Value>)
  Value(T&& v) : data(std::forward<T>(v)) {}  // NOLINT: implicit on purpose, values nest

  template <class T>
  bool is() const { return std::holds_alternative<T>(data); }
  template <class T>
  const T& as() const { return std::get<T>(data); }
};

struct MapEntry {
  Value key;
  Value value;
};

// Total order over values: by kind (bool < int < string < tuple < set < map), then by content.
int compare(const Value& a, const Value& b);
inline bool operator==(const Value& a, const Value& b) { return compare(a, b) == 0; }
inline bool operator<(const Value& a, const Value& b) { return compare(a, b) < 0; }

// Sorts and de-duplicates (a set), or sorts by key keeping the last value of a duplicated key (a map).
Set make_set(std::vector<Value> items);
Map make_map(std::vector<MapEntry> entries);

// TLA+ notation: TRUE, 42, "s", <<1, 2>>, {1, 2}, ("k" :> 1 @@ "j" :> 2) (empty map: <<>>).
std::string to_tla(const Value& v);

// A TLA+ string literal: quoted, with \" \\ \n \t \r \f escaped, and every other control byte
// and every byte that is not part of well-formed UTF-8 written \xNN: a value is whatever the code
// under test logged, and printed raw it could recolour or clear the terminal showing a report.
// (TLC never reads this text: it is handed values as JSON.)
std::string tla_quote(std::string_view s);

}  // namespace omnilink::trace
