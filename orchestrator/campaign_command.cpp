#include "orchestrator/campaign_command.hpp"

#include <fstream>
#include <iostream>
#include <thread>

#include <unistd.h>

#include "campaign/campaign_file.hpp"
#include "campaign/report.hpp"
#include "campaign/run_outcome.hpp"
#include "campaign/run_plan.hpp"
#include "campaign/store.hpp"
#include "orchestrator/campaign_session.hpp"
#include "platform/subprocess.hpp"

namespace omnilink::cli {
namespace fs = std::filesystem;
using namespace omnilink::campaign;

namespace {

// Only the targets and the shard decide the plan; jobs, limits, TLC settings and the rr mode may
// change between sessions of one campaign (resume with fewer jobs, a larger heap).
std::string plan_difference(const nlohmann::json& stored, const nlohmann::json& now) {
  if (stored.value("targets", nlohmann::json()) != now.value("targets", nlohmann::json())) return "its targets differ from the campaign file's now";
  if (stored.value("shard", nlohmann::json()) != now.value("shard", nlohmann::json())) return "it is another shard of the plan (--shard)";
  return "";
}

}  // namespace

std::vector<std::string> CampaignCommand::resume_command(const fs::path& store, const std::string& campaign_id) const {
  std::vector<std::string> argv{"omnilink", "campaign", fs::absolute(file_).string(), "--resume", "--id", campaign_id,
                                "--store", fs::absolute(store).string()};
  for (auto& a : options_.arguments()) argv.push_back(std::move(a));
  if (runs_) argv.insert(argv.end(), {"--runs", std::to_string(*runs_)});
  if (!shard_.empty()) argv.insert(argv.end(), {"--shard", shard_});
  if (executor_ == "slurm") {
    argv.insert(argv.end(), {"--executor", "slurm", "--slurm-tasks", std::to_string(slurm_.concurrency), "--slurm-attempts",
                             std::to_string(slurm_.attempts)});
    for (const auto& a : slurm_.sbatch_args) argv.push_back("--slurm-arg=" + a);
  }
  return argv;
}

std::optional<bool> CampaignCommand::run_on_slurm(CampaignSession& session, const CampaignConfig& config, Progress& progress) const {
  std::string why;
  auto client = slurm::SlurmClient::find(why);
  if (!client) {
    std::cerr << "omnilink campaign: --executor slurm: " << why << "\n";
    return std::nullopt;
  }
  slurm::TaskSpec task;
  std::error_code ec;
  task.omnilink = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::cerr << "omnilink campaign: --executor slurm: cannot tell where omnilink itself is (/proc/self/exe: " << ec.message() << ")\n";
    return std::nullopt;
  }
  task.campaign_arguments = {fs::absolute(file_).string()};
  for (auto& a : options_.run_arguments()) task.campaign_arguments.push_back(std::move(a));
  if (runs_) task.campaign_arguments.insert(task.campaign_arguments.end(), {"--runs", std::to_string(*runs_)});
  task.campaign_arguments.push_back("--plain");
  try {
    PlanSource(config, session.id()).prepare(session.store());  // the plan's runs, pending, as the engine would add them
    slurm::SlurmExecutor executor(config, session.store(), session.id(), session.lock(), std::move(*client), std::move(task), slurm_, progress);
    const bool completed = executor.run();
    session.store().set_campaign_status(session.id(), completed ? "finished" : "interrupted");
    return completed;
  } catch (const std::exception& e) {  // Slurm refused the array; the store or shared file system failed
    std::cerr << "omnilink campaign: --executor slurm: " << e.what() << "\n";
    session.store().set_campaign_status(session.id(), "interrupted");
    return std::nullopt;
  }
}

void CampaignCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("campaign", "Run a campaign: many harness runs (under rr chaos when possible), each archived and validated");
  sub_->add_option("FILE", file_, "The campaign file (docs/campaign.md)")->required();
  sub_->add_flag("--resume", resume_, "Continue the newest campaign of this name in the store: only runs without a final result are done");
  sub_->add_option("--id", resume_id_, "With --resume: the campaign to continue (e.g. demo-3), rather than the newest of its name")
      ->needs("--resume");
  sub_->add_option("--runs", runs_, "Runs per configuration, for every target")->check(CLI::PositiveNumber);
  sub_->add_option("--shard", shard_, "Run only share I of N of the plan (0 <= I < N), for `omnilink merge` (docs/scale-out.md)");
  sub_->add_option("--executor", executor_, "local (default) | slurm: who does the runs (docs/scale-out.md)")
      ->check(CLI::IsMember({"local", "slurm"}));
  sub_->add_option("--slurm-arg", slurm_.sbatch_args, "With --executor slurm: an sbatch option, e.g. --slurm-arg=--partition=rr (repeatable)");
  sub_->add_option("--slurm-batch", slurm_.batch, "With --executor slurm: runs per array task (default 8)")->check(CLI::PositiveNumber);
  sub_->add_option("--slurm-tasks", slurm_.concurrency, "With --executor slurm: array tasks at once (default 64; 0: no limit)");
  sub_->add_option("--slurm-attempts", slurm_.attempts, "With --executor slurm: attempts per task before its runs are errors (default 3)")
      ->check(CLI::PositiveNumber);
  options_.add_to(*sub_);
}

