// Typed reading of one JSON object of a file omnilink wrote itself (run.json, result.json): each
// field read with its type checked, errors thrown as `Error` naming the file and the field. A
// missing field is an error unless read as optional (absent or null: no value). User-written files
// have their own reader with line numbers (campaign/file_reader.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace omnilink::platform {

template <class Error>
class JsonFields {
 public:
  /// `where`: the file, and the path to this object inside it ("FILE: frontier.refused").
  JsonFields(const nlohmann::json& object, std::string where) : object_(object), where_(std::move(where)) {
    if (!object_.is_object()) fail("", "not a JSON object");
  }

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw Error(where_ + (field.empty() ? "" : ": " + field) + ": " + what);
  }
  bool has(const std::string& field) const {
    const auto it = object_.find(field);
    return it != object_.end() && !it->is_null();
  }
  const nlohmann::json& at(const std::string& field) const {
    const auto it = object_.find(field);
    if (it == object_.end()) fail(field, "missing");
    return *it;
  }
  /// The nested object `field`, read the same way.
  JsonFields object(const std::string& field) const { return JsonFields(at(field), where_ + ": " + field); }
  /// Each item of the array `field` (an empty list when absent and `optional`).
  std::vector<JsonFields> objects(const std::string& field, bool optional = false) const {
    std::vector<JsonFields> out;
    if (optional && !has(field)) return out;
    const nlohmann::json& list = at(field);
    if (!list.is_array()) fail(field, "not a list");
    for (std::size_t i = 0; i < list.size(); ++i) out.emplace_back(list[i], where_ + ": " + field + "[" + std::to_string(i) + "]");
    return out;
  }

  std::string text(const std::string& field) const {
    const nlohmann::json& v = at(field);
    if (!v.is_string()) fail(field, "not a string");
    return v.get<std::string>();
  }
  bool flag(const std::string& field) const {
    const nlohmann::json& v = at(field);
    if (!v.is_boolean()) fail(field, "not true or false");
    return v.get<bool>();
  }
  std::int64_t int64(const std::string& field) const {
    const nlohmann::json& v = at(field);
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX)) fail(field, "not an integer");
    return v.get<std::int64_t>();
  }
  std::uint64_t uint64(const std::string& field) const {
    const nlohmann::json& v = at(field);
    // Parsed text makes a non-negative integer unsigned; a value built in memory may be signed.
    if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0)) fail(field, "not a non-negative integer");
    return v.get<std::uint64_t>();
  }
  std::uint32_t uint32(const std::string& field) const {
    const std::uint64_t v = uint64(field);
    if (v > UINT32_MAX) fail(field, "too large");
    return static_cast<std::uint32_t>(v);
  }
  int int32(const std::string& field) const {
    const std::int64_t v = int64(field);
    if (v < INT32_MIN || v > INT32_MAX) fail(field, "out of range");
    return static_cast<int>(v);
  }
  std::vector<std::string> texts(const std::string& field) const {
    const nlohmann::json& v = at(field);
    if (!v.is_array()) fail(field, "not a list");
    std::vector<std::string> out;
    for (const auto& item : v) {
      if (!item.is_string()) fail(field, "not a list of strings");
      out.push_back(item.get<std::string>());
    }
    return out;
  }
  /// An object of strings, in its order: name -> text.
  std::vector<std::pair<std::string, std::string>> text_map(const std::string& field) const {
    const nlohmann::json& v = at(field);
    if (!v.is_object()) fail(field, "not a JSON object");
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, value] : v.items()) {
      if (!value.is_string()) fail(field + "." + name, "not a string");
      out.emplace_back(name, value.template get<std::string>());
    }
    return out;
  }

  /// An optional field: absent or null is no value; otherwise read with `get` (one of the above).
  template <class T>
  std::optional<T> optional(const std::string& field, T (JsonFields::*get)(const std::string&) const) const {
    if (!has(field)) return std::nullopt;
    return (this->*get)(field);
  }
  /// An optional field with a value when absent.
  template <class T>
  T value_or(const std::string& field, T (JsonFields::*get)(const std::string&) const, T fallback) const {
    return has(field) ? (this->*get)(field) : std::move(fallback);
  }

 private:
  const nlohmann::json& object_;
  std::string where_;
};

}  // namespace omnilink::platform
