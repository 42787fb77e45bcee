// One omnilink at a time per campaign: `--resume` in two terminals would otherwise run the same
// runs twice. The lock is an flock() on STORE/<campaign-id>/.lock, held while the campaign runs;
// the kernel drops it when the process ends however it ends, so a killed omnilink never leaves a
// stale lock behind (unlike a pid file).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace omnilink::store {

class CampaignLock {
 public:
  // Nullopt when another process holds it; `why` then says so (with that process's pid if known).
  static std::optional<CampaignLock> acquire(const std::filesystem::path& campaign_dir, std::string& why);
  /// Whether a live process holds the lock now (a probe that takes it shared for an instant, never
  /// creating the file).
  static bool held(const std::filesystem::path& campaign_dir);
  CampaignLock(CampaignLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  CampaignLock& operator=(CampaignLock&&) = delete;
  ~CampaignLock();

 private:
  explicit CampaignLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace omnilink::store
