// The data file TLC reads (OmniLinkTrace.tla describes its layout): a Problem (problem.hpp)
// written as ndjson, with arguments in parameter order, timestamps compressed to dense ranks,
// every integer checked to fit TLC's 32-bit range, and the domains of pending operations' unknown
// arguments.
#pragma once

#include <filesystem>

#include "validation/problem.hpp"

namespace omnilink::validation {

/// Writes `problem` to `data_file`. Throws ValidationError (a value TLC cannot represent).
void write_tlc_input(const Problem& problem, const std::filesystem::path& data_file);

}  // namespace omnilink::validation
