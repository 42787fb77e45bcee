#include "platform/memory.hpp"

#include <fstream>
#include <limits>
#include <sstream>

#include <unistd.h>

namespace omnilink::platform {

std::optional<std::uint64_t> parse_byte_size(const std::string& text) {
  // At most 17 digits, the first not 0 (no empty sizes): no overflow below.
  if (text.size() < 2 || text.size() > 18 || text[0] == '0') return std::nullopt;
  std::uint64_t n = 0;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    n = n * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  unsigned shift = 0;
  switch (text.back()) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    default: return std::nullopt;
  }
  // A size past 64 bits is refused, not wrapped around to a small one.
  if (n > (std::numeric_limits<std::uint64_t>::max() >> shift)) return std::nullopt;
  return n << shift;
}

std::optional<std::uint64_t> parse_memory_limit_mb(const std::string& text) {
  const auto bytes = parse_byte_size(text);
  if (!bytes || *bytes < (1ull << 20)) return std::nullopt;
  return *bytes >> 20;
}

std::optional<std::uint64_t> available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    std::uint64_t kb = 0;
    if (fields >> kb) return kb << 10;
  }
  return std::nullopt;
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages <= 0 || page <= 0 ? 0 : static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

std::uint64_t resident_memory_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace omnilink::platform
