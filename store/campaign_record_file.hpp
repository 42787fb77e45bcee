// STORE/<campaign-id>/campaign.json (format omnilink-campaign, version 1, docs/campaign.md) and
// its first copy, configuration.json: what a campaign directory says of itself (id, kind, name, number,
// file, configuration; status and end as the index changes them), so that an index can be
// rebuilt from the directories (maintenance/rebuild.hpp). Written here; read by the rebuild.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "store/records.hpp"

namespace omnilink::store {

// STORE/<campaign-id>/campaign.json: the campaign's id, kind, name, number, file and configuration.
std::filesystem::path campaign_record_file(const std::filesystem::path& store, const std::string& campaign_id);
// Writes campaign.json whole for a campaign made (or recovered by a rebuild) with number `seq`; its
// status, end and place among ends are added as the index changes them. Throws StoreError.
void write_campaign_record_file(const std::filesystem::path& store, const CampaignRecord& c, std::int64_t seq);
// STORE/<campaign-id>/configuration.json: campaign.json as the campaign was made (no status),
// written once and never again: what a rebuild restores campaign.json from when it was lost.
std::filesystem::path campaign_configuration_copy(const std::filesystem::path& store, const std::string& campaign_id);
// Writes configuration.json, once, when the campaign is made (Store::create_campaign's): campaign.json is rewritten as the
// campaign's status changes; its configuration, which no run records, also goes where nothing
// rewrites it. Throws StoreError.
void write_campaign_configuration_copy(const std::filesystem::path& store, const CampaignRecord& c, std::int64_t seq);
// Brings campaign.json's status, finished_ms and ended_seq up to the index's (Store's, as it
// changes them), so that a rebuilt
// index says what this one says. A campaign.json that is missing or names another campaign (a
// store made before omnilink wrote one) is left as it is: the rebuild says why it skips it.
void write_campaign_status(const std::filesystem::path& store, const CampaignRecord& c);

}  // namespace omnilink::store
