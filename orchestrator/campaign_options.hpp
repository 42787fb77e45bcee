// The options `campaign` and `sweep` share: where the store is, overrides of the file's fields
// (--set and the dedicated flags), target selection and harness lookup, and how the result is shown.
// This class registers them, turns them into campaign::LoadOptions, and gives them back as arguments
// for the command line that resumes the run.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "campaign/campaign_file.hpp"

namespace omnilink::cli {

class CampaignOptions {
 public:
  void add_to(CLI::App& sub);
  /// The options as the campaign file reading takes them (the bundled harness and spec directories added).
  campaign::LoadOptions load_options() const;
  /// The options again, paths made absolute, for a command line that continues the same run.
  std::vector<std::string> arguments() const;
  /// Those of them that decide how runs are done (not --plain, --json, --junit): what a Slurm task's
  /// own campaign is given.
  std::vector<std::string> run_arguments() const;

  std::string store;
  std::string json_file, junit_file;
  bool plain = false;

 private:
  std::vector<std::string> overrides_;
  std::optional<unsigned> jobs_, validation_jobs_;
  std::optional<int> run_timeout_s_, validation_timeout_s_;
  std::string rr_, checker_, tlc_heap_, name_;
  std::vector<std::string> harness_dirs_, only_targets_, extra_harness_args_;
};

}  // namespace omnilink::cli
