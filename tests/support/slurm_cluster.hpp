// A real single-node Slurm cluster for a test, from Debian's slurm-wlm and munge: munged with a
// fresh key and its own socket, slurmctld and slurmd with a generated slurm.conf on free ports, all
// in a scratch directory. SLURM_CONF is set in this process so that the omnilink it starts, and
// sbatch, squeue and scancel under it, talk to this cluster. The destructor stops exactly the
// daemons it started, by the pids their pid files hold. Where a daemon is missing or cannot start,
// the case ends SKIPPED with the reason.
#pragma once

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "platform/subprocess.hpp"
#include "support/campaign_support.hpp"
#include "support/test_support.hpp"

namespace omnilink::testing {

class SlurmCluster {
 public:
  SlurmCluster() {
    if (::geteuid() != 0) skip_test("a one-node Slurm cluster needs root here (slurmd runs jobs as their users)");
    for (const char* tool : {"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "sinfo"})
      if (!find_on_path(tool)) skip_test(std::string(tool) + " not found (scripts/setup installs slurm-wlm and munge)");
    const auto& d = scratch_.path();
    std::filesystem::create_directories(d / "state");
    std::filesystem::create_directories(d / "spool");
    write_munge_key(d / "munge.key");
    start("munged", {"--force", "--key-file=" + (d / "munge.key").string(), "--socket=" + (d / "munge.sock").string(),
                     "--pid-file=" + (d / "munged.pid").string(), "--log-file=" + (d / "munged.log").string(),
                     "--seed-file=" + (d / "munge.seed").string()},
          d / "munged.pid", d / "munged.log");
    write_conf();
    start("slurmctld", {"-f", conf().string()}, d / "slurmctld.pid", d / "slurmctld.log");
    start("slurmd", {"-f", conf().string()}, d / "slurmd.pid", d / "slurmd.log");
    ::setenv("SLURM_CONF", conf().c_str(), 1);
    wait_for_idle_node();
  }
  ~SlurmCluster() {
    stop_all();
    ::unsetenv("SLURM_CONF");
  }
  SlurmCluster(const SlurmCluster&) = delete;
  SlurmCluster& operator=(const SlurmCluster&) = delete;

  std::filesystem::path conf() const { return scratch_ / "slurm.conf"; }

  /// Runs a Slurm command (scontrol, scancel, squeue) against this cluster.
  ProcessResult command(const std::string& tool, const std::vector<std::string>& args) const {
    ProcessOptions options;
    options.timeout = std::chrono::seconds(30);
    return run_process(*find_on_path(tool), args, options);
  }

 private:
  static void write_munge_key(const std::filesystem::path& key) {
    std::random_device random;
    std::ofstream out(key, std::ios::binary);
    for (int i = 0; i < 1024; ++i) out.put(static_cast<char>(random() & 0xff));
    out.close();
    std::filesystem::permissions(key, std::filesystem::perms::owner_read);
  }

  static int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
      skip_test("no free TCP port for slurmctld and slurmd");
    ::close(fd);
    return ntohs(address.sin_port);
  }

  void write_conf() const {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    const std::string name = std::string(host).substr(0, std::string(host).find('.'));
    const auto& d = scratch_.path();
    int ctld_port = free_port(), slurmd_port = free_port();
    while (slurmd_port == ctld_port) slurmd_port = free_port();
    std::ofstream out(conf());
    out << "ClusterName=omnilinktest\nSlurmctldHost=" << name << "\nSlurmUser=root\nAuthType=auth/munge\nAuthInfo=socket="
        << (d / "munge.sock").string() << "\nCredType=cred/munge\nProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
        << "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nStateSaveLocation=" << (d / "state").string()
        << "\nSlurmdSpoolDir=" << (d / "spool").string() << "\nSlurmctldPidFile=" << (d / "slurmctld.pid").string()
        << "\nSlurmdPidFile=" << (d / "slurmd.pid").string() << "\nSlurmctldLogFile=" << (d / "slurmctld.log").string()
        << "\nSlurmdLogFile=" << (d / "slurmd.log").string() << "\nSlurmctldPort=" << ctld_port << "\nSlurmdPort=" << slurmd_port
        << "\nSlurmdDebug=debug\nReturnToService=2\nAccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\n"
        << "JobAcctGatherType=jobacct_gather/none\nMpiDefault=none\nNodeName=" << name
        << " CPUs=" << std::thread::hardware_concurrency() << " State=UNKNOWN\nPartitionName=debug Nodes=" << name
        << " Default=YES MaxTime=INFINITE State=UP\n";
  }

  static std::string tail(const std::filesystem::path& log) {
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line))
      if (!line.empty()) last = line;
    return last.empty() ? "(" + log.string() + " is empty)" : last;
  }

  // The daemon forks into the background; its pid file says it is up. Its output goes to
  // /dev/null, not to a pipe: a daemon writing to a pipe nobody reads any more dies of SIGPIPE.
  void start(const std::string& daemon, const std::vector<std::string>& args, const std::filesystem::path& pid_file,
             const std::filesystem::path& log) {
    std::vector<std::string> argv{find_on_path(daemon)->string()};
    argv.insert(argv.end(), args.begin(), args.end());
    const pid_t pid = spawn_silenced(argv);
    int status = 0;
    ::waitpid(pid, &status, 0);
    for (int i = 0; i < 100 && !std::filesystem::exists(pid_file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !std::filesystem::exists(pid_file))
      give_up(daemon + " did not start (wait status " + std::to_string(status) + "): " + tail(log));
    pid_files_.push_back(pid_file);
  }

  void wait_for_idle_node() {
    std::string state;
    for (int i = 0; i < 300; ++i) {
      const ProcessResult r = command("sinfo", {"--noheader", "--format=%t"});
      state = summarize_output(r.out);
      if (state == "idle") return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    give_up("the Slurm node did not become idle (sinfo: '" + state + "'): " + tail(scratch_ / "slurmd.log"));
  }

  // skip_test exits at once, past every destructor: the daemons started so far are stopped first.
  [[noreturn]] void give_up(const std::string& why) {
    stop_all();
    skip_test(why);
  }

  void stop_all() {
    // slurmd and slurmctld first (they talk to munged as they stop), munged last.
    for (auto it = pid_files_.rbegin(); it != pid_files_.rend(); ++it) stop(*it);
    pid_files_.clear();
  }

  static void stop(const std::filesystem::path& pid_file) {
    std::ifstream in(pid_file);
    pid_t pid = 0;
    if (!(in >> pid) || pid <= 1) return;
    if (::kill(pid, SIGTERM) != 0) return;
    for (int i = 0; i < 100 && ::kill(pid, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (::kill(pid, 0) == 0) ::kill(pid, SIGKILL);
  }

  ScratchDir scratch_;
  std::vector<std::filesystem::path> pid_files_;
};

}  // namespace omnilink::testing
