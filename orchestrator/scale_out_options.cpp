#include "orchestrator/scale_out_options.hpp"

#include <iostream>

#include "orchestrator/command.hpp"
#include "store/store.hpp"

namespace omnilink::cli {
namespace fs = std::filesystem;

void ScaleOutOptions::add_to(CLI::App& command, bool batches) {
  command.add_option("--shard", shard_, "Run only share I of N (0 <= I < N), for `omnilink merge` (docs/scale-out.md)");
  command.add_option("--executor", executor_, "local (default) | slurm: who does the runs (docs/scale-out.md)")
      ->check(CLI::IsMember({"local", "slurm"}));
  command.add_option("--slurm-arg", slurm_.sbatch_args, "With --executor slurm: an sbatch option, e.g. --slurm-arg=--partition=rr (repeatable)");
  if (batches)
    command.add_option("--slurm-batch", slurm_.batch, "With --executor slurm: runs per array task (default 8)")->check(CLI::PositiveNumber);
  CLI::Option* tasks = command.add_option("--slurm-tasks", slurm_.concurrency,
                                          batches ? "With --executor slurm: array tasks at once (default 64; 0: no limit)"
                                                  : "With --executor slurm: array tasks, each sweeping until the deadline (default 64)");
  if (!batches) tasks->check(CLI::PositiveNumber);
  command.add_option("--slurm-attempts", slurm_.attempts, "With --executor slurm: attempts per task (default 3)")->check(CLI::PositiveNumber);
}

std::vector<std::string> ScaleOutOptions::arguments() const {
  std::vector<std::string> argv;
  if (!shard_.empty()) argv.insert(argv.end(), {"--shard", shard_});
  if (on_slurm()) {
    argv.insert(argv.end(), {"--executor", "slurm", "--slurm-batch", std::to_string(slurm_.batch), "--slurm-tasks",
                             std::to_string(slurm_.concurrency), "--slurm-attempts", std::to_string(slurm_.attempts)});
    for (const auto& a : slurm_.sbatch_args) argv.push_back("--slurm-arg=" + a);
  }
  return argv;
}

void ScaleOutOptions::apply_shard(campaign::CampaignConfig& config) const {
  if (shard_.empty()) return;
  if (on_slurm()) throw CommandError(kExitUsage, "--executor slurm splits the work itself; it does not take --shard");
  config.shard = campaign::parse_shard(shard_);
  if (!config.shard) throw CommandError(kExitUsage, "--shard " + shard_ + ": not a shard: I/N with 0 <= I < N, e.g. 0/4");
}

void ScaleOutOptions::continue_shard(const campaign::CampaignConfig& config, bool& resume, std::string& resume_id) const {
  if (!config.shard || resume || !store::has_index(config.store)) return;
  auto existing = store::Store::open_read_only(config.store);
  if (const auto previous = existing.latest_campaign(config.name);
      previous && nlohmann::json::parse(previous->config_json).value("shard", nlohmann::json()) == config.to_json().at("shard")) {
    std::cout << "shard " << config.shard->text() << " has a campaign in this store already: continuing " << previous->id << "\n";
    resume = true;
    resume_id = previous->id;
  }
}

std::unique_ptr<campaign::Executor> ScaleOutOptions::executor(campaign::Session& session, campaign::RunSource& source, slurm::TaskSpec task,
                                                              campaign::Progress& progress) const {
  if (!on_slurm()) return std::make_unique<campaign::LocalExecutor>(session, source, progress);
  return std::make_unique<slurm::SlurmExecutor>(session, source, std::move(task), slurm_, progress);
}

}  // namespace omnilink::cli
