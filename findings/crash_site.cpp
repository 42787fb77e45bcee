#include "findings/crash_site.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "platform/code_under_test.hpp"
#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::findings {
namespace fs = std::filesystem;
namespace {

constexpr const char* kFormat = "omnilink-crash";
constexpr int kVersion = 1;

std::string hex(std::uint64_t address) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
  return text;
}

// "FILE:LINE" or "FILE:LINE (discriminator N)", as addr2line prints a location; "??:0" or "??:?"
// when it knows none.
void parse_location(std::string text, CrashFrame& frame) {
  if (const auto extra = text.find(" ("); extra != std::string::npos) text.resize(extra);
  const auto colon = text.rfind(':');
  frame.file = colon == std::string::npos ? text : text.substr(0, colon);
  frame.line = 0;
  if (colon != std::string::npos) {
    try {
      frame.line = std::stoi(text.substr(colon + 1));
    } catch (const std::exception&) {
    }
  }
}

// addr2line -a -f -C -i: for each address a line "0x...", then a function line and a location
// line per inlining level, innermost first.
std::vector<CrashFrame> parse_addr2line(const std::string& out, const std::vector<std::string>& addresses) {
  std::vector<CrashFrame> frames;
  std::istringstream in(out);
  std::string line;
  std::size_t block = 0;
  bool started = false;
  while (std::getline(in, line)) {
    if (line.starts_with("0x")) {
      if (started) ++block;
      started = true;
      continue;
    }
    if (!started || block >= addresses.size()) break;
    CrashFrame frame;
    frame.address = addresses[block];
    frame.function = line;
    std::string location;
    if (!std::getline(in, location)) break;
    parse_location(location, frame);
    frames.push_back(std::move(frame));
  }
  return frames;
}

}  // namespace

const CrashFrame* CrashSite::innermost_under_test() const {
  for (const CrashFrame& f : frames)
    if (in_code_under_test(f.file, f.line)) return &f;
  return nullptr;
}

std::optional<CrashSite> locate_crash(const trace::RunMeta& meta) {
  if (meta.exit_status != trace::ExitStatus::crashed) return std::nullopt;
  CrashSite site;
  site.signal = meta.exit_signal.value_or(0);
  if (const auto exit = meta.json.find("exit"); exit != meta.json.end() && exit->is_object())
    site.signal_name = exit->value("signal_name", "");
  site.executable = meta.executable;
  if (meta.crash_frames.empty()) {
    site.note = "the crash handler recorded no frames (a harness built before they were recorded, or the stack did not unwind)";
    return site;
  }
  std::vector<std::string> addresses;
  for (const std::uint64_t a : meta.crash_frames) addresses.push_back(hex(a));
  auto unnamed = [&](const std::string& why) {
    for (const std::string& a : addresses) site.frames.push_back({a, "??", "??", 0});
    site.note = why;
    return site;
  };
  const ToolLocation addr2line = find_addr2line();
  if (!addr2line.found()) return unnamed("addr2line (binutils) " + addr2line.explain_missing() + ": the frames are not named");
  std::error_code ec;
  if (site.executable.empty() || !fs::is_regular_file(site.executable, ec))
    return unnamed("the harness executable (" + site.executable + ") is gone: the frames are not named");
  std::vector<std::string> args{"-e", site.executable, "-a", "-f", "-C", "-i"};
  // Past the first, each frame is a return address: the call is the instruction before it.
  for (std::size_t k = 0; k < meta.crash_frames.size(); ++k) args.push_back(hex(meta.crash_frames[k] - (k == 0 ? 0 : 1)));
  ProcessOptions options;
  options.timeout = std::chrono::seconds(60);
  const ProcessResult p = run_process(*addr2line.path, args, options);
  if (!p.ok()) return unnamed("addr2line failed (" + p.describe() + "): " + summarize_output(p.err));
  site.frames = parse_addr2line(p.out, addresses);
  return site;
}

void write_crash_site(const fs::path& run_dir, const CrashSite& site) {
  nlohmann::json frames = nlohmann::json::array();
  for (const CrashFrame& f : site.frames) frames.push_back({{"address", f.address}, {"function", f.function}, {"file", f.file}, {"line", f.line}});
  nlohmann::json j{{"format", kFormat},         {"version", kVersion},       {"signal", site.signal},
                   {"signal_name", site.signal_name}, {"executable", site.executable}, {"frames", frames}};
  if (!site.note.empty()) j["note"] = site.note;
  std::ofstream(trace::RunLayout(run_dir).crash_site(), std::ios::trunc) << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

std::optional<CrashSite> read_crash_site(const fs::path& run_dir) {
  std::ifstream in(trace::RunLayout(run_dir).crash_site());
  if (!in) return std::nullopt;
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || j.value("format", "") != kFormat || j.value("version", 0) != kVersion) return std::nullopt;
  try {
    CrashSite site;
    site.signal = j.value("signal", 0);
    site.signal_name = j.value("signal_name", "");
    site.executable = j.value("executable", "");
    site.note = j.value("note", "");
    for (const auto& f : j.value("frames", nlohmann::json::array()))
      site.frames.push_back({f.value("address", ""), f.value("function", "??"), f.value("file", "??"), f.value("line", 0)});
    return site;
  } catch (const nlohmann::json::exception&) {  // a field of the wrong type: not a crash.json this wrote
    return std::nullopt;
  }
}

void record_crash_site(const fs::path& run_dir) {
  std::optional<trace::RunMeta> meta;
  try {
    meta = trace::read_run_meta(trace::RunLayout(run_dir).meta());
  } catch (const trace::RunDirError&) {
    return;  // the harness died before writing it: nothing says where
  }
  if (const auto site = locate_crash(*meta)) write_crash_site(run_dir, *site);
}

}  // namespace omnilink::findings
