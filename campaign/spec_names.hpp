// Before any run: the names a campaign file gives its targets' specs (`init`, `next`, `view`) are
// definitions of those specs. A misspelt `next` would otherwise be found by the first validation,
// after the runs, as every run's error.
#pragma once

#include <string>
#include <vector>

#include "campaign/campaign_file.hpp"

namespace omnilink::campaign {

/// One line per target whose spec lacks a definition its file names ("target 'q': next 'Nxet' is
/// not defined in Queue.tla"). A spec the embedded reader cannot load is left to validation,
/// which says why in full (TLC may still check it).
std::vector<std::string> undefined_spec_names(const CampaignConfig& config);

}  // namespace omnilink::campaign
