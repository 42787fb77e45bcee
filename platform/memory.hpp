// Memory as the machine and this process have it: sizes written as a JVM's -Xmx is (512m, 2g),
// what the machine has and can still give, and what this process holds. For the validators'
// budgets (TLC's heap, the native search's limit); what to do at a limit is theirs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace omnilink::platform {

/// "64k", "512m", "2g" (either case): bytes; nothing for anything else (no unit, 0, a sign, spaces).
std::optional<std::uint64_t> parse_byte_size(const std::string& text);

/// A memory limit as the user writes it (parse_byte_size, at least 1m), in MiB; nothing otherwise.
std::optional<std::uint64_t> parse_memory_limit_mb(const std::string& text);

/// MemAvailable from /proc/meminfo; nothing where it cannot be read.
std::optional<std::uint64_t> available_memory_bytes();

/// The machine's physical memory; 0 where it cannot be read.
std::uint64_t physical_memory_bytes();

/// This process's resident memory (/proc/self/statm); 0 where it cannot be read.
std::uint64_t resident_memory_bytes();

}  // namespace omnilink::platform
