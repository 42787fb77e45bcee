#include "orchestrator/campaign_options.hpp"

#include <nlohmann/json.hpp>

#include "orchestrator/bundled_paths.hpp"

namespace omnilink::cli {
namespace fs = std::filesystem;

void CampaignOptions::add_to(CLI::App& sub) {
  sub.add_option("--set", overrides_, "Override a field of the file: FIELD=VALUE (e.g. tlc.heap=1g, targets.NAME.ops=500)");
  sub.add_option("--store", store, "Store directory (default: the file's `store`, else $OMNILINK_STORE, else ./omnilink-store)");
  sub.add_option("--jobs", jobs_, "Harness runs at once (default: cores)")->check(CLI::PositiveNumber);
  sub.add_option("--rr", rr_, "auto | off | record | chaos")->check(CLI::IsMember({"auto", "off", "record", "chaos"}));
  sub.add_option("--checker", checker_, "native | tlc | auto | both: which checker validates (default: the file's, else auto)")
      ->check(CLI::IsMember({"native", "tlc", "auto", "both"}));
  sub.add_option("--run-timeout", run_timeout_s_, "Seconds a harness run may take")->check(CLI::PositiveNumber);
  sub.add_option("--tlc-heap", tlc_heap_, "TLC's Java heap, e.g. 2g");
  sub.add_option("--validation-timeout,--tlc-timeout", validation_timeout_s_, "Seconds a validation may take, either checker")
      ->check(CLI::PositiveNumber);
  sub.add_option("--validation-jobs,--tlc-jobs", validation_jobs_,
                 "Validations at once (default: one per harness job, fewer where TLC may run and memory is short)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--name", name_, "Name (default: the file's `name`, else its stem)");
  sub.add_option("--only", only_targets_, "Run only this target of the file (repeatable)");
  sub.add_option("--harness-arg", extra_harness_args_,
                 "Append an argument to every target's harness arguments (repeatable; write --harness-arg=--perturb for one starting with -)");
  sub.add_option("--harness-dir", harness_dirs_, "Where bare harness names are looked up first (repeatable)");
  sub.add_flag("--plain", plain, "One line per event, even on a terminal");
  sub.add_option("--json", json_file, "Write the summary as JSON to this file");
  sub.add_option("--junit", junit_file, "Write a JUnit XML report to this file");
}

campaign::LoadOptions CampaignOptions::load_options() const {
  campaign::LoadOptions load;
  load.overrides = overrides_;
  const auto set = [&](const std::string& field, const std::string& value) { load.overrides.push_back(field + "=" + value); };
  if (jobs_) set("jobs", std::to_string(*jobs_));
  if (!rr_.empty()) set("rr", "\"" + rr_ + "\"");
  if (!checker_.empty()) set("validation.checker", "\"" + checker_ + "\"");
  if (run_timeout_s_) set("run_timeout_s", std::to_string(*run_timeout_s_));
  if (!tlc_heap_.empty()) set("tlc.heap", nlohmann::json(tlc_heap_).dump());
  // A file may still give these under their older names (tlc.timeout_s, tlc.jobs): the flag replaces those too.
  if (validation_timeout_s_) set("tlc.timeout_s", "null"), set("validation.timeout_s", std::to_string(*validation_timeout_s_));
  if (validation_jobs_) set("tlc.jobs", "null"), set("validation.jobs", std::to_string(*validation_jobs_));
  if (!name_.empty()) set("name", nlohmann::json(name_).dump());
  if (!store.empty()) load.store = store;
  load.only_targets = only_targets_;
  load.extra_harness_args = extra_harness_args_;
  for (const auto& dir : harness_dirs_) load.harness_dirs.emplace_back(dir);
  for (const auto& dir : bundled_harness_dirs()) load.harness_dirs.push_back(dir);
  load.spec_dirs = bundled_spec_dirs();
  return load;
}

std::vector<std::string> CampaignOptions::arguments() const {
  std::vector<std::string> argv = run_arguments();
  auto add = [&argv](const std::string& flag, const std::string& value) { argv.insert(argv.end(), {flag, value}); };
  if (plain) argv.push_back("--plain");
  if (!json_file.empty()) add("--json", fs::absolute(json_file).string());
  if (!junit_file.empty()) add("--junit", fs::absolute(junit_file).string());
  return argv;
}

std::vector<std::string> CampaignOptions::run_arguments() const {
  std::vector<std::string> argv;
  auto add = [&argv](const std::string& flag, const std::string& value) { argv.insert(argv.end(), {flag, value}); };
  for (const auto& o : overrides_) add("--set", o);
  if (jobs_) add("--jobs", std::to_string(*jobs_));
  if (!rr_.empty()) add("--rr", rr_);
  if (!checker_.empty()) add("--checker", checker_);
  if (run_timeout_s_) add("--run-timeout", std::to_string(*run_timeout_s_));
  if (!tlc_heap_.empty()) add("--tlc-heap", tlc_heap_);
  if (validation_timeout_s_) add("--validation-timeout", std::to_string(*validation_timeout_s_));
  if (validation_jobs_) add("--validation-jobs", std::to_string(*validation_jobs_));
  if (!name_.empty()) add("--name", name_);
  for (const auto& t : only_targets_) add("--only", t);
  for (const auto& a : extra_harness_args_) argv.push_back("--harness-arg=" + a);
  for (const auto& d : harness_dirs_) add("--harness-dir", fs::absolute(d).string());
  return argv;
}

}  // namespace omnilink::cli
