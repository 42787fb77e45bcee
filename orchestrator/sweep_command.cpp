#include "orchestrator/sweep_command.hpp"

#include <iostream>

#include <unistd.h>

#include "campaign/evidence_interleavings.hpp"
#include "campaign/progress.hpp"
#include "campaign/session.hpp"
#include "slurm/task_spec.hpp"
#include "platform/subprocess.hpp"
#include "report/html_report.hpp"
#include "sweep/retention.hpp"
#include "findings/signature_history.hpp"
#include "sweep/sweep_clock.hpp"
#include "sweep/sweep_file.hpp"
#include "report/sweep_report.hpp"
#include "sweep/sweep_source.hpp"

namespace omnilink::cli {
namespace fs = std::filesystem;

namespace {

/// The first `per_signature` evidence runs of each signature of the summary (what its reports
/// point to): every signature's first, then every signature's second, ...
std::vector<store::RunRecord> evidence(store::Store& store, const report::SweepSummary& summary, unsigned per_signature) {
  std::vector<std::vector<store::RunRecord>> of_signature;
  for (const auto& h : summary.signatures) of_signature.push_back(report::evidence_runs(store, h));
  return campaign::first_runs_round_robin(of_signature, per_signature);
}

}  // namespace

std::vector<std::string> SweepCommand::resume_command(const fs::path& store, const std::string& sweep_id) const {
  std::vector<std::string> argv{"omnilink", "sweep", fs::absolute(file_).string(), "--resume", "--id", sweep_id,
                                "--store", fs::absolute(store).string()};
  for (auto& a : options_.arguments()) argv.push_back(std::move(a));
  // No --for or --until: the sweep's clock holds its budget, and giving one again would restart it.
  if (max_runs_) argv.insert(argv.end(), {"--max-runs", std::to_string(*max_runs_)});
  if (max_failures_) argv.insert(argv.end(), {"--max-failures", std::to_string(*max_failures_)});
  if (!markdown_file_.empty()) argv.insert(argv.end(), {"--markdown", fs::absolute(markdown_file_).string()});
  if (!html_dir_.empty()) argv.insert(argv.end(), {"--html", fs::absolute(html_dir_).string()});
  for (auto& a : scale_out_.arguments()) argv.push_back(std::move(a));
  return argv;
}

void SweepCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("sweep", "Run a sweep: draw runs from the file's configurations until a time budget ends, "
                                     "group failures by signature, report what changed since the last sweep");
}

void SweepCommand::add_options() {
  sub_->add_option("FILE", file_, "The sweep file (docs/sweep.md)")->required();
  sub_->add_option("--for", for_, "Time budget, e.g. 8h, 90m, 1h30m (replaces the file's)");
  sub_->add_option("--until", until_, "Run until this local time of day, HH:MM (replaces the file's budget)")->excludes("--for");
  sub_->add_option("--max-runs", max_runs_, "Start no more than this many runs")->check(CLI::PositiveNumber);
  sub_->add_option("--max-failures", max_failures_, "Stop starting runs once this many failed or crashed")->check(CLI::PositiveNumber);
  sub_->add_flag("--resume", resume_, "Continue the newest sweep of this name within what is left of its budget");
  sub_->add_option("--id", resume_id_, "With --resume or --report: the sweep to continue or report (e.g. nightly-3)");
  sub_->add_flag("--report", report_,
                 "Report a sweep already run (the newest of this name, or --id), running nothing: e.g. one `omnilink merge` made from "
                 "shards")
      ->excludes("--resume");
  sub_->add_option("--markdown", markdown_file_, "Write the report as Markdown to this file");
  sub_->add_option("--html", html_dir_, "Write the HTML report (index.html and a page per signature) into this directory");
  options_.add_to(*sub_);
  scale_out_.add_to(*sub_, /*batches=*/false);
}

slurm::TaskSpec SweepCommand::task_spec(const sweep::SweepConfig& config, const sweep::SweepClock& clock) const {
  slurm::TaskSpec task;
  task.kind = store::CampaignKind::sweep;
  task.arguments = {fs::absolute(file_).string()};
  for (auto& a : options_.run_arguments()) task.arguments.push_back(std::move(a));
  // The caps are the sweep's; each task, a sweep of its own, gets its share of them.
  const std::uint64_t tasks = scale_out_.slurm_tasks();
  const auto share = [&](std::uint64_t cap) { return std::to_string((cap + tasks - 1) / tasks); };
  if (config.sweep.max_runs) task.arguments.insert(task.arguments.end(), {"--max-runs", share(*config.sweep.max_runs)});
  if (config.sweep.max_failures) task.arguments.insert(task.arguments.end(), {"--max-failures", share(*config.sweep.max_failures)});
  task.arguments.push_back("--plain");
  task.deadline_ms = store::now_ms() + clock.left().count();
  return task;
}

