#include "maintenance/rebuild.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <tuple>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "campaign/campaign_file.hpp"
#include "campaign/harness_status.hpp"
#include "campaign/recording.hpp"
#include "campaign/run_plan.hpp"
#include "platform/json_file.hpp"
#include "store/run_record_file.hpp"
#include "store/store.hpp"
#include "sweep/sweep_file.hpp"
#include "trace/run_dir.hpp"
#include "results/result_file.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::maintenance {
namespace fs = std::filesystem;
namespace {

// The harness phase's status as the run directory tells it.
void read_back_harness(store::RunRecord& run) {
  const fs::path dir = run.dir;
  run.detail = "rebuilt from the run directory";
  try {
    const trace::RunMeta meta = trace::read_run_meta(trace::RunLayout(dir).meta());
    run.status = campaign::status_from_meta(meta.exit_status);
    if (meta.exit_status == trace::ExitStatus::running) run.detail += " (meta.json says running: the harness was killed)";
    if (meta.exit_signal) run.exit_signal = *meta.exit_signal;
    else if (auto code = meta.json["exit"].find("code"); code != meta.json["exit"].end() && code->is_number_integer()) run.exit_code = code->get<int>();
    run.started_ms = meta.json.value("start_time_unix_ns", std::int64_t{0}) / 1'000'000;
    run.finished_ms = meta.json.value("end_time_unix_ns", std::int64_t{0}) / 1'000'000;
  } catch (const trace::RunDirError& e) {
    run.status = store::RunStatus::error;
    run.detail = std::string("rebuilt: ") + e.what();
  }
  const nlohmann::json recording = platform::read_json_leniently(trace::RunLayout(dir).recording_facts());
  // No recording.json: the run was not recorded (campaign/recording.hpp writes it for every recorded run).
  run.rr_mode = recording.is_object() ? store::parse_recording_mode(recording.value("mode", "off")) : store::RecordingMode::off;
  run.rr_soft_counters = recording.is_object() && recording.value("soft_counters", false);
}

// The newest verdict, as validation/result.json has it; nullopt when there is none, or when it does
// not read (noted in the report: the run is then indexed without a verdict, and --resume
// validates it again). A validation that found the run directory unreadable makes the run
// `bad-trace`, as the engine does.
std::optional<store::ValidationRecord> read_back_validation(store::RunRecord& run, const std::string& spec, RebuildReport& report) {
  std::optional<results::StoredResult> r;
  try {
    r = results::read_result_file(run.dir);
  } catch (const results::ResultFileError& e) {
    report.left_alone.push_back(std::string(e.what()) + " (the run is indexed without its verdict)");
  }
  if (!r) return std::nullopt;
  if (r->corrupt_trace && run.status == store::RunStatus::ok) {
    run.status = store::RunStatus::bad_trace;
    run.detail = r->reason;
  }
  store::ValidationRecord v;
  v.verdict = r->verdict;
  v.reason = r->reason;
  v.spec = spec;
  v.duration_ms = r->duration_ms;
  v.peak_rss_kb = r->peak_rss_kb;
  v.states_generated = r->states_generated;
  v.states_distinct = r->states_distinct;
  v.operations = r->operations;
  v.linearized = r->linearized;
  if (v.verdict == results::Verdict::fail) v.frontier_summary = "FAIL: " + v.reason + " (rebuilt index: see validation/result.json)";
  std::error_code ec;
  const auto written = fs::last_write_time(results::result_file(run.dir), ec);
  v.created_ms = ec ? store::now_ms()
                    : std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::file_clock::to_sys(written).time_since_epoch()).count();
  return v;
}

