#include "orchestrator/campaign_session.hpp"

#include <fstream>
#include <iostream>

#include "campaign/validation_pool.hpp"
#include "platform/toolchain.hpp"

namespace omnilink::cli {
using namespace omnilink::campaign;

std::optional<CampaignSession> CampaignSession::open(const Request& request) {
  const CampaignConfig& config = *request.config;
  const std::string verb = "omnilink " + request.verb + ": ";
  CampaignSession s;
  s.verb_ = request.verb;
  s.config_ = &config;
  s.resumed_ = request.resume;
  try {
    // --resume continues a campaign: a store that is not there is a mistake, not one to create.
    s.store_ = std::make_unique<store::Store>(request.resume ? store::Store::open_existing(config.store) : store::Store::open(config.store));
    if (request.resume) {
      const auto previous = request.resume_id.empty() ? s.store_->latest_campaign(config.name) : s.store_->campaign(request.resume_id);
      if (!previous) {
        std::cerr << verb << "--resume: no " << request.verb << " "
                  << (request.resume_id.empty() ? "named '" + config.name + "'" : request.resume_id) << " in " << config.store.string() << "\n";
        return std::nullopt;
      }
      if (previous->name != config.name) {
        std::cerr << verb << "--resume --id " << request.resume_id << ": that " << request.verb << " is named '" << previous->name
                  << "', this file's '" << config.name << "'\n";
        return std::nullopt;
      }
      const std::string why = request.plan_difference(nlohmann::json::parse(previous->config_json), request.effective);
      if (!why.empty()) {
        std::cerr << verb << "--resume: cannot continue " << previous->id << ": " << why << " (start a new " << request.verb
                  << " instead, without --resume)\n";
        return std::nullopt;
      }
      s.id_ = previous->id;
    } else {
      s.id_ = s.store_->create_campaign(config.name, config.file.string(), request.effective.dump());
    }
  } catch (const store::StoreError& e) {
    std::cerr << verb << e.what() << "\n";
    return std::nullopt;
  }

  std::string lock_problem;
  auto lock = store::CampaignLock::acquire(config.store / s.id_, lock_problem);
  if (!lock) {
    std::cerr << verb << s.id_ << ": " << lock_problem << "\n";
    return std::nullopt;
  }
  s.lock_.emplace(std::move(*lock));
  if (request.resume) s.store_->set_campaign_status(s.id_, "running");

  s.recording_ = resolve_recording(config.rr, config.rr_timeslice_ticks);
  if (!s.recording_.error.empty()) {
    std::cerr << verb << s.recording_.error << "\n";
    s.store_->set_campaign_status(s.id_, "interrupted");
    return std::nullopt;
  }
  // Looked for once: what it finds decides how many validations run at once and what the header says.
  s.tlc_missing_ = tlc_unavailable();
  s.validation_jobs_ = validation_jobs(config.validation, config.jobs, !s.tlc_missing_);
  s.settings_.validation_jobs = s.validation_jobs_.count;
  return s;
}

void CampaignSession::print_header(std::ostream& out, const std::string& runs_line) const {
  const CampaignConfig& config = *config_;
  out << "omnilink " << verb_ << " " << id_ << (resumed_ ? " (resumed)" : "") << "  from " << config.file.string() << "\n"
      << "  store: " << config.store.string() << "\n"
      << "  " << runs_line << "; jobs " << config.jobs << "; run timeout " << config.run_timeout.count() << " s\n"
      << "  validations at once: " << validation_jobs_.why << "; checker " << validation::checker_name(config.validation.checker)
      << " (TLC confirms the first " << config.validation.confirm_failures << " native FAILs of each target); timeout "
      << config.validation.timeout.count() << " s each; TLC heap " << config.validation.tlc.heap << "\n"
      << "  rr: " << recording_.mode_name() << (recording_.soft_counters ? " (software counters, -W)" : "")
      << (recording_.mode != RrMode::off ? "; timeslice at most " + std::to_string(recording_.timeslice_ticks) + " ticks" : "")
      << (recording_.rr ? " with " + recording_.rr->string() : "") << "\n";
  for (const auto& note : recording_.notes) out << "  " << note << "\n";
  // Said once here, with where omnilink looked; each run's caveat then only names the consequence.
  if (tlc_missing_) {
    out << "  TLC: not available (" << *tlc_missing_ << "): ";
    if (config.validation.checker == validation::Checker::tlc || config.validation.checker == validation::Checker::both)
      out << "the checker is " << validation::checker_name(config.validation.checker)
          << ", so every validation will be `unknown`; `omnilink revalidate` can check the traces later\n";
    else
      out << "the native checker decides every verdict, and its failures are not confirmed by TLC; a spec it cannot "
             "evaluate gets `unknown` (`omnilink revalidate --checker tlc` can check the traces later)\n";
  }
  out.flush();
}

std::optional<bool> CampaignSession::run(RunSource& source, Progress& progress) {
  return run_with([&] {
    Engine engine(*config_, *store_, id_, source, recording_, settings_, progress);
    return engine.run();
  });
}

std::optional<bool> CampaignSession::run_with(const std::function<bool()>& executor, const std::string& context) {
  try {
    const bool completed = executor();
    store_->set_campaign_status(id_, completed ? "finished" : "interrupted");
    return completed;
  } catch (const std::exception& e) {  // the store failed; Slurm refused an array; a shared file system failed
    std::cerr << "omnilink " << verb_ << ": " << context << e.what() << "\n";
    try {
      store_->set_campaign_status(id_, "interrupted");
    } catch (const store::StoreError&) {
      // The store is what failed: it keeps the status it had, and --resume reads that too.
    }
    return std::nullopt;
  }
}

bool write_report(const std::string& verb, const std::string& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) std::cerr << "omnilink " << verb << ": cannot write " << file << "\n";
  return static_cast<bool>(out);
}

}  // namespace omnilink::cli
