#include "campaign/engine.hpp"

#include <csignal>
#include <deque>
#include <map>
#include <memory>
#include <set>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "findings/crash_site.hpp"
#include "campaign/harness_status.hpp"
#include "campaign/run_plan.hpp"
#include "campaign/validation_pool.hpp"
#include "platform/stop_request.hpp"
#include "platform/supervisor.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::campaign {
namespace fs = std::filesystem;
namespace {

// A harness run in flight: its store record and the timers that may stop it.
struct ActiveRun {
  store::RunRecord record;
  pid_t pid = -1;
  unsigned attempt = 1;
  bool timed_out = false;
  bool interrupted = false;
  std::unique_ptr<boost::asio::steady_timer> deadline;
  std::unique_ptr<boost::asio::steady_timer> kill_timer;
};

bool validation_final(const store::RunRecord& run) { return run.validation.has_value(); }

// Validations waiting or running, per validation worker, beyond which a source's new runs wait.
constexpr std::size_t kValidationBacklog = 2;

}  // namespace

struct Engine::State {
  const CampaignConfig& config;
  store::Store& store;
  std::string campaign_id;
  RunSource& source;
  const Recording& recording;
  EngineSettings settings;
  Progress& progress;

  boost::asio::io_context io;
  Supervisor supervisor{io};
  ValidationPool validations;
  boost::asio::signal_set stop_signals{io, SIGINT, SIGTERM};
  boost::asio::steady_timer ticker{io};

  std::deque<store::RunRecord> to_record;    // stored runs whose harness phase is still to do
  bool source_done = false;           // the source has no new runs
  std::map<std::string, std::unique_ptr<ActiveRun>> active;  // by run id
  std::size_t validating = 0;         // submitted to the pool, result not back yet
  std::map<std::string, unsigned> native_failures;  // per target: native FAILs so far (the first have TLC confirm them)
  int stop_requests = 0;

  State(const CampaignConfig& c, store::Store& s, std::string id, RunSource& src, const Recording& r, const EngineSettings& e, Progress& p)
      : config(c), store(s), campaign_id(std::move(id)), source(src), recording(r), settings(e), progress(p), validations(io, e.validation_jobs) {}

  std::string run_dir(const std::string& run_id) const { return store::run_directory(config.store, campaign_id, run_id).string(); }

  const TargetConfig& target_of(const store::RunRecord& run) const {
    if (const TargetConfig* t = config.target(run.target)) return *t;
    throw store::StoreError("run " + run.key() + " names target '" + run.target + "', which the campaign file lacks");
  }

  // --- set-up -------------------------------------------------------------------------------

  // Sorts the stored runs into done, to validate and to record (resume starts here too).
  void sort_runs(std::vector<store::RunRecord>& done, std::vector<store::RunRecord>& to_validate) {
    for (auto& run : store.runs(campaign_id)) {
      // Run directories are removed and rewritten: only ever the source's own, under this store
      // (wherever it is now: a store may be moved), never a path read back from the database.
      if (!source.owns(run)) throw store::StoreError("run " + run.key() + " in the store is not in this campaign's plan");
      run.dir = run_dir(run.id);
      const bool harness_done = run.status == store::RunStatus::ok || run.status == store::RunStatus::crashed || run.status == store::RunStatus::timeout;
      if (run.status == store::RunStatus::bad_trace || run.status == store::RunStatus::error || (harness_done && validation_final(run))) {
        done.push_back(std::move(run));
      } else if (harness_done && fs::is_directory(run.dir)) {
        to_validate.push_back(std::move(run));
      } else {
        to_record.push_back(std::move(run));
      }
    }
  }

  // --- harness phase ------------------------------------------------------------------------

  void launch_more() {
    while (stop_requests == 0 && active.size() < config.jobs && source.may_start()) {
      std::optional<store::RunRecord> run;
      if (!to_record.empty()) {
        run = std::move(to_record.front());
        to_record.pop_front();
      } else if (!source_done && validating < kValidationBacklog * validations.jobs()) {
        // A source's new runs wait while validations queue up: with harness runs faster than their
        // validation, a sweep would otherwise start runs its budget leaves no time to validate.
        run = source.next(store);
        if (run) run->dir = run_dir(run->id);
        source_done = !run;
      }
      if (!run) break;
      start_run(std::move(*run));
    }
    finish_if_idle();
  }

