#include "store/records.hpp"

#include <chrono>
#include <ostream>

#include <nlohmann/json.hpp>

#include "platform/enum_names.hpp"

namespace omnilink::store {

namespace {
constexpr platform::EnumNames<RunStatus, 8> kRunStatusNames{{{
    {RunStatus::pending, "pending"},
    {RunStatus::running, "running"},
    {RunStatus::ok, "ok"},
    {RunStatus::crashed, "crashed"},
    {RunStatus::timeout, "timeout"},
    {RunStatus::bad_trace, "bad-trace"},
    {RunStatus::error, "error"},
    {RunStatus::interrupted, "interrupted"},
}}};
static_assert(kRunStatusNames.names.size() == kRunStatuses.size());

constexpr platform::EnumNames<CampaignStatus, 3> kCampaignStatusNames{{{
    {CampaignStatus::running, "running"},
    {CampaignStatus::interrupted, "interrupted"},
    {CampaignStatus::finished, "finished"},
}}};
static_assert(kCampaignStatusNames.names.size() == kCampaignStatuses.size());

constexpr platform::EnumNames<CampaignKind, 2> kCampaignKindNames{{{
    {CampaignKind::campaign, "campaign"},
    {CampaignKind::sweep, "sweep"},
}}};
static_assert(kCampaignKindNames.names.size() == kCampaignKinds.size());

constexpr platform::EnumNames<RecordingMode, 3> kRecordingModeNames{{{
    {RecordingMode::off, "off"},
    {RecordingMode::record, "record"},
    {RecordingMode::chaos, "chaos"},
}}};
static_assert(kRecordingModeNames.names.size() == kRecordingModes.size());
}  // namespace

std::string to_string(RunStatus status) { return kRunStatusNames.name(status); }
std::optional<RunStatus> parse_run_status(std::string_view name) { return kRunStatusNames.parse(name); }
std::ostream& operator<<(std::ostream& out, RunStatus status) { return out << to_string(status); }
void to_json(nlohmann::json& j, RunStatus status) { j = to_string(status); }

std::string to_string(CampaignStatus status) { return kCampaignStatusNames.name(status); }
std::optional<CampaignStatus> parse_campaign_status(std::string_view name) { return kCampaignStatusNames.parse(name); }
std::ostream& operator<<(std::ostream& out, CampaignStatus status) { return out << to_string(status); }
void to_json(nlohmann::json& j, CampaignStatus status) { j = to_string(status); }

std::string to_string(CampaignKind kind) { return kCampaignKindNames.name(kind); }
std::optional<CampaignKind> parse_campaign_kind(std::string_view name) { return kCampaignKindNames.parse(name); }
void to_json(nlohmann::json& j, CampaignKind kind) { j = to_string(kind); }

std::string to_string(RecordingMode mode) { return kRecordingModeNames.name(mode); }
std::optional<RecordingMode> parse_recording_mode(std::string_view name) { return kRecordingModeNames.parse(name); }
std::ostream& operator<<(std::ostream& out, RecordingMode mode) { return out << to_string(mode); }
void to_json(nlohmann::json& j, RecordingMode mode) { j = to_string(mode); }
std::string stored_name(const std::optional<RecordingMode>& mode) { return mode ? to_string(*mode) : ""; }

namespace {
template <class T>
nlohmann::json json_or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}
}  // namespace

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void to_json(nlohmann::json& j, const CampaignRecord& c) {
  // The configuration as the object it is (a text that does not parse, which omnilink never
  // writes, is kept as text rather than lost).
  nlohmann::json config = nlohmann::json::parse(c.config_json, nullptr, false);
  if (config.is_discarded()) config = c.config_json;
  j = {{"id", c.id}, {"kind", c.kind}, {"name", c.name}, {"file", c.file}, {"status", c.status},
       {"created_ms", c.created_ms}, {"finished_ms", c.finished_ms}, {"config", config}};
}

void to_json(nlohmann::json& j, const ValidationRecord& v) {
  j = {{"verdict", v.verdict},
       {"reason", v.reason},
       {"spec", v.spec},
       {"duration_ms", v.duration_ms},
       {"peak_rss_kb", v.peak_rss_kb},
       {"states_generated", json_or_null(v.states_generated)},
       {"states_distinct", json_or_null(v.states_distinct)},
       {"operations", v.operations},
       {"linearized", json_or_null(v.linearized)},
       {"frontier_summary", v.frontier_summary},
       {"created_ms", v.created_ms}};
}

void to_json(nlohmann::json& j, const RunRecord& r) {
  j = {{"key", r.key()},
       {"campaign", r.campaign},
       {"id", r.id},
       {"target", r.target},
       {"threads", r.threads},
       {"ops", r.ops},
       {"number", r.number},
       {"seed", r.seed},
       {"status", to_string(r.status)},
       {"detail", r.detail},
       {"rr_mode", stored_name(r.rr_mode)},
       {"rr_soft_counters", r.rr_soft_counters},
       {"exit_code", json_or_null(r.exit_code)},
       {"exit_signal", json_or_null(r.exit_signal)},
       {"dir", r.dir},
       {"started_ms", r.started_ms},
       {"finished_ms", r.finished_ms},
       {"harness_ms", r.harness_ms},
       {"pack_ms", r.pack_ms},
       {"validation", json_or_null(r.validation)}};
}

}  // namespace omnilink::store
