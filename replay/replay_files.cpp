#include "replay/replay_files.hpp"

#include <fstream>

#include "omnilink/clock.hpp"
#include "replay/gdb_commands.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::replay {
namespace fs = std::filesystem;

fs::path replay_dir(const fs::path& run_dir) { return trace::RunLayout(run_dir).replay(); }

fs::path command_file(const fs::path& run_dir, const trace::Operation& op) {
  return replay_dir(run_dir) / (op.id() + ".gdb");
}

fs::path core_command_file(const fs::path& run_dir, const trace::Operation& op, std::size_t k) {
  const fs::path dir = replay_dir(run_dir) / "core";
  fs::create_directories(dir);
  return dir / (std::to_string(k + 1) + "-" + op.id() + ".gdb");
}

fs::path signal_command_file(const fs::path& run_dir) { return replay_dir(run_dir) / "crash.gdb"; }

bool reruns_the_same(const trace::RunMeta& meta) { return meta.threads == 1 && parse_clock(meta.clock) == ClockKind::counter; }

bool reruns_the_same(const fs::path& run_dir) {
  try {
    return reruns_the_same(trace::read_run_meta(trace::RunLayout(run_dir).meta()));
  } catch (const trace::RunDirError&) {
    return false;
  }
}

void write_replay_files(const fs::path& run_dir, const std::string& run_name, const std::vector<trace::Operation>& frontier,
                        const RecordingFacts& recording) {
  fs::remove_all(replay_dir(run_dir));
  fs::create_directories(replay_dir(run_dir));
  std::ofstream readme(replay_dir(run_dir) / "README.txt");
  readme << "Operations at the failure frontier of " << run_name << ": pending when the deepest linearization\n"
         << "the checker found could go no further. Each has a gdb command file here that stops a replay at it.\n";
  // Unrecorded, a run can still be re-executed when it is deterministic; else there is no command.
  const bool reruns = !recording.recorded && reruns_the_same(run_dir);
  if (!recording.recorded) {
    readme << (reruns ? "This run was not recorded with rr, but it is deterministic (1 thread, counter clock): the\n"
                        "commands below re-execute it under gdb (--rerun).\n"
                      : "This run was not recorded with rr, so it cannot be replayed: run its configuration again under\n"
                        "rr (omnilink campaign --rr chaos) on a machine where rr records.\n");
  }
  readme << "\n";
  const std::string how = recording.recorded ? "" : reruns ? " --rerun" : "";
  for (const auto& op : frontier) {
    std::ofstream(command_file(run_dir, op)) << stop_at_operation(op);
    readme << op.id() << "  " << op.call() << "  timebox [" << op.start << ", " << op.end << "]\n";
    if (!recording.recorded && !reruns) {
      readme << "\n";
      continue;
    }
    readme << "    omnilink replay " << run_name << " " << op.id() << how << "            (gdb prompt, stopped there)\n"
           << "    omnilink replay " << run_name << " " << op.id() << how << " --batch    (print it and exit)\n";
    // Relative to the run directory, which a merge or a copy of the store moves.
    if (recording.recorded)
      readme << "    by hand, in this run's directory: rr replay " << (recording.soft_counters ? "-W " : "") << "-x "
             << fs::relative(command_file(run_dir, op), run_dir).string() << " rr -- -ex continue\n";
    readme << "\n";
  }
}

}  // namespace omnilink::replay
