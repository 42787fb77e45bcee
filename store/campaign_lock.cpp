#include "store/campaign_lock.hpp"

#include <cerrno>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace omnilink::store {

std::optional<CampaignLock> CampaignLock::acquire(const std::filesystem::path& campaign_dir, std::string& why) {
  std::error_code ec;
  std::filesystem::create_directories(campaign_dir, ec);
  const std::filesystem::path file = campaign_dir / ".lock";
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    why = file.string() + ": " + std::strerror(errno);
    return std::nullopt;
  }
  // A reader's probe (held()) takes the lock shared for an instant: wait that out before
  // saying another omnilink runs the campaign.
  bool locked = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  for (int attempt = 0; !locked && attempt < 5; ++attempt) {
    ::usleep(20'000);
    locked = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  }
  if (!locked) {
    char holder[32] = {};
    const ssize_t n = ::pread(fd, holder, sizeof holder - 1, 0);
    why = "another omnilink" + (n > 0 ? " (pid " + std::string(holder, static_cast<std::size_t>(n)) + ")" : std::string()) +
          " is running this campaign now (" + file.string() + " is locked)";
    ::close(fd);
    return std::nullopt;
  }
  // The holder's pid, for the message above; informational only, the flock is the lock.
  const std::string pid = std::to_string(::getpid());
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    // Not fatal: the lock is held either way.
  }
  return CampaignLock(fd);
}

bool CampaignLock::held(const std::filesystem::path& campaign_dir) {
  const int fd = ::open((campaign_dir / ".lock").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool locked = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);  // releases the probe's shared lock
  return locked;
}

CampaignLock::~CampaignLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

}  // namespace omnilink::store
