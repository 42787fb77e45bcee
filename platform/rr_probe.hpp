// What rr can do on this machine: record with hardware performance counters (upstream rr), with
// software counters (rr.soft's `-W`), or not at all. Decided by really recording /bin/true, since
// the answer depends on the CPU, the kernel, perf_event_paranoid and the VM, not on the binary.
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

  bool can_record() const { return records || records_soft; }
  // The flags to record with here: {} or {"-W"}; only meaningful when can_record().
  bool needs_soft_counters() const { return !records && records_soft; }
};

RrCapability probe_rr(const std::filesystem::path& rr);

}  // namespace omnilink
