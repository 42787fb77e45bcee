#include "report/sweep_report.hpp"

#include <cstdio>
#include <map>
#include <sstream>

#include "findings/failure_signature.hpp"
#include "report/campaign_report.hpp"
#include "report/escape.hpp"
#include "report/evidence.hpp"
#include "report/explanation_text.hpp"
#include "store/outcome.hpp"

namespace omnilink::report {
using store::RunRecord;
using nlohmann::json;

namespace {

// How to replay a signature's first evidence run: a crash to its signal, a failure at each
// operation of its failing core (the campaign explained it).
std::string replay_command(const findings::SignatureHistory& h) {
  return "omnilink replay " + h.runs.front() + (h.signature.crash ? " --crash" : " --core");
}

std::string percent(double share) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * share);
  return text;
}

std::string hours(std::chrono::milliseconds spent) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f h", static_cast<double>(spent.count()) / 3.6e6);
  return text;
}

// Runs per hour of the sweep's own time.
double per_hour(std::size_t runs, std::chrono::milliseconds spent) {
  return spent.count() > 0 ? static_cast<double>(runs) * 3.6e6 / static_cast<double>(spent.count()) : 0;
}

std::map<store::Outcome, std::size_t> outcome_counts(const std::vector<store::RunRecord>& runs) {
  std::map<store::Outcome, std::size_t> counts;
  for (const auto& run : runs) ++counts[store::outcome(run)];
  return counts;
}

// The symptoms under a JUnit failure, a line each.
std::string symptom_lines(const findings::SignatureHistory& h) {
  std::string text;
  for (const auto& symptom : h.symptoms)
    text += "\nsymptom " + symptom.symptom.id + " (" + std::to_string(symptom.count) + " run(s)" + (symptom.new_in_newest ? ", new" : "") +
            "): " + symptom.symptom.title;
  return text;
}

}  // namespace

int sweep_exit_code(const SweepSummary& s) {
  for (const auto& h : s.signatures)
    if (findings::is_news(h.status)) return 1;
  for (const auto& run : s.runs) {
    const store::Outcome o = store::outcome(run);
    if (o != store::Outcome::pass && o != store::Outcome::fail && o != store::Outcome::crashed) return 2;
  }
  return s.stop_reason == sweep::StopReason::interrupted || !s.missing_tasks.empty() ? 2 : 0;
}

