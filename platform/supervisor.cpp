#include "platform/supervisor.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>

#include <sys/wait.h>

#include <boost/asio/post.hpp>
#include <boost/process.hpp>

#include "platform/process_group.hpp"

namespace omnilink {
namespace bp = boost::process;

std::string ChildExit::describe() const {
  if (!started) return "not started: " + start_error;
  if (signal != 0) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit " + std::to_string(exit_code);
}

Supervisor::Supervisor(boost::asio::io_context& io) : io_(io), sigchld_(io, SIGCHLD) { wait_for_sigchld(); }

Supervisor::~Supervisor() {
  for (const auto& [pid, child] : children_) {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
}

pid_t Supervisor::start(const ChildSpec& spec, ExitHandler on_exit) {
  bp::environment env = boost::this_process::environment();
  for (const auto& [key, value] : spec.env_overrides) env.set(key, value);  // set(): see subprocess.cpp
  std::error_code ec;
  bp::child child;
  try {
    child = bp::child(bp::exe = spec.exe.string(), bp::args = spec.args, bp::env = env, bp::std_in.close(),
                      bp::std_out > spec.stdout_file.string(), bp::std_err > spec.stderr_file.string(), ec,
                      NewProcessGroup{});
  } catch (const std::exception& e) {
    ChildExit failed;
    failed.start_error = spec.exe.string() + ": " + e.what();
    boost::asio::post(io_, [on_exit = std::move(on_exit), failed] { on_exit(failed); });
    return -1;
  }
  if (ec) {
    ChildExit failed;
    failed.start_error = spec.exe.string() + ": " + ec.message();
    boost::asio::post(io_, [on_exit = std::move(on_exit), failed] { on_exit(failed); });
    return -1;
  }
  const pid_t pid = child.id();
  child.detach();  // reaped in reap(), by pid
  children_.emplace(pid, Child{std::move(on_exit), std::chrono::steady_clock::now()});
  // A child that ended before it was in children_ raised SIGCHLD too early to be reaped: look now.
  boost::asio::post(io_, [this] { reap(); });
  return pid;
}

bool Supervisor::signal_group(pid_t pid, int sig) {
  if (!children_.contains(pid)) return false;
  return ::kill(-pid, sig) == 0 || ::kill(pid, sig) == 0;
}

void Supervisor::wait_for_sigchld() {
  sigchld_.async_wait([this](const boost::system::error_code& ec, int) {
    if (ec) return;  // cancelled: the supervisor is going away
    reap();
    wait_for_sigchld();
  });
}

void Supervisor::reap() {
  // SIGCHLDs coalesce, so every child is checked on each one. Handlers run after the scan, since
  // they may start the next child.
  std::vector<std::pair<ExitHandler, ChildExit>> ended;
  for (auto it = children_.begin(); it != children_.end();) {
    int status = 0;
    const pid_t done = ::waitpid(it->first, &status, WNOHANG);
    if (done == 0 || (done < 0 && errno == EINTR)) {
      ++it;
      continue;
    }
    ChildExit exit;
    exit.started = true;
    exit.duration = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - it->second.started);
    if (done > 0 && WIFSIGNALED(status)) exit.signal = WTERMSIG(status);
    else if (done > 0 && WIFEXITED(status)) exit.exit_code = WEXITSTATUS(status);
    ended.emplace_back(std::move(it->second.on_exit), exit);
    it = children_.erase(it);
  }
  for (auto& [handler, exit] : ended) handler(exit);
}

}  // namespace omnilink