int CampaignCommand::run() {
  LoadOptions load = options_.load_options();
  if (runs_) load.overrides.push_back("targets.*.runs=" + std::to_string(*runs_));

  CampaignConfig config;
  try {
    config = load_campaign(file_, load);
  } catch (const CampaignFileError& e) {
    std::cerr << "omnilink campaign: " << e.what() << "\n";
    return kExitUsage;
  }
  if (executor_ == "slurm" && !shard_.empty()) {
    std::cerr << "omnilink campaign: --executor slurm splits the plan itself; it does not take --shard\n";
    return kExitUsage;
  }
  if (!shard_.empty()) {
    config.shard = parse_shard(shard_);
    if (!config.shard) {
      std::cerr << "omnilink campaign: --shard " << shard_ << ": not a shard: I/N with 0 <= I < N, e.g. 0/4\n";
      return kExitUsage;
    }
  }

  // A shard run again (a retried pod or array task) continues its store's campaign of that shard,
  // so that a shard store holds one campaign for `omnilink merge`.
  bool resume = resume_;
  std::string resume_id = resume_id_;
  if (config.shard && !resume && has_index(config.store)) {
    try {
      auto existing = Store::open_read_only(config.store);
      if (const auto previous = existing.latest_campaign(config.name);
          previous && nlohmann::json::parse(previous->config_json).value("shard", nlohmann::json()) == config.to_json().at("shard")) {
        std::cout << "shard " << config.shard->text() << " has a campaign in this store already: continuing " << previous->id << "\n";
        resume = true;
        resume_id = previous->id;
      }
    } catch (const StoreError& e) {
      std::cerr << "omnilink campaign: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  auto session = CampaignSession::open({"campaign", &config, config.to_json(), resume, resume_id, plan_difference});
  if (!session) return kExitUsage;
  const std::string campaign_id = session->id();
  const std::size_t planned = planned_records(config, campaign_id, config.store).size();
  session->print_header(std::cout, "runs: " + std::to_string(planned) + " over " + std::to_string(config.targets.size()) + " target(s)" +
                                       (config.shard ? " (shard " + config.shard->text() + " of " +
                                                           std::to_string(plan_runs(config).size()) + ")" : ""));
  Progress progress(std::cout, !options_.plain && ::isatty(STDOUT_FILENO) == 1);
  std::optional<bool> ran;
  if (executor_ == "slurm") {
    ran = run_on_slurm(*session, config, progress);
  } else {
    PlanSource plan(config, campaign_id);
    ran = session->run(plan, progress);
  }
  if (!ran) return 2;
  const bool completed = *ran;
  Store* store = &session->store();

  const auto runs = store->runs(campaign_id);
  const auto campaign = store->campaign(campaign_id);
  std::cout << "\n" << summary_table(runs);
  if (const std::string problems = problem_report(runs); !problems.empty()) std::cout << "\n" << problems;
  bool reports_ok = true;
  if (!options_.json_file.empty()) reports_ok &= write_report("campaign", options_.json_file, summary_json(*campaign, runs).dump(2) + "\n");
  if (!options_.junit_file.empty()) reports_ok &= write_report("campaign", options_.junit_file, junit_xml(*campaign, runs));
  int code = exit_code_for(runs);
  if (!completed && code == 0) code = 2;  // the runs it did all passed, but not all were done
  std::cout << "\ncampaign " << campaign_id << ": "
            << (completed ? code == 0 ? "every run passed" : code == 1 ? "FAILURES FOUND" : "some runs have no pass verdict"
                          : "INTERRUPTED; continue it with: " + shell_command_line(resume_command(config.store, campaign_id)))
            << " (exit " << code << "; details: omnilink ls " << campaign_id << ")\n";
  return reports_ok ? code : std::max(code, 2);
}

}  // namespace omnilink::cli
