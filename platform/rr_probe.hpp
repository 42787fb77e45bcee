// What rr can do on this machine: record with hardware performance counters (upstream rr), with
// software counters (rr.soft's `-W`), or not at all; and whether such a recording replays. Decided
// by really recording and replaying /bin/true, since the answer depends on the CPU, the kernel,
// perf_event_paranoid and the hypervisor, not on the binary. (Replay is checked separately
// because some hypervisors accept the request to trap rdtsc and then ignore it: recording
// succeeds, and every replay of a dynamically linked program diverges.)
#pragma once

#include <filesystem>
#include <string>

namespace omnilink {

struct RrCapability {
  std::string version;          // first line of `rr --version`
  bool records = false;         // `rr record` works
  bool records_soft = false;    // `rr record -W` works
  std::string record_error;     // first line of rr's complaint, when it does not
  std::string soft_error;
  bool replays = false;         // a recording made here (with -W if needed) replays to the end
  std::string replay_error;

  bool can_record() const { return records || records_soft; }
  // The flags to record with here: {} or {"-W"}; only meaningful when can_record().
  bool needs_soft_counters() const { return !records && records_soft; }
};

RrCapability probe_rr(const std::filesystem::path& rr);

}  // namespace omnilink
