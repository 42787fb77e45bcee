// `omnilink sweep FILE`: the nightly job. Loads the sweep file (sweep/sweep_file), starts or resumes
// the sweep's clock, runs the engine with a SweepSource until the budget or a cap ends it, then
// reports what changed since the previous sweep of the same file (sweep/signature_history,
// sweep/sweep_report): on stdout, and as Markdown, JSON and JUnit files and an HTML report
// (report/html_report) when asked.
// Exit code: 0 nothing new, 1 a new or regressed signature, 2 the sweep could not run all it should
// (runs without a verdict, or interrupted), 3 usage or configuration error (docs/sweep.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "orchestrator/campaign_options.hpp"
#include "orchestrator/command.hpp"

namespace omnilink::cli {

class SweepCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  int run() override;

 private:
  std::vector<std::string> resume_command(const std::filesystem::path& store, const std::string& sweep_id) const;

  std::string file_;
  CampaignOptions options_;
  std::optional<std::string> for_, until_;
  std::optional<std::uint64_t> max_runs_, max_failures_;
  bool resume_ = false;
  std::string resume_id_;
  std::string markdown_file_;
  std::string html_dir_;
};

}  // namespace omnilink::cli