std::string sweep_markdown(const SweepSummary& s) {
  std::ostringstream out;
  out << "# Sweep " << s.sweep.id << "\n\n## What changed since the previous sweep of " << s.sweep.name << "\n\n";
  bool changed = false;
  for (const auto& h : s.signatures) {
    if (!findings::is_news(h.status) && !h.fixed_now) continue;
    changed = true;
    out << "- **" << (h.status == findings::SignatureStatus::new_ ? "NEW" : h.status == findings::SignatureStatus::regressed ? "REGRESSED" : "FIXED") << "** `" << h.signature.id << "` "
        << markdown_text(h.target) << ": " << markdown_text(h.signature.title) << " (" << h.count << " run(s)";
    if (!h.runs.empty()) out << "; first: `" << h.runs.front() << "`, replay: `" << replay_command(h) << "`";
    out << ")\n";
  }
  for (const auto& h : s.signatures)
    for (const auto& symptom : h.symptoms) {
      if (!symptom.new_in_newest) continue;
      changed = true;
      out << "- **NEW SYMPTOM** of `" << h.signature.id << "` " << markdown_text(h.target) << ": " << markdown_text(symptom.symptom.title) << " ("
          << symptom.count << " run(s); first: `" << symptom.first_run << "`)\n";
    }
  if (!changed) out << "Nothing new: no new or regressed signature, none newly fixed, no new symptom.\n";

  out << "\n## Signatures\n\n| signature | status | target | what | runs | first seen | last seen | runs of its target since | fixed after |\n"
      << "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& h : s.signatures)
    out << "| `" << h.signature.id << "` | " << h.status << " | " << markdown_text(h.target) << " | " << markdown_text(h.signature.title) << " | "
        << h.count << " | " << h.first_seen << " | " << h.last_seen << " | " << h.runs_since << " | " << findings::fixed_after(h) << " |\n";
  if (s.signatures.empty()) out << "| (none) | | | | | | | | |\n";

  // Each signature seen now: its core, read from its first explained evidence run.
  bool cores = false;
  for (const auto& h : s.signatures) {
    const auto found = s.explanations.find(h.signature.id);
    if (found == s.explanations.end() || !found->second.explanation) continue;
    const EvidenceExplanations& e = found->second;
    if (!cores) out << "\n## Failing cores\n\nOf each signature seen in this sweep, from its first explained evidence run (`omnilink explain RUN` says why in full).\n";
    cores = true;
    out << "\n### `" << h.signature.id << "` " << markdown_text(h.target) << ": " << markdown_text(h.signature.title) << "\n\n"
        << "The core of " << markdown_code(e.explained->key()) << ":\n\n" << markdown_block(core_summary(*e.explanation));
    if (const std::string ranked = ranked_hints_text(explain::rank_hints(e.hints), e.hints.size()); !ranked.empty())
      out << "\n" << markdown_block(ranked);
  }

  out << "\n## Symptoms\n\nHow the runs of each signature showed it (docs/campaign.md, Failure signatures).\n\n"
      << "| signature | symptom | runs | first seen | first run |\n|---|---|---|---|---|\n";
  for (const auto& h : s.signatures)
    for (const auto& symptom : h.symptoms)
      out << "| `" << h.signature.id << "` | " << markdown_text(symptom.symptom.title) << (symptom.new_in_newest ? " (new)" : "") << " | "
          << symptom.count << " | " << symptom.first_seen << " | `" << symptom.first_run << "` |\n";

  out << "\n## Allocation and exploration\n\n"
      << "| configuration | runs | share | found something | failures | failure rate (" << percent(s.confidence)
      << " interval) | distinct histories | distinct windows | new windows in last " << sweep::kRecentRuns << " |\n"
      << "|---|---|---|---|---|---|---|---|---|\n";
  std::uint64_t total = 0;
  for (const auto& share : s.shares) total += share.runs.started;
  for (const auto& share : s.shares) {
    const double rate = share.runs.finished ? static_cast<double>(share.failures) / static_cast<double>(share.runs.finished) : 0;
    out << "| " << markdown_text(share.configuration->name) << " | " << share.runs.started << " | "
        << percent(total ? static_cast<double>(share.runs.started) / static_cast<double>(total) : 0) << " | " << share.runs.yields
        << " | " << share.failures << " | " << percent(rate) << " (" << percent(findings::wilson_lower(share.failures, share.runs.finished, s.confidence))
        << " to " << percent(findings::wilson_upper(share.failures, share.runs.finished, s.confidence)) << ") | " << share.histories << " | "
        << share.windows << " | " << share.recent_new << " |\n";
  }

  out << "\n## The sweep\n\n- runs: " << s.runs.size();
  for (const auto& [o, n] : outcome_counts(s.runs)) out << ", " << o << " " << n;
  out << "\n- time: " << hours(s.spent) << " (" << static_cast<long long>(per_hour(s.runs.size(), s.spent)) << " runs per hour)\n"
      << "- stopped: " << s.stop_reason << "\n";
  for (const auto& task : s.missing_tasks) out << "- missing: " << task << "\n";
  out << "- retention: " << s.retention.pruned.size() << " part(s) of runs removed, "
      << s.retention.freed << " bytes freed; " << s.retention.evidence << " run(s) kept as evidence";
  if (s.retention.quota)
    out << "; store quota " << sweep::size_text(*s.retention.quota) << (s.retention.default_quota ? " (default: the store's size plus half the free space)" : "")
        << (s.retention.quota_met ? "" : ", still exceeded (only evidence is left)");
  out << "\n"
      << "- exit code: " << sweep_exit_code(s) << "\n";
  return out.str();
}

