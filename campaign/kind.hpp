// What a session runs: a campaign (its file's plan of runs, to the end) or a sweep (runs drawn from
// its configurations until a time budget ends). The vocabulary is named only at the edges: the CLI
// verb each runs as (a Slurm task runs its shard with it), the task spec, a session's messages.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace omnilink::campaign {

enum class Kind { campaign, sweep };

/// "campaign", "sweep": also the `omnilink` verb that runs one.
std::string to_string(Kind kind);
/// The kind named `name`; nothing for a name that is none (the caller says where it read it).
std::optional<Kind> parse_kind(std::string_view name);

}  // namespace omnilink::campaign
