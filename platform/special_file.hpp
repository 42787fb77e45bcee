// Input files that are not files: a path a user names as a spec, a history, a campaign or a TLC
// configuration may be a device (/dev/zero is read forever), a FIFO (a read blocks), a socket or a
// directory, directly or through a symbolic link. Each reader asks here first and names it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace omnilink::platform {

/// What `path` is when it exists and is no regular file, followed through symbolic links, for a
/// message: "a character device, not <expected>" with " (the symbolic link points there)" when
/// `path` is a link. Nullopt for a regular file, and for nothing at all (the reader says that).
std::optional<std::string> not_a_regular_file(const std::filesystem::path& path, const std::string& expected);

}  // namespace omnilink::platform
