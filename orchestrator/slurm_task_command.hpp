// `omnilink slurm-task SPEC`: one task of the Slurm job array `omnilink campaign --executor slurm`
// submits (slurm/slurm_task.hpp). Not for people to run, so not listed in --help; its batch
// script runs it with the spec the coordinator wrote.
#pragma once

#include <string>

#include "orchestrator/command.hpp"

namespace omnilink::cli {

class SlurmTaskCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  std::string spec_;
};

}  // namespace omnilink::cli
