// Who carries out a session's runs: this machine's engine (LocalExecutor), or a Slurm job array
// (slurm::SlurmExecutor). The session owns the store, the campaign, its lock and its status; an
// executor owns only how the runs get done, and says whether they all were.
#pragma once

#include <string>
#include <vector>

#include "campaign/progress.hpp"
#include "campaign/run_source.hpp"

namespace omnilink::campaign {

class Session;

class Executor {
 public:
  virtual ~Executor() = default;
  /// How a failure's message names it ("--executor slurm"); "" for this machine's.
  virtual std::string name() const = 0;
  /// Carries out the session's runs; false when interrupted (SIGINT/SIGTERM). Throws what failed
  /// (the store, Slurm refusing an array, a shared file system); the session says so.
  virtual bool run() = 0;
  /// Runs it could not deliver, each with why: a sweep's Slurm tasks that ended without
  /// delivering. (A campaign's undelivered runs are recorded as `error` instead.)
  virtual std::vector<std::string> missing() const { return {}; }
};

/// This machine: the engine over `source`, with the session's recording and validation budget.
class LocalExecutor final : public Executor {
 public:
  LocalExecutor(Session& session, RunSource& source, Progress& progress) : session_(session), source_(source), progress_(progress) {}
  std::string name() const override { return ""; }
  bool run() override;

 private:
  Session& session_;
  RunSource& source_;
  Progress& progress_;
};

}  // namespace omnilink::campaign
