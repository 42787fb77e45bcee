#include "report/frontier_timeline.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "report/html.hpp"
#include "trace/run_dir.hpp"
#include "results/result_file.hpp"

namespace omnilink::report {
namespace fs = std::filesystem;

const char* place_name(Place place) {
  switch (place) {
    case Place::linearized: return "linearized";
    case Place::frontier: return "frontier";
    case Place::refused: return "refused";
    case Place::later: return "later";
    case Place::context: return "context";
  }
  return "context";
}

std::string TimelineBar::id() const { return trace::operation_id(thread, index); }

namespace {

struct FrontierEntry {
  std::uint64_t index = 0;
  bool viable = false;
};

Place place_of(const trace::Operation& op, const std::map<std::uint32_t, FrontierEntry>& frontier,
               const std::optional<std::pair<std::uint32_t, std::uint64_t>>& refused, bool partitioned) {
  const auto it = frontier.find(op.thread);
  if (it != frontier.end() && op.index == it->second.index)
    return refused && *refused == std::pair{op.thread, op.index} ? Place::refused : Place::frontier;
  if (partitioned) return Place::context;
  if (it == frontier.end()) return Place::linearized;  // the thread has nothing left at the deepest state
  return op.index < it->second.index ? Place::linearized : Place::later;
}

TimelineBar bar_of(const trace::Operation& op, Place place, bool viable) {
  TimelineBar bar;
  bar.thread = op.thread;
  bar.index = op.index;
  bar.call = op.call();
  bar.start = op.start;
  if (!op.pending()) bar.end = op.end;
  bar.place = place;
  bar.viable = viable;
  return bar;
}

}  // namespace

std::optional<FrontierTimeline> read_frontier_timeline(const fs::path& run_dir, std::size_t context) {
  std::optional<results::StoredResult> result;
  try {
    result = results::read_result_file(run_dir);
  } catch (const results::ResultFileError& e) {
    throw std::runtime_error(e.what());
  }
  if (!result || !result->frontier) return std::nullopt;

  FrontierTimeline timeline;
  std::map<std::uint32_t, FrontierEntry> frontier;
  std::optional<std::pair<std::uint32_t, std::uint64_t>> refused;
  const results::StoredFrontier& f = *result->frontier;
  timeline.linearized = f.linearized;
  timeline.total = f.total;
  timeline.spec_state = f.spec_state;
  timeline.partitioned = result->partitions.has_value();
  for (const auto& op : f.next) frontier[op.thread] = {op.index, op.viable};
  if (f.refused) {
    refused = std::pair{f.refused->op.thread, f.refused->op.index};
    timeline.refused_action = f.refused->action;
    // "FILE:LINE:COL": the spec's file name only, not a path of the machine that validated it.
    const std::string& at = f.refused->at;
    const auto file_end = at.find(':', at.rfind('/') == std::string::npos ? 0 : at.rfind('/'));
    timeline.refused_at = fs::path(at.substr(0, file_end)).filename().string() + (file_end == std::string::npos ? "" : at.substr(file_end));
    timeline.refused_conjunct = f.refused->conjunct;
  }

  const auto traces = trace::read_run_traces(trace::RunDir::open(run_dir));
  // The frontier threads' operations near their frontier operation, and the time they span.
  std::uint64_t span_start = UINT64_MAX, span_end = 0;
  std::vector<const trace::Operation*> settled_threads_ops;
  for (const auto& thread : traces) {
    if (thread.error && !thread.error->cut_short) throw std::runtime_error(thread.error->describe());
    for (const auto& op : thread.ops) {
      const auto it = frontier.find(op.thread);
      if (it == frontier.end()) {
        settled_threads_ops.push_back(&op);
        continue;
      }
      const std::uint64_t k = it->second.index;
      if (op.index + context < k || op.index > k + context) continue;
      const Place place = place_of(op, frontier, refused, timeline.partitioned);
      timeline.bars.push_back(bar_of(op, place, op.index == k && it->second.viable));
      span_start = std::min(span_start, op.start);
      span_end = std::max(span_end, op.pending() ? op.start : op.end);
    }
  }
  // Threads with nothing left there: the operations they started up to the end of that span, the
  // last 2 x context of them (what they had done, all of it linearized, while the others got stuck).
  std::map<std::uint32_t, std::vector<const trace::Operation*>> started;
  for (const trace::Operation* op : settled_threads_ops)
    if (op->start <= span_end) started[op->thread].push_back(op);
  for (auto& [thread, ops] : started) {
    const std::size_t first = ops.size() > 2 * context ? ops.size() - 2 * context : 0;
    for (std::size_t k = first; k < ops.size(); ++k)
      timeline.bars.push_back(bar_of(*ops[k], place_of(*ops[k], frontier, refused, timeline.partitioned), false));
  }
  std::sort(timeline.bars.begin(), timeline.bars.end(),
            [](const TimelineBar& a, const TimelineBar& b) { return std::pair{a.thread, a.index} < std::pair{b.thread, b.index}; });
  std::set<std::uint32_t> lanes;
  for (const auto& bar : timeline.bars) lanes.insert(bar.thread);
  timeline.threads.assign(lanes.begin(), lanes.end());
  return timeline;
}

std::string timeline_svg(const FrontierTimeline& timeline) {
  // Every stamp gets a column, in order; a bar spans its start's column to its end's.
  std::set<std::uint64_t> stamps;
  for (const auto& bar : timeline.bars) {
    stamps.insert(bar.start);
    if (bar.end) stamps.insert(*bar.end);
  }
  const std::vector<std::uint64_t> order(stamps.begin(), stamps.end());
  const auto column = [&](std::uint64_t stamp) {
    return static_cast<std::size_t>(std::lower_bound(order.begin(), order.end(), stamp) - order.begin());
  };
  const int left = 56, lane_height = 30, bar_height = 20, top = 8;
  const int step = order.size() > 1 ? std::clamp(1100 / static_cast<int>(order.size()), 12, 48) : 48;
  const int width = left + step * static_cast<int>(order.size() + 1) + 8;
  const int height = top + lane_height * static_cast<int>(timeline.threads.size()) + 8;
  std::map<std::uint32_t, int> lane_of;
  for (std::size_t i = 0; i < timeline.threads.size(); ++i) lane_of[timeline.threads[i]] = static_cast<int>(i);

  std::string svg = "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
                    "\" height=\"" + std::to_string(height) + "\" role=\"img\" aria-label=\"operations around the failure frontier\">\n";
  for (const auto& [thread, lane] : lane_of) {
    const int y = top + lane * lane_height;
    svg += "<text x=\"4\" y=\"" + std::to_string(y + bar_height - 5) + "\">T" + std::to_string(thread) + "</text>\n";
    svg += "<line x1=\"" + std::to_string(left) + "\" x2=\"" + std::to_string(width - 4) + "\" y1=\"" + std::to_string(y + bar_height / 2) +
           "\" y2=\"" + std::to_string(y + bar_height / 2) + "\" stroke=\"#e0e0e0\"/>\n";
  }
  for (const auto& bar : timeline.bars) {
    const int y = top + lane_of[bar.thread] * lane_height;
    const int x = left + step * static_cast<int>(column(bar.start));
    const int x_end = bar.end ? left + step * static_cast<int>(column(*bar.end)) + step / 2 : width - 8;
    const int w = std::max(step / 2, x_end - x);
    const std::string timebox = "[" + std::to_string(bar.start) + ", " + (bar.end ? std::to_string(*bar.end) : "in flight") + "]";
    const std::string hover = bar.id() + " " + bar.call + " " + timebox + ": " + place_name(bar.place) +
                              (bar.place == Place::frontier || bar.place == Place::refused ? bar.viable ? " (viable)" : " (not viable)" : "");
    // The name inside the bar where it fits (about 7 px a character), the rest on hover.
    const std::string name = bar.call.substr(0, bar.call.find('('));
    svg += "<g class=\"op\" id=\"op-" + html_escape(bar.id()) + "\"><title>" + html_escape(hover) + "</title><rect class=\"bar " +
           place_name(bar.place) + (bar.end ? "" : " pending") + "\" x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) +
           "\" width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(bar_height) + "\" rx=\"3\"/>";
    if (static_cast<int>(name.size()) * 7 + 6 <= w)
      svg += "<text x=\"" + std::to_string(x + 3) + "\" y=\"" + std::to_string(y + bar_height - 6) + "\">" + html_escape(name) + "</text>";
    svg += "</g>\n";
  }
  return svg + "</svg>\n";
}

}  // namespace omnilink::report
