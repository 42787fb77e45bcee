#include "campaign/kind.hpp"

#include "platform/enum_names.hpp"

namespace omnilink::campaign {
namespace {
constexpr platform::EnumNames<Kind, 2> kNames{{{
    {Kind::campaign, "campaign"},
    {Kind::sweep, "sweep"},
}}};
}  // namespace

std::string to_string(Kind kind) { return kNames.name(kind); }
std::optional<Kind> parse_kind(std::string_view name) { return kNames.parse(name); }

}  // namespace omnilink::campaign
