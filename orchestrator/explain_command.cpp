#include "orchestrator/explain_command.hpp"

#include <filesystem>
#include <iostream>

#include "campaign/campaign_file.hpp"
#include "campaign/recording.hpp"
#include "campaign/validation_pool.hpp"
#include "explain/explain.hpp"
#include "findings/failure_signature.hpp"
#include "platform/toolchain.hpp"
#include "replay/rr_replay.hpp"
#include "report/evidence.hpp"
#include "report/explanation_text.hpp"
#include "trace/run_layout.hpp"
#include "history/history.hpp"

namespace omnilink::cli {
namespace fs = std::filesystem;

namespace {

/// The atomicity hints of the explained runs of `run`'s signature in its campaign (those whose
/// explanation has an interleaving, this one's included), ranked; with how many runs they come from.
std::pair<std::vector<explain::RankedHint>, std::size_t> signature_hints(store::Store& store, const store::RunRecord& run) {
  const auto signature = findings::failure_signature(run);
  if (!signature) return {};
  std::vector<store::RunRecord> of_target;
  for (store::RunRecord& other : store.runs(run.campaign))
    if (other.target == run.target) of_target.push_back(std::move(other));
  std::vector<report::RunReport> same;
  for (report::RunReport& other : report::read_run_reports(std::move(of_target)))
    if (other.signature && other.signature->key == signature->key) same.push_back(std::move(other));
  // A damaged explanation of another run is that run's to report: only the hints are read here.
  const report::EvidenceExplanations kept = report::evidence_explanations(same);
  return {explain::rank_hints(kept.hints), kept.hints.size()};
}

}  // namespace

void ExplainCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("explain", "Why a failing run fails: its failing core, the few operations rejected on their own");
}

void ExplainCommand::add_options() {
  sub_->add_option("RUN", what_, "A campaign's run (CAMPAIGN/RUN-ID), or a run directory or history file (with --spec)")->required();
  store_.add_to(*sub_);
  sub_->add_option("--spec", spec_, "The spec module (.tla); a campaign's run is explained against its campaign's by default");
  sub_->add_option("--mc", mc_, "With --spec: its MC module");
  sub_->add_option("--view", view_, "With --spec: an operator of the MC module over the spec's variables (VIEW)");
  sub_->add_option("--init", init_, "With --spec: the initial predicate")->capture_default_str();
  sub_->add_option("--next", next_, "With --spec: the next-state relation")->capture_default_str();
  sub_->add_option("--time-limit", time_limit_s_, "Seconds the minimisation may take (past it, the core found so far, said not minimal), and again the questions of which rules the run breaks (past it, none named)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub_->add_option("--replay-time-limit", replay_time_limit_s_,
                   "Seconds each of the two replays that read the interleaving may take (past it, what they reached)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub_->add_flag("--no-interleaving", no_interleaving_, "Do not read the core's interleaving from the run's rr recording");
  sub_->add_flag("--fresh", fresh_, "Find the core again even if RUN's explain/ holds one for the same spec");
  sub_->add_flag("--json", json_, "Print explanation.json instead of the text");
}

int ExplainCommand::run() {
  explain::ExplainOptions options;
  checkers::ValidateOptions& v = options.validate;
  std::optional<store::Store> store;       // a campaign's run: its store
  std::optional<store::RunRecord> run;
  require_spec_files(spec_, mc_);
  if (std::error_code ec; fs::exists(what_, ec)) {
    if (spec_.empty()) throw CommandError(kExitUsage, what_ + " is a run directory or history file: --spec names its spec");
    v.run_dir = what_;
  } else {
    store.emplace(store_.open_read_only());
    run = store->run(what_);
    if (!run) throw CommandError(kExitUsage, unknown_run_message(*store, what_));
    const auto campaign = store->campaign(run->campaign);
    if (!campaign) throw CommandError(kExitUsage, "no campaign '" + run->campaign + "'; " + campaigns_note(*store));
    const campaign::CampaignConfig config = campaign::stored_campaign(nlohmann::json::parse(campaign->config_json), run->campaign);
    const campaign::TargetConfig* target = config.target(run->target);
    if (target == nullptr && spec_.empty())
      throw CommandError(kExitUsage, what_ + ": its target '" + run->target + "' is not in the campaign's configuration (name its spec with --spec)");
    if (target != nullptr) v = campaign::validate_options(*target, config.validation, false, run->dir);
    v.run_dir = run->dir;
  }
  if (!spec_.empty()) {
    v.spec = spec_;
    v.mc = mc_.empty() ? std::nullopt : std::optional<fs::path>(mc_);
    v.view = view_.empty() ? std::nullopt : std::optional<std::string>(view_);
    v.init = init_;
    v.next = next_;
  }
  v.checker = checkers::Checker::native;
  if (no_interleaving_) {
    options.no_interleaving = "not asked for (--no-interleaving)";
  } else if (!fs::is_directory(trace::RunLayout(v.run_dir).recording())) {
    options.no_interleaving = "the run was not recorded with rr";
  } else if (const ToolLocation rr = find_rr(); !rr.found()) {
    options.no_interleaving = "rr " + rr.explain_missing();
  } else {
    options.recording = replay::Recording{v.run_dir, campaign::recorded_with_soft_counters(v.run_dir)};
    options.rr = *rr.path;
    options.interleaving.time_limit = std::chrono::seconds(replay_time_limit_s_);
    options.interleaving.progress = &complain();  // building the seek index takes a while on a long run
  }
  options.core.time_limit = std::chrono::seconds(time_limit_s_);
  options.reuse = !fresh_;
  explain::Explanation e;
  try {
    e = explain::explain_run(options);
  } catch (const explain::NothingToExplain& nothing) {
    throw CommandError(kExitProblem, "nothing to explain: " + std::string(nothing.what()));
  } catch (const history::ValidationError& bad) {
    throw CommandError(kExitUsage, bad.what());
  } catch (const history::HistoryError& bad) {
    throw CommandError(kExitUsage, bad.what());
  } catch (const explain::ExplanationFileError& bad) {
    throw CommandError(kExitUsage, std::string(bad.what()) + " (--fresh finds the core again)");
  }
  if (json_) {
    std::cout << explain::to_json(e).dump(2) << "\n";
    return kExitOk;
  }
  const fs::path core = explain::explanation_dir(v.run_dir) / e.core_file;
  std::string hint = "omnilink validate " + core.string() + " --spec " + v.spec.string();
  if (v.mc) hint += " --mc " + v.mc->string();
  std::cout << report::explanation_text(e, core.string(), hint);
  if (run && e.interleaving) {
    const auto [ranked, runs] = signature_hints(*store, *run);
    std::cout << report::ranked_hints_text(ranked, runs);
  }
  return kExitOk;
}

}  // namespace omnilink::cli
