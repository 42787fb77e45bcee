// The native stress lane: random yields and short sleeps at operation boundaries, and optional
// pinning of all workers to one CPU. For machines without rr, and as a complement to rr's chaos
// mode, which runs all threads on one core. Draws from its own random stream, so turning it on does
// not change which operations a thread performs.
#pragma once

#include <cstdint>

#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "omnilink/options.hpp"
#include "omnilink/rng.hpp"

namespace omnilink {

class Perturber {
 public:
  Perturber(const Options& o, std::uint64_t seed)
      : mode_(o.perturb), rate_(o.perturb_rate), sleep_max_us_(o.sleep_max_us), rng_(seed) {}

  // Called before and after every operation.
  void at_boundary() {
    if (mode_ == PerturbMode::none || !rng_.chance(rate_)) return;
    bool sleep = mode_ == PerturbMode::sleep || (mode_ == PerturbMode::mixed && (rng_() & 1));
    if (!sleep) {
      sched_yield();
      return;
    }
    std::uint64_t us = 1 + rng_.below(sleep_max_us_);
    timespec ts{static_cast<time_t>(us / 1'000'000), static_cast<long>(us % 1'000'000) * 1000};
    nanosleep(&ts, nullptr);
  }

  // Pins the calling thread to `cpu`. Returns false (and leaves affinity alone) if that fails.
  static bool pin_to(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
  }

 private:
  PerturbMode mode_;
  double rate_;
  std::uint32_t sleep_max_us_;
  Rng rng_;
};

}  // namespace omnilink