report::SweepSummary SweepCommand::summarize(store::Store& store, const sweep::SweepConfig& config, const std::string& id) const {
  report::SweepSummary summary;
  summary.sweep = *store.campaign(id);
  summary.runs = store.runs(id);
  summary.signatures = findings::signature_history(store, config.campaign.name, {config.sweep.fixed_confidence, config.sweep.evidence_runs, id});
  summary.confidence = config.sweep.fixed_confidence;
  return summary;
}

int SweepCommand::publish(store::Store& store, const sweep::SweepConfig& config, const report::SweepSummary& summary) const {
  const std::string markdown = report::sweep_markdown(summary);
  std::cout << "\n" << markdown;
  bool reports_ok = true;
  if (!markdown_file_.empty()) reports_ok &= write_report(*this, markdown_file_, markdown);
  if (!options_.json_file.empty()) reports_ok &= write_report(*this, options_.json_file, report::sweep_json(summary).dump(2) + "\n");
  if (!options_.junit_file.empty()) reports_ok &= write_report(*this, options_.junit_file, report::sweep_junit(summary));
  if (!html_dir_.empty()) {
    try {
      report::write_html_report(store, config.campaign.name, summary.signatures, html_dir_);
    } catch (const std::exception& e) {
      complain() << e.what() << "\n";
      reports_ok = false;
    }
  }
  const int code = report::sweep_exit_code(summary);
  return reports_ok ? code : std::max(code, kExitIncomplete);
}

int SweepCommand::report_only(const sweep::SweepConfig& config) const {
  const fs::path store_dir = config.campaign.store;
  try {
    auto store = store::Store::open_read_only(store_dir);
    const auto record = resume_id_.empty() ? store.latest_campaign(config.campaign.name) : store.campaign(resume_id_);
    if (!record)
      throw CommandError(kExitUsage, "--report: " + store_dir.string() + " has no " +
                                         (resume_id_.empty() ? "sweep named " + config.campaign.name : "sweep " + resume_id_));
    if (record->kind != store::CampaignKind::sweep)
      throw CommandError(kExitUsage, "--report: " + record->id + " is a " + to_string(record->kind) + ", not a sweep");
    if (const std::string why = sweep::plan_difference(nlohmann::json::parse(record->config_json), config.to_json()); !why.empty())
      throw CommandError(kExitUsage, "--report: " + record->id + " is not a sweep of this file: " + why);
    sweep::SweepClock clock = sweep::SweepClock::read(sweep::sweep_clock_file(store_dir, record->id));
    sweep::SweepSource source(config, record->id, clock);
    source.prepare(store);
    report::SweepSummary summary = summarize(store, config, record->id);
    report::read_explanations(store, summary);
    summary.shares = source.shares();
    // A sweep merged from shards has no clock of its own: the time its runs took stands for it.
    std::int64_t first = 0, last = 0;
    for (const auto& run : summary.runs)
      if (run.started_ms > 0) {
        first = first == 0 ? run.started_ms : std::min(first, run.started_ms);
        last = std::max(last, run.finished_ms);
      }
    summary.spent = clock.kept() ? clock.spent() : std::chrono::milliseconds(std::max<std::int64_t>(0, last - first));
    summary.stop_reason = source.ended_by(record->status == store::CampaignStatus::finished);
    const int code = publish(store, config, summary);
    std::cout << "\nsweep " << record->id << ": reported (exit " << code << ")\n";
    return code;
  } catch (const CommandError&) {
    throw;
  } catch (const std::runtime_error& e) {  // a store (StoreError) or a sweep clock that does not read
    throw CommandError(kExitUsage, std::string("--report: ") + e.what());
  }
}

