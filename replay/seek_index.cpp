#include "replay/seek_index.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "replay/replay_files.hpp"

namespace omnilink::replay {
namespace fs = std::filesystem;

namespace {
constexpr int kIndexVersion = 1;
}

std::optional<std::uint64_t> SeekIndex::event_before(std::uint32_t thread, std::uint64_t index) const {
  std::optional<std::uint64_t> event;
  std::uint64_t best = 0;
  for (const auto& c : checkpoints) {
    if (c.thread != thread || c.index > index) continue;
    if (!event || c.index >= best) {
      best = c.index;
      event = c.event;
    }
  }
  return event;
}

std::optional<std::uint64_t> SeekIndex::event_before_all(const std::vector<std::pair<std::uint32_t, std::uint64_t>>& ops) const {
  std::optional<std::uint64_t> earliest;
  for (const auto& [thread, index] : ops) {
    const auto before = event_before(thread, index);
    if (!before) return std::nullopt;
    earliest = earliest ? std::min(*earliest, *before) : *before;
  }
  return earliest;
}

std::string index_commands() {
  return "set pagination off\n"
         "set breakpoint pending on\n"
         "break omnilink_checkpoint\n"
         "commands\n"
         "  silent\n"
         "  printf \"omnilink-checkpoint %u %lu %lu\\n\", header->thread, header->index, header->start\n"
         "  when\n"
         "  continue\n"
         "end\n";
}

SeekIndex parse_index_output(const std::string& output) {
  SeekIndex index;
  std::istringstream lines(output);
  std::optional<Checkpoint> pending;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first, second;
    words >> first;
    if (first == "omnilink-checkpoint") {
      Checkpoint c;
      if (words >> c.thread >> c.index >> c.start) pending = c;
    } else if (first == "Completed" && pending && (words >> second) && second == "event:" && (words >> pending->event)) {
      index.checkpoints.push_back(*pending);
      pending.reset();
    }
  }
  return index;
}

fs::path seek_index_file(const fs::path& run_dir) { return replay_dir(run_dir) / "seek-index.json"; }

std::optional<SeekIndex> load_seek_index(const fs::path& run_dir) {
  std::ifstream in(seek_index_file(run_dir));
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || j.value("version", 0) != kIndexVersion) return std::nullopt;
  SeekIndex index;
  for (const auto& c : j.value("checkpoints", nlohmann::json::array()))
    index.checkpoints.push_back({c.at(0).get<std::uint32_t>(), c.at(1).get<std::uint64_t>(), c.at(2).get<std::uint64_t>(),
                                 c.at(3).get<std::uint64_t>()});
  return index;
}

void save_seek_index(const fs::path& run_dir, const SeekIndex& index) {
  nlohmann::json checkpoints = nlohmann::json::array();
  for (const auto& c : index.checkpoints) checkpoints.push_back({c.thread, c.index, c.start, c.event});
  fs::create_directories(replay_dir(run_dir));
  std::ofstream(seek_index_file(run_dir)) << nlohmann::json{{"format", "omnilink-seek-index"}, {"version", kIndexVersion},
                                                            {"checkpoints", checkpoints}}.dump() << "\n";
}

}  // namespace omnilink::replay
