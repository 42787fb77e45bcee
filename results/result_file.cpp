#include "results/result_file.hpp"


#include <nlohmann/json.hpp>

#include "platform/json_fields.hpp"
#include "platform/json_file.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::results {
namespace fs = std::filesystem;
using Fields = platform::JsonFields<ResultFileError>;

namespace {

constexpr const char* kFormat = "omnilink-validation-result";

// Thread, index and name, which every operation in the file has, and what else this one has.
StoredOperation read_operation(const Fields& f) {
  StoredOperation op;
  op.thread = f.uint32("thread");
  op.index = f.uint64("index");
  op.name = f.text("name");
  if (f.has("fields")) op.fields = f.text_map("fields");
  op.start = f.optional("start", &Fields::uint64);
  op.end = f.optional("end", &Fields::uint64);
  op.pending = f.value_or("pending", &Fields::flag, false);
  op.viable = f.value_or("viable", &Fields::flag, false);
  return op;
}

std::vector<StoredRefusal::Tie> read_ties(const Fields& f, const std::string& field) {
  std::vector<StoredRefusal::Tie> out;
  for (const Fields& op : f.objects(field, /*optional=*/true)) out.push_back({read_operation(op), op.value_or("linearized", &Fields::flag, false)});
  return out;
}

std::vector<StoredOperation> read_operations(const Fields& f, const std::string& field) {
  std::vector<StoredOperation> out;
  for (const Fields& op : f.objects(field, /*optional=*/true)) out.push_back(read_operation(op));
  return out;
}

StoredRefusal read_refusal(const Fields& f) {
  StoredRefusal r;
  r.op = read_operation(f);
  r.action = f.text("action");
  r.at = f.text("at");
  r.conjunct = f.text("conjunct");
  r.related = read_ties(f, "related");
  if (f.has("unmatched")) r.unmatched = f.texts("unmatched");
  for (auto [field, value] : {std::pair{"lost", &r.lost}, std::pair{"in_place", &r.in_place}})
    if (f.has(field)) {
      const Fields held = f.object(field);
      *value = StoredRefusal::Held{held.text("value"), read_ties(held, "logged_by")};
    }
  return r;
}

StoredFrontier read_frontier(const Fields& f) {
  StoredFrontier frontier;
  frontier.linearized = f.value_or("linearized", &Fields::int64, std::int64_t{0});
  frontier.total = f.value_or("total", &Fields::uint64, std::uint64_t{0});
  frontier.next = read_operations(f, "pending");
  frontier.spec_state = f.value_or("spec_state", &Fields::text, std::string());
  if (f.has("variables")) frontier.variables = f.text_map("variables");
  if (f.has("refused")) frontier.refused = read_refusal(f.object("refused"));
  return frontier;
}

}  // namespace

StoredResult parse_result(const nlohmann::json& j, const std::string& origin) {
  const Fields f(j, origin);
  if (f.text("format") != kFormat) f.fail("format", "not " + std::string(kFormat));
  StoredResult r;
  r.version = f.int32("version");
  if (r.version < 1 || r.version > kResultFileVersion)
    f.fail("version", "version " + std::to_string(r.version) + "; this omnilink reads versions 1 to " + std::to_string(kResultFileVersion));
  const std::string verdict = f.text("verdict");
  const std::optional<Verdict> known = parse_verdict(verdict);
  if (!known) f.fail("verdict", "'" + verdict + "' is no verdict");
  r.verdict = *known;
  r.reason = f.value_or("reason", &Fields::text, std::string());
  const std::string checker = f.value_or("checker", &Fields::text, std::string());
  const std::optional<DecidedBy> decided_by = parse_decided_by(checker);
  if (!decided_by) f.fail("checker", "'" + checker + "' is no checker: native or tlc");
  r.checker = *decided_by;
  r.operations = f.value_or("operations", &Fields::uint64, std::uint64_t{0});
  r.dropped_failed = f.value_or("dropped_failed_without_effect", &Fields::uint64, std::uint64_t{0});
  // Version 1 called the pending operations aborted.
  r.pending = f.value_or(r.version == 1 ? "aborted" : "pending", &Fields::uint64, std::uint64_t{0});
  for (const Fields& p : f.objects("pending_operations", /*optional=*/true)) {
    StoredPendingOutcome outcome;
    outcome.op = read_operation(p);
    if (p.has("inputs")) outcome.op.fields = p.text_map("inputs");
    outcome.op.pending = true;
    outcome.inputs_known = p.value_or("inputs_known", &Fields::flag, false);
    outcome.linearized = p.value_or("linearized", &Fields::flag, false);
    if (p.has("arguments")) outcome.arguments = p.text_map("arguments");
    r.pending_operations.push_back(std::move(outcome));
  }
  if (f.has("cut")) {
    const Fields c = f.object("cut");
    StoredCut cut;
    cut.at = c.uint64("at");
    cut.clock = c.value_or("clock", &Fields::text, std::string());
    if (c.has("cut_short_threads"))
      for (const auto& t : c.at("cut_short_threads")) {
        if (!t.is_number_unsigned() || t.get<std::uint64_t>() > UINT32_MAX) c.fail("cut_short_threads", "not a list of thread numbers");
        cut.cut_short_threads.push_back(t.get<std::uint32_t>());
      }
    cut.dropped = c.value_or("dropped", &Fields::uint64, std::uint64_t{0});
    cut.made_pending = c.value_or("made_pending", &Fields::uint64, std::uint64_t{0});
    r.cut = std::move(cut);
  }
  if (f.has("caveats")) r.caveats = f.texts("caveats");
  r.corrupt_trace = f.value_or("corrupt_trace", &Fields::flag, false);
  r.duration_ms = f.value_or("duration_ms", &Fields::int64, std::int64_t{0});
  r.peak_rss_kb = f.value_or("peak_rss_kb", &Fields::uint64, std::uint64_t{0});
  r.states_generated = f.optional("states_generated", &Fields::uint64);
  r.states_distinct = f.optional("states_distinct", &Fields::uint64);
  r.linearized = f.optional("linearized", &Fields::int64);
  if (f.has("partitions")) {
    const Fields p = f.object("partitions");
    r.partitions = StoredPartitions{p.text("by"), p.uint64("count"), p.value_or("failed", &Fields::text, std::string())};
  }
  if (f.has("tlc")) {
    const Fields tlc = f.object("tlc");
    r.tlc_exit_code = tlc.optional("exit_code", &Fields::int32);
    if (tlc.has("command")) r.tlc_command = tlc.texts("command");
  }
  if (f.has("frontier")) r.frontier = read_frontier(f.object("frontier"));
  return r;
}

fs::path result_file(const fs::path& run_dir) { return trace::RunLayout(run_dir).result(); }

std::optional<StoredResult> read_result_file(const fs::path& run_dir) {
  const fs::path file = result_file(run_dir);
  const auto j = platform::read_json_file<ResultFileError>(file);
  return j ? std::optional<StoredResult>(parse_result(*j, file.string())) : std::nullopt;
}

}  // namespace omnilink::results
