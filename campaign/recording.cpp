#include "campaign/recording.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "omnilink/clock.hpp"
#include "platform/rr_probe.hpp"
#include "platform/toolchain.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::campaign {

Recording resolve_recording(RrMode requested, std::uint64_t timeslice_ticks) {
  Recording recording;
  recording.timeslice_ticks = timeslice_ticks;
  if (requested == RrMode::off) return recording;
  const ToolLocation rr = find_rr();
  const bool automatic = requested == RrMode::automatic;
  const auto unavailable = [&](const std::string& why) {
    if (automatic) {
      recording.notes.push_back("rr: auto -> OFF: " + why + ". Runs are NOT recorded and cannot be replayed; "
                                "`omnilink doctor` says what is missing.");
    } else {
      recording.error = "rr mode '" + to_string(requested) + "' asked for, but " + why + " (see `omnilink doctor`)";
    }
    return recording;
  };
  if (!rr.found()) return unavailable("rr is not available: " + rr.explain_missing());
  const RrCapability cap = probe_rr(*rr.path);
  if (!cap.can_record()) return unavailable("rr cannot record on this machine: " + cap.record_error);
  recording.mode = requested == RrMode::record ? store::RecordingMode::record : store::RecordingMode::chaos;  // auto: chaos
  recording.rr = *rr.path;
  recording.soft_counters = cap.needs_soft_counters();
  recording.replays_here = cap.replays;
  if (recording.soft_counters)
    recording.notes.push_back("rr: recording with software counters (-W): no hardware performance counters here");
  if (!cap.replays)
    recording.notes.push_back("rr: the probe's recording did not replay on this machine (" + cap.replay_error +
                              "); recordings that do not replay here are archived for replay elsewhere");
  return recording;
}

void write_recording_facts(const std::filesystem::path& run_dir, const Recording& recording) {
  const nlohmann::json facts{{"mode", store::to_string(recording.mode)},
                             {"soft_counters", recording.soft_counters},
                             {"timeslice_ticks", recording.timeslice_ticks},
                             {"rr", recording.rr ? recording.rr->string() : ""}};
  std::ofstream(trace::RunLayout(run_dir).recording_facts()) << facts.dump(2) << "\n";
}

bool recorded_with_soft_counters(const std::filesystem::path& run_dir) {
  std::ifstream in(trace::RunLayout(run_dir).recording_facts());
  const nlohmann::json facts = nlohmann::json::parse(in, nullptr, false);
  return facts.is_object() && facts.value("soft_counters", false);
}

RunCommand run_command(const Recording& recording, const TargetConfig& target, std::uint32_t threads, std::uint64_t ops,
                       std::uint64_t seed, const std::filesystem::path& run_dir) {
  std::vector<std::string> harness_args{"--threads", std::to_string(threads), "--ops", std::to_string(ops),
                                        "--seed",    std::to_string(seed),    "--out", run_dir.string(),
                                        "--quiet"};
  harness_args.insert(harness_args.end(), target.args.begin(), target.args.end());
  // Under rr the counter clock, whatever the target's: a clock read is a system call or an
  // instruction rr must trap, and the counter needs neither. Last, so that it wins over a --clock
  // among the arguments of a store written before the clock was the target's field.
  if (recording.recorded())
    harness_args.insert(harness_args.end(), {"--clock", std::string(clock_name(ClockKind::counter))});
  else if (target.clock)
    harness_args.insert(harness_args.end(), {"--clock", *target.clock});
  if (!recording.recorded()) return {target.harness, harness_args};

  std::vector<std::string> args{"record"};
  if (recording.soft_counters) args.push_back("-W");
  if (recording.mode == store::RecordingMode::chaos) args.push_back("--chaos");
  args.push_back("--num-cpu-ticks=" + std::to_string(recording.timeslice_ticks));
  args.insert(args.end(), {"-o", trace::RunLayout(run_dir).recording().string(), "--", target.harness.string()});
  args.insert(args.end(), harness_args.begin(), harness_args.end());
  return {*recording.rr, args};
}

}  // namespace omnilink::campaign
