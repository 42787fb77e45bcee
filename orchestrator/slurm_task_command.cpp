#include "orchestrator/slurm_task_command.hpp"

#include <iostream>

#include "slurm/slurm_task.hpp"

namespace omnilink::cli {

void SlurmTaskCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("slurm-task", "One task of a campaign's Slurm array (run by its batch script)");
}

void SlurmTaskCommand::add_options() {
  sub_->group("");  // hidden: the coordinator's batch script is its only caller
  sub_->add_option("SPEC", spec_, "The task spec (STORE/<campaign-id>/slurm/task.json)")->required();
}

int SlurmTaskCommand::run() { return slurm::run_slurm_task(spec_, std::cout); }

}  // namespace omnilink::cli
