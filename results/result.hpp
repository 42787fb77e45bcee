// The verdict of one validation and what it rests on: written as RUN/validation/result.json
// (docs/validation.md, "result.json"), summarised for a terminal, turned into an exit code.
//   pass    a checker found a linearization the spec accepts
//   fail    a checker searched every order and none is accepted; the frontier says how far it got
//   unknown nothing is known (a time or memory limit, TLC missing or crashed, a cancelled run)
//   error   the spec, MC module or trace cannot be validated as given (the reason says why)
// Never "pass" unless a checker reported a complete linearization.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/reader.hpp"
#include "history/consistent_cut.hpp"
#include "history/history.hpp"
#include "results/refusal.hpp"
#include "results/verdict.hpp"

namespace omnilink::results {

struct FrontierOp {
  trace::Operation op;
  bool viable = false;  // no other operation still to linearize ended before it started
};

/// A pending operation (outcome unknown) and what the search made of it: linearized with these
/// arguments (TLA+ text, results included), or left out.
struct PendingOutcome {
  trace::Operation op;
  bool linearized = false;
  std::vector<std::pair<std::string, std::string>> arguments;  // parameter -> TLA+ text, when linearized
};

/// A history checked part by part (OmniLinkPartitionBy): by which field, into how many parts, and
/// the part that failed (its key as TLA+, "field = value"), if one did.
struct PartitionSummary {
  std::string by;
  std::size_t count = 0;
  std::string failed;
};

/// A failure decided natively: the refusal at the deepest state (SearchReport::Refused), its
/// operations as the trace logged them.
using RefusedOp = Refusal<trace::Operation>;

struct ValidationResult {
  Verdict verdict = Verdict::error;
  std::string reason;   // for unknown and error; a one-line summary for fail
  DecidedBy checker = DecidedBy::none;
  std::uint64_t operations = 0;      // completed operations (every one must be linearized)
  std::uint64_t dropped_failed = 0;
  std::uint64_t pending = 0;         // pending operations (each may be linearized or left out)
  std::optional<history::Cut> cut;            // the consistent cut validated, when the run was killed
  std::string clock;
  std::vector<std::string> caveats;
  // error because the run directory cannot be validated as it is (a corrupt thread file, files that
  // contradict meta.json), not because of the spec. Campaigns report such runs as `bad-trace`.
  bool corrupt_trace = false;
  bool cancelled = false;      // unknown because the validation was cancelled
  std::optional<std::int64_t> linearized;  // deepest number of operations linearized
  std::vector<FrontierOp> frontier;        // each thread's next operation at the deepest state (fail)
  std::string spec_state;                  // the spec's variables there, as TLA+ text
  std::vector<std::pair<std::string, std::string>> spec_variables;  // the same by name (native): variable, TLA+ text
  std::optional<RefusedOp> refused;        // fail, decided natively
  std::vector<PendingOutcome> pending_outcomes;  // at the accepting (pass) or deepest (fail) state
  std::optional<PartitionSummary> partitions;    // set when the history was checked part by part
  std::optional<std::uint64_t> states_generated, states_distinct;
  std::uint64_t peak_rss_kb = 0;
  std::chrono::milliseconds duration{0};
  std::optional<int> tlc_exit_code;
  std::vector<std::string> tlc_command;
  std::filesystem::path directory;  // RUN/validation

  nlohmann::json to_json() const;
  /// A few lines for a terminal.
  std::string summary() const;
  /// Process exit code for `omnilink validate`: 0 pass, 1 fail, 2 unknown, 3 error.
  int exit_code() const;
};

/// A value's text as reports show it: a value of megabytes (a logged buffer) would make a report
/// of megabytes, printed and in result.json; past kShownChars characters it is cut, saying so.
inline constexpr std::size_t kShownChars = 4096;
std::string shown(std::string text);

/// Each thread's next operation when thread t has linearized next[t] of its operations (0-based
/// index of the next one; past the end: none), and whether it was viable there.
std::vector<FrontierOp> frontier_at(const history::History& history, const std::vector<std::size_t>& next);

}  // namespace omnilink::results
