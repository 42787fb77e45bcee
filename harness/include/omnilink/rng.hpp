// Deterministic random streams. One run seed derives an independent stream per thread (and a
// separate one per thread for perturbation, so enabling the stress lane does not change which
// operations a thread performs). Self-contained algorithms, so a seed means the same sequence
// with any standard library: a run is re-runnable from its seed with or without rr.
#pragma once

#include <cstdint>
#include <limits>

namespace omnilink {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// xoshiro256** (Blackman & Vigna): fast, small state, good statistical quality.
class Rng {
 public:
  using result_type = std::uint64_t;
  explicit Rng(std::uint64_t seed) {
    for (auto& word : s_) word = splitmix64(seed);
  }
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  result_type operator()() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, bound) without modulo bias (Lemire's multiply-and-reject).
  std::uint64_t below(std::uint64_t bound) {
    if (bound == 0) return 0;
    for (;;) {
      __extension__ using u128 = unsigned __int128;  // __extension__: GCC/Clang builtin, not ISO
      u128 m = static_cast<u128>((*this)()) * bound;
      auto low = static_cast<std::uint64_t>(m);
      if (low >= bound || low >= (-bound) % bound) return static_cast<std::uint64_t>(m >> 64);
    }
  }

  // Uniform in [lo, hi] (inclusive).
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
    auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    if (span == std::numeric_limits<std::uint64_t>::max()) return static_cast<std::int64_t>((*this)());
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + below(span + 1));
  }

  // True with probability p.
  bool chance(double p) { return static_cast<double>((*this)() >> 11) * 0x1.0p-53 < p; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

// The seed of stream `stream` of thread `thread`, derived from the run seed.
inline std::uint64_t derive_seed(std::uint64_t run_seed, std::uint32_t thread, std::uint32_t stream) {
  std::uint64_t state = run_seed ^ (static_cast<std::uint64_t>(thread) << 32 | stream);
  splitmix64(state);
  return splitmix64(state);
}

}  // namespace omnilink
