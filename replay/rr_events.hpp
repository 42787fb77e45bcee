// rr's event log of a recording, as `rr dump` prints it: every event's number, thread (tid), kind
// and, where rr kept them, the registers' instruction pointer. Under rr one thread runs at a time
// and rr switches threads only at events, so consecutive events of different threads are exactly
// the recording's thread switches: the log says who ran when without replaying a single
// instruction. Owner of reading that output; the schedule probe (schedule_probe.hpp) locates the
// switches it finds.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "replay/rr_replay.hpp"

namespace omnilink::replay {

/// One rr event ("frame" in rr's terms).
struct RrEvent {
  std::uint64_t event = 0;  // rr's global time: the event's number
  int tid = 0;
  std::string kind;         // as rr names it: "SCHED", "SYSCALL: futex", "SYSCALLBUF_FLUSH", ...
  std::uint64_t ticks = 0;  // the thread's tick count there
  std::optional<std::uint64_t> rip;  // where rr recorded the registers
};

/// A thread switch: `from` ran event `after` and `to` runs the next one.
struct ThreadSwitch {
  std::uint64_t after = 0;
  int from = 0, to = 0;
  std::string kind;  // the kind of event `after` ("SCHED": preempted; a system call: it blocked or yielded there)
};

/// `rr dump` could not read the recording; says why.
class RrDumpError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Reads `rr dump`'s human-readable output (rr 5.x: a "{" line, then "global_time:N, event:`KIND'
/// ... tid:T, ticks:K", then the registers when kept). Lines it does not know are skipped.
std::vector<RrEvent> parse_rr_dump(const std::string& output);

/// The events numbered first..last of the recording (`rr dump TRACE first-last`).
std::vector<RrEvent> read_rr_events(const std::filesystem::path& rr, const Recording& recording, std::uint64_t first,
                                    std::uint64_t last);

/// The thread switches among `events` (in event order).
std::vector<ThreadSwitch> thread_switches(const std::vector<RrEvent>& events);

}  // namespace omnilink::replay
