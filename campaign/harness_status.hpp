// How a harness run ended: its status (store/records.hpp lists them), decided from the process's
// exit, the harness's own meta.json and whether omnilink stopped it. The run's outcome, which folds
// in the newest validation verdict, is the store's (store/outcome.hpp).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <chrono>

#include "platform/supervisor.hpp"
#include "store/store.hpp"
#include "trace/run_dir.hpp"

namespace omnilink::campaign {

struct HarnessEnd {
  ChildExit exit;
  bool timed_out = false;    // omnilink killed it at the run time limit
  bool interrupted = false;  // omnilink stopped it because the campaign was interrupted
  bool under_rr = false;     // the process was `rr record`, the harness its tracee
  std::chrono::seconds timeout{0};
};

struct HarnessVerdict {
  // ok, crashed, timeout, error or interrupted. rr failing (an assertion in rr itself, seen with
  // rr.soft under chaos) is an error, not a crash: it says nothing about the code under test.
  store::RunStatus status = store::RunStatus::error;
  std::string detail;
  std::optional<int> exit_code;
  std::optional<int> exit_signal;
  bool validate = false;  // the trace (or its prefix) is worth validating
  bool rr_failed = false; // rr itself failed: worth recording the run again
};

HarnessVerdict classify_harness_run(const HarnessEnd& end, const std::filesystem::path& run_dir);

/// How a harness run ended as its meta.json alone tells it, where the process's exit is no longer
/// known (an index rebuilt from the run directories): ok for ok or stopped; error; interrupted for
/// a harness that received SIGINT/SIGTERM (most likely the campaign's own stop, which --resume runs
/// again, rather than a crash no one can confirm); crashed otherwise (crashed, or still `running`:
/// killed outright). classify_harness_run decides more finely with the exit it has.
store::RunStatus status_from_meta(trace::ExitStatus exit_status);

}  // namespace omnilink::campaign
