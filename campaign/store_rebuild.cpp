#include "campaign/store_rebuild.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "campaign/campaign_file.hpp"
#include "campaign/recording.hpp"
#include "campaign/run_plan.hpp"
#include "campaign/store.hpp"
#include "trace/run_dir.hpp"

namespace omnilink::campaign {
namespace fs = std::filesystem;
namespace {

nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  return in ? nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false) : nlohmann::json();
}

// The harness phase's outcome as the run directory tells it (run_outcome.hpp's statuses).
void read_back_harness(RunRecord& run) {
  const fs::path dir = run.dir;
  run.detail = "rebuilt from the run directory";
  try {
    const trace::RunMeta meta = trace::read_run_meta(dir / "meta.json");
    const std::string& s = meta.exit_status;
    // "interrupted": stopped by SIGINT/SIGTERM, the campaign's own stop; --resume runs it again.
    run.status = s == "ok" || s == "stopped" ? "ok" : s == "error" ? "error" : s == "interrupted" ? "interrupted" : "crashed";
    if (s == "running") run.detail += " (meta.json says running: the harness was killed)";
    if (meta.exit_signal) run.exit_signal = *meta.exit_signal;
    else if (auto code = meta.json["exit"].find("code"); code != meta.json["exit"].end() && code->is_number_integer()) run.exit_code = code->get<int>();
    run.started_ms = meta.json.value("start_time_unix_ns", std::int64_t{0}) / 1'000'000;
    run.finished_ms = meta.json.value("end_time_unix_ns", std::int64_t{0}) / 1'000'000;
  } catch (const trace::RunDirError& e) {
    run.status = "error";
    run.detail = std::string("rebuilt: ") + e.what();
  }
  const nlohmann::json recording = read_json(run_layout::recording_facts(dir));
  run.rr_mode = recording.is_object() ? recording.value("mode", "off") : "off";
  run.rr_soft_counters = recording.is_object() && recording.value("soft_counters", false);
}

// The newest verdict, as validation/result.json has it; nullopt when there is none.
// (A validation that found the run directory unreadable makes the run `bad-trace`, as the engine does.)
std::optional<ValidationRecord> read_back_validation(RunRecord& run, const fs::path& run_dir, const std::string& spec) {
  const nlohmann::json r = read_json(run_dir / "validation" / "result.json");
  if (!r.is_object() || !r.contains("verdict")) return std::nullopt;
  if (r.value("corrupt_trace", false) && run.status == "ok") {
    run.status = "bad-trace";
    run.detail = r.value("reason", "");
  }
  ValidationRecord v;
  v.verdict = r.value("verdict", "");
  v.reason = r.value("reason", "");
  v.spec = spec;
  v.duration_ms = r.value("duration_ms", std::int64_t{0});
  v.peak_rss_kb = r.value("peak_rss_kb", std::uint64_t{0});
  if (r.contains("states_generated")) v.states_generated = r["states_generated"].get<std::uint64_t>();
  if (r.contains("states_distinct")) v.states_distinct = r["states_distinct"].get<std::uint64_t>();
  v.operations = r.value("operations", std::uint64_t{0});
  if (r.contains("linearized")) v.linearized = r["linearized"].get<std::int64_t>();
  if (v.verdict == "fail") v.frontier_summary = "FAIL: " + v.reason + " (rebuilt index: see validation/result.json)";
  std::error_code ec;
  const auto written = fs::last_write_time(run_dir / "validation" / "result.json", ec);
  v.created_ms = ec ? now_ms()
                    : std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::file_clock::to_sys(written).time_since_epoch()).count();
  return v;
}

// Indexes campaign directory STORE/ID from its campaign.json and run directories.
void index_campaign(Store& store, const fs::path& store_dir, const std::string& id, RebuildReport& report) {
  const nlohmann::json record = read_json(campaign_record_file(store_dir, id));
  if (!record.is_object() || record.value("id", "") != id || !record.contains("config")) {
    report.left_alone.push_back(id + (fs::exists(campaign_record_file(store_dir, id))
                                          ? ": campaign.json is unreadable or names another campaign"
                                          : ": no campaign.json (made before omnilink wrote one, or it was lost): its plan cannot be made again"));
    return;
  }
  CampaignConfig config;
  try {
    config = stored_campaign(record["config"], campaign_record_file(store_dir, id).string());
  } catch (const CampaignFileError& e) {
    report.left_alone.push_back(id + ": " + e.what());
    return;
  }
  CampaignRecord campaign{id, record.value("name", ""), record.value("file", ""), record["config"].dump(), "interrupted",
                          record.value("created_ms", std::int64_t{0}), 0};
  store.restore_campaign(campaign, record.value("seq", std::int64_t{0}));
  std::vector<RunRecord> runs = planned_records(config, id, store_dir);
  store.add_runs(runs);
  bool all_final = true;
  for (RunRecord& run : runs) {
    ++report.runs;
    if (!fs::is_regular_file(fs::path(run.dir) / "meta.json")) {
      all_final = false;  // never started: pending, for --resume
      continue;
    }
    ++report.run_directories;
    read_back_harness(run);
    store.update_run(run);
    const std::string spec = config.target(run.target)->spec.string();
    if (auto v = read_back_validation(run, run.dir, spec)) {
      store.update_run(run);
      store.add_validation(id, run.id, *v);
      ++report.validations;
    } else if (run.status != "error") {
      all_final = false;  // --resume validates it
    }
  }
  if (all_final) store.set_campaign_status(id, "finished");
  report.campaigns.push_back(id);
}

}  // namespace

RebuildReport rebuild_index(const fs::path& store_dir) {
  if (has_index(store_dir)) throw StoreError(index_file(store_dir).string() + " is an index already; rebuild makes one only where it is missing or empty");
  // Built aside and linked into place whole: a rebuild that dies leaves no half index, and one
  // made meanwhile by another omnilink is never replaced.
  const fs::path aside = store_dir / (".rebuild-" + std::to_string(::getpid()));
  fs::remove_all(aside);
  RebuildReport report;
  {
    Store store = Store::open(aside);
    for (const std::string& id : campaign_directories(store_dir)) index_campaign(store, store_dir, id, report);
  }
  const fs::path index = index_file(store_dir);
  if (fs::exists(index)) {
    if (has_index(store_dir)) throw StoreError(index.string() + ": another omnilink made an index meanwhile; the rebuild is left in " + aside.string());
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(index.string() + suffix);
  }
  if (::link(index_file(aside).c_str(), index.c_str()) != 0)
    throw StoreError("cannot put the rebuilt index in place (" + index.string() + "): " + std::strerror(errno) +
                     "; it is left in " + aside.string());
  fs::remove_all(aside);
  return report;
}

}  // namespace omnilink::campaign
