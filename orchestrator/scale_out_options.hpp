// The options that take a verb's runs beyond this machine (docs/scale-out.md), shared by
// `campaign` and `sweep`: --shard I/N (this process runs one share, for `omnilink merge`), and
// --executor slurm with its --slurm-* settings (a Slurm job array runs the shares, this process
// coordinates). The verb keeps what differs: what its tasks are given, and how its share is drawn.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "campaign/campaign_file.hpp"
#include "campaign/progress.hpp"
#include "campaign/run_source.hpp"
#include "orchestrator/campaign_session.hpp"
#include "slurm/slurm_executor.hpp"

namespace omnilink::cli {

class ScaleOutOptions {
 public:
  /// `batches`: whether --slurm-batch applies (a campaign's plan is batched; a sweep is not).
  void add_to(CLI::App& command, bool batches);
  /// The options as given, for the verb's resume command.
  std::vector<std::string> arguments() const;
  bool on_slurm() const { return executor_ == "slurm"; }
  unsigned slurm_tasks() const { return slurm_.concurrency; }

  /// Sets `config`'s shard from --shard. False after printing why (a usage error).
  bool apply_shard(const std::string& verb, campaign::CampaignConfig& config) const;
  /// A shard started again without --resume (a retried pod or array task) continues its store's
  /// campaign of that shard, so that a shard store holds one for `omnilink merge`: sets `resume`
  /// and `resume_id` then. False after printing a store error.
  bool continue_shard(const campaign::CampaignConfig& config, bool& resume, std::string& resume_id) const;

  /// Runs the session through a Slurm job array whose tasks run `omnilink VERB ARGUMENTS --shard
  /// I/N --store ...` (and, for a sweep, `--for` what is left until `deadline_ms`). `plan`: the
  /// runs to add to the store first, as the engine would (a campaign's). Sets the campaign's status
  /// from how it ended; `lost` gets a sweep's tasks that delivered nothing. Nullopt after printing
  /// why it could not run; else whether it completed.
  /// `on_poll`: called after each look at Slurm (slurm::SlurmSettings::on_poll).
  std::optional<bool> run_on_slurm(const std::string& verb, CampaignSession& session, const campaign::CampaignConfig& config,
                                   std::vector<std::string> arguments, std::optional<std::int64_t> deadline_ms,
                                   campaign::RunSource* plan, campaign::Progress& progress, std::vector<std::string>& lost,
                                   std::function<void()> on_poll = {}) const;

 private:
  std::string shard_;  // --shard I/N
  std::string executor_ = "local";
  slurm::SlurmSettings slurm_;
};

}  // namespace omnilink::cli
