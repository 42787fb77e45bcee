#include "orchestrator/results_command.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>

#include "report/results_doc.hpp"
#include "sweep/sweep_clock.hpp"

namespace omnilink::cli {

namespace {

// An id names that campaign; a name its newest one.
std::optional<store::CampaignRecord> find_campaign(store::Store& store, const std::string& what) {
  if (auto c = store.campaign(what)) return c;
  return store.latest_campaign(what);
}

}  // namespace

void ResultsCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("results", "Write what a store's campaigns found as Markdown (docs/results.md)");
}

void ResultsCommand::add_options() {
  sub_->add_option("CAMPAIGN", campaigns_, "Campaign ids or names (a name means its newest campaign); default without --hunt: every name in the store");
  sub_->add_option("--hunt", hunts_, "A campaign measuring runs and time to the first failure (id or name; repeatable)");
  sub_->add_option("--sweep", sweeps_, "A sweep: what it explored and found (id or name; repeatable)");
  sub_->add_option("-o,--output", output_, "Write to this file instead of stdout");
  sub_->add_option("--store-label", store_label_, "How the document names the store (default: its directory)");
  sub_->add_option("--relative-to", relative_to_, "Write paths under this directory relative to it (scripts/results: the repository)");
  store_.add_to(*sub_);
}

int ResultsCommand::run() {
  store::Store store = store_.open_read_only();
  const auto load = [&](const std::string& what) {
    const auto campaign = find_campaign(store, what);
    if (!campaign)
      throw CommandError(kExitUsage, "no campaign '" + what + "' in " + store.directory().string() + " (" + campaigns_note(store) + ")");
    return report::CampaignRuns{*campaign, store.runs(campaign->id)};
  };
  report::ResultsInput input;
  input.store = store_label_.empty() ? store.directory().string() : store_label_;
  if (!relative_to_.empty()) input.relative_to = std::filesystem::absolute(relative_to_).lexically_normal().string();
  for (const auto& h : hunts_) input.hunts.push_back(load(h));
  for (const auto& w : sweeps_) {
    report::CampaignRuns sweep = load(w);
    if (sweep.campaign.kind != store::CampaignKind::sweep)
      throw CommandError(kExitUsage, "--sweep " + w + ": " + sweep.campaign.id + " is a campaign, not a sweep");
    const auto spent = sweep::recorded_sweep_time(store.directory(), sweep.campaign.id);
    input.sweeps.push_back({std::move(sweep), spent});
  }
  std::vector<std::string> wanted = campaigns_;
  if (wanted.empty() && hunts_.empty() && sweeps_.empty())
    for (const auto& c : store.campaigns())
      if (std::find(wanted.begin(), wanted.end(), c.name) == wanted.end()) wanted.push_back(c.name);
  for (const auto& w : wanted) input.results.push_back(load(w));
  const std::string doc = report::results_markdown(input);
  if (output_.empty()) {
    std::cout << doc;
    return kExitOk;
  }
  return write_report(*this, output_, doc) ? kExitOk : kExitUsage;
}

}  // namespace omnilink::cli
