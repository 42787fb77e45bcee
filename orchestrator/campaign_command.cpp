#include "orchestrator/campaign_command.hpp"

#include <fstream>
#include <iostream>
#include <thread>

#include <unistd.h>

#include "campaign/campaign_file.hpp"
#include "report/campaign_report.hpp"
#include "store/outcome.hpp"
#include "campaign/run_plan.hpp"
#include "store/store.hpp"
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
  for (auto& a : scale_out_.arguments()) argv.push_back(std::move(a));
  return argv;
}

void CampaignCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("campaign", "Run a campaign: many harness runs (under rr chaos when possible), each archived and validated");
  sub_->add_option("FILE", file_, "The campaign file (docs/campaign.md)")->required();
  sub_->add_flag("--resume", resume_, "Continue the newest campaign of this name in the store: only runs without a final result are done");
  sub_->add_option("--id", resume_id_, "With --resume: the campaign to continue (e.g. demo-3), rather than the newest of its name")
      ->needs("--resume");
  sub_->add_option("--runs", runs_, "Runs per configuration, for every target")->check(CLI::PositiveNumber);
  scale_out_.add_to(*sub_, /*batches=*/true);
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
  bool resume = resume_;
  std::string resume_id = resume_id_;
  if (!scale_out_.apply_shard("campaign", config) || !scale_out_.continue_shard(config, resume, resume_id)) return kExitUsage;
  auto session = CampaignSession::open({"campaign", &config, config.to_json(), resume, resume_id, plan_difference});
  if (!session) return kExitUsage;
  const std::string campaign_id = session->id();
  const std::size_t planned = planned_records(config, campaign_id, config.store).size();
  session->print_header(std::cout, "runs: " + std::to_string(planned) + " over " + std::to_string(config.targets.size()) + " target(s)" +
                                       (config.shard ? " (shard " + config.shard->text() + " of " +
                                                           std::to_string(plan_runs(config).size()) + ")" : ""));
  Progress progress(std::cout, !options_.plain && ::isatty(STDOUT_FILENO) == 1);
  std::optional<bool> ran;
  PlanSource plan(config, campaign_id);
  if (scale_out_.on_slurm()) {
    std::vector<std::string> task_arguments{fs::absolute(file_).string()};
    for (auto& a : options_.run_arguments()) task_arguments.push_back(std::move(a));
    if (runs_) task_arguments.insert(task_arguments.end(), {"--runs", std::to_string(*runs_)});
    task_arguments.push_back("--plain");
    std::vector<std::string> lost;  // a campaign's tasks record their runs as errors instead
    ran = scale_out_.run_on_slurm("campaign", *session, config, std::move(task_arguments), std::nullopt, &plan, progress, lost);
  } else {
    ran = session->run(plan, progress);
  }
  if (!ran) return 2;
  const bool completed = *ran;
  store::Store* store = &session->store();

  const auto runs = store->runs(campaign_id);
  const auto campaign = store->campaign(campaign_id);
  std::cout << "\n" << report::summary_table(runs);
  if (const std::string problems = report::problem_report(runs); !problems.empty()) std::cout << "\n" << problems;
  bool reports_ok = true;
  if (!options_.json_file.empty()) reports_ok &= write_report("campaign", options_.json_file, report::summary_json(*campaign, runs).dump(2) + "\n");
  if (!options_.junit_file.empty()) reports_ok &= write_report("campaign", options_.junit_file, report::junit_xml(*campaign, runs));
  int code = store::exit_code_for(runs);
  if (!completed && code == 0) code = 2;  // the runs it did all passed, but not all were done
  std::cout << "\ncampaign " << campaign_id << ": "
            << (completed ? code == 0 ? "every run passed" : code == 1 ? "FAILURES FOUND" : "some runs have no pass verdict"
                          : "INTERRUPTED; continue it with: " + shell_command_line(resume_command(config.store, campaign_id)))
            << " (exit " << code << "; details: omnilink ls " << campaign_id << ")\n";
  return reports_ok ? code : std::max(code, 2);
}

}  // namespace omnilink::cli
