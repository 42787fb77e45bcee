#include "campaign/file_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <array>
#include <fstream>
#include <set>
#include <sstream>

#include "platform/join.hpp"
#include "platform/special_file.hpp"

namespace omnilink::campaign {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A range lists its values one by one: more than this is surely a mistake (a sweep draws from the
// product of every listed dimension).
constexpr std::size_t kMaxRangeValues = 1000;

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A TLA+ identifier, by the same rule as the spec lexer: letters, digits, underscores, at least one letter.
bool is_identifier(std::string_view s) {
  return std::any_of(s.begin(), s.end(), is_letter) &&
         std::all_of(s.begin(), s.end(), [](char c) { return is_letter(c) || is_digit(c) || c == '_'; });
}

std::string describe(Range range) {
  if (range.max == kUnbounded) return range.min == 0 ? "a non-negative integer" : "an integer >= " + std::to_string(range.min);
  if (range.min == 1 && range.max == kPositive.max) return "a positive integer";
  return "an integer from " + std::to_string(range.min) + " to " + std::to_string(range.max);
}

// Line and column (both 1-based) of the byte nlohmann stopped at: `byte` is the 1-based index of
// the last character it read, one past the end for an unexpected end of input.
std::string syntax_error_position(const std::string& text, std::size_t byte) {
  const std::size_t offset = std::min(byte == 0 ? 0 : byte - 1, text.size());
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
  const auto line_start = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  const std::size_t column = offset - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// nlohmann's description without its "[json.exception.parse_error.N] parse error at ...: " prefix:
// the position computed above takes its place.
std::string syntax_error_description(const json::parse_error& error) {
  const std::string what = error.what();
  const auto at = what.find("parse error");
  const auto colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

}  // namespace

bool is_name(std::string_view s) {
  auto allowed = [](char c) { return is_letter(c) || is_digit(c) || c == '.' || c == '_' || c == '-'; };
  return !s.empty() && s.size() <= kMaxNameLength && (is_letter(s.front()) || is_digit(s.front())) &&
         std::all_of(s.begin(), s.end(), allowed);
}

// Override values that are not JSON are raw strings and may hold invalid UTF-8, hence the replacing
// error handler.
std::string shown(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}

std::string member_path(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

void FileErrors::fail(const std::string& path, const std::string& problem) const {
  std::string message = file_ + ": " + (path.empty() ? "" : path + ": ") + problem;
  if (const auto origin = override_of(path)) message += " (set by override '" + *origin + "')";
  throw CampaignFileError(message);
}

std::optional<std::string> FileErrors::override_of(const std::string& path) const {
  for (const auto& [field, text] : overrides_)
    if (path == field || path.starts_with(field + ".") || path.starts_with(field + "[")) return text;
  return std::nullopt;
}

ObjectReader::ObjectReader(const FileErrors& errors, const json& object, std::string path, std::span<const std::string_view> known)
    : ObjectReader(errors, object, std::move(path), &known) {}

ObjectReader::ObjectReader(const FileErrors& errors, const json& object, std::string path,
                           const std::span<const std::string_view>* known)
    : errors_(errors), object_(object), path_(std::move(path)) {
  if (!object_.is_object()) errors_.fail(path_, "must be an object (got " + shown(object_) + ")");
  if (known == nullptr) return;
  for (const auto& [key, value] : object_.items())
    if (std::find(known->begin(), known->end(), key) == known->end())
      fail(key, "unknown field (known here: " + join({known->begin(), known->end()}, ", ") + ")");
}

ObjectReader ObjectReader::checked_elsewhere(const FileErrors& errors, const json& object, std::string path) {
  return ObjectReader(errors, object, std::move(path), nullptr);
}

const json* ObjectReader::find(std::string_view key) const {
  const auto it = object_.find(key);
  return it == object_.end() || it->is_null() ? nullptr : &*it;
}

const json& ObjectReader::require(std::string_view key) const {
  if (const json* value = find(key)) return *value;
  fail(key, "required");
}

std::optional<std::string> ObjectReader::string(std::string_view key) const {
  const json* value = find(key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_string()) fail(key, "must be a string (got " + shown(*value) + ")");
  return value->get<std::string>();
}

std::string ObjectReader::required_string(std::string_view key) const {
  require(key);
  return *string(key);
}

std::optional<std::uint64_t> ObjectReader::integer(std::string_view key, Range range) const {
  const json* value = find(key);
  if (value == nullptr) return std::nullopt;
  return checked_integer(*value, path(key), range);
}

std::optional<double> ObjectReader::fraction(std::string_view key, double max) const {
  const json* value = find(key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_number() || !(value->get<double>() > 0) || value->get<double>() > max)
    fail(key, "must be a number above 0 and at most " + shown(max) + " (got " + shown(*value) + ")");
  return value->get<double>();
}

std::vector<std::uint64_t> ObjectReader::integer_list(std::string_view key, Range range) const {
  const json& value = require(key);
  if (value.is_number()) return {checked_integer(value, path(key), range)};
  if (value.is_object()) return range_values(value, path(key), range);
  if (!value.is_array() || value.empty())
    fail(key, "must be an integer or a non-empty list of integers, or a range {\"from\": A, \"to\": B} (got " + shown(value) + ")");
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string element = path(key) + "[" + std::to_string(i) + "]";
    out.push_back(checked_integer(value[i], element, range));
    // Two equal entries would plan two runs with the same id.
    if (std::find(out.begin(), out.end() - 1, out.back()) != out.end() - 1)
      errors_.fail(element, std::to_string(out.back()) + " is listed twice");
  }
  return out;
}

std::vector<std::uint64_t> ObjectReader::range_values(const json& value, const std::string& at, Range range) const {
  static constexpr std::array<std::string_view, 4> kRangeFields{"from", "to", "step", "times"};
  const ObjectReader r(errors_, value, at, kRangeFields);
  const std::uint64_t from = checked_integer(r.require("from"), r.path("from"), range);
  const std::uint64_t to = checked_integer(r.require("to"), r.path("to"), range);
  if (to < from) r.fail("to", "must not be below from (" + std::to_string(from) + ")");
  const auto step = r.integer("step", Range{1, kUnbounded});
  const auto times = r.integer("times", Range{2, kUnbounded});
  if (step && times) r.fail("times", "give step or times, not both");
  std::vector<std::uint64_t> out;
  // Stops before a step or product would pass `to` (or overflow: `to` is at most range.max).
  for (std::uint64_t v = from;;) {
    out.push_back(v);
    if (out.size() > kMaxRangeValues)
      errors_.fail(at, "lists more than " + std::to_string(kMaxRangeValues) + " values; use a larger step or times");
    if (times ? v > to / *times : to - v < step.value_or(1)) break;
    v = times ? v * *times : v + step.value_or(1);
  }
  return out;
}

std::vector<double> ObjectReader::fraction_list(std::string_view key, double max) const {
  const json* value = find(key);
  if (value == nullptr) return {};
  const json list = value->is_array() ? *value : json::array({*value});
  if (list.empty()) fail(key, "must be a number or a non-empty list of numbers");
  std::vector<double> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string element = value->is_array() ? path(key) + "[" + std::to_string(i) + "]" : path(key);
    if (!list[i].is_number() || !(list[i].get<double>() > 0) || list[i].get<double>() > max)
      errors_.fail(element, "must be a number above 0 and at most " + shown(max) + " (got " + shown(list[i]) + ")");
    out.push_back(list[i].get<double>());
    if (std::find(out.begin(), out.end() - 1, out.back()) != out.end() - 1) errors_.fail(element, shown(list[i]) + " is listed twice");
  }
  return out;
}

std::vector<std::string> ObjectReader::string_list(std::string_view key, bool distinct) const {
  const json* value = find(key);
  if (value == nullptr) return {};
  if (!value->is_array()) fail(key, "must be a list of strings (got " + shown(*value) + ")");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const json& item = (*value)[i];
    const std::string element = path(key) + "[" + std::to_string(i) + "]";
    if (!item.is_string()) errors_.fail(element, "must be a string (got " + shown(item) + ")");
    out.push_back(item.get<std::string>());
    if (distinct && std::find(out.begin(), out.end() - 1, out.back()) != out.end() - 1)
      errors_.fail(element, shown(item) + " is listed twice");
  }
  return out;
}

std::optional<std::string> ObjectReader::identifier(std::string_view key) const {
  const auto value = string(key);
  if (value && !is_identifier(*value))
    fail(key, "'" + *value + "' is not a TLA+ identifier (letters, digits and underscores, at least one letter)");
  return value;
}

std::uint64_t ObjectReader::checked_integer(const json& value, const std::string& at, Range range) const {
  // Negative numbers are number_integer and fractions number_float in nlohmann: both rejected.
  if (value.is_number_unsigned()) {
    const auto n = value.get<std::uint64_t>();
    if (n >= range.min && n <= range.max) return n;
  }
  errors_.fail(at, "must be " + describe(range) + " (got " + shown(value) + ")");
}

void check_name(const FileErrors& errors, const std::string& path, const std::string& name, const std::string& what) {
  if (!is_name(name))
    errors.fail(path, what + " '" + name + "' is not a valid name: a letter or digit, then letters, digits, '.', '_' or '-', at most " +
                          std::to_string(kMaxNameLength) + " characters");
}

std::string read_text(const fs::path& file) {
  if (const auto special = platform::not_a_regular_file(file, "a file to read")) throw CampaignFileError(file.string() + ": cannot read: " + *special);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw CampaignFileError(file.string() + ": cannot read: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw CampaignFileError(file.string() + ": cannot read: " + std::strerror(errno));
  return text.str();
}

json parse_json(const std::string& text, const fs::path& file) {
  std::vector<std::set<std::string>> keys;  // one set per object being read
  auto on_event = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) keys.emplace_back();
    if (event == json::parse_event_t::object_end) keys.pop_back();
    if (event == json::parse_event_t::key && !keys.back().insert(parsed.get<std::string>()).second)
      throw CampaignFileError(file.string() + ": the key " + shown(parsed) + " appears twice in one object");
    return true;
  };
  try {
    return json::parse(text, on_event);
  } catch (const json::parse_error& e) {
    throw CampaignFileError(file.string() + ": " + syntax_error_position(text, e.byte) + ": " + syntax_error_description(e));
  }
}

}  // namespace omnilink::campaign