// A sweep's run made before omnilink wrote run.json: its id is "<configuration>.r<number>" and a
// configuration's name begins "<target>.t"; threads, ops and seed are what meta.json says ran.
std::optional<store::RunRecord> unplanned_run(const campaign::CampaignConfig& config, const std::string& campaign_id, const fs::path& dir) {
  const std::string id = dir.filename().string();
  const auto r = id.rfind(".r");
  if (r == std::string::npos || r + 2 == id.size() || id.find_first_not_of("0123456789", r + 2) != std::string::npos) return std::nullopt;
  const campaign::TargetConfig* target = nullptr;
  for (const campaign::TargetConfig& t : config.targets)
    if (id.starts_with(t.name + ".t") && (target == nullptr || t.name.size() > target->name.size())) target = &t;
  if (target == nullptr) return std::nullopt;
  store::RunRecord run;
  try {
    const trace::RunMeta meta = trace::read_run_meta(trace::RunLayout(dir).meta());
    run.threads = meta.threads;
    run.ops = meta.ops_per_thread;
    run.seed = meta.seed;
  } catch (const trace::RunDirError&) {
    return std::nullopt;
  }
  run.campaign = campaign_id;
  run.id = id;
  run.target = target->name;
  run.number = static_cast<std::uint32_t>(std::stoul(id.substr(r + 2)));
  run.dir = dir.string();
  return run;
}

/// A run as its directory tells it, and where it stood among the index's rows.
struct FoundRun {
  store::RunRecord run;
  std::int64_t position = 0;  // from run.json; 0 without one
};

/// One campaign directory, read back whole before anything is written to the new index.
struct FoundCampaign {
  store::CampaignRecord campaign;
  std::int64_t seq = 0;
  bool status_known = false;        // campaign.json says its status (written since omnilink mirrors it)
  std::vector<FoundRun> runs;       // in the order they are indexed
  std::int64_t last_activity = 0;   // its runs' latest start or finish: orders ends campaign.json does not give
};

// The subdirectories of a campaign's directory, in name order: its run directories (and, for a
// campaign made before run.json existed, what is left of runs); hidden ones are omnilink's own.
std::vector<fs::path> run_directories_of(const fs::path& campaign_dir) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(campaign_dir, ec))
    if (entry.is_directory(ec) && !entry.path().filename().string().starts_with(".")) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

// The run of campaign `campaign_id` in `dir` as its run.json has it. A row left `running` by a
// session that died: what the harness got to say decides (pending if it said nothing).
FoundRun found_run(store::RunRecordFile mirrored, const std::string& campaign_id, const fs::path& dir) {
  FoundRun found{std::move(mirrored.run), mirrored.position};
  store::RunRecord& run = found.run;
  run.campaign = campaign_id;
  run.dir = dir.string();
  if (run.status == store::RunStatus::running) {
    if (fs::is_regular_file(trace::RunLayout(dir).meta())) read_back_harness(run);
    else run.status = store::RunStatus::pending;
  }
  return found;
}

// The run as its run.json has it (the index's own row), when the directory has one that reads and
// names a target of the campaign; an unreadable one is reported, and the run read back without it.
std::optional<FoundRun> mirrored_run(const fs::path& dir, const std::string& campaign_id, const campaign::CampaignConfig& config,
                                     RebuildReport& report) {
  std::optional<store::RunRecordFile> mirrored;
  try {
    mirrored = store::read_run_record_file(dir);
  } catch (const store::StoreError& e) {
    report.left_alone.push_back(std::string(e.what()) + " (read back from meta.json instead)");
    return std::nullopt;
  }
  if (!mirrored) return std::nullopt;
  if (config.target(mirrored->run.target) == nullptr) {
    report.left_alone.push_back(store::run_record_file(dir).string() + ": target '" + mirrored->run.target +
                                "' is not in the campaign's configuration (read back from meta.json instead)");
    return std::nullopt;
  }
  return found_run(std::move(*mirrored), campaign_id, dir);
}

// The newest verdict of a run that has none in its run.json (or no run.json), from result.json.
void read_back_missing_validation(store::RunRecord& run, const campaign::CampaignConfig& config, RebuildReport& report) {
  if (run.validation || run.status == store::RunStatus::pending) return;
  if (auto v = read_back_validation(run, config.target(run.target)->spec.string(), report)) run.validation = std::move(*v);
}

