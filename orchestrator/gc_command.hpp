// `omnilink gc [STORE]`: the store's retention on demand (sweep/retention.hpp). Without --quota it
// removes the rubbish (the rr recordings of runs that passed); with --quota it prunes, oldest first,
// what is not evidence until the store fits. Says what it freed; --dry-run only says.
// Exit code: 0 done (the quota met), 1 the store is still above the quota, 3 usage.
#pragma once

#include <optional>
#include <string>

#include "orchestrator/command.hpp"

namespace omnilink::cli {

class GcCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  std::string directory_;
  std::string quota_;
  unsigned evidence_runs_ = 3;
  bool dry_run_ = false;
};

}  // namespace omnilink::cli
