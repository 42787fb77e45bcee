#include "history/consistent_cut.hpp"

#include <algorithm>
#include <limits>

namespace omnilink::history {

namespace {

// The operation as pending: its declared inputs kept, its results and end forgotten.
void make_pending(trace::Operation& op, const trace::InputDeclarations& inputs) {
  op.kind = trace::RecordKind::pending;
  op.end = 0;
  op.failed = false;
  const auto declared = inputs.find(op.name);
  op.inputs_known = declared != inputs.end();
  std::erase_if(op.fields, [&](const auto& field) {
    return !op.inputs_known || std::find(declared->second.begin(), declared->second.end(), field.first) == declared->second.end();
  });
}

}  // namespace

Cut cut_history(const std::vector<ThreadPrefix>& threads, const trace::InputDeclarations& inputs) {
  Cut cut;
  // C: a cut-short thread lost only operations that started after its last logged one ended (or,
  // if it logged none, any time at all). One whose last record is pending lost nothing after it:
  // the crash handler was writing its records when the run was killed.
  cut.at = std::numeric_limits<std::uint64_t>::max();
  for (std::uint32_t t = 0; t < threads.size(); ++t) {
    if (!threads[t].cut_short) continue;
    const auto& ops = *threads[t].ops;
    if (!ops.empty() && ops.back().pending()) continue;  // (history.cpp says it lacks its end record)
    cut.cut_short_threads.push_back(t);
    cut.at = std::min(cut.at, threads[t].last_end);
  }
  if (cut.cut_short_threads.empty()) return cut;
  for (const ThreadPrefix& thread : threads) {
    auto& ops = *thread.ops;
    // A thread's operations are ordered (each starts after the previous one ended), so what is kept is
    // a prefix: those that ended before C, then those in flight at C, made pending.
    std::size_t kept = 0;
    while (kept < ops.size() && ops[kept].start <= cut.at) {
      if (!ops[kept].pending() && ops[kept].end >= cut.at) {
        make_pending(ops[kept], inputs);  // in flight at the cut: a lost operation may precede its end
        ++cut.made_pending;
      }
      ++kept;
    }
    cut.dropped += ops.size() - kept;  // started after C: a lost operation may precede them
    ops.resize(kept);
  }
  return cut;
}

std::string Cut::describe(const std::string& clock) const {
  std::string threads;
  for (auto t : cut_short_threads) threads += (threads.empty() ? "" : ", ") + std::to_string(t);
  return "thread file(s) " + threads + " cut short (no end record: the run was killed): validated the consistent cut at " +
         clock + " time " + std::to_string(at) + "; " + std::to_string(dropped) + " operation(s) that started after it dropped, " +
         std::to_string(made_pending) + " in flight at it made pending";
}

}  // namespace omnilink::history