// Counts what was read back, and decides the status of a campaign whose record does not say it:
// finished if every run came to an end and a verdict (or an error), else interrupted.
void settle(FoundCampaign& found, RebuildReport& report) {
  for (const FoundRun& r : found.runs)
    if (r.run.validation) ++report.validations;
  bool all_final = true;
  for (const FoundRun& r : found.runs) {
    ++report.runs;
    if (r.run.status != store::RunStatus::pending) ++report.run_directories;
    found.last_activity = std::max({found.last_activity, r.run.started_ms, r.run.finished_ms});
    const store::RunStatus status = r.run.status;
    if (status == store::RunStatus::pending || status == store::RunStatus::running || status == store::RunStatus::interrupted ||
        (!r.run.validation && status != store::RunStatus::error))
      all_final = false;
  }
  if (!found.status_known && all_final && !found.runs.empty()) found.campaign.status = store::CampaignStatus::finished;
}

// A campaign whose campaign.json is missing, or was written by an earlier recovery: its runs as
// their run.json have them (a run directory without one cannot be placed, and is left alone), its
// record from what they tell (name and number from its id, created when its first run started),
// its configuration recorded as lost, and campaign.json written again to say so.
std::optional<FoundCampaign> recover_from_runs(const fs::path& store_dir, const std::string& id, RebuildReport& report) {
  FoundCampaign found;
  std::vector<std::string> targets;
  for (const fs::path& dir : run_directories_of(store_dir / id)) {
    std::optional<store::RunRecordFile> mirrored;
    try {
      mirrored = store::read_run_record_file(dir);
    } catch (const store::StoreError& e) {
      report.left_alone.push_back(e.what());
      continue;
    }
    if (!mirrored) {
      report.left_alone.push_back(id + "/" + dir.filename().string() + ": no run.json, and the campaign has no campaign.json to place it by");
      continue;
    }
    FoundRun r = found_run(std::move(*mirrored), id, dir);
    if (std::find(targets.begin(), targets.end(), r.run.target) == targets.end()) targets.push_back(r.run.target);
    found.runs.push_back(std::move(r));
  }
  if (found.runs.empty()) {
    report.left_alone.push_back(id + ": no campaign.json (made before omnilink wrote one, or it was lost), and no run.json in its run "
                                     "directories to recover it from");
    return std::nullopt;
  }
  std::sort(found.runs.begin(), found.runs.end(),
            [](const FoundRun& a, const FoundRun& b) { return std::tie(a.position, a.run.id) < std::tie(b.position, b.run.id); });
  const std::size_t dash = id.rfind('-');
  const bool numbered = dash != std::string::npos && dash + 1 < id.size() &&
                        id.find_first_not_of("0123456789", dash + 1) == std::string::npos && id.size() - dash <= 10;
  found.seq = numbered ? std::stoll(id.substr(dash + 1)) : 0;
  std::int64_t created = 0;
  for (const FoundRun& r : found.runs)
    if (r.run.started_ms > 0 && (created == 0 || r.run.started_ms < created)) created = r.run.started_ms;
  // Its kind went with campaign.json: recorded as a campaign, which nothing resumes (its configuration is lost too).
  found.campaign = {id, store::CampaignKind::campaign, numbered ? id.substr(0, dash) : id, "", campaign::recovered_config(targets).dump(),
                    store::CampaignStatus::interrupted, created, 0, 0};
  settle(found, report);
  report.recovered.push_back(id + ": no campaign.json: recovered from the run.json of its " + std::to_string(found.runs.size()) +
                             " run(s); " + campaign::kLostConfiguration);
  store::write_campaign_record_file(store_dir, found.campaign, found.seq);
  return found;
}

// campaign.json lost, its copy made with the campaign (configuration.json) put in its place, when
// the copy is the campaign's: then the campaign is read back whole, its status decided from its runs.
bool restore_campaign_record(const fs::path& store_dir, const std::string& id, RebuildReport& report) {
  const fs::path copy = store::campaign_configuration_copy(store_dir, id);
  const nlohmann::json record = platform::read_json_leniently(copy);
  if (!record.is_object() || record.value("id", "") != id || !record.contains("config") ||
      campaign::is_recovered_config(record["config"]))
    return false;
  std::error_code ec;
  fs::copy_file(copy, store::campaign_record_file(store_dir, id), ec);
  if (ec) return false;
  report.recovered.push_back(id + ": no campaign.json: restored from configuration.json, the copy written when the campaign was "
                                  "made; its status decided from its runs");
  return true;
}

