#include "history/history.hpp"

#include "history/run_integrity.hpp"

#include <algorithm>
#include <limits>

namespace omnilink::history {
namespace {

// No operation record is shorter (one with a one-letter name and no fields, under the schema's
// one-letter keys, takes 23 bytes): a file of N bytes holds at most N / 16 operations.
constexpr std::uintmax_t kSmallestRecordBytes = 16;

}  // namespace

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
    // Room for every record the file could hold, so the vector never moves what it read; what is
    // not used is never touched, and costs no memory.
    std::error_code size_error;
    if (const auto bytes = std::filesystem::file_size(file, size_error); !size_error) ops.reserve(bytes / kSmallestRecordBytes);
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
    files.push_back({file, reader.header(), reader.end(), error, reader.has_pending(), reader.last_end()});
    history.threads.push_back(std::move(ops));
  }
  if (auto problem = check_run_integrity(run, files)) throw HistoryError(*problem);
  history.clock = run.meta->clock;

  std::vector<ThreadPrefix> prefixes;
  bool any_cut_short = false;
  for (std::size_t t = 0; t < files.size(); ++t) {
    const bool cut_short = files[t].error.has_value();  // only cut-short errors are left at this point
    any_cut_short |= cut_short;
    prefixes.push_back({&history.threads[t], cut_short, files[t].last_end});
    if (cut_short && files[t].has_pending)
      history.caveats.push_back(files[t].error->describe() + " after its pending record: the crash handler was stopped while "
                                                             "it wrote it; nothing was lost before it");
  }
  if (any_cut_short) {
    Cut cut = cut_history(prefixes, history.inputs);
    if (!cut.cut_short_threads.empty()) {
      history.caveats.push_back(cut.describe(history.clock));
      history.cut = std::move(cut);
    }
  }
  add_pending_caveat(history);
  return history;
}

void add_pending_caveat(History& history) {
  if (const auto pending = history.pending_operations(); pending > 0)
    history.caveats.push_back(std::to_string(pending) +
                              " pending operation(s) (outcome unknown: in flight when the run died or at the cut) may each be "
                              "linearized with any results the spec accepts, or left out");
}

History prefix_before_pending(const History& history) {
  // Every operation's interval, by start; the prefix ends at the last point where everything before
  // it has ended before everything after it starts, and before the first pending operation starts.
  struct Interval {
    std::uint64_t start, end;
    bool pending;
  };
  std::vector<Interval> all;
  for (const auto& ops : history.threads)
    for (const auto& op : ops) all.push_back({op.start, op.pending() ? std::numeric_limits<std::uint64_t>::max() : op.end, op.pending()});
  std::sort(all.begin(), all.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
  std::size_t length = 0;  // how many of `all` the prefix holds
  std::uint64_t latest_end = 0;
  for (std::size_t k = 0; k < all.size() && !all[k].pending; ++k) {
    latest_end = std::max(latest_end, all[k].end);
    if (k + 1 == all.size() || latest_end < all[k + 1].start) length = k + 1;
  }
  const std::uint64_t bound = length == 0 ? 0 : all[length - 1].start;  // the last start inside the prefix
  History prefix;
  prefix.clock = history.clock;
  prefix.inputs = history.inputs;
  prefix.file = history.file;
  for (const auto& ops : history.threads) {
    auto& kept = prefix.threads.emplace_back();
    for (const auto& op : ops)
      if (length > 0 && !op.pending() && op.start <= bound) kept.push_back(op);
  }
  return prefix;
}

}  // namespace omnilink::history
