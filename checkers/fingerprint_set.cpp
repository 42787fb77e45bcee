#include "checkers/fingerprint_set.hpp"

namespace omnilink::checkers {

using language::Fingerprint;

void FingerprintSet::reserve(std::size_t n) {
  std::size_t capacity = 16;
  while (capacity < 2 * n) capacity *= 2;
  if (capacity > slots_.size()) rehash(capacity);
}

bool FingerprintSet::insert(Fingerprint f) {
  if (f == Fingerprint{}) f.low = 1;  // {0, 0} marks an empty slot
  if (2 * (size_ + 1) > slots_.size()) rehash(slots_.empty() ? 16 : 2 * slots_.size());
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t k = static_cast<std::size_t>(f.low) & mask;; k = (k + 1) & mask) {
    if (slots_[k] == f) return false;
    if (slots_[k] == Fingerprint{}) {
      slots_[k] = f;
      ++size_;
      return true;
    }
  }
}

void FingerprintSet::erase(Fingerprint f) {
  if (f == Fingerprint{}) f.low = 1;
  if (slots_.empty()) return;
  const std::size_t mask = slots_.size() - 1;
  std::size_t k = static_cast<std::size_t>(f.low) & mask;
  while (!(slots_[k] == f)) {
    if (slots_[k] == Fingerprint{}) return;
    k = (k + 1) & mask;
  }
  for (std::size_t next = (k + 1) & mask; !(slots_[next] == Fingerprint{}); next = (next + 1) & mask) {
    // The entry at `next` may move into the hole at `k` unless its home slot lies cyclically in (k, next].
    const std::size_t home = static_cast<std::size_t>(slots_[next].low) & mask;
    if (((next - home) & mask) >= ((next - k) & mask)) {
      slots_[k] = slots_[next];
      k = next;
    }
  }
  slots_[k] = Fingerprint{};
  --size_;
}

void FingerprintSet::rehash(std::size_t capacity) {
  std::vector<Fingerprint> old = std::move(slots_);
  slots_.assign(capacity, Fingerprint{});
  size_ = 0;
  for (const Fingerprint& f : old)
    if (!(f == Fingerprint{})) insert(f);
}

}  // namespace omnilink::checkers
