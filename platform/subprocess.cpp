#include "platform/subprocess.hpp"

#include <algorithm>
#include <csignal>
#include <fstream>
#include <cstdlib>
#include <future>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/process.hpp>

#include "platform/process_group.hpp"

namespace omnilink {
namespace bp = boost::process;

std::string ProcessResult::describe() const {
  if (!started) return "not started: " + start_error;
  if (timed_out) return "timed out (killed at the time limit)";
  if (cancelled) return "cancelled (killed on request)";
  if (signal != 0) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit " + std::to_string(exit_code);
}

ProcessResult run_process(const std::filesystem::path& exe, const std::vector<std::string>& args,
                          const ProcessOptions& options) {
  ProcessResult result;
  boost::asio::io_context io;
  std::future<std::string> out;
  std::future<std::string> err;
  bp::environment env = boost::this_process::environment();
  // set(), not operator[]: Boost 1.74's find() behind operator[] reads past shorter entries.
  for (const auto& [key, value] : options.env_overrides) env.set(key, value);
  std::error_code ec;
  bp::child child;
  const auto spawn = [&](auto&&... extra) {
    if (options.cwd) {
      child = bp::child(bp::exe = exe.string(), bp::args = args, bp::start_dir = options.cwd->string(), bp::env = env,
                        bp::std_in.close(), bp::std_out > out, bp::std_err > err, io, ec, extra...);
    } else {
      child = bp::child(bp::exe = exe.string(), bp::args = args, bp::env = env, bp::std_in.close(), bp::std_out > out,
                        bp::std_err > err, io, ec, extra...);
    }
  };
  try {
    if (options.own_process_group) spawn(NewProcessGroup{});
    else spawn();
  } catch (const std::exception& e) {
    result.start_error = e.what();
    return result;
  }
  if (ec) {
    result.start_error = exe.string() + ": " + ec.message();
    return result;
  }
  result.started = true;
  // Run the event loop in slices, sampling the child's peak RSS between them. VmHWM only grows,
  // so the last sample is the peak up to 50 ms before the end.
  const auto begin = std::chrono::steady_clock::now();
  const auto deadline = begin + options.timeout;
  const std::string status_file = "/proc/" + std::to_string(child.id()) + "/status";
  const auto cancelled = [&] { return options.cancel != nullptr && options.cancel->load(); };
  while (!io.stopped() && std::chrono::steady_clock::now() < deadline && !cancelled()) {
    io.run_for(std::min<std::chrono::steady_clock::duration>(std::chrono::milliseconds(50),
                                                             deadline - std::chrono::steady_clock::now()));
    std::ifstream status(status_file);
    for (std::string line; std::getline(status, line);)
      if (line.rfind("VmHWM:", 0) == 0) result.peak_rss_kb = std::max<std::uint64_t>(result.peak_rss_kb, std::stoull(line.substr(6)));
  }
  if (!io.stopped()) {
    (cancelled() ? result.cancelled : result.timed_out) = true;
    if (options.own_process_group) ::kill(-child.id(), SIGKILL);
    child.terminate(ec);  // SIGKILL
    io.run();             // drain the pipes (closed by the kill)
  }
  child.wait(ec);
  result.duration = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - begin);
  const int status = child.native_exit_code();
  if (!result.timed_out && !result.cancelled) {
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    else if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  }
  if (out.valid()) result.out = out.get();
  if (err.valid()) result.err = err.get();
  return result;
}

std::string summarize_output(const std::string& text, std::size_t max_lines) {
  std::istringstream in(text);
  std::string summary;
  std::size_t lines = 0;
  for (std::string line; lines < max_lines && std::getline(in, line);) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    const auto last = line.find_last_not_of(" \t\r");
    summary += (summary.empty() ? "" : " ") + line.substr(first, last - first + 1);
    ++lines;
  }
  if (summary.size() > 400) summary = summary.substr(0, 397) + "...";
  return summary;
}

std::optional<std::filesystem::path> find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr || name.empty() || name.find('/') != std::string::npos) return std::nullopt;
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    std::filesystem::path candidate = std::filesystem::path(dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(candidate)) return candidate;
  }
  return std::nullopt;
}

std::string shell_command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& arg : argv) {
    const bool safe = !arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                            "_-./=:,+@%") == std::string::npos;
    std::string word = safe ? arg : "'";
    if (!safe) {
      for (char c : arg) word += c == '\'' ? std::string("'\\''") : std::string(1, c);
      word += "'";
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return line;
}

}  // namespace omnilink
