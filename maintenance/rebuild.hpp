// `omnilink store rebuild`: a store's index (omnilink.db) made again from its campaign
// directories, after it was deleted, emptied or lost. Each STORE/<campaign-id>/campaign.json says
// which campaign a directory holds, its configuration and (since omnilink mirrors it) its status
// and the place of its end; each run directory's run.json is the index's own row of the run. So a
// campaign's plan is made again, a sweep's runs are the run directories it has, and every run is
// restored as the index had it. Run directories made before run.json existed are read back from
// what they hold: the harness's outcome from meta.json, how it was recorded from recording.json,
// the newest verdict from validation/result.json, and for a sweep's run its configuration from its
// id. A campaign whose campaign.json is lost is recovered from its runs' run.json, its
// configuration recorded as lost (campaign::recovered_config), and said so. Nothing in a run
// directory is changed.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace omnilink::maintenance {

/// What a rebuild indexed and what it left alone.
struct RebuildReport {
  std::vector<std::string> campaigns;    // indexed, by id
  std::size_t runs = 0;                  // runs indexed (a campaign's planned runs never started as pending)
  std::size_t run_directories = 0;       // of them, with a run directory read back
  std::size_t validations = 0;           // verdicts read back (run.json, else validation/result.json)
  std::vector<std::string> left_alone;   // what could not be indexed, and why
  std::vector<std::string> recovered;    // campaigns indexed without their campaign.json, and what that loses
};

/// Rebuilds the index of `store`. Throws store::StoreError when the store has an index already.
RebuildReport rebuild_index(const std::filesystem::path& store);

}  // namespace omnilink::maintenance
