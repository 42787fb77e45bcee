#include "report/campaign_report.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "report/escape.hpp"

namespace omnilink::report {
namespace {

std::string configuration(const store::RunRecord& run) {
  return run.target + " t" + std::to_string(run.threads) + " o" + std::to_string(run.ops);
}

/// Each grouped run's signature and symptom: read once, for the group.
struct RunSignature {
  const findings::FailureSignature* signature = nullptr;
  const findings::FailureSymptom* symptom = nullptr;
};
std::map<const RunReport*, RunSignature> signature_of_runs(const std::vector<SignatureGroup>& groups) {
  std::map<const RunReport*, RunSignature> of;
  for (const auto& g : groups)
    for (const auto& symptom : g.symptoms)
      for (const RunReport* run : symptom.runs) of[run] = {&g.signature, &symptom.symptom};
  return of;
}

/// "<signature title>: <symptom title>", or the title alone where the symptom is the signature.
std::string signature_text(const findings::FailureSignature& signature, const findings::FailureSymptom& symptom) {
  return symptom.id == signature.id ? signature.title : signature.title + ": " + symptom.title;
}

std::string signature_summary(std::vector<SignatureGroup> groups) {
  if (groups.empty()) return "";
  std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.runs.size() > b.runs.size(); });
  std::ostringstream s;
  s << groups.size() << (groups.size() == 1 ? " distinct failure" : " distinct failures") << " (by signature):\n";
  for (const auto& g : groups) {
    s << "  " << g.signature.id << "  " << g.runs.size() << (g.runs.size() == 1 ? " run   " : " runs  ") << g.target << ": "
      << g.signature.title << "  (first: " << g.runs.front()->run.key() << ")\n";
    for (const auto& symptom : g.symptoms)
      if (symptom.symptom.id != g.signature.id)
        s << "      symptom " << symptom.symptom.id << "  " << symptom.runs.size() << (symptom.runs.size() == 1 ? " run   " : " runs  ")
          << symptom.symptom.title << "  (first: " << symptom.runs.front()->run.key() << ")\n";
  }
  return s.str();
}

// A failed run's failure (failure_summary), each line indented by two.
std::string failure_text(const RunReport& run) {
  std::istringstream lines(run.failure);
  std::ostringstream s;
  for (std::string line; std::getline(lines, line);) s << "  " << line << "\n";
  return s.str();
}

// For each failed run: its signature, its failing core (or frontier) and the replay command; for each other
// non-pass run a line saying why (and a crash's signature). Empty when everything passed.
std::string problem_details(const std::vector<RunReport>& runs, const std::vector<SignatureGroup>& groups) {
  const auto signature_of = signature_of_runs(groups);
  auto signature_line = [&](const RunReport& run) {
    const auto found = signature_of.find(&run);
    return found == signature_of.end() ? ""
                                       : "  signature " + found->second.signature->id + ": " +
                                             signature_text(*found->second.signature, *found->second.symptom) + "\n";
  };
  std::ostringstream s;
  for (const auto& report : runs) {
    const store::RunRecord& run = report.run;
    const store::Outcome o = report.outcome;
    if (o == store::Outcome::pass) continue;
    s << run.key() << ": " << o;
    if (o == store::Outcome::fail) {
      s << " (run " << run.status << ", seed " << run.seed << ")\n" << signature_line(report);
      s << failure_text(report);
      s << "  " << report.replay << "\n";
      s << "  run directory: " << run.dir << "\n";
    } else {
      const std::string why = !run.detail.empty() ? run.detail : run.validation ? run.validation->reason : "";
      s << (why.empty() ? "" : " - " + why) << "\n" << signature_line(report);
      if (o == store::Outcome::crashed) s << "  " << report.replay << "\n";
    }
  }
  return s.str();
}

}  // namespace

std::string signature_summary(const std::vector<RunReport>& runs) { return signature_summary(group_by_signature(runs)); }

std::string problem_report(const std::vector<RunReport>& runs) {
  const std::vector<SignatureGroup> groups = group_by_signature(runs);
  const std::string details = problem_details(runs, groups), signatures = signature_summary(groups);
  return details.empty() || signatures.empty() ? details + signatures : details + "\n" + signatures;
}

std::string summary_table(const std::vector<RunReport>& reports) {
  struct Row {
    std::size_t runs = 0;
    std::map<store::Outcome, std::size_t> outcomes;
  };
  std::map<std::string, Row> rows;  // by configuration
  std::vector<std::string> order;
  for (const auto& report : reports) {
    const std::string key = configuration(report.run);
    if (!rows.contains(key)) order.push_back(key);
    ++rows[key].outcomes[report.outcome];
    ++rows[key].runs;
  }
  std::size_t width = 13;
  for (const auto& key : order) width = std::max(width, key.size());
  std::ostringstream s;
  s << std::left << std::setw(static_cast<int>(width)) << "configuration" << std::right << std::setw(6) << "runs";
  const auto column = [](store::Outcome o) { return static_cast<int>(std::max<std::size_t>(store::to_string(o).size(), 4) + 2); };
  for (const store::Outcome o : store::kOutcomes) s << std::setw(column(o)) << o;
  s << "\n";
  for (const auto& key : order) {
    s << std::left << std::setw(static_cast<int>(width)) << key << std::right << std::setw(6) << rows[key].runs;
    for (const store::Outcome o : store::kOutcomes) {
      const std::size_t n = rows[key].outcomes[o];
      s << std::setw(column(o)) << (n == 0 ? "." : std::to_string(n));
    }
    s << "\n";
  }
  return s.str();
}