  void start_run(store::RunRecord run, unsigned attempt = 1) {
    auto a = std::make_unique<ActiveRun>();
    a->attempt = attempt;
    // A run starts from nothing: what an interrupted attempt left is removed (the path is the
    // store's, built from checked names).
    std::error_code ignored;  // a failure shows as the harness failing to write its run directory
    fs::remove_all(run.dir, ignored);
    fs::create_directories(run.dir, ignored);
    run.status = store::RunStatus::running;
    run.detail.clear();
    run.rr_mode = recording.mode;
    run.rr_soft_counters = recording.recorded() && recording.soft_counters;
    run.exit_code.reset();
    run.exit_signal.reset();
    run.validation.reset();
    run.started_ms = store::now_ms();
    run.finished_ms = run.harness_ms = run.pack_ms = 0;
    store.update_run(run);

    const RunVariant variant = source.variant(run);
    Recording this_run = recording;
    if (variant.timeslice_ticks) this_run.timeslice_ticks = *variant.timeslice_ticks;
    if (recording.recorded()) write_recording_facts(run.dir, this_run);
    TargetConfig target = target_of(run);
    target.args.insert(target.args.end(), variant.extra_args.begin(), variant.extra_args.end());
    const RunCommand command = run_command(this_run, target, run.threads, run.ops, run.seed, run.dir);
    const trace::RunLayout layout(run.dir);
    ChildSpec spec{command.exe, command.args, layout.harness_out(), layout.harness_err(), {}};
    const std::string id = run.id;
    a->record = std::move(run);
    ActiveRun& active_run = *a;
    active.emplace(id, std::move(a));
    progress.phase(id, recording.recorded() ? "recording" : "running");
    active_run.pid = supervisor.start(spec, [this, id](const ChildExit& exit) { harness_ended(id, exit); });
    if (active_run.pid < 0) return;
    active_run.deadline = std::make_unique<boost::asio::steady_timer>(io, config.run_timeout);
    active_run.deadline->async_wait([this, id](const boost::system::error_code& ec) {
      if (ec) return;
      auto it = active.find(id);
      if (it == active.end()) return;
      it->second->timed_out = true;
      stop_group(*it->second);
    });
  }

  // SIGTERM to the run's process group now, SIGKILL after the grace period.
  void stop_group(ActiveRun& run) {
    supervisor.signal_group(run.pid, SIGTERM);
    run.kill_timer = std::make_unique<boost::asio::steady_timer>(io, settings.grace);
    const pid_t pid = run.pid;
    run.kill_timer->async_wait([this, pid](const boost::system::error_code& ec) {
      if (!ec) supervisor.signal_group(pid, SIGKILL);
    });
  }

  void harness_ended(const std::string& id, const ChildExit& exit) {
    ActiveRun& a = *active.at(id);
    if (a.deadline) a.deadline->cancel();
    if (a.kill_timer) a.kill_timer->cancel();
    store::RunRecord& run = a.record;
    run.harness_ms = exit.duration.count();
    const HarnessVerdict v = classify_harness_run({exit, a.timed_out, a.interrupted, recording.recorded(), config.run_timeout}, run.dir);
    if (v.rr_failed && a.attempt < settings.rr_attempts && stop_requests == 0) {
      progress.note(id + ": rr failed while recording, recording it again (attempt " + std::to_string(a.attempt + 1) +
                    " of " + std::to_string(settings.rr_attempts) + ")");
      store::RunRecord again = std::move(run);
      const unsigned attempt = a.attempt + 1;
      active.erase(id);
      start_run(std::move(again), attempt);
      return;
    }
    run.status = v.status;
    run.detail = v.detail;
    run.exit_code = v.exit_code;
    run.exit_signal = v.exit_signal;
    if (run.status == store::RunStatus::crashed) findings::record_crash_site(run.dir);  // now, while the executable is the one that ran
    const bool recorded = recording.recorded() && fs::is_directory(trace::RunLayout(run.dir).recording());
    if (recorded && run.status != store::RunStatus::interrupted && stop_requests == 0) {
      store.update_run(run);  // the harness's outcome is kept even if omnilink dies while packing
      pack(id, v.validate);
      return;
    }
    harness_phase_done(id, v.validate);
  }

