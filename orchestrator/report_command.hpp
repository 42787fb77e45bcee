// `omnilink report [CAMPAIGN] --html DIR`: the static HTML report (report/html_report.hpp) of any
// campaign or sweep in a store: the campaigns of its name over time, its failure signatures with
// their status night to night, and a page per signature with the timeline around its failure
// frontier. CAMPAIGN is a campaign id (`nightly-3`) or name (`nightly`); without it, the newest
// campaign's name. The same pages `omnilink sweep --html DIR` writes after a sweep.
// Exit code: 0 written, 1 a page could not be written, 3 usage (no store, unknown campaign).
#pragma once

#include <optional>
#include <string>

#include "orchestrator/command.hpp"

namespace omnilink::cli {

class ReportCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  std::string campaign_;
  std::string store_;
  std::string html_dir_;
  std::optional<unsigned> evidence_runs_;
  std::optional<double> confidence_;
};

}  // namespace omnilink::cli
