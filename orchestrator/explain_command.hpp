// `omnilink explain RUN`: why a failing run fails, as its failing core (explain/explain.hpp): the
// few operations that are rejected on their own, why no order of them works, and the core as a
// history file; for a run recorded with rr, the interleaving that produced the core and the
// atomicity hints it shows (explain/interleaving.hpp). RUN is a campaign's run (CAMPAIGN/RUN-ID, its spec the campaign's) or a run
// directory or history file with --spec. Exit code: 0 explained; 1 nothing to explain (the run
// passes, or its verdict is unknown); 3 a bad run, spec or option.
#pragma once

#include <optional>
#include <string>

#include "orchestrator/command.hpp"
#include "orchestrator/ls_command.hpp"

namespace omnilink::cli {

class ExplainCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  StoreOption store_;
  std::string what_;
  std::string spec_, mc_, view_, init_ = "Init", next_ = "Next";
  int time_limit_s_ = 60;
  int replay_time_limit_s_ = 60;
  bool no_interleaving_ = false;
  bool json_ = false;
  bool fresh_ = false;
};

}  // namespace omnilink::cli
