#include "validation/history.hpp"

#include "validation/run_integrity.hpp"

namespace omnilink::validation {

std::uint64_t History::operations() const {
  std::uint64_t n = 0;
  for (const auto& ops : threads) n += ops.size();
  return n;
}

std::uint64_t History::pending_operations() const {
  std::uint64_t n = 0;
  for (const auto& ops : threads)
    for (const auto& op : ops) n += op.pending() ? 1 : 0;
  return n;
}

History read_history(const trace::RunDir& run) {
  if (run.thread_files.empty()) throw HistoryError(run.root.string() + ": the run has no thread files");
  History history;
  std::vector<ThreadFileSummary> files;
  for (const auto& file : run.thread_files) {
    trace::ThreadTraceReader reader(file);
    std::vector<trace::Operation> ops;
    while (auto op = reader.next()) {
      if (op->failed) {
        ++history.dropped_failed;
        continue;
      }
      ops.push_back(std::move(*op));
    }
    const auto& error = reader.error();
    if (error && !error->cut_short) throw HistoryError("corrupt trace: " + error->describe());
    if (const auto& header = reader.header()) {
      for (const auto& [name, inputs] : header->inputs) {
        const auto [it, added] = history.inputs.emplace(name, inputs);
        if (!added && it->second != inputs)
          throw HistoryError(file.string() + ": declares other inputs for " + name + " than the run's other threads");
      }
    }
    files.push_back({file, reader.header(), reader.end(), error, reader.has_pending()});
    history.threads.push_back(std::move(ops));
  }
  if (auto problem = check_run_integrity(run, files)) throw HistoryError(*problem);
  history.clock = run.meta->clock;

  std::vector<ThreadPrefix> prefixes;
  bool any_cut_short = false;
  for (std::size_t t = 0; t < files.size(); ++t) {
    const bool cut_short = files[t].error.has_value();  // only cut-short errors are left at this point
    any_cut_short |= cut_short;
    prefixes.push_back({&history.threads[t], cut_short});
  }
  if (any_cut_short) {
    Cut cut = cut_history(prefixes, history.inputs);
    if (!cut.cut_short_threads.empty()) {
      history.caveats.push_back(cut.describe(history.clock));
      history.cut = std::move(cut);
    }
  }
  if (const auto pending = history.pending_operations(); pending > 0)
    history.caveats.push_back(std::to_string(pending) +
                              " pending operation(s) (outcome unknown: in flight when the run died or at the cut) may each be "
                              "linearized with any results the spec accepts, or left out");
  return history;
}

}  // namespace omnilink::validation
