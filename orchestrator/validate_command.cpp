#include "orchestrator/validate_command.hpp"

#include <algorithm>
#include <iostream>
#include <map>

#include "campaign/validation_pool.hpp"
#include "platform/memory.hpp"
#include "store/store.hpp"
#include "checkers/validate.hpp"
#include "history/history_file.hpp"

namespace omnilink::cli {

void ValidateCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("validate", "Check a run's trace against a TLA+ spec (exit 0 pass, 1 fail, 2 unknown, 3 error)");
}

void ValidateCommand::add_options() {
  sub_->add_option("RUN", run_dirs_,
                   "Run directories (each holds meta.json and trace/) or history files (JSON lines, docs/history-format.md): "
                   "one result each, then a summary")
      ->required();
  sub_->add_option("--spec", spec_, "The spec module (.tla)")->required();
  sub_->add_option("--mc", mc_, "An MC module defining the spec's constants (it may EXTEND OmniLinkTrace for its helpers)");
  sub_->add_option("--view", view_, "An operator of the MC module over the spec's variables, used as TLC's VIEW");
  sub_->add_option("--next", options_.next, "The spec's next-state relation")->capture_default_str();
  sub_->add_option("--init", options_.init, "The spec's initial predicate")->capture_default_str();
  sub_->add_option("--checker", checker_,
                   "native (the embedded checker), tlc, auto (native when the spec is inside its fragment, else TLC) or both "
                   "(a disagreement is an error)")
      ->capture_default_str()
      ->check(CLI::IsMember({"native", "tlc", "auto", "both"}));
  sub_->add_option("--jobs", options_.jobs, "Parts of a partitioned history (OmniLinkPartitionBy) checked at once, at most (default: cores; one per 2000 operations)")
      ->check(CLI::PositiveNumber);
  sub_->add_flag("--all-parts", options_.all_parts,
                 "A partitioned history: decide every part, not only until one fails (the first failing part decides "
                 "the verdict either way)");
  sub_->add_flag("--no-confirm", no_confirm_, "Do not have TLC confirm a native FAIL (it does where TLC is present)");
  sub_->add_option("--tlc", tlc_, "tla2tools.jar (default: as `omnilink doctor` finds it)");
  sub_->add_option("--java", java_, "java executable (default: as `omnilink doctor` finds it)");
  sub_->add_option("--heap", options_.heap, "TLC's Java heap (-Xmx)")->capture_default_str();
  sub_->add_option("--timeout", timeout_s_, "Seconds before the checker is stopped (verdict unknown)")->capture_default_str()->check(CLI::PositiveNumber);
  sub_->add_option("--memory", memory_, "The native search's memory limit, e.g. 4g (verdict unknown past it; default: half the machine's)")
      ->check([](const std::string& text) {
        return platform::parse_memory_limit_mb(text) ? std::string() : "a size of at least 1m, written as 512m or 4g";
      });
  sub_->add_flag("--json", json_, "Print result.json instead of the summary");
}

int ValidateCommand::run() {
  options_.spec = spec_;
  if (!mc_.empty()) options_.mc = mc_;
  if (!view_.empty()) options_.view = view_;
  if (!tlc_.empty()) options_.tlc_jar = tlc_;
  if (!java_.empty()) options_.java = java_;
  options_.timeout = std::chrono::seconds(timeout_s_);
  if (!memory_.empty()) options_.max_memory_mb = *platform::parse_memory_limit_mb(memory_);
  options_.checker = *checkers::parse_checker(checker_);
  options_.confirm_failures = !no_confirm_;
  // Several runs (imported histories, a sweep's many small traces): one line each and a summary;
  // the exit code is the worst of theirs (error 3, unknown 2, fail 1, pass 0).
  const bool one = run_dirs_.size() == 1;
  std::map<results::Verdict, std::size_t> counts;
  nlohmann::json all = nlohmann::json::array();
  int exit_code = 0;
  // A store's run is validated through the store, which writes its result and index together.
  for (const std::string& run_dir : run_dirs_)
    if (const auto stored = store::stored_run(run_dir))
      throw CommandError(kExitUsage, run_dir + " is run " + stored->key() + " of the store " + stored->store.string() +
                                         ": validating it here would change its result behind the store's index. Use `omnilink revalidate " +
                                         stored->key() + " --store " + stored->store.string() +
                                         " --spec ...`, or validate a copy of the run directory made outside the store");
  for (const std::string& run_dir : run_dirs_) {
    options_.run_dir = run_dir;
    const results::ValidationResult result = checkers::validate_run(options_);
    // A run directory's failure gets its replay files; a history file has no recording to replay.
    if (result.verdict == results::Verdict::fail && !history::is_history_file(run_dir)) campaign::write_failure_replay_files(run_dir, run_dir, result);
    ++counts[result.verdict];
    exit_code = std::max(exit_code, result.exit_code());
    if (json_) {
      all.push_back(result.to_json());
    } else if (one) {
      std::cout << result.summary() << "\n";
      if (!result.directory.empty()) std::cout << "  (" << (result.directory / "result.json").string() << ")\n";
    } else {
      std::cout << run_dir << ": " << result.verdict << (result.reason.empty() ? "" : " - " + result.reason) << "\n";
    }
  }
  if (json_) {
    std::cout << (one ? all[0] : all).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else if (!one) {
    std::cout << run_dirs_.size() << " runs:";
    for (const results::Verdict verdict : results::kVerdicts) std::cout << " " << verdict << " " << counts[verdict];
    std::cout << "\n";
  }
  return exit_code;
}

}  // namespace omnilink::cli
