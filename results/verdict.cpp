#include "results/verdict.hpp"

#include <ostream>

#include <nlohmann/json.hpp>

#include "platform/enum_names.hpp"

namespace omnilink::results {

namespace {
constexpr platform::EnumNames<Verdict, 4> kNames{{{
    {Verdict::pass, "pass"},
    {Verdict::fail, "fail"},
    {Verdict::unknown, "unknown"},
    {Verdict::error, "error"},
}}};
static_assert(kNames.names.size() == kVerdicts.size());

constexpr platform::EnumNames<DecidedBy, 3> kCheckerNames{{{
    {DecidedBy::none, ""},
    {DecidedBy::native, "native"},
    {DecidedBy::tlc, "tlc"},
}}};
}  // namespace

std::string to_string(Verdict verdict) { return kNames.name(verdict); }
std::optional<Verdict> parse_verdict(std::string_view name) { return kNames.parse(name); }
std::ostream& operator<<(std::ostream& out, Verdict verdict) { return out << to_string(verdict); }
void to_json(nlohmann::json& j, Verdict verdict) { j = to_string(verdict); }

std::string to_string(DecidedBy checker) { return kCheckerNames.name(checker); }
std::optional<DecidedBy> parse_decided_by(std::string_view name) { return kCheckerNames.parse(name); }
void to_json(nlohmann::json& j, DecidedBy checker) { j = to_string(checker); }

}  // namespace omnilink::results
