#include "orchestrator/scale_out_options.hpp"

#include <iostream>

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

bool ScaleOutOptions::apply_shard(const std::string& verb, campaign::CampaignConfig& config) const {
  if (shard_.empty()) return true;
  if (on_slurm()) {
    std::cerr << "omnilink " << verb << ": --executor slurm splits the work itself; it does not take --shard\n";
    return false;
  }
  config.shard = campaign::parse_shard(shard_);
  if (!config.shard) std::cerr << "omnilink " << verb << ": --shard " << shard_ << ": not a shard: I/N with 0 <= I < N, e.g. 0/4\n";
  return config.shard.has_value();
}

bool ScaleOutOptions::continue_shard(const campaign::CampaignConfig& config, bool& resume, std::string& resume_id) const {
  if (!config.shard || resume || !store::has_index(config.store)) return true;
  try {
    auto existing = store::Store::open_read_only(config.store);
    if (const auto previous = existing.latest_campaign(config.name);
        previous && nlohmann::json::parse(previous->config_json).value("shard", nlohmann::json()) == config.to_json().at("shard")) {
      std::cout << "shard " << config.shard->text() << " has a campaign in this store already: continuing " << previous->id << "\n";
      resume = true;
      resume_id = previous->id;
    }
    return true;
  } catch (const store::StoreError& e) {
    std::cerr << "omnilink: " << e.what() << "\n";
    return false;
  }
}

std::optional<bool> ScaleOutOptions::run_on_slurm(const std::string& verb, CampaignSession& session, const campaign::CampaignConfig& config,
                                                  std::vector<std::string> arguments, std::optional<std::int64_t> deadline_ms,
                                                  campaign::RunSource* plan, campaign::Progress& progress, std::vector<std::string>& lost,
                                                  std::function<void()> on_poll) const {
  const std::string context = "omnilink " + verb + ": --executor slurm: ";
  std::string why;
  auto client = slurm::SlurmClient::find(why);
  if (!client) {
    std::cerr << context << why << "\n";
    return std::nullopt;
  }
  slurm::TaskSpec task;
  std::error_code ec;
  task.omnilink = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::cerr << context << "cannot tell where omnilink itself is (/proc/self/exe: " << ec.message() << ")\n";
    return std::nullopt;
  }
  task.verb = verb;
  task.arguments = std::move(arguments);
  task.deadline_ms = deadline_ms;
  slurm::SlurmSettings settings = slurm_;
  settings.on_poll = std::move(on_poll);
  return session.run_with(
      [&] {
        if (plan) plan->prepare(session.store());
        slurm::SlurmExecutor executor(config, session.store(), session.id(), session.lock(), std::move(*client), std::move(task), settings, progress);
        const bool completed = executor.run();
        lost = executor.lost_tasks();
        return completed;
      },
      "--executor slurm: ");
}

}  // namespace omnilink::cli
