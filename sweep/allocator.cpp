#include "sweep/allocator.hpp"

#include <cmath>
#include <stdexcept>

namespace omnilink::sweep {

Allocator::Allocator(std::size_t configurations, std::uint32_t min_runs) : arms_(configurations), min_runs_(min_runs) {
  if (configurations == 0) throw std::invalid_argument("Allocator: no configurations");
}

void Allocator::finished(std::size_t configuration, bool found_something) {
  Arm& arm = arms_.at(configuration);
  ++arm.finished;
  if (found_something) ++arm.yields;
}

std::size_t Allocator::next() const {
  std::size_t best = 0;
  for (std::size_t c = 1; c < arms_.size(); ++c)
    if (arms_[c].started < arms_[best].started) best = c;
  if (arms_[best].started < min_runs_) return best;

  std::uint64_t total = 0;
  for (const Arm& arm : arms_) total += arm.started;
  const double log_total = std::log(static_cast<double>(total));
  double best_score = -1;
  for (std::size_t c = 0; c < arms_.size(); ++c) {
    const Arm& arm = arms_[c];
    // The yield with one half-success of prior, so a configuration whose runs are all in flight
    // counts as an even chance rather than as nothing.
    const double yield = (static_cast<double>(arm.yields) + 0.5) / (static_cast<double>(arm.finished) + 1.0);
    const double score = yield + std::sqrt(2.0 * log_total / static_cast<double>(arm.started));
    if (score > best_score) {
      best_score = score;
      best = c;
    }
  }
  return best;
}

}  // namespace omnilink::sweep