  // `rr pack`: makes the recording self-contained (copies the binaries and libraries it maps), so
  // it replays after the harness is rebuilt or the recording is moved to another machine.
  void pack(const std::string& id, bool validate) {
    ActiveRun& a = *active.at(id);
    progress.phase(id, "packing");
    const trace::RunLayout layout(a.record.dir);
    ChildSpec spec{*recording.rr, {"pack", layout.recording().string()}, layout.pack_log(), layout.pack_errors(), {}};
    a.pid = supervisor.start(spec, [this, id, validate](const ChildExit& exit) {
      store::RunRecord& run = active.at(id)->record;
      run.pack_ms = exit.duration.count();
      if (exit.signal != 0 || exit.exit_code != 0)
        run.detail += std::string(run.detail.empty() ? "" : "; ") + "rr pack failed (" + exit.describe() + "): the recording replays only here";
      harness_phase_done(id, validate);
    });
  }

  void harness_phase_done(const std::string& id, bool validate) {
    store::RunRecord run = std::move(active.at(id)->record);
    active.erase(id);
    const bool validate_now = validate && stop_requests == 0;
    if (!validate_now) run.finished_ms = store::now_ms();
    store.update_run(run);
    if (validate_now) submit_validation(std::move(run));
    else if (run.status != store::RunStatus::interrupted) run_finished(run);
    launch_more();
  }

  // --- validation phase ---------------------------------------------------------------------

  void submit_validation(store::RunRecord run) {
    const TargetConfig& target = target_of(run);
    // The first failing runs of each target have TLC confirm a native FAIL; counted when submitted,
    // so validations running at once may confirm a few more than asked.
    const bool confirm = native_failures[target.name] < config.validation.confirm_failures;
    const checkers::ValidateOptions options = validate_options(target, config.validation, confirm, run.dir);
    ++validating;
    const std::string id = run.id;
    progress.phase(id, "waiting to validate");
    validations.submit(
        options, [this, id] { progress.phase(id, "validating"); },
        [this, run = std::move(run), spec = target.spec](results::ValidationResult result) mutable {
          --validating;
          validation_done(std::move(run), spec, result);
        });
  }

  void validation_done(store::RunRecord run, const fs::path& spec, const results::ValidationResult& result) {
    if (result.checker == results::DecidedBy::native && result.verdict == results::Verdict::fail) ++native_failures[target_of(run).name];
    if (result.cancelled) {
      // Not a verdict: the run stays without one, and --resume validates it.
      finish_if_idle();
      return;
    }
    record_validation(store, run, result, spec);
    run_finished(run);
    launch_more();
  }

  void run_finished(const store::RunRecord& run) {
    progress.finished(run);
    source.finished(run);
  }

  // --- stopping -----------------------------------------------------------------------------

  void wait_for_stop_signal() {
    stop_signals.async_wait([this](const boost::system::error_code& ec, int sig) {
      if (ec) return;
      ++stop_requests;
      if (stop_requests == 1) {
        progress.note(std::string(stop_signal_name(sig)) + ": stopping " + std::to_string(active.size()) +
                      " run(s) and " + std::to_string(validating) + " validation(s); press Ctrl-C again to kill them at once");
        validations.cancel();
        for (auto& [id, a] : active) {
          a->interrupted = true;
          if (a->pid > 0) stop_group(*a);
        }
      } else {
        for (auto& [id, a] : active)
          if (a->pid > 0) supervisor.signal_group(a->pid, SIGKILL);
      }
      wait_for_stop_signal();
      finish_if_idle();
    });
  }

  void tick() {
    ticker.expires_after(std::chrono::seconds(1));
    ticker.async_wait([this](const boost::system::error_code& ec) {
      if (ec) return;
      progress.tick();
      source.tick();
      tick();
    });
  }

  void finish_if_idle() {
    const bool nothing_left = stop_requests > 0 || !source.may_start() || (to_record.empty() && source_done);
    // The supervisor's SIGCHLD wait never runs out on its own, so the loop is stopped explicitly.
    if (nothing_left && active.empty() && validating == 0) io.stop();
  }
};

Engine::Engine(const CampaignConfig& config, store::Store& store, const std::string& campaign_id, RunSource& source,
               const Recording& recording, const EngineSettings& settings, Progress& progress)
    : state_(std::make_unique<State>(config, store, campaign_id, source, recording, settings, progress)) {}

Engine::~Engine() = default;

bool Engine::run() {
  State& s = *state_;
  s.source.prepare(s.store);
  std::vector<store::RunRecord> done, to_validate;
  s.sort_runs(done, to_validate);
  s.progress.begin(done.size() + to_validate.size() + s.to_record.size(), done);
  s.wait_for_stop_signal();
  s.tick();
  for (auto& run : to_validate) s.submit_validation(std::move(run));
  s.launch_more();
  s.io.run();
  s.progress.end();
  return s.stop_requests == 0;
}

}  // namespace omnilink::campaign
