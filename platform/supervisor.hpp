// Asynchronous children on an Asio event loop: the campaign engine starts harness runs (and
// `rr pack`) here and is called back when each ends. Every child is an argument vector with stdout
// and stderr going to files, leads its own process group (process_group.hpp), and is reaped by the
// supervisor on SIGCHLD with waitpid(pid) for its own pids only, so children that other code waits
// for synchronously (TLC under run_process) are never stolen.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

namespace omnilink {

struct ChildSpec {
  std::filesystem::path exe;
  std::vector<std::string> args;
  std::filesystem::path stdout_file;  // created or truncated
  std::filesystem::path stderr_file;
  std::map<std::string, std::string> env_overrides;
};

struct ChildExit {
  bool started = false;
  std::string start_error;
  int exit_code = -1;  // when the child exited
  int signal = 0;      // when a signal ended it
  std::chrono::milliseconds duration{0};
  // "exit 3", "killed by signal 11 (SIGSEGV)", "not started: ..."
  std::string describe() const;
};

class Supervisor {
 public:
  explicit Supervisor(boost::asio::io_context& io);
  ~Supervisor();  // kills (SIGKILL) the groups of children still running
  Supervisor(const Supervisor&) = delete;
  Supervisor& operator=(const Supervisor&) = delete;

  using ExitHandler = std::function<void(const ChildExit&)>;
  // Starts a child; `on_exit` runs on the event loop when it has ended (immediately posted, with
  // started == false, when it cannot be started). Returns its pid, or -1.
  pid_t start(const ChildSpec& spec, ExitHandler on_exit);
  // Sends `sig` to the child's whole process group; false if it is no longer running.
  bool signal_group(pid_t pid, int sig);
  std::size_t running() const { return children_.size(); }

 private:
  struct Child {
    ExitHandler on_exit;
    std::chrono::steady_clock::time_point started;
  };
  void wait_for_sigchld();
  void reap();

  boost::asio::io_context& io_;
  boost::asio::signal_set sigchld_;
  std::map<pid_t, Child> children_;
};

}  // namespace omnilink
