#include "report/html_report.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "explain/explanation.hpp"
#include "findings/crash_site.hpp"
#include "findings/failure_signature.hpp"
#include "campaign/recording.hpp"
#include "report/run_report.hpp"
#include "store/outcome.hpp"
#include "campaign/run_plan.hpp"
#include "platform/join.hpp"
#include "report/evidence.hpp"
#include "report/explanation_text.hpp"
#include "report/frontier_timeline.hpp"
#include "report/html.hpp"
#include "sweep/sweep_clock.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::report {
namespace fs = std::filesystem;
using store::RunRecord;

namespace {

/// One campaign of the name, as the "over time" chart and table show it.
struct CampaignPoint {
  store::CampaignRecord campaign;
  std::size_t runs = 0, failures = 0, crashed = 0, without_verdict = 0;
  std::int64_t spent_ms = 0;  // a sweep's clock; a campaign's wall time

  double runs_per_hour() const { return spent_ms > 0 ? static_cast<double>(runs) * 3.6e6 / static_cast<double>(spent_ms) : 0; }
};

std::vector<CampaignPoint> campaigns_over_time(store::Store& store, const std::string& name) {
  std::vector<CampaignPoint> points;
  for (auto& c : store.campaigns()) {
    if (c.name != name) continue;
    CampaignPoint p;
    for (const auto& run : store.runs(c.id)) {
      const store::Outcome o = store::outcome(run);
      if (o == store::Outcome::interrupted) continue;  // not a run that happened
      ++p.runs;
      if (o == store::Outcome::fail) ++p.failures;
      else if (o == store::Outcome::crashed) ++p.crashed;
      else if (o != store::Outcome::pass) ++p.without_verdict;
    }
    const auto clock = sweep::recorded_sweep_time(store.directory(), c.id);
    p.spent_ms = clock ? clock->count() : (c.finished_ms ? c.finished_ms : store::now_ms()) - c.created_ms;
    p.campaign = std::move(c);
    points.push_back(std::move(p));
  }
  return points;
}

std::string utc_time(std::int64_t ms) {
  if (ms <= 0) return "";
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &utc);
  return text;
}

