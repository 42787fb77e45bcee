#include "orchestrator/validate_command.hpp"

#include <iostream>

#include "campaign/validation_pool.hpp"

namespace omnilink::cli {

void ValidateCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("validate", "Check a run's trace against a TLA+ spec (exit 0 pass, 1 fail, 2 unknown, 3 error)");
  sub_->add_option("RUN_DIR", run_dir_, "Run directory (holds meta.json and trace/)")->required();
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
  sub_->add_flag("--no-confirm", no_confirm_, "Do not have TLC confirm a native FAIL (it does where TLC is present)");
  sub_->add_option("--tlc", tlc_, "tla2tools.jar (default: as `omnilink doctor` finds it)");
  sub_->add_option("--java", java_, "java executable (default: as `omnilink doctor` finds it)");
  sub_->add_option("--heap", options_.heap, "TLC's Java heap (-Xmx)")->capture_default_str();
  sub_->add_option("--timeout", timeout_s_, "Seconds before the checker is stopped (verdict unknown)")->capture_default_str()->check(CLI::PositiveNumber);
  sub_->add_flag("--json", json_, "Print result.json instead of the summary");
}

int ValidateCommand::run() {
  options_.run_dir = run_dir_;
  options_.spec = spec_;
  if (!mc_.empty()) options_.mc = mc_;
  if (!view_.empty()) options_.view = view_;
  if (!tlc_.empty()) options_.tlc_jar = tlc_;
  if (!java_.empty()) options_.java = java_;
  options_.timeout = std::chrono::seconds(timeout_s_);
  options_.checker = *validation::parse_checker(checker_);
  options_.confirm_failures = !no_confirm_;
  const validation::ValidationResult result = validation::validate_run(options_);
  if (result.verdict == "fail") campaign::write_failure_replay_files(run_dir_, run_dir_, result);
  if (json_) {
    std::cout << result.to_json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << result.summary() << "\n  (" << (result.directory / "result.json").string() << ")\n";
  }
  return result.exit_code();
}

}  // namespace omnilink::cli