std::optional<FoundCampaign> read_campaign_directory(const fs::path& store_dir, const std::string& id, RebuildReport& report) {
  const fs::path record_file = store::campaign_record_file(store_dir, id);
  if (!fs::exists(record_file)) restore_campaign_record(store_dir, id, report);
  const nlohmann::json record = platform::read_json_leniently(record_file);
  if (!fs::exists(record_file) ||
      (record.is_object() && record.value("id", "") == id && campaign::is_recovered_config(record.value("config", nlohmann::json()))))
    return recover_from_runs(store_dir, id, report);
  if (!record.is_object() || record.value("id", "") != id || !record.contains("config")) {
    report.left_alone.push_back(id + ": campaign.json is unreadable or names another campaign");
    return std::nullopt;
  }
  // The kind as campaign.json records it; one written before it did (schema 3 and older) is a
  // sweep when its configuration has a sweep's part, as only a sweep's had.
  std::optional<store::CampaignKind> kind;
  if (const auto named = record.find("kind"); named == record.end())
    kind = sweep::stored_sweep(record["config"], record_file.string()) ? store::CampaignKind::sweep : store::CampaignKind::campaign;
  else if (named->is_string())
    kind = store::parse_campaign_kind(named->get<std::string>());
  if (!kind) {
    report.left_alone.push_back(id + ": campaign.json's kind is neither \"campaign\" nor \"sweep\"");
    return std::nullopt;
  }
  const bool is_sweep = *kind == store::CampaignKind::sweep;
  campaign::CampaignConfig config;
  try {
    config = campaign::stored_campaign(record["config"], record_file.string());
    if (is_sweep && !sweep::stored_sweep(record["config"], record_file.string()))
      throw campaign::CampaignFileError(record_file.string() + ": a sweep's, with no sweep settings in its configuration");
  } catch (const campaign::CampaignFileError& e) {
    report.left_alone.push_back(id + ": " + e.what());
    return std::nullopt;
  }
  FoundCampaign found;
  found.seq = record.value("seq", std::int64_t{0});
  found.campaign = {id, *kind, record.value("name", ""), record.value("file", ""), record["config"].dump(), store::CampaignStatus::interrupted,
                    record.value("created_ms", std::int64_t{0}), 0};
  if (const auto status = record.find("status"); status != record.end() && status->is_string()) {
    const std::optional<store::CampaignStatus> known = store::parse_campaign_status(status->get<std::string>());
    found.status_known = known.has_value();
    // "running" here is a session that died: nothing runs while the index is missing. A status
    // that is none is read as no status (decided from the runs below).
    found.campaign.status = known == store::CampaignStatus::finished ? store::CampaignStatus::finished : store::CampaignStatus::interrupted;
    found.campaign.finished_ms = found.campaign.status == store::CampaignStatus::finished ? record.value("finished_ms", std::int64_t{0}) : 0;
    if (const auto ended = record.find("ended_seq"); ended != record.end() && ended->is_number_integer())
      found.campaign.ended_seq = ended->get<std::int64_t>();
  }
  const fs::path campaign_dir = store_dir / id;
  if (!is_sweep) {
    // A campaign: its plan, each run read back from its directory where it has one.
    for (store::RunRecord& planned : campaign::planned_records(config, id, store_dir)) {
      const fs::path dir = planned.dir;
      FoundRun r{std::move(planned), 0};
      if (auto mirrored = mirrored_run(dir, id, config, report)) r = std::move(*mirrored);
      else if (fs::is_regular_file(trace::RunLayout(dir).meta())) read_back_harness(r.run);
      else r.run.status = store::RunStatus::pending;  // never started: --resume runs it
      read_back_missing_validation(r.run, config, report);
      found.runs.push_back(std::move(r));
    }
  } else {
    // A sweep draws its runs as it goes: they are the run directories there are, in the order
    // they started.
    for (const fs::path& dir : run_directories_of(campaign_dir)) {
      std::optional<FoundRun> r = mirrored_run(dir, id, config, report);
      if (!r) {
        auto run = unplanned_run(config, id, dir);
        if (!run) {
          report.left_alone.push_back(id + "/" + dir.filename().string() + ": no run.json, and no meta.json of a run of this sweep");
          continue;
        }
        r = FoundRun{std::move(*run), 0};
        read_back_harness(r->run);
      }
      read_back_missing_validation(r->run, config, report);
      found.runs.push_back(std::move(*r));
    }
    std::sort(found.runs.begin(), found.runs.end(), [](const FoundRun& a, const FoundRun& b) {
      return std::tie(a.run.started_ms, a.position, a.run.id) < std::tie(b.run.started_ms, b.position, b.run.id);
    });
  }
  settle(found, report);
  return found;
}

