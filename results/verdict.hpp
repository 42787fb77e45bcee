// What a validation decided: the verdict's vocabulary, owned here and named only at the edges
// (result.json, the store's index, run.json, JSON and text), so that every reader and writer of a
// verdict agrees on the same four names; and which checker decided it.
#pragma once

#include <array>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace omnilink::results {

/// pass: some order of the operations is a behaviour of the spec; fail: none is; unknown: the
/// checker could not decide (a timeout, a budget, a spec it cannot evaluate); error: the input or
/// omnilink failed (a corrupt trace, the checkers disagree).
enum class Verdict { pass, fail, unknown, error };

inline constexpr std::array<Verdict, 4> kVerdicts{Verdict::pass, Verdict::fail, Verdict::unknown, Verdict::error};

/// "pass", "fail", "unknown", "error".
std::string to_string(Verdict verdict);
/// The verdict named `name`; nullopt for a name that is none (the caller says where it read it).
std::optional<Verdict> parse_verdict(std::string_view name);
std::ostream& operator<<(std::ostream& out, Verdict verdict);
/// As its name: nlohmann's default would write the enum's number.
void to_json(nlohmann::json& j, Verdict verdict);

/// Which checker decided a verdict: none (an error before any ran), the embedded one, or TLC.
enum class DecidedBy { none, native, tlc };

/// "", "native", "tlc": result.json's `checker`, which is empty when none ran.
std::string to_string(DecidedBy checker);
/// The checker named `name` ("" is none); nullopt for a name that is none of them.
std::optional<DecidedBy> parse_decided_by(std::string_view name);
void to_json(nlohmann::json& j, DecidedBy checker);

}  // namespace omnilink::results
