// `omnilink results [CAMPAIGN ...] [--hunt CAMPAIGN ...] [--sweep SWEEP ...] [-o FILE]`: the
// results document (report/results_doc) for a store's campaigns, as Markdown: docs/results.md is
// this command's output (scripts/results). A CAMPAIGN or SWEEP is an id (`tbb-2`) or a name (its
// newest); without any CAMPAIGN, --hunt or --sweep, every campaign name of the store, oldest first.
// Exit code: 0, or 3 for an unknown campaign, a missing store or an unwritable output file.
#pragma once

#include <string>
#include <vector>

#include "orchestrator/command.hpp"
#include "orchestrator/ls_command.hpp"

namespace omnilink::cli {

class ResultsCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  StoreOption store_;
  std::vector<std::string> campaigns_, hunts_, sweeps_;
  std::string output_, store_label_, relative_to_;
};

}  // namespace omnilink::cli
