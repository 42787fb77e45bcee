// The omnilink CLI run where the file system misbehaves (read-only, full): in a child process with
// a private mount namespace, which first makes the mounts the test asks for, then runs the CLI.
// Nothing mounted is seen outside the child; where the mounts cannot be made (no CAP_SYS_ADMIN),
// the test is SKIPPED.
#pragma once

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace omnilink::testing {

struct NamespacedRun {
  int exit_code = -1;  // -1: ended by a signal (an abort)
  std::string output;  // stdout and stderr
};

/// `mounts` runs in the child, in its own mount namespace with every mount private, and says
/// whether it made them; the CLI then runs with `args`, its output going to `out`.
inline NamespacedRun cli_with_mounts(const std::function<bool()>& mounts, std::vector<std::string> args,
                                     const std::filesystem::path& out, const std::string& why_skipped) {
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 || !mounts()) _exit(77);
    const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, STDOUT_FILENO), dup2(fd, STDERR_FILENO);
    args.insert(args.begin(), OMNILINK_CLI);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 77) skip_test(why_skipped);
  std::ifstream in(out);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, std::string(std::istreambuf_iterator<char>(in), {})};
}

}  // namespace omnilink::testing
