// The TLC checker: a Problem written as TLC's data file beside a generated module that EXTENDS
// OmniLinkTrace, TLC run on it (tlc_runner), and its exit code and frontier report read back into a
// verdict. The reference the native checker is tested against.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "history/problem.hpp"
#include "results/result.hpp"
#include "checkers/checker_options.hpp"

namespace omnilink::checkers {

/// Checks `problem` with TLC in `dir` (the data file, the generated module, TLC's output and
/// frontier) and sets the result's verdict and what TLC reported. Throws ValidationError.
void check_with_tlc(results::ValidationResult& result, const history::Problem& problem, const language::SpecInterface& spec,
                    language::LoadedSpec& loaded, const std::filesystem::path& dir, const ValidateOptions& options);

struct TlcTools {
  std::filesystem::path java, jar;
};
/// TLC's jar and a JVM, as the options or `omnilink doctor` find them; if either is missing,
/// nullopt and `why_not` says what.
std::optional<TlcTools> locate_tlc(const ValidateOptions& options, std::string& why_not);

}  // namespace omnilink::checkers
