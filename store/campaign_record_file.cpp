#include "store/campaign_record_file.hpp"

#include <nlohmann/json.hpp>

#include "platform/json_file.hpp"
#include "store/store_error.hpp"

namespace omnilink::store {
namespace fs = std::filesystem;

namespace {

// In every campaign directory: what the campaign was (its id, name, file and configuration), so
// the directory says whose it is and an index can be rebuilt from it.
constexpr const char* kCampaignFile = "campaign.json";
constexpr const char* kCampaignConfigurationCopy = "configuration.json";

// What campaign.json and its copy hold when a campaign is made.
nlohmann::json campaign_record(const CampaignRecord& c, std::int64_t seq) {
  return {{"format", "omnilink-campaign"}, {"version", 1}, {"id", c.id}, {"kind", c.kind}, {"name", c.name}, {"seq", seq},
          {"file", c.file}, {"created_ms", c.created_ms}, {"config", nlohmann::json::parse(c.config_json)}};
}

}  // namespace

fs::path campaign_record_file(const fs::path& store, const std::string& campaign_id) { return store / campaign_id / kCampaignFile; }

fs::path campaign_configuration_copy(const fs::path& store, const std::string& campaign_id) {
  return store / campaign_id / kCampaignConfigurationCopy;
}

void write_campaign_record_file(const fs::path& store, const CampaignRecord& c, std::int64_t seq) {
  platform::write_json_file<StoreError>(campaign_record_file(store, c.id), campaign_record(c, seq));
}

void write_campaign_configuration_copy(const fs::path& store, const CampaignRecord& c, std::int64_t seq) {
  platform::write_json_file<StoreError>(campaign_configuration_copy(store, c.id), campaign_record(c, seq));
}

void write_campaign_status(const fs::path& store, const CampaignRecord& c) {
  const fs::path file = campaign_record_file(store, c.id);
  nlohmann::json record = platform::read_json_leniently(file);
  if (!record.is_object() || record.value("id", "") != c.id) return;
  record["status"] = c.status;
  record["finished_ms"] = c.finished_ms;
  record["ended_seq"] = c.ended_seq != 0 ? nlohmann::json(c.ended_seq) : nlohmann::json(nullptr);
  platform::write_json_file<StoreError>(file, record);
}

}  // namespace omnilink::store