int SweepCommand::run() {
  campaign::LoadOptions load = options_.load_options();
  if (max_runs_) load.overrides.push_back("sweep.max_runs=" + std::to_string(*max_runs_));
  if (max_failures_) load.overrides.push_back("sweep.max_failures=" + std::to_string(*max_failures_));
  // On --resume the stored clock holds the budget; --for or --until given again resets what is left.
  sweep::SweepConfig config = sweep::load_sweep(file_, load, {for_, until_, resume_});
  if (!resume_id_.empty() && !resume_ && !report_)
    throw CommandError(kExitUsage, "--id names the sweep that --resume continues or --report reports");
  bool resume = resume_;
  std::string resume_id = resume_id_;
  scale_out_.apply_shard(config.campaign);
  scale_out_.continue_shard(config.campaign, resume, resume_id);
  if (report_) return report_only(config);
  campaign::Session session = campaign::Session::open({store::CampaignKind::sweep, &config.campaign, config.to_json(), resume, resume_id, sweep::plan_difference});
  const std::string id = session.id();

  std::optional<sweep::SweepClock> clock;
  try {
    clock = sweep::SweepClock::start(sweep::sweep_clock_file(config.campaign.store, id), config.sweep.budget, resume, for_ || until_);
  } catch (const std::runtime_error& e) {
    throw CommandError(kExitUsage, e.what());
  }
  const auto left_s = std::chrono::duration_cast<std::chrono::seconds>(clock->left()).count();
  // Decided before the sweep writes anything: the free space it found is what it may not take.
  const bool default_quota = !config.sweep.store_quota;
  const std::uint64_t quota = default_quota ? sweep::default_store_quota(config.campaign.store) : *config.sweep.store_quota;
  session.print_header(std::cout, "configurations: " + std::to_string(config.configurations.size()) + " over " +
                                      std::to_string(config.campaign.targets.size()) + " target(s); budget left " +
                                      std::to_string(std::max<long long>(0, left_s)) + " s; store quota " + sweep::size_text(quota) +
                                      (default_quota ? " (the store's size plus half the free space; store_quota sets one)" : ""));
  campaign::Progress progress(std::cout, !options_.plain && ::isatty(STDOUT_FILENO) == 1, /*open_ended=*/true);
  sweep::SweepSource source(config, id, *clock);
  const auto executor = scale_out_.executor(session, source, task_spec(config, *clock), progress);
  std::optional<bool> ran;
  try {
    ran = session.run(*executor);
    if (scale_out_.on_slurm()) source.prepare(session.store());  // the shares, from the runs the tasks delivered
  } catch (const campaign::SessionFailed& e) {  // the runs stored so far stay; the resume line below says how to go on
    complain() << e.what() << "\n";
  }
  bool clock_saved = true;
  try {
    clock->save();
  } catch (const std::runtime_error& e) {  // a full disk: the clock keeps its last save, a few seconds old
    complain() << e.what() << "\n";
    clock_saved = false;
  }
  if (!ran || !clock_saved) {
    // The runs stored so far stay; what was in flight runs again on resume.
    std::cout << "\nsweep " << id << ": INTERRUPTED; continue it with: "
              << shell_command_line(resume_command(config.campaign.store, id)) << " (exit 2)\n";
    return kExitIncomplete;
  }
  const bool completed = *ran;

  report::SweepSummary summary = summarize(session.store(), config, id);
  if (completed && !config.campaign.shard && !scale_out_.on_slurm())
    session.read_interleavings(evidence(session.store(), summary, config.campaign.validation.interleavings), std::cout);
  report::read_explanations(session.store(), summary);
  summary.shares = source.shares();
  summary.spent = clock->spent();
  summary.stop_reason = source.ended_by(completed);
  summary.missing_tasks = executor->missing();
  // What the sweep dropped as its runs finished, then what pruning to the quota removed.
  summary.retention = source.dropped();
  summary.retention.quota = quota;
  summary.retention.default_quota = default_quota;
  try {
    const sweep::PruneReport pruned = sweep::prune_store(session.store(), {quota, config.sweep.evidence_runs, false});
    summary.retention.size_before = pruned.size_before;
    summary.retention.freed += pruned.freed;
    summary.retention.pruned.insert(summary.retention.pruned.end(), pruned.pruned.begin(), pruned.pruned.end());
    summary.retention.quota_met = pruned.quota_met;
    summary.retention.evidence = pruned.evidence;
  } catch (const fs::filesystem_error& e) {
    complain() << "retention: " << e.what() << "\n";
  }
  const int code = publish(session.store(), config, summary);
  const int verdict = report::sweep_exit_code(summary);
  std::cout << "\nsweep " << id << ": "
            << (completed ? verdict == 0 ? "nothing new" : verdict == 1 ? "NEW OR REGRESSED SIGNATURES" : "some runs have no verdict"
                     : "INTERRUPTED; continue it with: " + shell_command_line(resume_command(config.campaign.store, id)))
            << " (exit " << code << ")\n";
  return code;
}

}  // namespace omnilink::cli
