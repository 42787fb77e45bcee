#include "orchestrator/report_command.hpp"

#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "report/html_report.hpp"
#include "findings/signature_history.hpp"
#include "sweep/sweep_file.hpp"

namespace omnilink::cli {
namespace fs = std::filesystem;

void ReportCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("report", "Write the HTML report of a campaign or sweep: its name's runs over time, signatures, frontiers");
}

void ReportCommand::add_options() {
  sub_->add_option("CAMPAIGN", campaign_, "A campaign id or name (default: the newest campaign's name)");
  sub_->add_option("--store", store_, "The store directory (default: $OMNILINK_STORE, else ./omnilink-store)");
  sub_->add_option("--html", html_dir_, "The directory to write index.html and the signature pages into")->required();
  sub_->add_option("--evidence-runs", evidence_runs_, "Failing runs named per signature (default: the sweep file's, else 3)")
      ->check(CLI::Range(1, 1000));
  sub_->add_option("--confidence", confidence_, "How sure 'fixed' must be (default: the sweep file's, else 0.95)")
      ->check(CLI::Range(0.5, 0.999999));
}

int ReportCommand::run() {
  const fs::path store_dir = store_.empty() ? store::default_store_directory() : fs::path(store_);
  auto store = store::Store::open_read_only(store_dir);
  std::optional<store::CampaignRecord> chosen;
  if (campaign_.empty()) {
    const auto all = store.campaigns();
    if (!all.empty()) chosen = all.back();
  } else {
    chosen = store.campaign(campaign_);
    if (!chosen) chosen = store.latest_campaign(campaign_);
  }
  if (!chosen)
    throw CommandError(kExitUsage, store_dir.string() + ": " +
                                       (campaign_.empty() ? "no campaign in the store"
                                                          : "no campaign with id or name '" + campaign_ + "' (omnilink ls lists them)"));
  // A sweep's own settings decide its statuses, as its night's report did.
  std::optional<sweep::StoredSweep> stored;
  if (chosen->kind == store::CampaignKind::sweep) stored = sweep::stored_sweep(nlohmann::json::parse(chosen->config_json, nullptr, false), chosen->id);
  const sweep::SweepSettings settings = stored ? stored->settings : sweep::SweepSettings{};
  findings::HistoryOptions options;
  options.confidence = confidence_.value_or(settings.fixed_confidence);
  options.evidence_runs = evidence_runs_.value_or(settings.evidence_runs);
  options.as_of = chosen->id;
  const auto signatures = findings::signature_history(store, chosen->name, options);
  std::vector<fs::path> written;
  try {
    written = report::write_html_report(store, chosen->name, signatures, html_dir_);
  } catch (const store::StoreError&) {
    throw;
  } catch (const std::exception& e) {  // a page or a run's result.json that could not be read or written
    throw CommandError(kExitProblem, e.what());
  }
  std::cout << "wrote " << written.front().string() << " and " << written.size() - 1 << " signature page(s) for '" << chosen->name << "'\n";
  return kExitOk;
}

}  // namespace omnilink::cli
