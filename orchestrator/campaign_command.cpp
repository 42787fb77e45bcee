#include "orchestrator/campaign_command.hpp"

#include <fstream>
#include <iostream>
#include <thread>

#include <unistd.h>

#include "campaign/campaign_file.hpp"
#include "campaign/campaign_lock.hpp"
#include "campaign/engine.hpp"
#include "campaign/report.hpp"
#include "campaign/run_outcome.hpp"
#include "campaign/run_plan.hpp"
#include "campaign/store.hpp"
#include "campaign/validation_pool.hpp"
#include "orchestrator/bundled_paths.hpp"
#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"

namespace omnilink::cli {
namespace fs = std::filesystem;
using namespace omnilink::campaign;

namespace {

// Only the targets decide the plan; jobs, limits, TLC settings and the rr mode may change between
// sessions of one campaign (resume with fewer jobs, a larger heap).
std::string plan_difference(const nlohmann::json& stored, const nlohmann::json& now) {
  if (stored.value("targets", nlohmann::json()) == now.value("targets", nlohmann::json())) return "";
  return "its targets differ from the campaign file's now";
}

bool write_report(const std::string& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) std::cerr << "omnilink campaign: cannot write " << file << "\n";
  return static_cast<bool>(out);
}

}  // namespace

std::vector<std::string> CampaignCommand::resume_command(const fs::path& store, const std::string& campaign_id) const {
  std::vector<std::string> argv{"omnilink", "campaign", fs::absolute(file_).string(), "--resume", "--id", campaign_id,
                                "--store", fs::absolute(store).string()};
  auto add = [&argv](const std::string& flag, const std::string& value) { argv.insert(argv.end(), {flag, value}); };
  for (const auto& o : overrides_) add("--set", o);
  if (jobs_) add("--jobs", std::to_string(*jobs_));
  if (!rr_.empty()) add("--rr", rr_);
  if (!checker_.empty()) add("--checker", checker_);
  if (run_timeout_s_) add("--run-timeout", std::to_string(*run_timeout_s_));
  if (runs_) add("--runs", std::to_string(*runs_));
  if (!tlc_heap_.empty()) add("--tlc-heap", tlc_heap_);
  if (tlc_timeout_s_) add("--tlc-timeout", std::to_string(*tlc_timeout_s_));
  if (tlc_jobs_) add("--tlc-jobs", std::to_string(*tlc_jobs_));
  if (!name_.empty()) add("--name", name_);
  for (const auto& t : only_targets_) add("--only", t);
  for (const auto& a : extra_harness_args_) argv.push_back("--harness-arg=" + a);
  for (const auto& d : harness_dirs_) add("--harness-dir", fs::absolute(d).string());
  if (plain_) argv.push_back("--plain");
  if (!json_file_.empty()) add("--json", fs::absolute(json_file_).string());
  if (!junit_file_.empty()) add("--junit", fs::absolute(junit_file_).string());
  return argv;
}

void CampaignCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("campaign", "Run a campaign: many harness runs (under rr chaos when possible), each archived and validated");
  sub_->add_option("FILE", file_, "The campaign file (docs/campaign.md)")->required();
  sub_->add_flag("--resume", resume_, "Continue the newest campaign of this name in the store: only runs without a final result are done");
  sub_->add_option("--id", resume_id_, "With --resume: the campaign to continue (e.g. demo-3), rather than the newest of its name")
      ->needs("--resume");
  sub_->add_option("--set", overrides_, "Override a field of the file: FIELD=VALUE (e.g. tlc.heap=1g, targets.NAME.runs=5)");
  sub_->add_option("--store", store_, "Store directory (default: the file's `store`, else $OMNILINK_STORE, else ./omnilink-store)");
  sub_->add_option("--jobs", jobs_, "Harness runs at once (default: cores)")->check(CLI::PositiveNumber);
  sub_->add_option("--rr", rr_, "auto | off | record | chaos")->check(CLI::IsMember({"auto", "off", "record", "chaos"}));
  sub_->add_option("--checker", checker_, "native | tlc | auto | both: which checker validates (default: the file's, else auto)")
      ->check(CLI::IsMember({"native", "tlc", "auto", "both"}));
  sub_->add_option("--run-timeout", run_timeout_s_, "Seconds a harness run may take")->check(CLI::PositiveNumber);
  sub_->add_option("--runs", runs_, "Runs per configuration, for every target")->check(CLI::PositiveNumber);
  sub_->add_option("--tlc-heap", tlc_heap_, "TLC's Java heap, e.g. 2g");
  sub_->add_option("--tlc-timeout", tlc_timeout_s_, "Seconds a validation may take")->check(CLI::PositiveNumber);
  sub_->add_option("--tlc-jobs", tlc_jobs_, "Validations at once (default: what free memory holds)")->check(CLI::PositiveNumber);
  sub_->add_option("--name", name_, "Campaign name (default: the file's `name`, else its stem)");
  sub_->add_option("--only", only_targets_, "Run only this target of the file (repeatable)");
  sub_->add_option("--harness-arg", extra_harness_args_,
                   "Append an argument to every target's harness arguments (repeatable; write --harness-arg=--perturb for one starting with -)");
  sub_->add_option("--harness-dir", harness_dirs_, "Where bare harness names are looked up first (repeatable)");
  sub_->add_flag("--plain", plain_, "One line per event, even on a terminal");
  sub_->add_option("--json", json_file_, "Write the summary as JSON to this file");
  sub_->add_option("--junit", junit_file_, "Write a JUnit XML report to this file");
}

