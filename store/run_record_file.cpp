#include "store/run_record_file.hpp"

#include <algorithm>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "platform/json_fields.hpp"
#include "platform/json_file.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::store {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFormat = "omnilink-run-record";

using Fields = platform::JsonFields<StoreError>;

ValidationRecord validation_from_json(const Fields& f) {
  ValidationRecord v;
  const std::string verdict = f.text("verdict");
  if (const auto parsed = results::parse_verdict(verdict)) v.verdict = *parsed;
  else f.fail("verdict", "'" + verdict + "' is no verdict");
  v.reason = f.text("reason");
  v.spec = f.text("spec");
  v.duration_ms = f.int64("duration_ms");
  v.peak_rss_kb = f.uint64("peak_rss_kb");
  v.states_generated = f.optional("states_generated", &Fields::uint64);
  v.states_distinct = f.optional("states_distinct", &Fields::uint64);
  v.operations = f.uint64("operations");
  v.linearized = f.optional("linearized", &Fields::int64);
  v.frontier_summary = f.text("frontier_summary");
  v.created_ms = f.int64("created_ms");
  return v;
}

}  // namespace

fs::path run_record_file(const fs::path& run_dir) { return trace::RunLayout(run_dir).run_record(); }

void write_run_record_file(const fs::path& run_dir, const RunRecord& run, std::int64_t position) {
  json j = run;  // records.hpp's to_json: the row as `omnilink show --json` prints it
  for (const char* where : {"key", "campaign", "dir"}) j.erase(where);
  j["format"] = kFormat;
  j["version"] = kRunRecordVersion;
  j["position"] = position;
  platform::write_json_file<StoreError>(run_record_file(run_dir), j);
}

std::optional<RunRecordFile> read_run_record_file(const fs::path& run_dir) {
  const fs::path file = run_record_file(run_dir);
  const std::optional<json> read = platform::read_json_file<StoreError>(file);
  if (!read) return std::nullopt;
  const json& j = *read;
  const Fields f(j, file.string());
  if (f.text("format") != kFormat) f.fail("format", "not " + std::string(kFormat));
  if (f.int64("version") != kRunRecordVersion)
    f.fail("version", "version " + j.at("version").dump() + "; this omnilink reads version " + std::to_string(kRunRecordVersion));
  RunRecordFile out;
  RunRecord& r = out.run;
  r.id = f.text("id");
  if (r.id != run_dir.filename().string()) f.fail("id", "'" + r.id + "' is not the name of its directory");
  r.target = f.text("target");
  r.threads = f.uint32("threads");
  r.ops = f.uint64("ops");
  r.number = f.uint32("number");
  r.seed = f.uint64("seed");
  const std::string status = f.text("status");
  if (const auto parsed = parse_run_status(status)) r.status = *parsed;
  else f.fail("status", "'" + status + "' is no run status");
  r.detail = f.text("detail");
  const std::string rr_mode = f.text("rr_mode");
  if (!rr_mode.empty()) {
    r.rr_mode = parse_recording_mode(rr_mode);
    if (!r.rr_mode) f.fail("rr_mode", "'" + rr_mode + "' is no rr mode");
  }
  r.rr_soft_counters = f.flag("rr_soft_counters");
  r.exit_code = f.optional("exit_code", &Fields::int32);
  r.exit_signal = f.optional("exit_signal", &Fields::int32);
  r.started_ms = f.int64("started_ms");
  r.finished_ms = f.int64("finished_ms");
  r.harness_ms = f.int64("harness_ms");
  r.pack_ms = f.int64("pack_ms");
  f.at("validation");  // present, null without one
  if (f.has("validation")) r.validation = validation_from_json(f.object("validation"));
  out.position = f.int64("position");
  return out;
}

}  // namespace omnilink::store
