// A JSON file omnilink writes and reads back itself (run.json, campaign.json's status, the sweep
// clock, result.json): written whole, read as one value. Errors are thrown as `Error`, naming the
// file, so each format's owner keeps its own error type.
#pragma once

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

namespace omnilink::platform {

/// Writes `value` to `file` through a temporary file beside it, renamed over it: a kill or a full
/// disk in the middle leaves the previous file, never half of one.
template <class Error>
void write_json_file(const std::filesystem::path& file, const nlohmann::json& value, int indent = 2) {
  const std::filesystem::path temporary = file.parent_path() / ("." + file.filename().string() + ".tmp");
  std::error_code ec;
  {
    errno = 0;
    std::ofstream out(temporary, std::ios::trunc);
    if (out) out << value.dump(indent) << "\n";
    if (!out || !out.flush()) {
      // The reason (a full disk: "No space left on device") is what the user acts on.
      const int error = errno;
      out.close();
      std::filesystem::remove(temporary, ec);
      throw Error("cannot write " + temporary.string() + ": " + (error != 0 ? std::strerror(error) : "the write failed"));
    }
  }
  std::filesystem::rename(temporary, file, ec);
  if (ec) throw Error("cannot write " + file.string() + ": " + ec.message());
}

/// The JSON value in `file`; nullopt when there is no such file. Throws `Error` when it cannot be
/// read or is not JSON.
template <class Error>
std::optional<nlohmann::json> read_json_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) {
    if (!std::filesystem::exists(file)) return std::nullopt;
    throw Error(file.string() + ": cannot be read");
  }
  nlohmann::json value = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) throw Error(file.string() + ": not JSON");
  return value;
}

/// The JSON value in `file` for a reader that tolerates what it does not find: null when the file
/// cannot be opened, a discarded value (`is_discarded()`) when it is not JSON. Store maintenance
/// uses it on files a killed campaign may have left missing or half-written.
inline nlohmann::json read_json_leniently(const std::filesystem::path& file) {
  std::ifstream in(file);
  return in ? nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false) : nlohmann::json();
}

}  // namespace omnilink::platform
