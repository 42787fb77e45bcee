// FNV-1a, 64-bit: the stable hash behind the ids omnilink derives from text (failure signatures,
// sweep seeds, history fingerprints). Stable across builds and machines, unlike std::hash, so ids
// written to a store mean the same next night.
#pragma once

#include <cstdint>
#include <string_view>

namespace omnilink {

inline constexpr std::uint64_t kFnv1aBasis = 0xcbf29ce484222325ULL;

/// Continues the hash `h` over `bytes` (start from kFnv1aBasis).
inline constexpr std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t h = kFnv1aBasis) {
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

}  // namespace omnilink
