#include "report/run_report.hpp"

#include <algorithm>
#include <filesystem>

#include "replay/replay_files.hpp"
#include "report/explanation_text.hpp"
#include "results/result_file.hpp"
#include "trace/reader.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::report {
namespace fs = std::filesystem;
namespace {

// The first viable operation of a failed run's frontier (from validation/result.json; without
// one that reads, the hint names no operation).
std::optional<results::StoredOperation> first_viable_pending(const std::optional<results::StoredResult>& result) {
  if (!result || !result->frontier) return std::nullopt;
  const auto& next = result->frontier->next;
  for (const auto& op : next)
    if (op.viable) return op;
  if (!next.empty()) return next.front();
  return std::nullopt;
}

bool has_recording(const store::RunRecord& run) { return run.recorded() && fs::exists(trace::RunLayout(run.dir).recording()); }

// Why a run without a recording cannot be replayed, and how to get a recording of `what`.
std::string no_recording_hint(const store::RunRecord& run, const std::string& what) {
  return std::string(!run.recorded() ? "not recorded (rr off)" : "its recording is gone (removed by retention, or lost)") +
         ": run this configuration again with `--rr chaos` on a machine where rr records, to get a replayable recording of " + what;
}

// How to replay a failed run at its first viable frontier operation (or why it cannot be).
std::string replay_hint(const store::RunRecord& run, const std::optional<results::StoredResult>& result) {
  const auto op = first_viable_pending(result);
  const std::string id = op ? trace::operation_id(op->thread, op->index) : "T.I";
  const std::string where = op ? "operation " + id + " (" + op->name + ")" : "an operation";
  if (!has_recording(run)) {
    // --rerun only for a run it re-executes to the same operations, not any one-thread run.
    if (replay::reruns_the_same(fs::path(run.dir))) return "replay: omnilink replay " + run.key() + " " + id + " --rerun   (not recorded; re-executed under gdb)";
    return no_recording_hint(run, "a failure like this one at " + where);
  }
  return "replay: omnilink replay " + run.key() + " " + id + "   (stops at " + where + "; --batch prints it and exits; " +
         "the other frontier operations: " + run.key() + "/replay/README.txt in the store)";
}

// How to replay a crashed run to its signal (or why it cannot be).
std::string crash_replay_hint(const store::RunRecord& run) {
  if (!has_recording(run)) return no_recording_hint(run, "a crash like this one");
  return "replay: omnilink replay " + run.key() + " --crash   (runs the recording to the signal that ended it and stops where it struck; "
         "--batch prints the backtrace and exits)";
}

}  // namespace

RunReport read_run_report(store::RunRecord run) {
  RunReport r;
  r.run = std::move(run);
  r.outcome = store::outcome(r.run);
  // Only a failure keeps an explanation and has a failure to summarise; only a failure or a crash
  // has a signature and something to replay. The other outcomes say why in the run record itself.
  const bool failed = r.outcome == store::Outcome::fail;
  if (!failed && r.outcome != store::Outcome::crashed) return r;
  if (failed) r.kept = run_explanation(r.run);
  // Read once, for the signature (where no core signs the run) and the replay hint.
  std::optional<results::StoredResult> result;
  try {
    result = results::read_result_file(r.run.dir);
  } catch (const results::ResultFileError&) {
    // Neither then uses it: the run signs nothing and its hint names no operation.
  }
  r.signature = findings::failure_signature(r.run, r.kept.explanation, result);
  if (failed) r.failure = failure_summary(r.run, r.kept);
  r.replay = failed ? replay_hint(r.run, result) : crash_replay_hint(r.run);
  return r;
}

std::vector<RunReport> read_run_reports(std::vector<store::RunRecord> runs) {
  std::vector<RunReport> reports;
  reports.reserve(runs.size());
  for (auto& run : runs) reports.push_back(read_run_report(std::move(run)));
  return reports;
}

std::vector<SignatureGroup> group_by_signature(const std::vector<RunReport>& runs) {
  std::vector<SignatureGroup> groups;
  for (const auto& run : runs) {
    const auto& signature = run.signature;
    if (!signature) continue;
    auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.signature.id == signature->id; });
    if (group == groups.end()) group = groups.insert(groups.end(), {*signature, run.run.target, {}, {}});
    group->runs.push_back(&run);
    auto symptom = std::find_if(group->symptoms.begin(), group->symptoms.end(),
                                [&](const auto& known) { return known.symptom.id == signature->symptom.id; });
    if (symptom == group->symptoms.end()) symptom = group->symptoms.insert(group->symptoms.end(), {signature->symptom, {}});
    symptom->runs.push_back(&run);
  }
  return groups;
}

}  // namespace omnilink::report
