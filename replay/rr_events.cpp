#include "replay/rr_events.hpp"

#include <sstream>

#include "platform/subprocess.hpp"

namespace omnilink::replay {
namespace {

// The unsigned number after `key` in `line` ("tid:" -> 1234), if any; hexadecimal after "0x".
std::optional<std::uint64_t> number_after(const std::string& line, const std::string& key) {
  const auto at = line.find(key);
  if (at == std::string::npos) return std::nullopt;
  const std::string rest = line.substr(at + key.size());
  try {
    std::size_t used = 0;
    const bool hex = rest.starts_with("0x");
    const std::uint64_t value = std::stoull(hex ? rest.substr(2) : rest, &used, hex ? 16 : 10);
    if (used == 0) return std::nullopt;
    return value;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::vector<RrEvent> parse_rr_dump(const std::string& output) {
  std::vector<RrEvent> events;
  std::istringstream lines(output);
  bool registers_next = false;
  for (std::string line; std::getline(lines, line);) {
    const auto kind_at = line.find("event:`");
    const auto time = number_after(line, "global_time:");
    if (time && kind_at != std::string::npos) {
      RrEvent e;
      e.event = *time;
      const auto kind_end = line.find('\'', kind_at + 7);
      e.kind = line.substr(kind_at + 7, kind_end == std::string::npos ? std::string::npos : kind_end - kind_at - 7);
      e.tid = static_cast<int>(number_after(line, "tid:").value_or(0));
      e.ticks = number_after(line, "ticks:").value_or(0);
      events.push_back(std::move(e));
      registers_next = true;
      continue;
    }
    if (registers_next && !events.empty()) {
      // The registers line, "rax:0x.. rbx:0x.. ... rip:0x..", when rr kept them.
      if (const auto rip = number_after(line, "rip:")) events.back().rip = rip;
    }
    registers_next = false;
  }
  return events;
}

std::vector<RrEvent> read_rr_events(const std::filesystem::path& rr, const Recording& recording, std::uint64_t first,
                                    std::uint64_t last) {
  std::vector<std::string> args{"dump"};
  if (recording.soft_counters) args.push_back("-W");
  args.insert(args.end(), {recording.trace().string(), std::to_string(first) + "-" + std::to_string(last)});
  ProcessOptions options;
  options.timeout = std::chrono::minutes(5);
  const ProcessResult r = run_process(rr, args, options);
  if (!r.ok()) throw RrDumpError("rr dump of " + recording.trace().string() + " failed (" + r.describe() + "): " + summarize_output(r.err));
  return parse_rr_dump(r.out);
}

std::vector<ThreadSwitch> thread_switches(const std::vector<RrEvent>& events) {
  std::vector<ThreadSwitch> switches;
  for (std::size_t k = 0; k + 1 < events.size(); ++k)
    if (events[k].tid != events[k + 1].tid) switches.push_back({events[k].event, events[k].tid, events[k + 1].tid, events[k].kind});
  return switches;
}

}  // namespace omnilink::replay
