#include "sweep/exploration.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "platform/fnv1a.hpp"
#include "trace/reader.hpp"
#include "trace/run_dir.hpp"

namespace omnilink::sweep {
namespace {

struct Event {
  std::uint64_t time = 0;
  std::uint32_t thread = 0;
  std::uint64_t index = 0;  // per thread: orders a thread's own events at equal timestamps
  bool end = false;
  std::uint64_t name = 0;   // fingerprint of the operation's name
};

std::uint64_t mix(std::uint64_t h, std::uint64_t value) {
  return fnv1a64(std::string_view(reinterpret_cast<const char*>(&value), sizeof value), h);
}

// The window starting at `first`, its threads renumbered by first appearance.
std::uint64_t window_fingerprint(const std::vector<Event>& events, std::size_t first) {
  std::array<std::uint32_t, kWindowEvents> seen{};
  std::size_t distinct = 0;
  std::uint64_t h = kFnv1aBasis;
  for (std::size_t i = first; i < first + kWindowEvents; ++i) {
    const Event& e = events[i];
    const auto at = std::find(seen.begin(), seen.begin() + static_cast<std::ptrdiff_t>(distinct), e.thread);
    const auto local = static_cast<std::uint64_t>(at - seen.begin());
    if (local == distinct) seen[distinct++] = e.thread;
    h = mix(mix(mix(h, local), e.name), e.end ? 1 : 0);
  }
  return h;
}

}  // namespace

std::optional<RunExploration> explore_run(const std::filesystem::path& run_dir) {
  trace::RunDir dir;
  try {
    dir = trace::RunDir::open(run_dir);
  } catch (const trace::RunDirError&) {
    return std::nullopt;
  }
  std::vector<Event> events;
  for (const auto& file : dir.thread_files) {
    trace::ThreadTraceReader reader(file);
    while (const auto op = reader.next()) {
      const std::uint64_t name = fnv1a64(op->name);
      events.push_back({op->start, op->thread, op->index, false, name});
      if (!op->pending()) events.push_back({op->end, op->thread, op->index, true, name});
    }
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.time != b.time) return a.time < b.time;
    if (a.thread != b.thread) return a.thread < b.thread;
    return a.index != b.index ? a.index < b.index : !a.end && b.end;
  });
  RunExploration out;
  out.history = kFnv1aBasis;
  for (const Event& e : events) out.history = mix(mix(mix(out.history, e.thread), e.name), e.end ? 1 : 0);
  std::unordered_set<std::uint64_t> windows;
  for (std::size_t i = 0; i + kWindowEvents <= events.size(); ++i) windows.insert(window_fingerprint(events, i));
  out.windows.assign(windows.begin(), windows.end());
  return out;
}

ExplorationTally::Added ExplorationTally::add(const RunExploration& run) {
  Added added;
  added.new_history = histories_.insert(run.history).second;
  for (const auto w : run.windows) added.new_windows += windows_.insert(w).second ? 1 : 0;
  return added;
}

}  // namespace omnilink::sweep
