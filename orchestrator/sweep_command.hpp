// `omnilink sweep FILE`: the nightly job. Loads the sweep file (sweep/sweep_file), starts or resumes
// the sweep's clock, runs the engine with a SweepSource until the budget or a cap ends it, then
// reports what changed since the previous sweep of the same file (findings/signature_history,
// report/sweep_report): on stdout, and as Markdown, JSON and JUnit files and an HTML report
// (report/html_report) when asked. With --shard I/N it sweeps as one of N shards, into a store that
// `omnilink merge` brings together with the others'; with --executor slurm a Slurm job array's
// tasks sweep as shards until the deadline while this process merges what they deliver
// (docs/scale-out.md).
// Exit code: 0 nothing new, 1 a new or regressed signature, 2 the sweep could not run all it should
// (runs without a verdict, or interrupted), 3 usage or configuration error (docs/sweep.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "orchestrator/campaign_options.hpp"
#include "orchestrator/command.hpp"
#include "orchestrator/scale_out_options.hpp"
#include "sweep/sweep_clock.hpp"
#include "sweep/sweep_file.hpp"
#include "report/sweep_report.hpp"

namespace omnilink::cli {

class SweepCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  std::vector<std::string> resume_command(const std::filesystem::path& store, const std::string& sweep_id) const;
  // The report's parts every sweep has, read from the store: the sweep, its runs, its signatures.
  report::SweepSummary summarize(store::Store& store, const sweep::SweepConfig& config, const std::string& id) const;
  // Prints the report and writes the files asked for; the exit code (2 at least when a file could not be written).
  int publish(store::Store& store, const sweep::SweepConfig& config, const report::SweepSummary& summary) const;
  // --report: the report of a sweep already in the store, running nothing.
  int report_only(const sweep::SweepConfig& config) const;
  // What each Slurm task runs: the sweep's file and options, its share of the caps, and the deadline.
  slurm::TaskSpec task_spec(const sweep::SweepConfig& config, const sweep::SweepClock& clock) const;

  std::string file_;
  CampaignOptions options_;
  std::optional<std::string> for_, until_;
  std::optional<std::uint64_t> max_runs_, max_failures_;
  bool resume_ = false;
  bool report_ = false;
  std::string resume_id_;
  std::string markdown_file_;
  std::string html_dir_;
  ScaleOutOptions scale_out_;
};

}  // namespace omnilink::cli
