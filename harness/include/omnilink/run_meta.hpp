// The run's meta.json (format "omnilink-run", docs/trace-format.md): what was run, with which
// seed and clock, when, and how it ended. Written three times: "running" at start, then the exit
// status at a normal end, or from the crash handler. Every write goes to a temporary file that is
// renamed over meta.json, so a reader never sees a half-written file. The crash-path write uses
// only async-signal-safe calls (open, write, close, rename, clock_gettime) and no allocation.
#pragma once

#include <climits>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "omnilink/thread_log.hpp"
#include "omnilink/trace_schema.hpp"

namespace omnilink {

// Appends to a fixed char array; safe in a signal handler.
class FixedText {
 public:
  void add(std::string_view s) {
    std::size_t n = s.size() < sizeof(text_) - size_ ? s.size() : sizeof(text_) - size_;
    std::memcpy(text_ + size_, s.data(), n);
    size_ += n;
  }
  void add_uint(std::uint64_t v) {
    char digits[24];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n > 0) add(std::string_view(&digits[--n], 1));
  }
  void add_hex(std::uint64_t v) {
    char digits[16];
    int n = 0;
    do {
      digits[n++] = "0123456789abcdef"[v & 0xf];
      v >>= 4;
    } while (v != 0);
    add("0x");
    while (n > 0) add(std::string_view(&digits[--n], 1));
  }
  std::string_view view() const { return {text_, size_}; }

 private:
  char text_[2048];
  std::size_t size_ = 0;
};

inline std::string json_quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char esc[8];
          std::snprintf(esc, sizeof esc, "\\u%04x", c);
          out += esc;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

inline std::uint64_t unix_time_ns() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

inline const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "signal";
  }
}

class MetaFile {
 public:
  // `fields` are the JSON members describing the run, already rendered ("\"seed\": 1, ...").
  MetaFile(const std::string& run_dir, const std::string& fields) {
    std::snprintf(path_, sizeof path_, "%s/%s", run_dir.c_str(), schema::kMetaFile.data());
    std::snprintf(tmp_path_, sizeof tmp_path_, "%s/.%s.tmp", run_dir.c_str(), schema::kMetaFile.data());
    prefix_ = "{\n  \"format\": \"" + std::string(schema::kRunFormat) + "\",\n  \"version\": " +
              std::to_string(schema::kRunVersion) + ",\n" + fields + ",\n  \"start_time_unix_ns\": " +
              std::to_string(unix_time_ns()) + ",\n";
  }

  bool write_running() const { return write_tail("  \"exit\": {\"status\": \"running\"}\n}\n"); }

  // status: "ok" | "stopped" | "error"; message may be empty.
  bool write_exit(std::string_view status, int code, std::string_view message) const {
    std::string tail = "  \"exit\": {\"status\": " + json_quote(status) + ", \"code\": " + std::to_string(code);
    if (!message.empty()) tail += ", \"message\": " + json_quote(message);
    tail += "},\n  \"end_time_unix_ns\": " + std::to_string(unix_time_ns()) + "\n}\n";
    return write_tail(tail);
  }

  // Async-signal-safe: the run ended by a signal (a crash, or SIGINT/SIGTERM). `frames`: where
  // the signal struck and its callers, as addresses in the executable file (CrashGuard).
  void write_signal(int sig, int thread, const std::uint64_t* frames = nullptr, std::size_t frame_count = 0) const {
    FixedText t;
    const bool interrupted = sig == SIGINT || sig == SIGTERM;
    t.add("  \"exit\": {\"status\": \"");
    t.add(interrupted ? "interrupted" : "crashed");
    t.add("\", \"signal\": ");
    t.add_uint(static_cast<std::uint64_t>(sig));
    t.add(", \"signal_name\": \"");
    t.add(signal_name(sig));
    t.add("\"");
    if (thread >= 0) {
      t.add(", \"thread\": ");
      t.add_uint(static_cast<std::uint64_t>(thread));
    }
    if (frame_count > 0) {
      t.add(", \"frames\": [");
      for (std::size_t k = 0; k < frame_count; ++k) {
        t.add(k == 0 ? "\"" : ", \"");
        t.add_hex(frames[k]);
        t.add("\"");
      }
      t.add("]");
    }
    t.add("},\n  \"end_time_unix_ns\": ");
    t.add_uint(unix_time_ns());
    t.add("\n}\n");
    write_tail(t.view());
  }

 private:
  bool write_tail(std::string_view tail) const {
    int fd = ::open(tmp_path_, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    bool ok = write_all(fd, prefix_.data(), prefix_.size()) && write_all(fd, tail.data(), tail.size());
    ok = (::close(fd) == 0) && ok;
    return ok && ::rename(tmp_path_, path_) == 0;
  }

  char path_[PATH_MAX];
  char tmp_path_[PATH_MAX];
  std::string prefix_;  // never modified after construction: the crash handler reads it
};

}  // namespace omnilink
