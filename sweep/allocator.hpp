// How a sweep shares its runs among its configurations (docs/sweep.md, "Allocation"). First every
// configuration gets `min_runs` runs, fewest started first (file order breaking ties), so none is
// left unlooked-at. After that each run goes to the configuration with the highest upper confidence
// bound on its yield (UCB1): the share of its finished runs that found something, a failure or a
// crash or interleaving windows it had not seen (exploration.hpp), plus a bonus that shrinks as
// the configuration gets runs. Configurations that keep finding bugs or new behaviour get more
// runs; every one keeps getting some. Runs in flight count as started, so parallel picks spread.
#pragma once

#include <cstdint>
#include <vector>

namespace omnilink::sweep {

class Allocator {
 public:
  struct Arm {
    std::uint64_t started = 0;
    std::uint64_t finished = 0;
    std::uint64_t yields = 0;  // finished runs that found something
  };

  Allocator(std::size_t configurations, std::uint32_t min_runs);

  /// The configuration the next run goes to.
  std::size_t next() const;
  void started(std::size_t configuration) { ++arms_.at(configuration).started; }
  void finished(std::size_t configuration, bool found_something);

  const std::vector<Arm>& arms() const { return arms_; }

 private:
  std::vector<Arm> arms_;
  std::uint32_t min_runs_;
};

}  // namespace omnilink::sweep
