// The spec as validation reads it: loaded (for both checkers), its interface derived, and kept
// per thread while its files are unchanged. `validate` of a hundred histories, a campaign's
// validation worker or `explain` reads it once, not once a run (reading and binding cost more than
// checking a small history).
#pragma once

#include <filesystem>
#include <memory>
#include <utility>
#include <vector>

#include "language/interface.hpp"
#include "language/modules.hpp"
#include "checkers/checker_options.hpp"

namespace omnilink::checkers {

struct ReadSpec {
  std::unique_ptr<language::LoadedSpec> loaded;
  language::SpecInterface interface;
  std::vector<std::pair<std::filesystem::path, std::filesystem::file_time_type>> sources;  // as they were when read
  /// Whether every source file still has the time it had when read.
  bool current() const;
};

/// The spec of `options` (spec, mc, next). One thread at a time: the checkers bind definitions as
/// they use them. Wrong TLA+ is an error (ValidationError) whichever checker was chosen, never
/// hidden behind a checker that is missing.
ReadSpec& read_spec(const ValidateOptions& options);

}  // namespace omnilink::checkers