// Indexes what was read back. Campaigns whose campaign.json does not say when they ended (made
// before omnilink wrote it) ended, as far as anyone can tell, when their last run did.
void index_campaigns(store::Store& index, std::vector<FoundCampaign>& found) {
  std::int64_t last_end = 0;
  for (const FoundCampaign& c : found) last_end = std::max(last_end, c.campaign.ended_seq);
  std::vector<FoundCampaign*> unordered;
  for (FoundCampaign& c : found)
    if (c.campaign.ended_seq == 0) unordered.push_back(&c);
  std::stable_sort(unordered.begin(), unordered.end(), [](const FoundCampaign* a, const FoundCampaign* b) {
    return std::tie(a->last_activity, a->campaign.created_ms) < std::tie(b->last_activity, b->campaign.created_ms);
  });
  for (FoundCampaign* c : unordered) c->campaign.ended_seq = ++last_end;
  for (FoundCampaign& c : found) {
    index.restore_campaign(c.campaign, c.seq);
    std::vector<store::RunRecord> rows;
    for (const FoundRun& r : c.runs) rows.push_back(r.run);
    index.import_runs(rows);
  }
}

}  // namespace

RebuildReport rebuild_index(const fs::path& given) {
  const fs::path store_dir = fs::absolute(given);  // run directories named as a campaign names them: absolute, under the store
  // A store is its directory: a rebuild never makes one where there was none (a mistyped path).
  if (!fs::is_directory(store_dir)) throw store::StoreError(store_dir.string() + ": no such directory, so no store to rebuild");
  if (store::has_index(store_dir)) throw store::StoreError(store::index_file(store_dir).string() + " is an index already; rebuild makes one only where it is missing or empty");
  // Built aside and linked into place whole: a rebuild that dies leaves no half index, and one
  // made meanwhile by another omnilink is never replaced.
  const fs::path aside = store_dir / (".rebuild-" + std::to_string(::getpid()));
  fs::remove_all(aside);
  RebuildReport report;
  {
    std::vector<FoundCampaign> found;
    for (const std::string& id : store::campaign_directories(store_dir))
      if (auto campaign = read_campaign_directory(store_dir, id, report)) {
        report.campaigns.push_back(id);
        found.push_back(std::move(*campaign));
      }
    store::Store rebuilt = store::Store::open(aside);
    index_campaigns(rebuilt, found);
  }
  const fs::path index = store::index_file(store_dir);
  if (fs::exists(index)) {
    if (store::has_index(store_dir)) throw store::StoreError(index.string() + ": another omnilink made an index meanwhile; the rebuild is left in " + aside.string());
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(index.string() + suffix);
  }
  if (::link(store::index_file(aside).c_str(), index.c_str()) != 0)
    throw store::StoreError("cannot put the rebuilt index in place (" + index.string() + "): " + std::strerror(errno) +
                     "; it is left in " + aside.string());
  fs::remove_all(aside);
  return report;
}

}  // namespace omnilink::maintenance
