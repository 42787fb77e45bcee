// A campaign's results for people and for CI: the summary table (per target and configuration,
// the count of each outcome), the details of every failure (its frontier, signature and how to
// replay it), the failures grouped by signature,
// the --json summary and the --junit XML. Each renders the runs as read_run_reports read them
// (run_report.hpp), once for all of them, so `omnilink ls`/`revalidate` and a resumed campaign
// report alike.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/run_report.hpp"
#include "store/store.hpp"

namespace omnilink::report {

std::string summary_table(const std::vector<RunReport>& runs);

// What did not pass: for each failed run its signature, the frontier summary and the replay
// command; for each other non-pass run a line saying why (and a crash's signature); then
// signature_summary. Empty when everything passed.
std::string problem_report(const std::vector<RunReport>& runs);

// The failed and crashed runs grouped by failure signature (failure_signature.hpp), most runs
// first: each signature's id, runs, target and title, and its first run. Empty when none.
std::string signature_summary(const std::vector<RunReport>& runs);

nlohmann::json summary_json(const store::CampaignRecord& campaign, const std::vector<RunReport>& runs);
std::string junit_xml(const store::CampaignRecord& campaign, const std::vector<RunReport>& runs);

}  // namespace omnilink::report
