#include "campaign/harness_status.hpp"

#include <csignal>
#include <cstring>
#include <fstream>

#include "omnilink/trace_schema.hpp"
#include "platform/subprocess.hpp"
#include "trace/run_dir.hpp"
#include "campaign/recording.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::campaign {
namespace fs = std::filesystem;
namespace {

std::string signal_text(int sig) { return std::to_string(sig) + " (" + strsignal(sig) + ")"; }

// The first lines of what the harness (or rr) said on stderr, to explain a failure in one line.
std::string read_stderr(const fs::path& run_dir) {
  std::ifstream in(trace::RunLayout(run_dir).harness_err());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string stderr_summary(const fs::path& run_dir) {
  const std::string summary = summarize_output(read_stderr(run_dir), 2);
  return summary.empty() ? "" : ": " + summary;
}

// rr's own fatal errors start with "[FATAL src/FILE:LINE:FUNCTION()]".
std::optional<std::string> rr_failure(const fs::path& run_dir) {
  const std::string err = read_stderr(run_dir);
  const auto at = err.find("[FATAL ");
  if (at == std::string::npos) return std::nullopt;
  return summarize_output(err.substr(at), 3);
}

}  // namespace

HarnessVerdict classify_harness_run(const HarnessEnd& end, const fs::path& run_dir) {
  HarnessVerdict v;
  if (!end.exit.started) return {store::RunStatus::error, end.exit.describe(), {}, {}, false};
  if (end.exit.signal != 0) v.exit_signal = end.exit.signal;
  else v.exit_code = end.exit.exit_code;
  if (end.interrupted) {
    v.status = store::RunStatus::interrupted;
    v.detail = "stopped when the campaign was interrupted";
    return v;
  }
  if (end.timed_out) {
    v.status = store::RunStatus::timeout;
    v.detail = "killed (whole process group) after the run time limit of " + std::to_string(end.timeout.count()) + " s";
    v.validate = trace::RunLayout(run_dir).has_trace();
    return v;
  }
  if (end.under_rr) {
    if (auto failure = rr_failure(run_dir)) {
      v.status = store::RunStatus::error;
      v.detail = "rr failed while recording (a bug in rr, not in the code under test): " + *failure;
      v.validate = trace::RunLayout(run_dir).has_trace();
      v.rr_failed = true;
      return v;
    }
  }
  std::optional<trace::RunMeta> meta;
  try {
    meta = trace::read_run_meta(trace::RunLayout(run_dir).meta());
  } catch (const trace::RunDirError&) {
  }
  if (!meta) {
    // No meta.json: the harness never got as far as its run directory (bad arguments, rr failing).
    if (end.exit.signal != 0) return {store::RunStatus::crashed, "killed by signal " + signal_text(end.exit.signal) + " before writing its trace", v.exit_code, v.exit_signal, false};
    // Exit 3 before meta.json: the harness refused its arguments (a --param it does not declare, or
    // cannot read): the campaign's configuration, not the system under test.
    if (end.exit.exit_code == schema::kExitUsage)
      return {store::RunStatus::error, "the harness refused its arguments (exit 3, before it started): " + summarize_output(read_stderr(run_dir), 1),
              v.exit_code, v.exit_signal, false};
    return {store::RunStatus::error, "no meta.json; " + end.exit.describe() + stderr_summary(run_dir), v.exit_code, v.exit_signal, false};
  }
  const trace::ExitStatus status = meta->exit_status;
  if (status == trace::ExitStatus::ok && end.exit.exit_code == 0) {
    v.status = store::RunStatus::ok;
  } else if (status == trace::ExitStatus::stopped) {
    v.status = store::RunStatus::ok;
    v.detail = "the harness stopped early (too many unsupported operations); its trace is complete up to there";
  } else if (status == trace::ExitStatus::error) {
    v.status = store::RunStatus::error;
    v.detail = "the harness reported an error; " + end.exit.describe() + stderr_summary(run_dir);
    return v;
  } else if (status == trace::ExitStatus::crashed || status == trace::ExitStatus::interrupted) {
    v.status = store::RunStatus::crashed;
    v.detail = "the harness received signal " + (meta->exit_signal ? signal_text(*meta->exit_signal) : std::string("?")) +
               "; its trace up to then is kept";
  } else {
    // meta.json still says running (killed outright, no chance to finish it) or ok with a failing
    // process (rr itself died): the trace is a prefix at best.
    v.status = store::RunStatus::crashed;
    v.detail = "the harness ended without finishing its trace (" + end.exit.describe() + ", meta.json status '" + trace::to_string(status) + "')" +
               stderr_summary(run_dir);
  }
  v.validate = trace::RunLayout(run_dir).has_trace();
  return v;
}

store::RunStatus status_from_meta(trace::ExitStatus exit_status) {
  switch (exit_status) {
    case trace::ExitStatus::ok:
    case trace::ExitStatus::stopped: return store::RunStatus::ok;
    case trace::ExitStatus::error: return store::RunStatus::error;
    case trace::ExitStatus::interrupted: return store::RunStatus::interrupted;
    case trace::ExitStatus::running:
    case trace::ExitStatus::crashed: break;
  }
  return store::RunStatus::crashed;
}

}  // namespace omnilink::campaign
