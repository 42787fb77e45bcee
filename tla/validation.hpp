// `omnilink validate`: one run against one spec. Writes RUN/validation/ (the data file, the
// generated module and cfg, TLC's output, frontier.json, result.json) and returns the verdict:
//   pass    TLC found a linearization the spec accepts
//   fail    TLC searched every order and none is accepted; the frontier says how far it got
//   unknown TLC did not finish (time limit, out of memory, crash, not installed): nothing is known
//   error   the spec, MC module or trace cannot be validated as given (message says why)
// A result is never "pass" unless TLC itself reported a complete linearization.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/reader.hpp"
#include "validation/consistent_cut.hpp"

namespace omnilink::tla {

struct ValidateOptions {
  std::filesystem::path run_dir;
  std::filesystem::path spec;
  std::optional<std::filesystem::path> mc;
  std::string next = "Next";
  std::string init = "Init";
  std::optional<std::string> view;
  std::optional<std::filesystem::path> tlc_jar;  // else found as `omnilink doctor` says
  std::optional<std::filesystem::path> java;
  std::string heap = "2g";
  std::chrono::seconds timeout{600};
  const std::atomic<bool>* cancel = nullptr;  // see TlcRun::cancel; a cancelled validation is unknown
};

struct FrontierOp {
  trace::Operation op;
  bool viable = false;  // no other operation still to linearize ended before it started
};

// A pending operation (outcome unknown) and what the search made of it: linearized with these
// arguments (TLA+ text, results included), or left out.
struct PendingOutcome {
  trace::Operation op;
  bool linearized = false;
  std::vector<std::pair<std::string, std::string>> arguments;  // parameter -> TLA+ text, when linearized
};

struct ValidationResult {
  std::string verdict;  // pass | fail | unknown | error
  std::string reason;   // for unknown and error; a one-line summary for fail
  std::uint64_t operations = 0;      // completed operations (every one must be linearized)
  std::uint64_t dropped_failed = 0;
  std::uint64_t pending = 0;         // pending operations (each may be linearized or left out)
  std::optional<validation::Cut> cut;  // the consistent cut validated, when the run was killed
  std::string clock;
  std::vector<std::string> caveats;
  // error because the run directory cannot be validated as it is (a corrupt thread file, files that
  // contradict meta.json), not because of the spec. Campaigns report such runs as `bad-trace`.
  bool corrupt_trace = false;
  bool cancelled = false;      // unknown because ValidateOptions::cancel stopped TLC
  std::optional<std::int64_t> linearized;  // deepest number of operations linearized
  std::vector<FrontierOp> frontier;        // each thread's next operation at the deepest state (fail)
  std::string spec_state;                  // the spec's variables there, as TLA+ text
  std::vector<PendingOutcome> pending_outcomes;  // at the accepting (pass) or deepest (fail) state
  std::optional<std::uint64_t> states_generated, states_distinct;
  std::uint64_t peak_rss_kb = 0;
  std::chrono::milliseconds duration{0};
  std::optional<int> tlc_exit_code;
  std::vector<std::string> tlc_command;
  std::filesystem::path directory;  // RUN/validation

  nlohmann::json to_json() const;
  // A few lines for a terminal.
  std::string summary() const;
  // Process exit code for `omnilink validate`: 0 pass, 1 fail, 2 unknown, 3 error.
  int exit_code() const;
};

ValidationResult validate_run(const ValidateOptions& options);

}  // namespace omnilink::tla
