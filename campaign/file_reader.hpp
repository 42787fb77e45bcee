// Strict reading of the JSON files omnilink takes from users: the campaign file and the sweep file
// that extends it. This module owns how such a file is read (its syntax errors with line and column,
// a key given twice, "FILE: FIELD: what is wrong" messages that also name the override which set a
// field) and the typed accessors that fail naming the field; it leaves the files' fields and their
// meaning to campaign_file and sweep/sweep_file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace omnilink::campaign {

// "FILE: FIELD: what is wrong" (or "FILE: line L, column C: ..." for JSON syntax errors).
class CampaignFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr std::uint64_t kUnbounded = std::numeric_limits<std::uint64_t>::max();
struct Range {
  std::uint64_t min = 0;
  std::uint64_t max = kUnbounded;
};
inline constexpr Range kPositive{1, std::numeric_limits<unsigned>::max()};
// Time limits end up as milliseconds in a signed 64-bit count; a year is far beyond any use.
inline constexpr Range kSeconds{1, 365ULL * 24 * 3600};
inline constexpr Range kThreads{1, 1024};  // the harness's own limit on --threads
// Harness runs or validations at once: each a process or a thread of this one; past a thousand,
// a machine spends its time starting them (100,000 started no run in a minute).
inline constexpr Range kJobs{1, 1024};
inline constexpr Range kTicks{1, 1'000'000'000'000};  // rr's tick counts are 64-bit; a trillion is far beyond any use
inline constexpr Range kOps{1, 100'000'000};
inline constexpr Range kRuns{1, 100'000};
inline constexpr Range kSeed{};
inline constexpr std::size_t kMaxNameLength = 64;

// Campaign and target names become directory names and parts of run ids: a letter or digit, then
// letters, digits, '.', '_' or '-', at most kMaxNameLength characters.
bool is_name(std::string_view s);

// A value as an error message quotes it: its JSON text, cut short.
std::string shown(const nlohmann::json& value);

// "parent.key", or "key" at the top.
std::string member_path(const std::string& parent, std::string_view key);

/// Builds the "FILE: FIELD: problem" errors, and remembers which fields overrides set: an error
/// about such a field says so, since the user will not find the offending value in the file.
class FileErrors {
 public:
  explicit FileErrors(std::string file) : file_(std::move(file)) {}

  void note_override(const std::string& path, const std::string& text) { overrides_[path] = text; }

  [[noreturn]] void fail(const std::string& path, const std::string& problem) const;

 private:
  std::optional<std::string> override_of(const std::string& path) const;

  std::string file_;
  std::map<std::string, std::string> overrides_;
};

/// One object of the file, with typed accessors that fail naming the field; unknown fields are
/// errors, since a misspelt optional field would otherwise be silently replaced by its default. A
/// field that is absent or null is "not given" (so `--set tlc.jobs=null` restores the default).
/// The reader refers to the object and the errors; both must outlive it.
class ObjectReader {
 public:
  ObjectReader(const FileErrors& errors, const nlohmann::json& object, std::string path, std::span<const std::string_view> known);
  // A reader of an object whose fields another reader has checked already (a file that extends
  // another reads its own fields of the objects they share).
  static ObjectReader checked_elsewhere(const FileErrors& errors, const nlohmann::json& object, std::string path);

  const FileErrors& errors() const { return errors_; }
  std::string path(std::string_view key) const { return member_path(path_, key); }
  [[noreturn]] void fail(std::string_view key, const std::string& problem) const { errors_.fail(path(key), problem); }

  const nlohmann::json* find(std::string_view key) const;
  const nlohmann::json& require(std::string_view key) const;

  std::optional<std::string> string(std::string_view key) const;
  std::string required_string(std::string_view key) const;
  std::optional<std::uint64_t> integer(std::string_view key, Range range) const;
  // A positive decimal number (fractions allowed) at most `max`.
  std::optional<double> fraction(std::string_view key, double max) const;
  // Distinct integers, required, in one of three forms: an integer (a list of one), a non-empty
  // list, or a range {"from": A, "to": B} with an optional "step" (added; default 1) or "times"
  // (multiplied: 100, 1000, 10000 for times 10), which lists A and every value up to B.
  std::vector<std::uint64_t> integer_list(std::string_view key, Range range) const;
  // Distinct positive numbers up to `max`: a number or a non-empty list; absent: empty.
  std::vector<double> fraction_list(std::string_view key, double max) const;
  // Strings: absent is empty; a list of strings. With `distinct`, a repeated entry is an error.
  std::vector<std::string> string_list(std::string_view key, bool distinct = false) const;
  // A TLA+ identifier (letters, digits and underscores, at least one letter), if given.
  std::optional<std::string> identifier(std::string_view key) const;

 private:
  // `known` null: fields not checked.
  ObjectReader(const FileErrors& errors, const nlohmann::json& object, std::string path,
               const std::span<const std::string_view>* known);
  std::uint64_t checked_integer(const nlohmann::json& value, const std::string& at, Range range) const;
  std::vector<std::uint64_t> range_values(const nlohmann::json& value, const std::string& at, Range range) const;

  const FileErrors& errors_;
  const nlohmann::json& object_;
  std::string path_;
};

// Fails unless `name` is_name(); `what` says what it names ("target name").
void check_name(const FileErrors& errors, const std::string& path, const std::string& name, const std::string& what);

// The file's text. Throws CampaignFileError naming the file.
std::string read_text(const std::filesystem::path& file);

// The file's JSON; a syntax error names its line and column, and a key repeated in one object is an
// error (nlohmann would keep the last one silently). Throws CampaignFileError.
nlohmann::json parse_json(const std::string& text, const std::filesystem::path& file);

}  // namespace omnilink::campaign
