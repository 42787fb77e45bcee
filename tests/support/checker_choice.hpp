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
#include "validation/validate.hpp"

namespace omnilink::testing {

inline validation::Checker& test_checker() {
  static validation::Checker checker = validation::Checker::native;
  return checker;
}

inline bool testing_tlc() { return test_checker() == validation::Checker::tlc; }

/// Validates `run` against `spec` (with `mc`) with this executable's checker: TLC heap 1 GiB, 300 s.
inline validation::ValidationResult validate_with_test_checker(const std::filesystem::path& run, const std::filesystem::path& spec,
                                                               std::optional<std::filesystem::path> mc = {}) {
  validation::ValidateOptions o;
  o.run_dir = run;
  o.spec = spec;
  o.mc = std::move(mc);
  o.heap = "1g";
  o.timeout = std::chrono::seconds(300);
  o.checker = test_checker();
  return validation::validate_run(o);
}

/// main() of a validation test: reads `--checker native|tlc` and runs Catch on the rest.
inline int run_validation_tests(int argc, char** argv) {
  std::vector<char*> rest{argv[0]};
  for (int k = 1; k < argc; ++k) {
    if (std::strcmp(argv[k], "--checker") == 0 && k + 1 < argc) {
      const auto checker = validation::parse_checker(argv[++k]);
      if (!checker || (*checker != validation::Checker::native && *checker != validation::Checker::tlc)) {
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
