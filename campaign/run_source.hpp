// Where the engine's runs come from. A campaign's are a fixed plan, all known before the first
// starts (PlanSource, run_plan.hpp); a sweep's are drawn one at a time until its budget ends
// (sweep/sweep_source.hpp). The engine owns carrying runs out (record, pack, validate, store); the
// source owns which runs exist, how each one is run, and when no more may start.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace omnilink::campaign {

/// How one run differs from its target's settings.
struct RunVariant {
  std::vector<std::string> extra_args;           // after the target's own arguments
  std::optional<std::uint64_t> timeslice_ticks;  // rr's longest timeslice, instead of the campaign's
};

class RunSource {
 public:
  virtual ~RunSource() = default;

  /// Adds to the store the runs known before any starts (a plan's), leaving stored ones as they are.
  virtual void prepare(store::Store& store) = 0;
  /// Whether `run`, read back from the store, is one of this source's. The engine refuses others:
  /// it removes and rewrites run directories, and only ever those its source derives.
  virtual bool owns(const store::RunRecord& run) const = 0;
  /// How `run` is run.
  virtual RunVariant variant(const store::RunRecord& run) const = 0;
  /// Whether a run may start now; once false, the engine starts none and ends when idle.
  virtual bool may_start() const { return true; }
  /// A new run (added to the store, status pending) once the stored ones are under way; nothing
  /// when there will be no more.
  virtual std::optional<store::RunRecord> next(store::Store& store) = 0;
  /// `run` has its final outcome.
  virtual void finished(const store::RunRecord& run) { (void)run; }
  /// Every second while the engine runs.
  virtual void tick() {}
};

}  // namespace omnilink::campaign
