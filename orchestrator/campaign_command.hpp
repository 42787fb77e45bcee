// `omnilink campaign FILE`: the product's main job. Loads the campaign file (campaign/campaign_file),
// opens the store, resolves the rr mode, runs the engine (campaign/engine) and reports: summary
// table, failures with their frontier and replay command, --json and --junit files. With --shard
// I/N it runs only that share of the plan, into a store that `omnilink merge` brings together with
// the other shards' (docs/scale-out.md). With --executor slurm the runs are done by a Slurm job
// array instead of here (slurm/slurm_executor), with the same progress, summary and exit codes.
// Exit code: 0 every run passed, 1 a run failed validation, 2 otherwise when some run has no pass
// (unknown, crashed, timeout, bad-trace, error, or the campaign was interrupted), 3 usage or
// configuration error (docs/campaign.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "orchestrator/campaign_options.hpp"
#include "campaign/session.hpp"
#include "orchestrator/command.hpp"
#include "orchestrator/scale_out_options.hpp"

namespace omnilink::cli {

class CampaignCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  // The command that continues this campaign: this invocation's options, --resume --id, and the
  // store it used, absolute (the default store depends on the directory and environment it ran in).
  std::vector<std::string> resume_command(const std::filesystem::path& store, const std::string& campaign_id) const;

  std::string file_;
  CampaignOptions options_;
  std::optional<unsigned> runs_;
  bool resume_ = false;
  std::string resume_id_;  // --id: the campaign --resume continues (default: the newest of its name)
  ScaleOutOptions scale_out_;
};

}  // namespace omnilink::cli