json sweep_json(const SweepSummary& s) {
  json signatures = json::array();
  for (const auto& h : s.signatures) {
    json symptoms = json::array();
    for (const auto& symptom : h.symptoms)
      symptoms.push_back({{"id", symptom.symptom.id}, {"key", symptom.symptom.key}, {"title", symptom.symptom.title}, {"count", symptom.count},
                          {"first_seen", symptom.first_seen}, {"first_run", symptom.first_run}, {"new", symptom.new_in_newest}});
    signatures.push_back({{"id", h.signature.id}, {"key", h.signature.key}, {"title", h.signature.title}, {"target", h.target},
                          {"status", h.status}, {"fixed_now", h.fixed_now}, {"count", h.count}, {"first_seen", h.first_seen}, {"last_seen", h.last_seen},
                          {"first_seen_ms", h.first_seen_ms}, {"last_seen_ms", h.last_seen_ms}, {"window", h.window},
                          {"runs_since", h.runs_since}, {"rate_low", h.rate_low}, {"runs_needed", h.runs_needed}, {"runs", h.runs},
                          {"symptoms", symptoms}});
  }
  json configurations = json::array();
  for (const auto& share : s.shares)
    configurations.push_back({{"name", share.configuration->name}, {"runs", share.runs.started}, {"finished", share.runs.finished},
                              {"found_something", share.runs.yields}, {"failures", share.failures},
                              {"failure_rate_low", findings::wilson_lower(share.failures, share.runs.finished, s.confidence)},
                              {"failure_rate_high", findings::wilson_upper(share.failures, share.runs.finished, s.confidence)},
                              {"histories", share.histories}, {"windows", share.windows}, {"recent_new_windows", share.recent_new}});
  json outcomes = json::object();
  for (const auto& [o, n] : outcome_counts(s.runs)) outcomes[store::to_string(o)] = n;
  return {{"format", "omnilink-sweep-report"},
          {"version", 4},
          {"sweep", s.sweep.id},
          {"name", s.sweep.name},
          {"runs", s.runs.size()},
          {"outcomes", outcomes},
          {"spent_ms", s.spent.count()},
          {"runs_per_hour", per_hour(s.runs.size(), s.spent)},
          {"stop_reason", s.stop_reason},
          {"missing_tasks", s.missing_tasks},
          {"confidence", s.confidence},
          {"exit_code", sweep_exit_code(s)},
          {"retention", {{"freed_bytes", s.retention.freed}, {"pruned", s.retention.pruned}, {"evidence_runs", s.retention.evidence},
                         {"quota_met", s.retention.quota_met},
                         {"quota_bytes", s.retention.quota ? json(*s.retention.quota) : json(nullptr)},
                         {"quota_default", s.retention.default_quota}}},
          {"signatures", signatures},
          {"configurations", configurations}};
}

std::string sweep_junit(const SweepSummary& s) {
  // One test case per signature, named by its id so that a new bug is a new failing test in CI and
  // a fixed one turns green; plus one for the sweep itself, an error when it could not run all it should.
  std::size_t failures = 0;
  for (const auto& h : s.signatures) failures += findings::seen_now(h.status);
  const bool incomplete = sweep_exit_code(s) == 2;
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" << xml_escape(s.sweep.id) << "\">\n"
      << "  <testsuite name=\"" << xml_escape(s.sweep.name) << "\" tests=\"" << s.signatures.size() + 1 << "\" failures=\"" << failures
      << "\" errors=\"" << (incomplete ? 1 : 0) << "\">\n";
  for (const auto& h : s.signatures) {
    out << "    <testcase classname=\"" << xml_escape(s.sweep.name + "." + h.target) << "\" name=\""
        << xml_escape(h.signature.id + " " + h.signature.title) << "\"";
    if (!findings::seen_now(h.status)) {
      out << "/>\n";
      continue;
    }
    out << ">\n      <failure type=\"" << h.status << "\" message=\"" << xml_escape(to_string(h.status) + ": " + h.signature.title) << "\">"
        << xml_escape(std::to_string(h.count) + " run(s) since " + h.first_seen + (h.runs.empty() ? "" : "; first: " + h.runs.front() + "\n" + replay_command(h)) + symptom_lines(h))
        << "</failure>\n    </testcase>\n";
  }
  out << "    <testcase classname=\"" << xml_escape(s.sweep.name) << "\" name=\"sweep ran every run it started to a verdict\"";
  if (incomplete) out << ">\n      <error message=\"some runs have no verdict (unknown, error, bad-trace, timeout or interrupted)\"/>\n    </testcase>\n";
  else out << "/>\n";
  out << "  </testsuite>\n</testsuites>\n";
  return out.str();
}

void read_explanations(store::Store& store, SweepSummary& summary) {
  for (const auto& h : summary.signatures)
    if (findings::seen_now(h.status)) summary.explanations[h.signature.id] = evidence_explanations(read_run_reports(evidence_runs(store, h)));
}

}  // namespace omnilink::report
