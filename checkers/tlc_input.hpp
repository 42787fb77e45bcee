// The data file TLC reads (OmniLinkTrace.tla describes its layout): a Problem (history/problem.hpp)
// written as ndjson, with arguments in parameter order, timestamps compressed to dense ranks, and
// the domains of pending operations' unknown arguments; and whether TLC can have the Problem's
// values at all (its integers are 32-bit, omnilink's 64-bit).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "history/problem.hpp"

namespace omnilink::checkers {

/// The first operation of `problem` TLC cannot be given, and why: "FILE:LINE: T0.3 Commit's field
/// 'ts' holds 3000000000, outside TLC's 32-bit integers" (its JSON reader would wrap it silently),
/// or "... is optional, ..." (its encoding has no optional operations); nullopt if TLC can check it.
std::optional<std::string> unrepresentable_in_tlc(const history::Problem& problem);

/// Writes `problem` to `data_file`. Throws ValidationError (a value TLC cannot represent: ask
/// unrepresentable_in_tlc first).
void write_tlc_input(const history::Problem& problem, const std::filesystem::path& data_file);

}  // namespace omnilink::checkers
