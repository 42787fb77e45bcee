#include "trace/run_dir.hpp"

#include <algorithm>
#include <fstream>

#include "omnilink/trace_schema.hpp"
#include "platform/enum_names.hpp"
#include "platform/join.hpp"
#include "platform/special_file.hpp"

namespace omnilink::trace {
namespace fs = std::filesystem;

namespace {

constexpr platform::EnumNames<ExitStatus, 6> kExitStatusNames{{{
    {ExitStatus::running, "running"},
    {ExitStatus::ok, "ok"},
    {ExitStatus::stopped, "stopped"},
    {ExitStatus::error, "error"},
    {ExitStatus::crashed, "crashed"},
    {ExitStatus::interrupted, "interrupted"},
}}};

ExitStatus parse_exit_status(const std::string& name, const fs::path& file) {
  if (const auto status = kExitStatusNames.parse(name)) return *status;
  std::vector<std::string> known;
  for (const auto& entry : kExitStatusNames.names) known.emplace_back(entry.second);
  throw RunDirError(file.string() + ": exit.status: '" + name + "' is not one of " + join(known, ", "));
}

}  // namespace

std::string to_string(ExitStatus status) { return kExitStatusNames.name(status); }

bool finished_by_harness(ExitStatus status) { return status == ExitStatus::ok || status == ExitStatus::stopped || status == ExitStatus::error; }

RunMeta read_run_meta(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw RunDirError(file.string() + ": cannot open");
  RunMeta m;
  try {
    m.json = nlohmann::json::parse(in);
    if (m.json.value("format", "") != schema::kRunFormat) throw RunDirError(file.string() + ": not an omnilink run file (format field)");
    const auto version = m.json.at("version").get<std::uint32_t>();
    if (version != schema::kRunVersion)
      throw RunDirError(file.string() + ": run format version " + std::to_string(version) + ", this omnilink reads version " +
                        std::to_string(schema::kRunVersion));
    m.seed = m.json.at("seed").get<std::uint64_t>();
    m.threads = m.json.at("threads").get<std::uint32_t>();
    m.ops_per_thread = m.json.at("ops_per_thread").get<std::uint64_t>();
    m.clock = m.json.at("clock").get<std::string>();
    const auto& exit = m.json.at("exit");
    m.exit_status = parse_exit_status(exit.at("status").get<std::string>(), file);
    if (exit.contains("signal")) m.exit_signal = exit.at("signal").get<int>();
    m.executable = m.json.value("executable", "");
    for (const auto& frame : exit.value("frames", nlohmann::json::array())) {
      const std::string hex = frame.get<std::string>();
      std::size_t used = 0;
      std::uint64_t address = 0;
      try {
        address = hex.starts_with("0x") ? std::stoull(hex.substr(2), &used, 16) : 0;
      } catch (const std::exception&) {
      }
      if (used == 0 || used + 2 != hex.size()) throw RunDirError(file.string() + ": exit.frames: '" + hex + "' is not a hexadecimal address");
      m.crash_frames.push_back(address);
    }
  } catch (const nlohmann::json::exception& e) {
    // nlohmann's parse errors carry the byte position.
    throw RunDirError(file.string() + ": " + e.what());
  }
  return m;
}

RunDir RunDir::open(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    if (const auto special = platform::not_a_regular_file(root, "a run directory or history file")) throw RunDirError(root.string() + ": " + *special);
    throw RunDirError(root.string() + ": not a directory");
  }
  const fs::path trace_dir = root / schema::kTraceDir;
  if (!fs::is_directory(trace_dir, ec)) throw RunDirError(root.string() + ": not a run directory (no " + std::string(schema::kTraceDir) + "/ folder)");
  RunDir run;
  run.root = root;
  for (const auto& entry : fs::directory_iterator(trace_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.starts_with(schema::kThreadFilePrefix) && name.ends_with(schema::kThreadFileSuffix))
      run.thread_files.push_back(entry.path());
  }
  if (ec) throw RunDirError(trace_dir.string() + ": " + ec.message());
  std::sort(run.thread_files.begin(), run.thread_files.end());
  try {
    run.meta = read_run_meta(root / schema::kMetaFile);
  } catch (const RunDirError& e) {
    run.meta_error = e.what();
  }
  return run;
}

std::vector<ThreadTrace> read_run_traces(const RunDir& run) {
  std::vector<ThreadTrace> traces;
  traces.reserve(run.thread_files.size());
  for (const auto& file : run.thread_files) traces.push_back(read_thread_trace(file));
  return traces;
}

}  // namespace omnilink::trace
