// The options that take a verb's runs beyond this machine (docs/scale-out.md), shared by
// `campaign` and `sweep`: --shard I/N (this process runs one share, for `omnilink merge`), and
// --executor slurm with its --slurm-* settings (a Slurm job array runs the shares, this process
// coordinates). The verb keeps what differs: what its tasks are given, and how its share is drawn.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "campaign/campaign_file.hpp"
#include "campaign/executor.hpp"
#include "campaign/progress.hpp"
#include "campaign/run_source.hpp"
#include "campaign/session.hpp"
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

  /// Sets `config`'s shard from --shard. Throws CommandError (a usage error).
  void apply_shard(campaign::CampaignConfig& config) const;
  /// A shard started again without --resume (a retried pod or array task) continues its store's
  /// campaign of that shard, so that a shard store holds one for `omnilink merge`: sets `resume`
  /// and `resume_id` then. Throws store::StoreError.
  void continue_shard(const campaign::CampaignConfig& config, bool& resume, std::string& resume_id) const;

  /// Who carries out the session's runs from `source`: this machine's engine, or a Slurm job array
  /// whose tasks run `task` (`omnilink VERB ARGUMENTS --shard I/N --store ...`, and for a sweep
  /// `--for` what is left until its deadline).
  std::unique_ptr<campaign::Executor> executor(campaign::Session& session, campaign::RunSource& source, slurm::TaskSpec task,
                                               campaign::Progress& progress) const;

 private:
  std::string shard_;  // --shard I/N
  std::string executor_ = "local";
  slurm::SlurmSettings slurm_;
};

}  // namespace omnilink::cli
