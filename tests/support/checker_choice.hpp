// The checker a validation test executable runs its cases with. ctest runs each such executable
// twice: with the native checker (the default: needs no tool, never skipped) and with
// `--checker tlc` (SKIPPED without TLC), so every case holds for both.
#pragma once

#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/campaign_support.hpp"
#include "checkers/validate.hpp"

namespace omnilink::testing {

inline checkers::Checker& test_checker() {
  static checkers::Checker checker = checkers::Checker::native;
  return checker;
}

inline bool testing_tlc() { return test_checker() == checkers::Checker::tlc; }

/// Validates `run` against `spec` (with `mc`) with this executable's checker: TLC heap 1 GiB, 300 s.
inline results::ValidationResult validate_with_test_checker(const std::filesystem::path& run, const std::filesystem::path& spec,
                                                               std::optional<std::filesystem::path> mc = {}) {
  checkers::ValidateOptions o;
  o.run_dir = run;
  o.spec = spec;
  o.mc = std::move(mc);
  o.heap = "1g";
  o.timeout = std::chrono::seconds(300);
  o.checker = test_checker();
  return checkers::validate_run(o);
}

/// main() of a validation test: reads `--checker native|tlc` and runs Catch on the rest.
inline int run_validation_tests(int argc, char** argv) {
  std::vector<char*> rest{argv[0]};
  for (int k = 1; k < argc; ++k) {
    if (std::strcmp(argv[k], "--checker") == 0 && k + 1 < argc) {
      const auto checker = checkers::parse_checker(argv[++k]);
      if (!checker || (*checker != checkers::Checker::native && *checker != checkers::Checker::tlc)) {
        std::cerr << "--checker native|tlc\n";
        return 2;
      }
      test_checker() = *checker;
      continue;
    }
    rest.push_back(argv[k]);
  }
  if (testing_tlc()) require_tlc();
  return Catch::Session().run(static_cast<int>(rest.size()), rest.data());
}

}  // namespace omnilink::testing
