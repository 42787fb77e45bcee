// A Boost.Process initializer that starts a child as the leader of a new process group, and kills
// it if omnilink dies first.
//
// Why a group: a campaign's children are trees (rr and its tracees, java and its helper threads), a
// time limit must stop the whole tree, and a terminal's Ctrl-C must reach omnilink alone, which
// then stops its children deliberately and records them as interrupted instead of letting each
// die of SIGINT in whatever phase it is in.
#pragma once

#include <csignal>

#include <sys/prctl.h>
#include <unistd.h>

#include <boost/process/extend.hpp>

namespace omnilink {

struct NewProcessGroup : boost::process::extend::handler {
  pid_t parent = ::getpid();  // made in the parent, just before the fork

  template <class Executor>
  void on_exec_setup(Executor&) const {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // tied to the spawning thread: callers spawn from long-lived threads
    // A parent that died between the fork and the prctl sends no signal: the child would run on,
    // orphaned, and write into a run directory that a resumed campaign gives to a new run.
    if (::getppid() != parent) ::_exit(127);
  }
  // Also from the parent, so the group exists before anyone signals it (whichever runs first wins).
  template <class Executor>
  void on_success(Executor& exec) const {
    ::setpgid(exec.pid, exec.pid);
  }
};

}  // namespace omnilink
