#include "replay/replay_files.hpp"

#include <fstream>

#include "replay/gdb_commands.hpp"

namespace omnilink::replay {
namespace fs = std::filesystem;

fs::path replay_dir(const fs::path& run_dir) { return run_dir / "replay"; }

fs::path command_file(const fs::path& run_dir, const trace::Operation& op) {
  return replay_dir(run_dir) / (op.id() + ".gdb");
}

void write_replay_files(const fs::path& run_dir, const std::string& run_name, const std::vector<trace::Operation>& frontier,
                        const RecordingFacts& recording) {
  fs::remove_all(replay_dir(run_dir));
  fs::create_directories(replay_dir(run_dir));
  std::ofstream readme(replay_dir(run_dir) / "README.txt");
  readme << "Operations at the failure frontier of " << run_name << ": pending when the deepest linearization\n"
         << "TLC found could go no further. Each has a gdb command file here that stops a replay at it.\n";
  if (!recording.recorded)
    readme << "This run was not recorded with rr, so it cannot be replayed; a single-threaded run with the counter\n"
              "clock is deterministic and can be re-executed under gdb: omnilink replay RUN OP --rerun.\n";
  readme << "\n";
  for (const auto& op : frontier) {
    std::ofstream(command_file(run_dir, op)) << stop_at_operation(op);
    readme << op.id() << "  " << op.call() << "  timebox [" << op.start << ", " << op.end << "]\n"
           << "    omnilink replay " << run_name << " " << op.id() << "            (gdb prompt, stopped there)\n"
           << "    omnilink replay " << run_name << " " << op.id() << " --batch    (print it and exit)\n"
           // Relative to the run directory, which a merge or a copy of the store moves.
           << "    by hand, in this run's directory: rr replay " << (recording.soft_counters ? "-W " : "") << "-x "
           << fs::relative(command_file(run_dir, op), run_dir).string() << " rr -- -ex continue\n\n";
  }
}

}  // namespace omnilink::replay
