// The operations around a failed run's frontier (docs/sweep.md, "HTML report"): what the timeline
// on a signature's page draws. The frontier (RUN/validation/result.json) names each thread's next
// operation at the deepest state the search reached; the operations of that thread before it were
// linearized there, the ones after it were not reached. This module reads the frontier and the
// run's trace and keeps, per thread, the operations nearest the frontier; drawing them is
// timeline_svg's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace omnilink::report {

/// Where an operation stands at the deepest state the search reached.
enum class Place {
  linearized,  // before its thread's frontier operation: in the linearized prefix
  frontier,    // its thread's next operation there: the search could not get past it
  refused,     // the frontier operation the spec refused (result.json frontier.refused)
  later,       // after its thread's frontier operation: not reached
  context,     // checked key by key: an operation whose place in the failing key's order is not known
};

const char* place_name(Place place);

struct TimelineBar {
  std::uint32_t thread = 0;
  std::uint64_t index = 0;
  std::string call;                  // "Name(field = value, ...)", values in TLA+ notation
  std::uint64_t start = 0;
  std::optional<std::uint64_t> end;  // none: the run died with it in flight (outcome unknown)
  Place place = Place::context;
  bool viable = false;               // frontier operations: the spec could take it next by its timebox

  std::string id() const;  // "T<thread>.<index>"
};

struct FrontierTimeline {
  std::vector<std::uint32_t> threads;  // the lanes, ascending
  std::vector<TimelineBar> bars;       // by thread, then index
  std::uint64_t linearized = 0;        // operations linearized at the deepest state
  std::uint64_t total = 0;
  std::string spec_state;              // TLA+ text
  bool partitioned = false;            // checked key by key (OmniLinkPartitionBy)
  // The refusal, when the native checker found one.
  std::string refused_action, refused_at, refused_conjunct;
};

/// The frontier of a failed run and, per thread, up to `context` operations on each side of its
/// frontier operation (threads with none, whose operations were all linearized, contribute their
/// last 2 x context operations started by the end of the others' span). Nothing when the run has no
/// failure frontier; throws std::runtime_error naming the file when its result or trace does not read.
std::optional<FrontierTimeline> read_frontier_timeline(const std::filesystem::path& run_dir, std::size_t context = 8);

/// The timeline as an inline SVG: one lane per thread, each operation's timebox a bar, coloured by
/// its place, labelled with its name and, on hover (an SVG <title>), its id, call and timebox. The
/// horizontal axis is the order of the start and end stamps, not their distance (what decides
/// linearizability is which timeboxes overlap), so a long operation does not squeeze the others.
std::string timeline_svg(const FrontierTimeline& timeline);

}  // namespace omnilink::report
