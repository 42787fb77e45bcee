// The native search's visited set: 128-bit state fingerprints in one open-addressed table (no
// allocation per state; a state is 16 bytes at a load of at most one half). Erasable, because a
// search that restarts forgets the states it had not finished exploring.
#pragma once

#include <cstddef>
#include <vector>

#include "language/value.hpp"

namespace omnilink::checkers {

class FingerprintSet {
 public:
  /// Room for `n` fingerprints without rehashing.
  void reserve(std::size_t n);
  /// False if it was there already.
  bool insert(language::Fingerprint f);
  /// Removes `f` if present (backward-shift deletion keeps every probe chain unbroken).
  void erase(language::Fingerprint f);
  std::size_t size() const { return size_; }
  /// Bytes the next insert would allocate (the doubled table, while the old one is still held),
  /// or 0 if it fits: a memory limit is checked before the set doubles, not after.
  std::size_t growth_bytes() const {
    return 2 * (size_ + 1) > slots_.size() ? (slots_.empty() ? 16 : 2 * slots_.size()) * sizeof(language::Fingerprint) : 0;
  }

 private:
  void rehash(std::size_t capacity);
  std::vector<language::Fingerprint> slots_;
  std::size_t size_ = 0;
};

}  // namespace omnilink::checkers
