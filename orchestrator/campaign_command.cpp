#include "orchestrator/campaign_command.hpp"

#include <iostream>
#include <thread>

#include <unistd.h>

#include "campaign/campaign_file.hpp"
#include "report/campaign_report.hpp"
#include "store/outcome.hpp"
#include "campaign/run_plan.hpp"
#include "store/store.hpp"
#include "campaign/evidence_interleavings.hpp"
#include "campaign/session.hpp"
#include "slurm/task_spec.hpp"
#include "platform/subprocess.hpp"

namespace omnilink::cli {
namespace fs = std::filesystem;

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
}

void CampaignCommand::add_options() {
  sub_->add_option("FILE", file_, "The campaign file (docs/campaign.md)")->required();
  sub_->add_flag("--resume", resume_, "Continue the newest campaign of this name in the store: only runs without a final result are done");
  sub_->add_option("--id", resume_id_, "With --resume: the campaign to continue (e.g. demo-3), rather than the newest of its name")
      ->needs("--resume");
  sub_->add_option("--runs", runs_, "Runs per configuration, for every target")->check(CLI::PositiveNumber);
  scale_out_.add_to(*sub_, /*batches=*/true);
  options_.add_to(*sub_);
}

int CampaignCommand::run() {
  campaign::LoadOptions load = options_.load_options();
  if (runs_) load.overrides.push_back("targets.*.runs=" + std::to_string(*runs_));
  campaign::CampaignConfig config = campaign::load_campaign(file_, load);
  bool resume = resume_;
  std::string resume_id = resume_id_;
  scale_out_.apply_shard(config);
  scale_out_.continue_shard(config, resume, resume_id);
  campaign::Session session = campaign::Session::open({store::CampaignKind::campaign, &config, config.to_json(), resume, resume_id, campaign::plan_difference});
  const std::string campaign_id = session.id();
  const std::size_t planned = campaign::planned_records(config, campaign_id, config.store).size();
  session.print_header(std::cout, "runs: " + std::to_string(planned) + " over " + std::to_string(config.targets.size()) + " target(s)" +
                                      (config.shard ? " (shard " + config.shard->text() + " of " +
                                                          std::to_string(campaign::plan_runs(config).size()) + ")" : ""));
  campaign::Progress progress(std::cout, !options_.plain && ::isatty(STDOUT_FILENO) == 1);
  campaign::PlanSource plan(config, campaign_id);
  slurm::TaskSpec task;
  task.kind = store::CampaignKind::campaign;
  task.arguments = {fs::absolute(file_).string()};
  for (auto& a : options_.run_arguments()) task.arguments.push_back(std::move(a));
  if (runs_) task.arguments.insert(task.arguments.end(), {"--runs", std::to_string(*runs_)});
  task.arguments.push_back("--plain");
  bool completed = false;
  try {
    completed = session.run(*scale_out_.executor(session, plan, std::move(task), progress));
  } catch (const campaign::SessionFailed& e) {
    // A full disk, a store that failed: the runs stored so far stay, the campaign is marked
    // interrupted where the store still takes it (else its "running" is read as such), and what was
    // in flight runs again on resume.
    complain() << e.what() << "\n";
    std::cout << "\ncampaign " << campaign_id << ": INTERRUPTED; continue it with: "
              << shell_command_line(resume_command(config.store, campaign_id)) << " (exit " << kExitIncomplete << ")\n";
    return kExitIncomplete;
  }

  store::Store& store = session.store();
  const auto runs = store.runs(campaign_id);
  // The summary shows cores; the interleavings of each signature's first runs, read once, appear
  // with them. A shard or a Slurm campaign leaves them where the runs were recorded (the header).
  if (completed && !config.shard && !scale_out_.on_slurm())
    session.read_interleavings(campaign::first_recorded_runs_per_signature(runs, config.validation.interleavings), std::cout);
  const auto campaign = store.campaign(campaign_id);
  const std::vector<report::RunReport> reports = report::read_run_reports(runs);  // once, for every report below
  std::cout << "\n" << report::summary_table(reports);
  if (const std::string problems = report::problem_report(reports); !problems.empty()) std::cout << "\n" << problems;
  bool reports_ok = true;
  if (!options_.json_file.empty()) reports_ok &= write_report(*this, options_.json_file, report::summary_json(*campaign, reports).dump(2) + "\n");
  if (!options_.junit_file.empty()) reports_ok &= write_report(*this, options_.junit_file, report::junit_xml(*campaign, reports));
  int code = store::exit_code_for(runs);
  if (!completed && code == 0) code = kExitIncomplete;  // the runs it did all passed, but not all were done
  std::cout << "\ncampaign " << campaign_id << ": "
            << (completed ? code == 0 ? "every run passed" : code == 1 ? "FAILURES FOUND" : "some runs have no pass verdict"
                          : "INTERRUPTED; continue it with: " + shell_command_line(resume_command(config.store, campaign_id)))
            << " (exit " << code << "; details: omnilink ls " << campaign_id << ")\n";
  return reports_ok ? code : std::max(code, kExitIncomplete);
}

}  // namespace omnilink::cli
