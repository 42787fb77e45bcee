// What a run came to. Two layers: the harness phase's status (store.hpp lists them), decided here
// from the process's exit, the harness's own meta.json and whether omnilink stopped it; and the
// run's outcome, which folds in the newest validation verdict and is what summaries count and exit
// codes are computed from.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "campaign/store.hpp"
#include "platform/supervisor.hpp"

namespace omnilink::campaign {

struct HarnessEnd {
  ChildExit exit;
  bool timed_out = false;    // omnilink killed it at the run time limit
  bool interrupted = false;  // omnilink stopped it because the campaign was interrupted
  bool under_rr = false;     // the process was `rr record`, the harness its tracee
  std::chrono::seconds timeout{0};
};

struct HarnessVerdict {
  // ok | crashed | timeout | error | interrupted. rr failing (an assertion in rr itself, seen with
  // rr.soft under chaos) is an error, not a crash: it says nothing about the code under test.
  std::string status;
  std::string detail;
  std::optional<int> exit_code;
  std::optional<int> exit_signal;
  bool validate = false;  // the trace (or its prefix) is worth validating
  bool rr_failed = false; // rr itself failed: worth recording the run again
};

HarnessVerdict classify_harness_run(const HarnessEnd& end, const std::filesystem::path& run_dir);

// pass | fail | unknown | crashed | timeout | bad-trace | error | interrupted. A fail verdict wins
// over the run's status (a crashed run whose prefix is not linearizable is a found bug); a run
// without a final validation (pending, running, or ok but not validated yet) is interrupted.
std::string outcome(const RunRecord& run);
// Whether the run has its outcome: a session that continues the campaign will not carry it out again.
inline bool has_outcome(const RunRecord& run) { return outcome(run) != "interrupted"; }
inline const std::vector<std::string>& outcomes() {
  static const std::vector<std::string> all{"pass", "fail", "unknown", "crashed", "timeout", "bad-trace", "error", "interrupted"};
  return all;
}

// 0 every run passed; 1 some run failed validation; 2 otherwise, when any run is not a pass
// (unknown, crashed, timeout, bad-trace, error, interrupted).
int exit_code_for(const std::vector<RunRecord>& runs);

}  // namespace omnilink::campaign
