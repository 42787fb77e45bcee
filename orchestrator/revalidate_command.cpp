#include "orchestrator/revalidate_command.hpp"

#include <iostream>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "campaign/campaign_file.hpp"
#include "campaign/recording.hpp"
#include "report/campaign_report.hpp"
#include "store/campaign_lock.hpp"
#include "store/outcome.hpp"
#include "campaign/validation_pool.hpp"
#include "platform/memory.hpp"
#include "platform/toolchain.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::cli {
namespace fs = std::filesystem;

void RevalidateCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("revalidate", "Validate archived runs again (after a spec change), without re-running them");
}

void RevalidateCommand::add_options() {
  sub_->add_option("WHAT", what_, "A run (CAMPAIGN/RUN) or a whole campaign (CAMPAIGN)")->required();
  store_.add_to(*sub_);
  sub_->add_option("--spec", spec_, "Validate against this spec instead of the campaign's");
  sub_->add_option("--mc", mc_, "With --spec: its MC module");
  sub_->add_option("--checker", checker_, "native | tlc | auto | both (default: the campaign's)")
      ->check(CLI::IsMember({"native", "tlc", "auto", "both"}));
  sub_->add_option("--tlc-heap", tlc_heap_, "TLC's Java heap (default: the campaign's)");
  sub_->add_option("--validation-timeout,--tlc-timeout", timeout_s_, "Seconds a validation may take, either checker (default: the campaign's)")
      ->check(CLI::PositiveNumber);
  sub_->add_option("--validation-jobs,--tlc-jobs", jobs_, "Validations at once (default: as a campaign decides it)")->check(CLI::PositiveNumber);
}

int RevalidateCommand::run() {
  require_spec_files(spec_, mc_);
  store::Store store = store_.open();
  const auto slash = what_.rfind('/');
  const std::string campaign_id = slash == std::string::npos ? what_ : what_.substr(0, slash);
  const auto campaign = store.campaign(campaign_id);
  if (!campaign) throw CommandError(kExitUsage, "no campaign '" + campaign_id + "'; " + campaigns_note(store));
  // One writer at a time: a live session of this campaign (or another revalidate) would have its
  // runs' results rewritten underneath it, and its in-flight runs marked interrupted.
  std::string held_by;
  const std::optional<store::CampaignLock> lock = store::CampaignLock::acquire(store.directory() / campaign_id, held_by);
  if (!lock) throw CommandError(kExitUsage, campaign_id + ": " + held_by + "; revalidate when it has ended");
  std::vector<store::RunRecord> runs;
  if (slash == std::string::npos) {
    runs = store.runs(campaign_id);
  } else if (auto run = store.run(what_)) {
    runs.push_back(std::move(*run));
  } else {
    throw CommandError(kExitUsage, "no run '" + what_ + "' (see: omnilink ls " + campaign_id + ")");
  }
  campaign::CampaignConfig config = campaign::stored_campaign(nlohmann::json::parse(campaign->config_json), campaign_id);
  if (!tlc_heap_.empty()) config.validation.tlc.heap = tlc_heap_;
  if (!checker_.empty()) config.validation.checker = *checkers::parse_checker(checker_);
  if (timeout_s_) config.validation.timeout = std::chrono::seconds(*timeout_s_);
  if (jobs_) config.validation.jobs = *jobs_;
  if (!platform::parse_byte_size(config.validation.tlc.heap))
    throw CommandError(kExitUsage, "--tlc-heap " + config.validation.tlc.heap + ": digits, then k, m or g (e.g. 2g)");
  boost::asio::io_context io;
  campaign::ValidationPool pool(io, validation_jobs(config.validation, config.jobs, !tlc_unavailable()).count);
  std::vector<store::RunRecord> validated;
  std::size_t submitted = 0;
  // The results arrive from the pool's threads: the loop must wait for them, not end at once.
  auto waiting = boost::asio::make_work_guard(io);
  for (auto& run : runs) {
    if (!trace::RunLayout(run.dir).has_trace()) {
      std::cout << run.key() << ": skipped (" << run.status << ", no trace)\n";
      continue;
    }
    const campaign::TargetConfig* stored_target = config.target(run.target);
    if (stored_target == nullptr) {
      std::cout << run.key() << ": skipped (its target '" << run.target << "' is not in the campaign's configuration)\n";
      continue;
    }
    campaign::TargetConfig target = *stored_target;
    if (!spec_.empty()) {
      target.spec = fs::absolute(spec_);
      target.mc = mc_.empty() ? std::nullopt : std::optional<fs::path>(fs::absolute(mc_));
    }
    ++submitted;
    // Revalidation is asked for run by run: TLC confirms every native FAIL (where it is present).
    pool.submit(campaign::validate_options(target, config.validation, true, run.dir), [] {},
                [&, run, spec = target.spec](results::ValidationResult result) mutable {
                  campaign::record_validation(store, run, result, spec);
                  std::cout << run.key() << ": " << store::outcome(run) << (result.reason.empty() ? "" : " - " + result.reason) << "\n";
                  validated.push_back(std::move(run));
                  if (validated.size() == submitted) waiting.reset();
                });
  }
  if (submitted == 0) waiting.reset();
  io.run();
  const int code = store::exit_code_for(validated);
  const std::vector<report::RunReport> reports = report::read_run_reports(std::move(validated));
  std::cout << "\n" << report::summary_table(reports);
  if (const std::string problems = report::problem_report(reports); !problems.empty()) std::cout << "\n" << problems;
  return code;
}

}  // namespace omnilink::cli