nlohmann::json summary_json(const store::CampaignRecord& campaign, const std::vector<RunReport>& runs) {
  nlohmann::json counts = nlohmann::json::object();
  for (const store::Outcome o : store::kOutcomes) counts[store::to_string(o)] = 0;
  const std::vector<SignatureGroup> groups = group_by_signature(runs);
  const auto signature_of = signature_of_runs(groups);
  nlohmann::json list = nlohmann::json::array();
  std::vector<store::Outcome> outcomes;
  for (const auto& report : runs) {
    const store::RunRecord& run = report.run;
    const store::Outcome o = report.outcome;
    outcomes.push_back(o);
    const std::string name(store::to_string(o));
    counts[name] = counts[name].get<int>() + 1;
    nlohmann::json r{{"run", run.key()},         {"target", run.target},   {"threads", run.threads},
                     {"ops", run.ops},           {"number", run.number},   {"seed", run.seed},
                     {"status", store::to_string(run.status)}, {"outcome", name},           {"detail", run.detail},
                     {"rr_mode", store::stored_name(run.rr_mode)},   {"rr_soft_counters", run.rr_soft_counters},
                     {"harness_ms", run.harness_ms}, {"pack_ms", run.pack_ms}, {"dir", run.dir}};
    if (run.exit_code) r["exit_code"] = *run.exit_code;
    if (run.exit_signal) r["exit_signal"] = *run.exit_signal;
    if (run.validation) {
      r["validation"] = {{"verdict", run.validation->verdict}, {"reason", run.validation->reason},
                         {"duration_ms", run.validation->duration_ms}, {"peak_rss_kb", run.validation->peak_rss_kb},
                         {"operations", run.validation->operations}};
    }
    if (!report.replay.empty()) r["replay"] = report.replay;
    if (const auto found = signature_of.find(&report); found != signature_of.end()) {
      r["signature"] = found->second.signature->id;
      r["symptom"] = found->second.symptom->id;
    }
    list.push_back(std::move(r));
  }
  nlohmann::json signatures = nlohmann::json::array();
  for (const auto& g : groups) {
    nlohmann::json keys = nlohmann::json::array();
    for (const RunReport* run : g.runs) keys.push_back(run->run.key());
    nlohmann::json symptoms = nlohmann::json::array();
    for (const auto& symptom : g.symptoms)
      symptoms.push_back({{"id", symptom.symptom.id}, {"title", symptom.symptom.title}, {"key", symptom.symptom.key},
                          {"runs", symptom.runs.size()}, {"first", symptom.runs.front()->run.key()}});
    signatures.push_back({{"id", g.signature.id}, {"target", g.target}, {"title", g.signature.title}, {"key", g.signature.key},
                          {"runs", keys}, {"symptoms", symptoms}});
  }
  return {{"format", "omnilink-campaign-summary"}, {"version", 3},           {"campaign", campaign.id},
          {"name", campaign.name},                 {"status", campaign.status}, {"file", campaign.file},
          {"exit_code", store::exit_code_of(outcomes)},      {"counts", counts},       {"runs", list},
          {"signatures", signatures}};
}

std::string junit_xml(const store::CampaignRecord& campaign, const std::vector<RunReport>& runs) {
  // One testsuite per target, one testcase per run: fail is a <failure>, a run that yields no
  // verdict is an <error>, an interrupted one <skipped>.
  std::map<std::string, std::vector<const RunReport*>> by_target;
  std::vector<std::string> order;
  for (const auto& report : runs) {
    if (!by_target.contains(report.run.target)) order.push_back(report.run.target);
    by_target[report.run.target].push_back(&report);
  }
  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" << xml_escape(campaign.id) << "\">\n";
  for (const auto& target : order) {
    std::size_t failures = 0, errors = 0, skipped = 0;
    for (const auto* report : by_target[target]) {
      const store::Outcome o = report->outcome;
      failures += o == store::Outcome::fail;
      skipped += o == store::Outcome::interrupted;
      errors += o != store::Outcome::fail && o != store::Outcome::pass && o != store::Outcome::interrupted;
    }
    s << "  <testsuite name=\"" << xml_escape(campaign.id + "." + target) << "\" tests=\"" << by_target[target].size()
      << "\" failures=\"" << failures << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\">\n";
    for (const auto* report : by_target[target]) {
      const store::RunRecord* run = &report->run;
      const store::Outcome o = report->outcome;
      const double seconds = static_cast<double>(run->harness_ms + (run->validation ? run->validation->duration_ms : 0)) / 1000.0;
      s << "    <testcase classname=\"" << xml_escape(campaign.id + "." + target) << "\" name=\"" << xml_escape(run->id)
        << "\" time=\"" << seconds << "\"";
      if (o == store::Outcome::pass) {
        s << "/>\n";
        continue;
      }
      s << ">\n";
      const std::string why = !run->detail.empty() ? run->detail : run->validation ? run->validation->reason : store::to_string(o);
      if (o == store::Outcome::fail) {
        s << "      <failure message=\"" << xml_escape(run->validation->reason) << "\">"
          << xml_escape(failure_text(*report) + report->replay) << "</failure>\n";
      } else if (o == store::Outcome::interrupted) {
        s << "      <skipped message=\"" << xml_escape(why) << "\"/>\n";
      } else {
        s << "      <error type=\"" << xml_escape(store::to_string(o)) << "\" message=\"" << xml_escape(why) << "\"/>\n";
      }
      s << "      <system-out>" << xml_escape("run directory: " + run->dir + "\nseed: " + std::to_string(run->seed)) << "</system-out>\n";
      s << "    </testcase>\n";
    }
    s << "  </testsuite>\n";
  }
  s << "</testsuites>\n";
  return s.str();
}

}  // namespace omnilink::report
