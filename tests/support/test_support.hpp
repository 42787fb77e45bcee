// Shared test utilities: scratch directories, running an in-process harness, reading a run back.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <omnilink/harness.hpp>

#include "trace/reader.hpp"
#include "trace/run_dir.hpp"

namespace omnilink::testing {

// A fresh directory under the system temp dir, removed on destruction (kept, and named on
// stderr, when OMNILINK_KEEP_TEST_DIRS is set: for debugging a failing test).
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "omnilink-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~ScratchDir() {
    if (std::getenv("OMNILINK_KEEP_TEST_DIRS") != nullptr) {
      std::cerr << "kept " << path_.string() << "\n";
      return;
    }
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// Ends a test case as SKIPPED: ctest entries whose tests need an external tool have
// SKIP_RETURN_CODE 77, so this is how a case says the tool is missing (never a pass).
[[noreturn]] inline void skip_test(const std::string& why) {
  std::cout << "SKIPPED: " << why << "\n";
  std::exit(77);
}

inline Options quiet_options(const std::filesystem::path& out, std::uint32_t threads, std::uint64_t ops,
                             std::uint64_t seed = 1, ClockKind clock = ClockKind::counter) {
  Options o;
  o.out = out.string();
  o.threads = threads;
  o.ops = ops;
  o.seed = seed;
  o.seed_given = true;
  o.clock = clock;
  o.quiet = true;
  return o;
}

inline std::vector<trace::ThreadTrace> read_run(const std::filesystem::path& out) {
  return trace::read_run_traces(trace::RunDir::open(out));
}

}  // namespace omnilink::testing
