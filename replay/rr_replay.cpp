#include "replay/rr_replay.hpp"

#include <fstream>

#include "platform/subprocess.hpp"
#include "replay/replay_files.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::replay {
namespace fs = std::filesystem;

fs::path Recording::trace() const { return trace::RunLayout(run_dir).recording(); }

std::vector<std::string> rr_replay_args(const Recording& recording, const fs::path& command_file, std::optional<std::uint64_t> start_event) {
  std::vector<std::string> args{"replay"};
  if (recording.soft_counters) args.push_back("-W");
  if (start_event) args.insert(args.end(), {"-g", std::to_string(*start_event)});
  args.insert(args.end(), {"-x", command_file.string(), recording.trace().string(), "--"});
  return args;
}

SeekIndex seek_index(const fs::path& rr, const Recording& recording, std::ostream& progress, std::chrono::milliseconds time_limit) {
  if (auto cached = load_seek_index(recording.run_dir)) return *cached;
  fs::create_directories(replay_dir(recording.run_dir));
  const fs::path commands = replay_dir(recording.run_dir) / "seek-index.gdb";
  std::ofstream(commands) << index_commands();
  std::vector<std::string> args = rr_replay_args(recording, commands, std::nullopt);
  args.insert(args.end(), {"-batch", "-ex", "continue"});
  ProcessOptions options;
  options.timeout = time_limit;
  progress << "indexing the recording for fast seek (once per run)...\n";
  const ProcessResult r = run_process(rr, args, options);
  const SeekIndex index = parse_index_output(r.out);
  progress << index.checkpoints.size() << " checkpoints indexed in " << r.duration.count() / 1000.0 << " s ("
           << seek_index_file(recording.run_dir).string() << ")\n";
  if (r.ok()) save_seek_index(recording.run_dir, index);
  return index;
}

}  // namespace omnilink::replay
