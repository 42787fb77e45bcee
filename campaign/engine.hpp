// The campaign pipeline: every planned run that is not final yet is recorded (the harness, under
// rr when the campaign records), packed (`rr pack`), and validated (validation_pool.hpp: the native
// checker, TLC, or both, as the campaign's `validation` says), with up to `jobs` harness runs and,
// separately, up to EngineSettings::validation_jobs validations at once, overlapping as a pipeline. Each step's result goes to the store as soon as it is known, so an interruption (Ctrl-C,
// SIGTERM, a crash of omnilink itself) loses at most the steps in flight, which `--resume` redoes.
//
// Time limits and interruptions stop a run's whole process group: SIGTERM first, so the harness's
// crash guard can flush its trace and rr can finish its recording, then SIGKILL after a grace
// period. A second Ctrl-C skips the grace period.
#pragma once

#include <chrono>
#include <string>

#include "campaign/campaign_file.hpp"
#include "campaign/progress.hpp"
#include "campaign/recording.hpp"
#include "campaign/run_source.hpp"
#include "store/store.hpp"

namespace omnilink::campaign {

struct EngineSettings {
  unsigned validation_jobs = 1;
  std::chrono::milliseconds grace{3000};  // between SIGTERM and SIGKILL
  // Attempts at a run whose recording failed because of rr itself (rr.soft's chaos mode has been
  // seen to assert on a few percent of multi-threaded recordings); the last attempt's error stands.
  unsigned rr_attempts = 5;
};

class Engine {
 public:
  Engine(const CampaignConfig& config, store::Store& store, const std::string& campaign_id, RunSource& source, const Recording& recording,
         const EngineSettings& settings, Progress& progress);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Has the source add its runs to the store, carries out every stored run not yet final, then
  // the source's new ones while it has any and lets them start. Returns false if the campaign was
  // interrupted by SIGINT/SIGTERM.
  bool run();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace omnilink::campaign
