// The values a pending operation's unknown fields may take (docs/validation.md, "Pending
// operations"). A pending operation may be linearized with any results the spec accepts; a
// checker that enumerates (TLC) needs a finite set for each unknown field. The rule, in order:
//   1. an MC-module definition OmniLinkDomain_<Op>_<field> (applied by the checker back-end);
//   2. BOOLEAN for a field the spec's @type annotation types Bool, or whose logged values are all
//      booleans;
//   3. otherwise every value logged in the history under that field name, by any operation
//      (fields of one name usually carry one kind of value: the queue's elem, a register's value).
// What it can miss: a result no operation logged under that name (say, an element only Init put
// in the state). Such a pending operation can then only be left out; the caveat says which field
// had no values at all.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "trace/value.hpp"
#include "history/history.hpp"

namespace omnilink::history {

/// An operation's parameters as the spec declares them, in order.
struct OperationParams {
  std::vector<std::string> names;
  std::vector<bool> boolean;  // typed Bool by the spec's annotation (same length, or empty)
  std::vector<bool> defined;  // the MC module defines its domain (rule 1; same length, or empty)
};

/// A domain: the values one unknown field may take.
struct Domain {
  bool defined = false;             // the MC module's definition (the checker reads it there)
  bool boolean = false;             // BOOLEAN
  std::vector<trace::Value> values;  // otherwise these (sorted, distinct)
};

/// Domains for every (operation, parameter position) that some pending operation of `history`
/// leaves unknown. Key: operation name; value: one entry per parameter, nullopt where no domain is
/// needed. Adds a caveat to `caveats` for every domain that came out empty.
std::map<std::string, std::vector<std::optional<Domain>>> pending_domains(
    const History& history, const std::map<std::string, OperationParams>& operations, std::vector<std::string>& caveats);

/// The MC-module operator that gives the domain of `operation`'s parameter `param` (rule 1).
std::string domain_override_name(const std::string& operation, const std::string& param);

/// Whether parameter `name` of a pending operation is known (one of its logged inputs).
bool known_input(const trace::Operation& op, const std::string& name);

}  // namespace omnilink::history
