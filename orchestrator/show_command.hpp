// `omnilink show CAMPAIGN/RUN`: one run of a campaign store in full: its record, its newest
// validation (verdict, reason, time, memory, states, the frontier summary of a fail) and the paths
// of what it left on disk (run directory, trace, rr recording, harness output, result.json).
// Exit code: 0, or 3 when the store or the run does not exist.
#pragma once

#include <string>

#include "orchestrator/command.hpp"
#include "orchestrator/ls_command.hpp"

namespace omnilink::cli {

class ShowCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  // The error for a key the store does not have, naming what it does have.

  StoreOption store_;
  std::string key_;
  bool json_ = false;
};

}  // namespace omnilink::cli