int CampaignCommand::run() {
  LoadOptions load;
  load.overrides = overrides_;
  const auto set = [&](const std::string& field, const std::string& value) { load.overrides.push_back(field + "=" + value); };
  if (jobs_) set("jobs", std::to_string(*jobs_));
  if (!rr_.empty()) set("rr", "\"" + rr_ + "\"");
  if (!checker_.empty()) set("validation.checker", "\"" + checker_ + "\"");
  if (run_timeout_s_) set("run_timeout_s", std::to_string(*run_timeout_s_));
  if (runs_) set("targets.*.runs", std::to_string(*runs_));
  if (!tlc_heap_.empty()) set("tlc.heap", nlohmann::json(tlc_heap_).dump());
  if (tlc_timeout_s_) set("tlc.timeout_s", std::to_string(*tlc_timeout_s_));
  if (tlc_jobs_) set("tlc.jobs", std::to_string(*tlc_jobs_));
  if (!name_.empty()) set("name", nlohmann::json(name_).dump());
  if (!store_.empty()) load.store = store_;
  load.only_targets = only_targets_;
  load.extra_harness_args = extra_harness_args_;
  for (const auto& dir : harness_dirs_) load.harness_dirs.emplace_back(dir);
  for (const auto& dir : bundled_harness_dirs()) load.harness_dirs.push_back(dir);
  load.spec_dirs = bundled_spec_dirs();

  CampaignConfig config;
  try {
    config = load_campaign(file_, load);
  } catch (const CampaignFileError& e) {
    std::cerr << "omnilink campaign: " << e.what() << "\n";
    return kExitUsage;
  }

  std::optional<Store> store;
  std::string campaign_id;
  try {
    // --resume continues a campaign: a store that is not there is a mistake, not one to create.
    store = resume_ ? Store::open_existing(config.store) : Store::open(config.store);
    if (resume_) {
      const auto previous = resume_id_.empty() ? store->latest_campaign(config.name) : store->campaign(resume_id_);
      if (!previous) {
        std::cerr << "omnilink campaign: --resume: no campaign " << (resume_id_.empty() ? "named '" + config.name + "'" : resume_id_)
                  << " in " << config.store.string() << "\n";
        return kExitUsage;
      }
      if (previous->name != config.name) {
        std::cerr << "omnilink campaign: --resume --id " << resume_id_ << ": that campaign is named '" << previous->name
                  << "', this file's '" << config.name << "'\n";
        return kExitUsage;
      }
      const std::string why = plan_difference(nlohmann::json::parse(previous->config_json), config.to_json());
      if (!why.empty()) {
        std::cerr << "omnilink campaign: --resume: cannot continue " << previous->id << ": " << why
                  << " (start a new campaign instead, without --resume)\n";
        return kExitUsage;
      }
      campaign_id = previous->id;
    } else {
      campaign_id = store->create_campaign(config.name, config.file.string(), config.to_json().dump());
    }
  } catch (const StoreError& e) {
    std::cerr << "omnilink campaign: " << e.what() << "\n";
    return kExitUsage;
  }

  std::string lock_problem;
  const auto lock = CampaignLock::acquire(config.store / campaign_id, lock_problem);
  if (!lock) {
    std::cerr << "omnilink campaign: " << campaign_id << ": " << lock_problem << "\n";
    return kExitUsage;
  }
  if (resume_) store->set_campaign_status(campaign_id, "running");

  const Recording recording = resolve_recording(config.rr, config.rr_timeslice_ticks);
  if (!recording.error.empty()) {
    std::cerr << "omnilink campaign: " << recording.error << "\n";
    store->set_campaign_status(campaign_id, "interrupted");
    return kExitUsage;
  }
  EngineSettings settings;
  std::string tlc_jobs_why;
  if (config.tlc.jobs) {
    settings.tlc_jobs = *config.tlc.jobs;
    tlc_jobs_why = std::to_string(*config.tlc.jobs) + " (tlc.jobs)";
  } else {
    settings.tlc_jobs = memory_bounded_jobs(config.tlc.heap, config.jobs, tlc_jobs_why);
  }

  std::cout << "omnilink campaign " << campaign_id << (resume_ ? " (resumed)" : "") << "  from " << config.file.string() << "\n"
            << "  store: " << config.store.string() << "\n"
            << "  runs: " << plan_runs(config).size() << " over " << config.targets.size() << " target(s); jobs " << config.jobs
            << "; run timeout " << config.run_timeout.count() << " s\n"
            << "  validations at once: " << tlc_jobs_why << "; checker " << validation::checker_name(config.validation.checker)
            << " (TLC confirms the first " << config.validation.confirm_failures << " native FAILs of each target); TLC heap "
            << config.tlc.heap << ", timeout " << config.tlc.timeout.count() << " s\n"
            << "  rr: " << recording.mode_name() << (recording.soft_counters ? " (software counters, -W)" : "")
            << (recording.mode != RrMode::off ? "; timeslice at most " + std::to_string(recording.timeslice_ticks) + " ticks" : "")
            << (recording.rr ? " with " + recording.rr->string() : "") << "\n";
  for (const auto& note : recording.notes) std::cout << "  " << note << "\n";
  if (const ToolLocation tlc = find_tlc_jar(), java = find_java(); !tlc.found() || !java.found())
    std::cout << "  TLC: NOT AVAILABLE (" << (tlc.found() ? java.explain_missing() : tlc.explain_missing())
              << "): every validation will be `unknown`; `omnilink revalidate` can check the traces later\n";
  std::cout.flush();

  const bool live = !plain_ && ::isatty(STDOUT_FILENO) == 1;
  Progress progress(std::cout, live);
  bool completed = false;
  try {
    PlanSource plan(config, campaign_id);
    Engine engine(config, *store, campaign_id, plan, recording, settings, progress);
    completed = engine.run();
    store->set_campaign_status(campaign_id, completed ? "finished" : "interrupted");
  } catch (const StoreError& e) {
    std::cerr << "omnilink campaign: " << e.what() << "\n";
    return 2;
  }

  const auto runs = store->runs(campaign_id);
  const auto campaign = store->campaign(campaign_id);
  std::cout << "\n" << summary_table(runs);
  if (const std::string problems = problem_report(runs); !problems.empty()) std::cout << "\n" << problems;
  bool reports_ok = true;
  if (!json_file_.empty()) reports_ok &= write_report(json_file_, summary_json(*campaign, runs).dump(2) + "\n");
  if (!junit_file_.empty()) reports_ok &= write_report(junit_file_, junit_xml(*campaign, runs));
  int code = exit_code_for(runs);
  if (!completed && code == 0) code = 2;  // the runs it did all passed, but not all were done
  std::cout << "\ncampaign " << campaign_id << ": "
            << (completed ? code == 0 ? "every run passed" : code == 1 ? "FAILURES FOUND" : "some runs have no pass verdict"
                          : "INTERRUPTED; continue it with: " + shell_command_line(resume_command(config.store, campaign_id)))
            << " (exit " << code << "; details: omnilink ls " << campaign_id << ")\n";
  return reports_ok ? code : std::max(code, 2);
}

}  // namespace omnilink::cli
