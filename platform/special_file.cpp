#include "platform/special_file.hpp"

namespace omnilink::platform {
namespace {

std::string kind_of(std::filesystem::file_type type) {
  switch (type) {
    case std::filesystem::file_type::directory: return "a directory";
    case std::filesystem::file_type::character: return "a character device";
    case std::filesystem::file_type::block: return "a block device";
    case std::filesystem::file_type::fifo: return "a FIFO";
    case std::filesystem::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

}  // namespace

std::optional<std::string> not_a_regular_file(const std::filesystem::path& path, const std::string& expected) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);  // through symbolic links: what would be read
  if (ec || !std::filesystem::exists(status) || std::filesystem::is_regular_file(status)) return std::nullopt;
  return kind_of(status.type()) + ", not " + expected +
         (std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec)) ? " (the symbolic link points there)" : "");
}

}  // namespace omnilink::platform
