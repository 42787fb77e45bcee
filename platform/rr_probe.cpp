#include "platform/rr_probe.hpp"

#include <cstdlib>

#include "platform/subprocess.hpp"

namespace omnilink {
namespace fs = std::filesystem;
namespace {

fs::path trace_dir(const fs::path& scratch, bool soft) { return scratch / (soft ? "soft" : "plain"); }

// Runs rr; returns "" on success or the first line of its complaint.
std::string run_rr(const fs::path& rr, std::vector<std::string> args) {
  ProcessOptions options;
  options.timeout = std::chrono::seconds(60);
  ProcessResult r = run_process(rr, args, options);
  if (r.ok()) return "";
  // rr's fatal errors are "[FATAL file:line:function()]", the task, then the assertion: keep all three.
  std::string why = summarize_output(r.err, 3);
  return why.empty() ? r.describe() : why;
}

// Records /bin/true into a fresh directory.
std::string try_record(const fs::path& rr, const fs::path& scratch, bool soft) {
  std::vector<std::string> args{"record"};
  if (soft) args.push_back("-W");
  args.insert(args.end(), {"-o", trace_dir(scratch, soft).string(), "--", "/bin/true"});
  return run_rr(rr, args);
}

// Replays that recording to the end without a debugger (autopilot).
std::string try_replay(const fs::path& rr, const fs::path& scratch, bool soft) {
  std::vector<std::string> args{"replay"};
  if (soft) args.push_back("-W");
  args.insert(args.end(), {"-a", trace_dir(scratch, soft).string()});
  return run_rr(rr, args);
}

}  // namespace

RrCapability probe_rr(const fs::path& rr) {
  RrCapability cap;
  ProcessResult v = run_process(rr, {"--version"});
  cap.version = summarize_output(v.out + v.err);

  std::string scratch_template = (fs::temp_directory_path() / "omnilink-rr-probe-XXXXXX").string();
  if (::mkdtemp(scratch_template.data()) == nullptr) {
    cap.record_error = cap.soft_error = "cannot create a scratch directory in " + fs::temp_directory_path().string();
    return cap;
  }
  const fs::path scratch = scratch_template;
  cap.record_error = try_record(rr, scratch, false);
  cap.records = cap.record_error.empty();
  cap.soft_error = try_record(rr, scratch, true);
  cap.records_soft = cap.soft_error.empty();
  if (cap.can_record()) {
    cap.replay_error = try_replay(rr, scratch, cap.needs_soft_counters());
    cap.replays = cap.replay_error.empty();
    if (cap.replay_error.find("Mismatched registers") != std::string::npos)
      cap.replay_error += " -- replay diverged: this host probably does not trap rdtsc (some hypervisors accept the "
                          "request and ignore it), so a recording of a program that executes rdtsc (the probe's "
                          "dynamically linked /bin/true: its loader does) cannot be replayed here; statically linked "
                          "programs that do not, such as the example harnesses, can";
  } else {
    cap.replay_error = "nothing could be recorded";
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return cap;
}

}  // namespace omnilink
