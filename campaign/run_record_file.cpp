#include "campaign/run_record_file.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>

#include <nlohmann/json.hpp>

namespace omnilink::campaign {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFormat = "omnilink-run-record";

/// The fields of one JSON object, each read with its type checked; errors name the file and field.
class Fields {
 public:
  Fields(const json& object, std::string where) : object_(object), where_(std::move(where)) {
    if (!object_.is_object()) fail("", "not a JSON object");
  }

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw StoreError(where_ + (field.empty() ? "" : ": " + field) + ": " + what);
  }
  const json& at(const std::string& field) const {
    const auto it = object_.find(field);
    if (it == object_.end()) fail(field, "missing");
    return *it;
  }
  std::string text(const std::string& field) const {
    const json& v = at(field);
    if (!v.is_string()) fail(field, "not a string");
    return v.get<std::string>();
  }
  bool flag(const std::string& field) const {
    const json& v = at(field);
    if (!v.is_boolean()) fail(field, "not true or false");
    return v.get<bool>();
  }
  std::int64_t int64(const std::string& field) const {
    const json& v = at(field);
    if (!v.is_number_integer()) fail(field, "not an integer");
    return v.get<std::int64_t>();
  }
  std::uint64_t uint64(const std::string& field) const {
    const json& v = at(field);
    if (!v.is_number_unsigned()) fail(field, "not a non-negative integer");
    return v.get<std::uint64_t>();
  }
  std::uint32_t uint32(const std::string& field) const {
    const std::uint64_t v = uint64(field);
    if (v > UINT32_MAX) fail(field, "too large");
    return static_cast<std::uint32_t>(v);
  }
  // An optional field is present and null when it has no value.
  template <class T>
  std::optional<T> optional(const std::string& field, T (Fields::*get)(const std::string&) const) const {
    if (at(field).is_null()) return std::nullopt;
    return (this->*get)(field);
  }
  std::optional<int> optional_int(const std::string& field) const {
    const auto v = optional(field, &Fields::int64);
    if (v && (*v < INT32_MIN || *v > INT32_MAX)) fail(field, "out of range");
    return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
  }

 private:
  const json& object_;
  std::string where_;
};

ValidationRecord read_validation(const Fields& f) {
  ValidationRecord v;
  v.verdict = f.text("verdict");
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

fs::path run_record_file(const fs::path& run_dir) { return run_dir / "run.json"; }

void write_run_record_file(const fs::path& run_dir, const RunRecord& run, std::int64_t position) {
  json j = run;  // store.hpp's to_json: the row as `omnilink show --json` prints it
  for (const char* where : {"key", "campaign", "dir"}) j.erase(where);
  j["format"] = kFormat;
  j["version"] = kRunRecordVersion;
  j["position"] = position;
  const fs::path file = run_record_file(run_dir);
  const fs::path temporary = run_dir / ".run.json.tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << j.dump(2) << "\n";
    if (!out.flush()) throw StoreError("cannot write " + temporary.string());
  }
  std::error_code ec;
  fs::rename(temporary, file, ec);
  if (ec) throw StoreError("cannot write " + file.string() + ": " + ec.message());
}

std::optional<RunRecordFile> read_run_record_file(const fs::path& run_dir) {
  const fs::path file = run_record_file(run_dir);
  std::ifstream in(file);
  if (!in) {
    if (!fs::exists(file)) return std::nullopt;
    throw StoreError(file.string() + ": cannot be read");
  }
  const json j = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw StoreError(file.string() + ": not JSON");
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
  r.status = f.text("status");
  if (std::find(kRunStatuses.begin(), kRunStatuses.end(), r.status) == kRunStatuses.end()) f.fail("status", "'" + r.status + "' is no run status");
  r.detail = f.text("detail");
  r.rr_mode = f.text("rr_mode");
  r.rr_soft_counters = f.flag("rr_soft_counters");
  r.exit_code = f.optional_int("exit_code");
  r.exit_signal = f.optional_int("exit_signal");
  r.started_ms = f.int64("started_ms");
  r.finished_ms = f.int64("finished_ms");
  r.harness_ms = f.int64("harness_ms");
  r.pack_ms = f.int64("pack_ms");
  if (const json& v = f.at("validation"); !v.is_null()) r.validation = read_validation(Fields(v, file.string() + ": validation"));
  out.position = f.int64("position");
  return out;
}

}  // namespace omnilink::campaign
