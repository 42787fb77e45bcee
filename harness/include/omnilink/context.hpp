// What an operation function sees: its thread, its random stream, and the calls that shape what
// is logged: unsupported(), failed_without_effect(), inputs_ready(), refine_start(), refine_end().
#pragma once

#include <cstdint>

#include "omnilink/clock.hpp"
#include "omnilink/options.hpp"
#include "omnilink/rng.hpp"

namespace omnilink {

template <class Sut>
class Harness;

class Context {
 public:
  Context(std::uint32_t thread, const Options& options, Clock& clock, std::uint64_t seed)
      : thread_(thread), options_(options), clock_(clock), rng_(seed) {}

  std::uint32_t thread() const { return thread_; }
  // The per-thread index this operation is logged with.
  std::uint64_t index() const { return index_; }
  const Options& options() const { return options_; }

  // This thread's deterministic random stream (derived from the run seed).
  Rng& rng() { return rng_; }
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) { return rng_.uniform(lo, hi); }
  bool chance(double p) { return rng_.chance(p); }

  // The operation cannot run in the current state (e.g. the workload has no token for it): nothing
  // is logged and the driver picks another operation. Call it before touching the system.
  void unsupported() { unsupported_ = true; }
  // The call failed and had no effect on the system (e.g. try_dequeue on an empty queue that the
  // spec does not model as an action): logged with "failed": true, so validation can skip it.
  void failed_without_effect() { failed_ = true; }
  // The operation's declared inputs (omnilink_inputs) are set: if the run dies from here until the
  // operation is logged, it is logged as pending with these inputs, and validation may complete it
  // with any results the spec accepts (or leave it out). Call it right before calling the system;
  // refine_start() implies it. Without it (or without declared inputs) a pending record carries no
  // inputs, and validation must try every value for them too. Costs one copy of the inputs.
  void inputs_ready() {
    if (take_inputs_ != nullptr && !inputs_taken_) {
      take_inputs_(inputs_owner_, inputs_op_);
      inputs_taken_ = true;
    }
  }
  // Narrow the timebox (paper §4.4.1): the call of interest starts now (e.g. after argument set-up
  // or after acquiring a lock that is not part of the operation's semantics)...
  void refine_start() {
    inputs_ready();
    start_ = clock_.before();
    start_refined_ = true;
  }
  // ... or has ended now (e.g. before post-processing the result).
  void refine_end() { end_ = clock_.after(); end_refined_ = true; }

 private:
  template <class Sut>
  friend class Harness;

  // `take_inputs(owner, op)` copies op's inputs for the crash handler; null when the operation
  // declares none to copy.
  using TakeInputs = void (*)(void* owner, const void* op);
  void reset(std::uint64_t index, std::uint64_t start, TakeInputs take_inputs, void* owner, const void* op) {
    index_ = index;
    start_ = start;
    unsupported_ = failed_ = start_refined_ = end_refined_ = inputs_taken_ = false;
    take_inputs_ = take_inputs;
    inputs_owner_ = owner;
    inputs_op_ = op;
  }

  std::uint32_t thread_;
  const Options& options_;
  Clock& clock_;
  Rng rng_;
  std::uint64_t index_ = 0;
  std::uint64_t start_ = 0;
  std::uint64_t end_ = 0;
  bool unsupported_ = false;
  bool failed_ = false;
  bool start_refined_ = false;
  bool end_refined_ = false;
  bool inputs_taken_ = false;
  TakeInputs take_inputs_ = nullptr;
  void* inputs_owner_ = nullptr;
  const void* inputs_op_ = nullptr;
};

}  // namespace omnilink