std::string number(double value, const char* format = "%.1f") {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string duration(std::int64_t ms) {
  if (ms < 60'000) return number(static_cast<double>(ms) / 1000, "%.1f s");
  if (ms < 3'600'000) return number(static_cast<double>(ms) / 60'000, "%.1f min");
  return number(static_cast<double>(ms) / 3.6e6, "%.2f h");
}

std::string td(const std::string& text) { return "<td>" + html_escape(text) + "</td>"; }
std::string td_num(double value, const char* format = "%.0f") { return "<td class=\"num\">" + number(value, format) + "</td>"; }
std::string code(const std::string& text) { return "<code>" + html_escape(text) + "</code>"; }

// Two bar charts side by side per campaign: runs per hour (blue) and failing runs (red), each scaled
// to its own maximum; hovering a bar gives its campaign and numbers.
std::string over_time_chart(const std::vector<CampaignPoint>& points) {
  double max_rate = 1, max_failures = 1;
  for (const auto& p : points) {
    max_rate = std::max(max_rate, p.runs_per_hour());
    max_failures = std::max(max_failures, static_cast<double>(p.failures + p.crashed));
  }
  const int bar = 14, gap = 10, height = 120, base = height + 10;
  const int width = 40 + static_cast<int>(points.size()) * (2 * bar + gap) + 10;
  std::string svg = "<svg class=\"over-time\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
                    std::to_string(base + 20) + "\" role=\"img\" aria-label=\"runs per hour and failing runs per campaign\">\n";
  svg += "<line x1=\"36\" x2=\"" + std::to_string(width - 6) + "\" y1=\"" + std::to_string(base) + "\" y2=\"" + std::to_string(base) +
         "\" stroke=\"#888\"/>\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    const int x = 40 + static_cast<int>(i) * (2 * bar + gap);
    const int h_rate = static_cast<int>(height * p.runs_per_hour() / max_rate);
    const int h_fail = static_cast<int>(height * static_cast<double>(p.failures + p.crashed) / max_failures);
    const std::string id = html_escape(p.campaign.id);
    svg += "<rect class=\"chart-bar\" x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(base - h_rate) + "\" width=\"" +
           std::to_string(bar) + "\" height=\"" + std::to_string(h_rate) + "\"><title>" + id + ": " +
           number(p.runs_per_hour(), "%.0f") + " runs per hour (" + std::to_string(p.runs) + " runs)</title></rect>\n";
    svg += "<rect class=\"chart-fail\" x=\"" + std::to_string(x + bar) + "\" y=\"" + std::to_string(base - h_fail) + "\" width=\"" +
           std::to_string(bar) + "\" height=\"" + std::to_string(h_fail) + "\"><title>" + id + ": " +
           std::to_string(p.failures + p.crashed) + " failing or crashed runs</title></rect>\n";
    svg += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(base + 14) + "\">" + std::to_string(i + 1) + "</text>\n";
  }
  return svg + "</svg>\n";
}

std::string index_page(const std::string& name, const std::vector<CampaignPoint>& points,
                       const std::vector<findings::SignatureHistory>& signatures) {
  std::ostringstream b;
  b << "<h1>omnilink report: " << html_escape(name) << "</h1>\n"
    << "<p>The campaigns and sweeps named " << code(name) << " in this store, oldest first, and every failure signature they "
    << "found. Runs are named <code>&lt;campaign&gt;/&lt;run&gt;</code>, relative to the store.</p>\n";

  b << "<h2 id=\"over-time\">Over time</h2>\n<p>Blue: runs per hour; red: failing or crashed runs. Numbers under the bars are the "
       "rows of the table.</p>\n"
    << over_time_chart(points)
    << "<table id=\"campaigns\">\n<tr><th>#</th><th>campaign</th><th>started</th><th>status</th><th>runs</th><th>failed</th>"
       "<th>crashed</th><th>no verdict</th><th>time</th><th>runs per hour</th></tr>\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    b << "<tr>" << td_num(static_cast<double>(i + 1)) << "<td>" << code(p.campaign.id) << "</td>" << td(utc_time(p.campaign.created_ms))
      << td(to_string(p.campaign.status)) << td_num(static_cast<double>(p.runs)) << td_num(static_cast<double>(p.failures))
      << td_num(static_cast<double>(p.crashed)) << td_num(static_cast<double>(p.without_verdict)) << td(duration(p.spent_ms))
      << td_num(p.runs_per_hour()) << "</tr>\n";
  }
  b << "</table>\n";

  b << "<h2 id=\"signatures\">Signatures</h2>\n";
  if (signatures.empty()) b << "<p>No failing or crashed run.</p>\n";
  b << "<table id=\"signature-table\">\n<tr><th>signature</th><th>status</th><th>target</th><th>what</th><th>runs</th>"
       "<th>first seen</th><th>last seen</th><th>runs of its target since</th><th>fixed after</th></tr>\n";
  for (const auto& h : signatures) {
    b << "<tr><td><a href=\"" << html_escape(signature_page_name(h.signature.id)) << "\">" << code(h.signature.id) << "</a></td>"
      << "<td class=\"status-" << html_escape(to_string(h.status)) << "\">" << html_escape(to_string(h.status)) << (h.fixed_now ? " (now)" : "") << "</td>"
      << td(h.target) << td(h.signature.title) << td_num(static_cast<double>(h.count)) << "<td>" << code(h.first_seen) << "</td><td>"
      << code(h.last_seen) << "</td>" << td_num(static_cast<double>(h.runs_since))
      << td(findings::fixed_after(h)) << "</tr>\n";
  }
  b << "</table>\n";
  return html_page("omnilink report: " + name, b.str());
}

std::string timeline_section(const RunRecord& run, const FrontierTimeline& t, bool recorded) {
  std::ostringstream b;
  b << "<h2 id=\"frontier\">Around the failure frontier of " << code(run.key()) << "</h2>\n<p>The deepest state the search reached "
    << "linearized " << t.linearized << " of " << t.total << " operations. One lane per thread; each bar is an operation's timebox, "
    << "placed by the order of the start and end stamps (not to scale). Hover a bar for its call and timebox.";
  if (t.partitioned) b << " The spec was checked key by key: only the frontier operations' places are known (others are outlined).";
  b << "</p>\n<p class=\"legend\"><span><i class=\"swatch linearized\" style=\"background:#c8c8cc\"></i>linearized</span>"
       "<span><i class=\"swatch\" style=\"background:#e4572e\"></i>refused by the spec</span>"
       "<span><i class=\"swatch\" style=\"background:#ffc857\"></i>stuck: the search could not get past it</span>"
       "<span><i class=\"swatch\" style=\"background:#fff\"></i>not reached</span>"
       "<span>dashed: in flight when the run died</span></p>\n"
    << "<div class=\"scroll\">" << timeline_svg(t) << "</div>\n";
  if (!t.refused_conjunct.empty())
    b << "<p id=\"refusal\">The spec refused it in action " << code(t.refused_action) << " at " << code(t.refused_at) << ": "
      << code(t.refused_conjunct) << " is false there.</p>\n";
  b << "<table id=\"frontier-operations\">\n<tr><th>operation</th><th>call</th><th>timebox</th><th>place</th><th>replay</th></tr>\n";
  for (const auto& bar : t.bars) {
    if (bar.place != Place::frontier && bar.place != Place::refused) continue;
    const std::string timebox = "[" + std::to_string(bar.start) + ", " + (bar.end ? std::to_string(*bar.end) : "in flight") + "]";
    b << "<tr>" << td(bar.id()) << "<td>" << code(bar.call) << "</td>" << td(timebox)
      << td(std::string(place_name(bar.place)) + (bar.viable ? ", viable" : ", not viable")) << "<td>"
      << (recorded ? code("omnilink replay " + run.key() + " " + bar.id()) : std::string("not recorded")) << "</td></tr>\n";
  }
  b << "</table>\n<h2 id=\"spec-state\">Spec state there</h2>\n<pre>" << html_escape(t.spec_state) << "</pre>\n";
  return b.str();
}

/// The core as a timeline: the refused operation, those linearized at the deepest state of the
/// core's own search, and the rest (outlined), drawn as the frontier timeline draws its bars.
FrontierTimeline core_timeline(const explain::Explanation& e) {
  FrontierTimeline t;
  std::set<std::string> linearized;
  if (e.refused) {
    const auto add = [&](const std::vector<explain::CoreRefusal::Tie>& ties) {
      for (const auto& tied : ties)
        if (tied.linearized) linearized.insert(tied.op);
    };
    add(e.refused->related);
    for (const auto* held : {&e.refused->lost, &e.refused->in_place})
      if (*held) add((*held)->logged_by);
  }
  std::set<std::uint32_t> threads;
  for (const auto* list : {&e.core, &e.context})
    for (const results::StoredOperation& op : *list) {
      threads.insert(op.thread);
      const Place place = e.refused && e.refused->op == op.id() ? Place::refused : linearized.count(op.id()) ? Place::linearized : Place::context;
      t.bars.push_back({op.thread, op.index, op.call(), op.start.value(), op.end, place, false});
    }
  t.threads.assign(threads.begin(), threads.end());
  return t;
}

std::string core_section(const RunRecord& run, const explain::Explanation& e, const std::vector<explain::RankedHint>& ranked,
                         std::size_t hinted_runs) {
  std::ostringstream b;
  b << "<h2 id=\"core\">Failing core of " << code(run.key()) << "</h2>\n<p>" << html_escape(core_headline(e))
    << (e.minimal ? " (one-minimal)" : " (not proven minimal: " + html_escape(e.not_minimal) + ")") << ". Its context (outlined, "
    << "with the core's operations neither refused nor linearized) logged its values. From " << code("omnilink explain " + run.key())
    << ".</p>\n<p class=\"legend\"><span><i class=\"swatch\" style=\"background:#e4572e\"></i>refused at the deepest state of the core's "
       "own search</span><span><i class=\"swatch linearized\" style=\"background:#c8c8cc\"></i>linearized there</span></p>\n"
    << "<div class=\"scroll\">" << timeline_svg(core_timeline(e)) << "</div>\n";
  b << "<table id=\"core-operations\">\n<tr><th>operation</th><th>call</th><th>in the core</th><th>start</th><th>end</th></tr>\n";
  std::uint64_t origin = UINT64_MAX;
  for (const auto* list : {&e.core, &e.context})
    for (const auto& op : *list) origin = std::min(origin, op.start.value());
  for (const auto* list : {&e.core, &e.context})
    for (const auto& op : *list)
      b << "<tr>" << td(op.id()) << "<td>" << code(op.call()) << "</td>" << td(list == &e.core ? "yes" : "context")
        << td_num(static_cast<double>(op.start.value() - origin)) << td_num(static_cast<double>(op.end.value() - origin)) << "</tr>\n";
  b << "</table>\n<p id=\"core-refusal\">Why no order works: " << html_escape(core_stops_at(e)) << "</p>\n";
  if (const std::string breaks = core_breaks(e); !breaks.empty()) b << "<p id=\"core-rule\">" << html_escape(breaks) << "</p>\n";
  if (const std::string unnamed = rules_unnamed_text(e); !unnamed.empty()) b << "<p id=\"core-rule\">" << html_escape(unnamed) << "</p>\n";
  if (e.interleaving) {
    const explain::Interleaving& in = *e.interleaving;
    b << "<h2 id=\"interleaving\">How the recording ran it</h2>\n<p>rr events " << in.first_event << " to " << in.last_event << ": "
      << in.switches << " thread switches, " << in.located << " located in the middle of an operation (the innermost frame in the code "
      << "under test where the thread stopped)." << (in.note.empty() ? "" : " " + html_escape(in.note)) << "</p>\n<ol id=\"schedule\">\n";
    for (const auto& step : in.steps) b << "<li><code>" << html_escape(schedule_step_text(step, e)) << "</code></li>\n";
    b << "</ol>\n";
    if (!in.hints.empty()) {
      b << "<h2 id=\"atomicity-hints\">Atomicity hints</h2>\n<p>Observed: where an operation's thread was switched out in its "
           "middle, and what other threads ran before it ran again. The hint: that code region may need to run atomically against "
           "those operations.</p>\n<ul id=\"hints\">\n";
      for (const auto& h : in.hints) b << "<li>" << html_escape(atomicity_hint_text(h)) << "</li>\n";
      b << "</ul>\n";
    } else if (!explain::core_switched_out(in, e.core)) {
      b << "<p id=\"no-core-switch\">" << html_escape(kNoCoreSwitchText) << "</p>\n";
    }
  } else if (!e.no_interleaving.empty()) {
    b << "<p id=\"no-interleaving\">No interleaving: " << html_escape(e.no_interleaving) << "</p>\n";
  }
  if (hinted_runs >= 2 && !ranked.empty()) {
    b << "<table id=\"ranked-hints\">\n<tr><th>runs (of " << hinted_runs << ")</th><th>operation</th><th>switched out in</th>"
      << "<th>while</th></tr>\n";
    for (const auto& r : ranked) {
      b << "<tr>" << td_num(static_cast<double>(r.runs)) << td(r.example.op_name) << "<td>" << code(r.example.at.text()) << "</td>"
        << td(join(r.example.between_names, ", ")) << "</tr>\n";
    }
    b << "</table>\n";
  }
  return b.str();
}

std::string crash_section(const RunRecord& run, const findings::CrashSite& site) {
  std::ostringstream b;
  b << "<h2 id=\"crash\">Where " << code(run.key()) << " crashed</h2>\n<p>" << html_escape(site.signal_name) << " in "
    << code(site.executable) << (site.note.empty() ? "" : ": " + html_escape(site.note)) << "</p>\n"
    << "<table id=\"crash-frames\">\n<tr><th>#</th><th>function</th><th>source</th><th>address</th></tr>\n";
  for (std::size_t i = 0; i < site.frames.size(); ++i) {
    const auto& f = site.frames[i];
    b << "<tr>" << td_num(static_cast<double>(i)) << "<td>" << code(f.function) << "</td>"
      << td(f.file + (f.line ? ":" + std::to_string(f.line) : "")) << "<td>" << code(f.address) << "</td></tr>\n";
  }
  return b.str() + "</table>\n";
}

std::string signature_page(store::Store& store, const findings::SignatureHistory& h) {
  std::ostringstream b;
  b << "<p><a href=\"index.html\">All signatures</a></p>\n<h1>Signature " << code(h.signature.id) << "</h1>\n<p id=\"title\">"
    << html_escape(h.signature.title) << "</p>\n<table id=\"facts\">\n"
    << "<tr><th>target</th>" << td(h.target) << "</tr>\n<tr><th>status</th><td class=\"status-" << html_escape(to_string(h.status)) << "\">"
    << html_escape(to_string(h.status)) << "</td></tr>\n<tr><th>failing runs</th>" << td_num(static_cast<double>(h.count)) << "</tr>\n"
    << "<tr><th>first seen</th><td>" << code(h.first_seen) << " " << html_escape(utc_time(h.first_seen_ms)) << "</td></tr>\n"
    << "<tr><th>last seen</th><td>" << code(h.last_seen) << " " << html_escape(utc_time(h.last_seen_ms)) << "</td></tr>\n"
    << "<tr><th>runs of its target since</th>" << td_num(static_cast<double>(h.runs_since)) << "</tr>\n"
    << "<tr><th>key</th><td>" << code(h.signature.key) << "</td></tr>\n</table>\n";

  const std::vector<RunRecord> evidence = evidence_runs(store, h);
  b << "<h2 id=\"symptoms\">Symptoms</h2>\n<p>How its runs showed it (the refusal in detail).</p>\n<table id=\"symptom-table\">\n"
       "<tr><th>symptom</th><th>what</th><th>runs</th><th>first seen</th><th>first run</th></tr>\n";
  for (const auto& symptom : h.symptoms)
    b << "<tr><td>" << code(symptom.symptom.id) << "</td>" << td(symptom.symptom.title + (symptom.new_in_newest ? " (new)" : ""))
      << td_num(static_cast<double>(symptom.count)) << "<td>" << code(symptom.first_seen) << "</td><td>" << code(symptom.first_run)
      << "</td></tr>\n";
  b << "</table>\n";

  b << "<h2 id=\"evidence\">Evidence runs</h2>\n<table id=\"evidence-runs\">\n<tr><th>run</th><th>outcome</th><th>symptom</th>"
       "<th>how to replay it</th></tr>\n";
  const std::vector<RunReport> reports = read_run_reports(evidence);
  for (const RunReport& report : reports) {
    b << "<tr><td>" << code(report.run.key()) << "</td>" << td(store::to_string(report.outcome)) << "<td>"
      << (report.signature ? code(report.signature->symptom.id) : "") << "</td><td>" << code(report.replay) << "</td></tr>\n";
  }
  b << "</table>\n";

  // The first evidence run with an explanation shows its core; the hints of all are ranked.
  const EvidenceExplanations explained = evidence_explanations(reports);
  for (const std::string& bad : explained.damaged) b << "<p class=\"error\">" << html_escape(bad) << "</p>\n";
  if (explained.explained)
    b << core_section(*explained.explained, *explained.explanation, explain::rank_hints(explained.hints), explained.hints.size());

  if (!evidence.empty()) {
    const RunRecord& first = evidence.front();
    try {
      if (const auto timeline = read_frontier_timeline(first.dir))
        b << timeline_section(first, *timeline, fs::exists(trace::RunLayout(first.dir).recording()));
      else if (const auto site = findings::read_crash_site(first.dir))
        b << crash_section(first, *site);
    } catch (const std::exception& e) {
      b << "<p class=\"error\">Cannot show the frontier of " << code(first.key()) << ": " << html_escape(e.what()) << "</p>\n";
    }
  }
  return html_page("omnilink signature " + h.signature.id + ": " + h.signature.title, b.str());
}

void write_file(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace

std::string signature_page_name(const std::string& signature_id) {
  if (signature_id.empty() || signature_id.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw std::runtime_error("not a signature id: '" + signature_id + "'");
  return "signature-" + signature_id + ".html";
}

std::vector<fs::path> write_html_report(store::Store& store, const std::string& name,
                                        const std::vector<findings::SignatureHistory>& signatures, const fs::path& out) {
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) throw std::runtime_error("cannot create " + out.string() + ": " + ec.message());
  std::vector<fs::path> written{out / "index.html"};
  write_file(written.front(), index_page(name, campaigns_over_time(store, name), signatures));
  for (const auto& h : signatures) {
    written.push_back(out / signature_page_name(h.signature.id));
    write_file(written.back(), signature_page(store, h));
  }
  return written;
}

}  // namespace omnilink::report
