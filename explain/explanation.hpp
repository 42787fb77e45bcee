// An explained failure (docs/explain.md): a failing run's core (explain/failing_core.hpp), why
// no order of it is accepted and, for a recorded run, the interleaving that produced it
// (interleaving.hpp), written as RUN/explain/explanation.json (format "omnilink-explanation",
// version 8; versions 1, without interleavings, to 7 still read) beside the core as a history
// file (core.jsonl); version 3 adds the rules the run breaks (each alone), version 4 makes them the
// fewest that together let it pass, version 5 says why none is named where none is, version 6
// makes an interleaving's hints one per operation and place, version 7 gives a broken rule's
// guarantee (its spec's `@guarantee:` annotation), version 8 the past a core was proven given
// (`given`, when not on its own), and a version before 5 is read but made again by `explain`
// (explain.hpp). This file is the format's one writer and one reader; explain.hpp makes explanations, report/explanation_text
// renders them. Operations are kept as the trace logged them, values as TLA+ text.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "explain/given_past.hpp"
#include "explain/interleaving.hpp"
#include "results/refusal.hpp"
#include "results/stored_operation.hpp"

namespace omnilink::explain {

inline constexpr const char* kExplanationFormat = "omnilink-explanation";
inline constexpr int kExplanationVersion = 8;
/// The oldest version whose core and broken rules `explain` reuses: version 5's are today's. Its
/// interleaving (before version 6: a hint per switch, other transactions' switches kept) is read
/// again where the recording is at hand.
inline constexpr int kExplanationReusedSince = 5;

/// explanation.json is not such a file, or not one this omnilink reads. Names the file and field.
class ExplanationFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Why the core alone is rejected (results::RefusedOp, for the core): at the deepest state of
/// its search, the operation every order stops at and the conjunct that refuses it; each operation
/// named by its id ("T1.4"), values as TLA+ text cut for reports.
using CoreRefusal = results::Refusal<std::string>;

/// A rule of the spec that the run breaks (explain/broken_rules.hpp): defined TRUE with the
/// others the run breaks, the spec accepts the run, and so the core; not without it.
struct BrokenRule {
  std::string module, name;
  std::string at;         // where it is defined: file:line:col
  std::string guarantee;  // its @guarantee annotation (language::Rule); empty: none (version 7)
};

struct Explanation {
  int version = kExplanationVersion;  // of the file it was read from
  std::string run;           // the run directory or history file explained
  std::string spec, mc;      // as validated (mc empty when none)
  std::string spec_digest;   // of the spec's and MC module's text: an explanation of another spec is stale
  std::string clock;         // of the timestamps
  std::uint64_t run_operations = 0;  // completed operations the core was drawn from
  std::string part;                  // partitioned: the failing part ("key = 3")
  std::vector<results::StoredOperation> core;     // by start
  /// Operations outside the core that logged one of its identifying values (at most
  /// history::kIdentifyingUses operations logged it; booleans never): the enqueue of a
  /// dequeued element, which the core may leave out because it can be placed as needed.
  std::vector<results::StoredOperation> context;
  bool minimal = false;
  std::string not_minimal;  // why not, when not
  std::string seed;         // where the minimisation started
  std::optional<GivenPast> given;  // proven given the past, not on its own (version 8); none: on its own
  std::uint64_t questions = 0;
  std::int64_t core_ms = 0;
  std::int64_t linearized = 0;  // core operations linearized at the deepest state of its own search
  std::optional<CoreRefusal> refused;
  std::vector<BrokenRule> broken_rules;  // in the order the spec reaches them; empty: none named
  std::int64_t rules_ms = 0;             // the questions that found them (version 4)
  std::string rules_unnamed;             // why none is named, where none is (version 5)
  std::vector<std::pair<std::string, std::string>> spec_variables;  // the spec state there, by variable
  std::string core_file = "core.jsonl";  // beside explanation.json
  /// How the recording ran the core; none when it was not asked for or could not be read, and then
  /// `no_interleaving` says why.
  std::optional<Interleaving> interleaving;
  std::string no_interleaving;

  /// The operation of the core or its context with this id; null if neither has it.
  const results::StoredOperation* find(const std::string& id) const;
  /// Whether this explains a failure found against `validated_spec` (a validation's spec, as the
  /// store keeps it): an explanation of another spec (a run revalidated since) is not that
  /// validation's. The one test every report and signature makes.
  bool explains_validation_against(const std::string& validated_spec) const;
};

nlohmann::json to_json(const Explanation& e);
/// Throws ExplanationFileError naming `origin` and the field.
Explanation parse_explanation(const nlohmann::json& j, const std::string& origin);

/// DIR/explanation.json, written whole (a temporary file renamed over it).
void write_explanation(const std::filesystem::path& dir, const Explanation& e);
/// DIR/explanation.json: nullopt when there is none; throws ExplanationFileError when unreadable.
std::optional<Explanation> read_explanation(const std::filesystem::path& dir);

}  // namespace omnilink::explain
