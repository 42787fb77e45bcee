#include "campaign/session.hpp"

#include <iostream>

#include "campaign/evidence_interleavings.hpp"
#include "campaign/spec_names.hpp"
#include "platform/join.hpp"
#include "campaign/validation_pool.hpp"
#include "platform/toolchain.hpp"

namespace omnilink::campaign {

Session Session::open(const Request& request) {
  const CampaignConfig& config = *request.config;
  // Before the store is touched or anything runs.
  if (const auto undefined = undefined_spec_names(config); !undefined.empty())
    throw SessionError(config.file.string() + ": " + join(undefined, "; "));
  Session s;
  s.kind_ = request.kind;
  s.config_ = &config;
  s.resumed_ = request.resume;
  try {
    // --resume continues a campaign: a store that is not there is a mistake, not one to create.
    s.store_ = std::make_unique<store::Store>(request.resume ? store::Store::open_existing(config.store) : store::Store::open(config.store));
    if (request.resume) {
      const auto previous = request.resume_id.empty() ? s.store_->latest_campaign(config.name) : s.store_->campaign(request.resume_id);
      if (!previous)
        throw SessionError("--resume: no " + to_string(request.kind) + " " +
                           (request.resume_id.empty() ? "named '" + config.name + "'" : request.resume_id) + " in " + config.store.string());
      if (previous->name != config.name)
        throw SessionError("--resume --id " + request.resume_id + ": that " + to_string(request.kind) + " is named '" + previous->name +
                           "', this file's '" + config.name + "'");
      // Recorded with it: `campaign --resume` of a sweep (or the reverse) is refused before its
      // configuration is read as the other kind's.
      if (previous->kind != request.kind)
        throw SessionError("--resume: cannot continue " + previous->id + ": it is a " + to_string(previous->kind) + ", not a " +
                           to_string(request.kind) + " (`omnilink " + to_string(previous->kind) + " --resume` continues it)");
      const std::string why = request.plan_difference(nlohmann::json::parse(previous->config_json), request.effective);
      if (!why.empty())
        throw SessionError("--resume: cannot continue " + previous->id + ": " + why + " (start a new " + to_string(request.kind) +
                           " instead, without --resume)");
      s.id_ = previous->id;
    } else {
      s.id_ = s.store_->create_campaign(request.kind, config.name, config.file.string(), request.effective.dump());
    }
  } catch (const store::StoreError& e) {
    throw SessionError(e.what());
  }

  std::string lock_problem;
  auto lock = store::CampaignLock::acquire(config.store / s.id_, lock_problem);
  if (!lock) throw SessionError(s.id_ + ": " + lock_problem);
  s.lock_.emplace(std::move(*lock));
  if (request.resume) s.store_->set_campaign_status(s.id_, store::CampaignStatus::running);

  s.recording_ = resolve_recording(config.rr, config.rr_timeslice_ticks);
  if (!s.recording_.error.empty()) {
    s.store_->set_campaign_status(s.id_, store::CampaignStatus::interrupted);
    throw SessionError(s.recording_.error);
  }
  // Looked for once: what it finds decides how many validations run at once and what the header says.
  s.tlc_missing_ = tlc_unavailable();
  s.validation_jobs_ = validation_jobs(config.validation, config.jobs, !s.tlc_missing_);
  s.settings_.validation_jobs = s.validation_jobs_.count;
  return s;
}

void Session::print_header(std::ostream& out, const std::string& runs_line) const {
  const CampaignConfig& config = *config_;
  // What TLC does here is said only where it will: with TLC present, after a native checker.
  const checkers::Checker checker = config.validation.checker;
  const bool confirms = !tlc_missing_ && config.validation.confirm_failures > 0 &&
                        (checker == checkers::Checker::native || checker == checkers::Checker::automatic);
  out << "omnilink " << to_string(kind_) << " " << id_ << (resumed_ ? " (resumed)" : "") << "  from " << config.file.string() << "\n"
      << "  store: " << config.store.string() << "\n"
      << "  " << runs_line << "; jobs " << config.jobs << "; run timeout " << config.run_timeout.count() << " s\n"
      << "  validations at once: " << validation_jobs_.why << "; checker " << checkers::checker_name(checker)
      << (confirms ? " (TLC confirms the first " + std::to_string(config.validation.confirm_failures) + " native FAILs of each target)" : "")
      << "; timeout " << config.validation.timeout.count() << " s each"
      << (tlc_missing_ ? "" : "; TLC heap " + config.validation.tlc.heap) << "\n"
      << "  rr: " << store::to_string(recording_.mode) << (recording_.soft_counters ? " (software counters, -W)" : "")
      << (recording_.recorded() ? "; timeslice at most " + std::to_string(recording_.timeslice_ticks) + " ticks" : "")
      << (recording_.rr ? " with " + recording_.rr->string() : "") << "\n";
  for (const auto& note : recording_.notes) out << "  " << note << "\n";
  // Said once here, with where omnilink looked; each run's caveat then only names the consequence.
  if (tlc_missing_) {
    out << "  TLC: not available (" << *tlc_missing_ << "): ";
    if (checker == checkers::Checker::tlc || checker == checkers::Checker::both)
      out << "the checker is " << checkers::checker_name(checker)
          << ", so every validation will be `unknown`; `omnilink revalidate` can check the traces later\n";
    else
      out << "the native checker decides every verdict, and its failures are not confirmed by TLC; a spec it cannot "
             "evaluate gets `unknown` (`omnilink revalidate --checker tlc` can check the traces later)\n";
  }
  out.flush();
}

bool Session::run(Executor& executor) {
  try {
    const bool completed = executor.run();
    store_->set_campaign_status(id_, completed ? store::CampaignStatus::finished : store::CampaignStatus::interrupted);
    return completed;
  } catch (const std::exception& e) {  // the store failed; Slurm refused an array; a shared file system failed
    try {
      store_->set_campaign_status(id_, store::CampaignStatus::interrupted);
    } catch (const store::StoreError&) {
      // The store is what failed: it keeps the status it had, and --resume reads that too.
    }
    const std::string name = executor.name();
    throw SessionFailed(name.empty() ? e.what() : name + ": " + e.what());
  }
}

void Session::read_interleavings(const std::vector<store::RunRecord>& evidence, std::ostream& out) const {
  if (config_->validation.interleavings == 0 || !recording_.recorded() || !recording_.rr) return;
  out << campaign::read_interleavings(evidence, *config_, *recording_.rr, out).text() << std::flush;
}

}  // namespace omnilink::campaign
