#include "campaign/store_rebuild.hpp"

#include <algorithm>
#include <fstream>

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
    run.status = s == "ok" || s == "stopped" ? "ok" : s == "error" ? "error" : "crashed";
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
std::optional<ValidationRecord> read_back_validation(const fs::path& run_dir, const std::string& spec) {
  const nlohmann::json r = read_json(run_dir / "validation" / "result.json");
  if (!r.is_object() || !r.contains("verdict")) return std::nullopt;
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

}  // namespace

RebuildReport rebuild_index(const fs::path& store_dir) {
  Store store = Store::open_for_rebuild(store_dir);
  RebuildReport report;
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(store_dir))
    if (entry.is_directory()) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  for (const fs::path& dir : dirs) {
    const std::string id = dir.filename().string();
    const nlohmann::json record = read_json(campaign_record_file(store_dir, id));
    if (!record.is_object() || record.value("id", "") != id || !record.contains("config")) {
      if (!fs::exists(campaign_record_file(store_dir, id))) continue;  // not a campaign directory
      report.left_alone.push_back(id + ": campaign.json is unreadable or names another campaign");
      continue;
    }
    CampaignConfig config;
    try {
      config = stored_campaign(record["config"], campaign_record_file(store_dir, id).string());
    } catch (const CampaignFileError& e) {
      report.left_alone.push_back(id + ": " + e.what());
      continue;
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
        all_final = false;
        continue;
      }
      ++report.run_directories;
      read_back_harness(run);
      store.update_run(run);
      const std::string spec = config.target(run.target)->spec.string();
      if (auto v = read_back_validation(run.dir, spec)) {
        store.add_validation(id, run.id, *v);
        ++report.validations;
      } else if (run.status != "error") {
        all_final = false;  // --resume validates it
      }
    }
    if (all_final) store.set_campaign_status(id, "finished");
    report.campaigns.push_back(id);
  }
  return report;
}

}  // namespace omnilink::campaign
