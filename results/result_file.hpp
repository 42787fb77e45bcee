// Reading RUN/validation/result.json (format "omnilink-validation-result", versions 1 to 6,
// docs/validation.md): the one reader of what ValidationResult::to_json writes, for everything
// that looks at a validation after the fact (reports, failure signatures, the results document,
// the frontier timeline, a store rebuild). The file holds values as TLA+ text, cut for reports,
// so what it gives back is the file's view of a result, not a ValidationResult.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "results/refusal.hpp"
#include "results/stored_operation.hpp"
#include "results/verdict.hpp"

namespace omnilink::results {

inline constexpr int kResultFileVersion = 6;

class ResultFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The frontier's refusal as result.json holds it (version 4; `lost` since 5, `in_place` since 6).
using StoredRefusal = Refusal<StoredOperation>;

struct StoredFrontier {
  std::int64_t linearized = 0;  // as the result's own `linearized` (which may be -1: none)
  std::uint64_t total = 0;
  std::vector<StoredOperation> next;  // "pending": each thread's next operation there
  std::string spec_state;
  std::vector<std::pair<std::string, std::string>> variables;  // version 6: the spec state by variable (native)
  std::optional<StoredRefusal> refused;  // version 4
};

struct StoredPendingOutcome {
  StoredOperation op;  // thread, index, name, start, and its inputs as fields
  bool inputs_known = false;
  bool linearized = false;
  std::vector<std::pair<std::string, std::string>> arguments;
};

struct StoredCut {
  std::uint64_t at = 0;
  std::string clock;
  std::vector<std::uint32_t> cut_short_threads;
  std::uint64_t dropped = 0, made_pending = 0;
};

struct StoredPartitions {
  std::string by;
  std::uint64_t count = 0;
  std::string failed;  // empty when none failed
};

struct StoredResult {
  int version = kResultFileVersion;
  Verdict verdict = Verdict::error;
  std::string reason;
  DecidedBy checker = DecidedBy::none;  // since version 3
  std::uint64_t operations = 0, dropped_failed = 0, pending = 0;
  std::vector<StoredPendingOutcome> pending_operations;
  std::optional<StoredCut> cut;
  std::vector<std::string> caveats;
  bool corrupt_trace = false;
  std::int64_t duration_ms = 0;
  std::uint64_t peak_rss_kb = 0;
  std::optional<std::uint64_t> states_generated, states_distinct;
  std::optional<std::int64_t> linearized;
  std::optional<StoredPartitions> partitions;
  std::optional<int> tlc_exit_code;
  std::vector<std::string> tlc_command;
  std::optional<StoredFrontier> frontier;  // fail
};

/// Parses result.json's object. Throws ResultFileError naming `origin` and the field: another
/// format, a version this omnilink does not know, a field of the wrong type.
StoredResult parse_result(const nlohmann::json& j, const std::string& origin);

/// RUN/validation/result.json of the run in `run_dir`.
std::filesystem::path result_file(const std::filesystem::path& run_dir);

/// Reads the run's result.json: nullopt when it has none (never validated); throws
/// ResultFileError naming the file when it is not JSON or not such a file.
std::optional<StoredResult> read_result_file(const std::filesystem::path& run_dir);

}  // namespace omnilink::results
