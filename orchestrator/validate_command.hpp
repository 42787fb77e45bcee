// `omnilink validate RUN_DIR --spec SPEC.tla [--mc MC.tla]`: one run (or history file) against a
// spec, with the checker `--checker` names (checkers/validate.hpp). Exit code: 0 pass, 1 fail, 2 unknown, 3 error.
#pragma once

#include "orchestrator/command.hpp"
#include "checkers/checker_options.hpp"

namespace omnilink::cli {

class ValidateCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  checkers::ValidateOptions options_;
  std::vector<std::string> run_dirs_;
  std::string spec_, mc_, tlc_, java_, view_, checker_ = "auto";
  int timeout_s_ = 600;
  std::string memory_;  // --memory, as -Xmx is written
  bool json_ = false;
  bool no_confirm_ = false;
};

}  // namespace omnilink::cli
