#include "report/results_doc.hpp"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "campaign/campaign_file.hpp"
#include "platform/join.hpp"
#include "report/escape.hpp"
#include "report/run_report.hpp"
#include "store/outcome.hpp"
#include "sweep/exploration.hpp"
#include "sweep/sweep_file.hpp"

namespace omnilink::report {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kMaxLine = 400;  // frontier lines (spec states) can be very long

std::string seconds_text(std::int64_t ms) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(ms < 10'000 ? 2 : 1) << static_cast<double>(ms) / 1000.0 << " s";
  return s.str();
}

// The campaigns' stored configurations, each read once by its one reader (campaign::stored_campaign);
// nothing for a campaign whose configuration was lost (`store rebuild` recovered it from its runs)
// or does not read: the document then says what the runs alone say.
class StoredConfigs {
 public:
  const std::optional<campaign::CampaignConfig>& of(const store::CampaignRecord& campaign) {
    const auto [it, added] = read_.try_emplace(campaign.id);
    if (added) it->second = read(campaign);
    return it->second;
  }

  // The target's configuration in the campaign's (nothing if absent).
  std::optional<campaign::TargetConfig> target(const store::CampaignRecord& campaign, const std::string& name) {
    const auto& config = of(campaign);
    if (!config) return std::nullopt;
    for (const auto& t : config->targets)
      if (t.name == name) return t;
    return std::nullopt;
  }

  // The campaign's rr timeslice bound (rr's own for campaigns stored before the field existed).
  std::uint64_t rr_timeslice(const store::CampaignRecord& campaign) {
    const auto& config = of(campaign);
    return config ? config->rr_timeslice_ticks : campaign::kRrOwnTimesliceTicks;
  }

 private:
  static std::optional<campaign::CampaignConfig> read(const store::CampaignRecord& campaign) {
    const json config = json::parse(campaign.config_json, nullptr, false);
    if (config.is_discarded()) return std::nullopt;
    try {
      return campaign::stored_campaign(config, campaign.id);
    } catch (const campaign::CampaignFileError&) {
      return std::nullopt;
    }
  }

  std::map<std::string, std::optional<campaign::CampaignConfig>> read_;
};

template <typename Number>
std::string list_text(const std::vector<Number>& values) {
  std::vector<std::string> items;
  for (const auto v : values) items.push_back(std::to_string(v));
  return join(items, ", ");
}

std::vector<std::string> harness_args(const std::optional<campaign::TargetConfig>& target) {
  return target ? target->args : std::vector<std::string>{};
}

// The targets of some campaigns' runs, in order of first appearance.
std::vector<std::string> targets_of(const std::vector<store::RunRecord>& runs) {
  std::vector<std::string> names;
  for (const auto& run : runs)
    if (std::find(names.begin(), names.end(), run.target) == names.end()) names.push_back(run.target);
  return names;
}

std::vector<store::RunRecord> runs_of(const std::vector<store::RunRecord>& runs, const std::string& target) {
  std::vector<store::RunRecord> out;
  std::copy_if(runs.begin(), runs.end(), std::back_inserter(out), [&](const store::RunRecord& r) { return r.target == target; });
  return out;
}

// How the runs were recorded, e.g. "chaos (rr -W, timeslice 2000 ticks)" or "off"; without a
// timeslice (a sweep's, whose configurations each name theirs) e.g. "chaos (rr -W)".
std::string rr_text(const std::vector<store::RunRecord>& runs, std::optional<std::uint64_t> timeslice_ticks) {
  std::set<std::string> modes;
  for (const auto& run : runs) {
    if (!run.rr_mode) continue;
    std::vector<std::string> how;
    if (run.recorded() && run.rr_soft_counters) how.push_back("rr -W");
    if (run.recorded() && timeslice_ticks) how.push_back("timeslice " + std::to_string(*timeslice_ticks) + " ticks");
    modes.insert(store::to_string(*run.rr_mode) + (how.empty() ? "" : " (" + join(how, ", ") + ")"));
  }
  return modes.empty() ? "-" : join({modes.begin(), modes.end()}, ", ");
}

std::string validation_time(const std::vector<store::RunRecord>& runs) {
  std::vector<std::int64_t> ms;
  for (const auto& run : runs)
    if (run.validation) ms.push_back(run.validation->duration_ms);
  if (ms.empty()) return "-";
  std::sort(ms.begin(), ms.end());
  return "median " + seconds_text(ms[ms.size() / 2]) + ", max " + seconds_text(ms.back());
}

std::string truncated_lines(const std::string& text) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.size() > kMaxLine) line = line.substr(0, kMaxLine) + " ... (" + std::to_string(line.size()) + " characters)";
    out += line + "\n";
  }
  return out;
}

void write_failure(std::ostream& s, const RunReport& report) {
  const store::RunRecord& run = report.run;
  s << "- **" << markdown_text(run.key()) << "** (" << run.threads << " threads x " << run.ops << " operations, seed "
    << run.seed << ", rr " << markdown_text(store::stored_name(run.rr_mode)) << ", run status " << markdown_text(store::to_string(run.status)) << ")\n\n";
  s << markdown_block(truncated_lines(report.failure)) << "\n";
  s << "  " << markdown_text(report.replay) << "\n\n";
}

struct Counts {
  std::size_t pass = 0, fail = 0;
  std::string other = "-";  // "2 unknown, 1 crash"
};

Counts count_outcomes(const std::vector<store::RunRecord>& runs) {
  std::map<store::Outcome, std::size_t> counts;
  for (const auto& run : runs) ++counts[store::outcome(run)];
  std::vector<std::string> other;
  for (const store::Outcome o : store::kOutcomes)
    if (o != store::Outcome::pass && o != store::Outcome::fail && counts[o] > 0)
      other.push_back(std::to_string(counts[o]) + " " + store::to_string(o));
  return {counts[store::Outcome::pass], counts[store::Outcome::fail], other.empty() ? "-" : join(other, ", ")};
}

// A target's crashed runs, grouped by where the signal struck (their signatures): each place's
// title, how many runs, and its first run with how to replay it to the signal.
void write_crashes(std::ostream& s, const std::string& campaign_id, const std::vector<const store::RunRecord*>& crashed_runs,
                   std::size_t runs) {
  if (crashed_runs.empty()) return;
  std::vector<RunReport> crashed;
  for (const store::RunRecord* run : crashed_runs) crashed.push_back(read_run_report(*run));
  const std::vector<SignatureGroup> places = group_by_signature(crashed);
  std::size_t unsigned_runs = crashed.size();
  for (const SignatureGroup& place : places) unsigned_runs -= place.runs.size();
  s << crashed.size() << " of " << runs << " runs crashed";
  if (!places.empty()) s << ", at " << (places.size() == 1 ? "one place" : std::to_string(places.size()) + " places") << " (by signature)";
  s << ":\n\n";
  for (const SignatureGroup& place : places) {
    const RunReport& first = *place.runs.front();
    const store::RunRecord& run = first.run;
    const std::size_t count = place.runs.size();
    s << "- **" << markdown_text(place.signature.title) << "** (signature " << markdown_code(place.signature.id) << "), " << count
      << (count == 1 ? " run" : " runs") << "; the first: " << markdown_text(run.key()) << " (" << run.threads << " threads x "
      << run.ops << " operations, seed " << run.seed << ", rr " << markdown_text(store::stored_name(run.rr_mode)) << ")\n\n"
      << "  " << markdown_text(first.replay) << "\n\n";
  }
  if (unsigned_runs > 0)
    s << unsigned_runs << (unsigned_runs == 1 ? " crash has" : " crashes have") << " no signature (no crash site was recorded): "
      << markdown_code("omnilink ls " + campaign_id + " --status crashed") << ".\n\n";
}

// A target's description and spec, then its failures and crashes, or what finding none was worth.
void write_findings(std::ostream& s, StoredConfigs& configs, const store::CampaignRecord& campaign, const std::string& target,
                    const std::vector<store::RunRecord>& runs, std::size_t failures_shown) {
  const auto config = configs.target(campaign, target);
  if (config && !config->description.empty()) s << markdown_text(config->description) << "\n\n";
  if (config)
    s << "Spec: " << markdown_code(config->spec.filename().string())
      << (config->mc ? " with " + markdown_code(config->mc->filename().string()) : "") << ".\n\n";
  std::vector<const store::RunRecord*> failed, crashed;
  for (const auto& run : runs) {
    const store::Outcome outcome = store::outcome(run);
    if (outcome == store::Outcome::fail) failed.push_back(&run);
    if (outcome == store::Outcome::crashed) crashed.push_back(&run);
  }
  if (failed.empty()) {
    // The search budget, plainly: what "nothing found" was worth. A crash is something found.
    std::size_t passed = 0;
    std::uint64_t operations = 0;
    for (const auto& run : runs)
      if (store::outcome(run) == store::Outcome::pass) ++passed, operations += std::uint64_t{run.threads} * run.ops;
    s << (crashed.empty() ? "No violation found: " : "No validation failure: ") << passed << " of " << runs.size()
      << " runs passed validation, " << operations << " operations in all"
      << (crashed.empty() ? "" : "; " + std::to_string(crashed.size()) + " crashed (below)")
      << (passed + crashed.size() < runs.size() ? "; the others have no verdict (see the table)" : "")
      << ".\n\n";
  } else {
    s << failed.size() << " of " << runs.size() << " runs failed validation"
      << (failed.size() > failures_shown ? "; the first " + std::to_string(failures_shown) + ":" : ":") << "\n\n";
    for (std::size_t i = 0; i < failed.size() && i < failures_shown; ++i) write_failure(s, read_run_report(*failed[i]));
    if (failed.size() > failures_shown)
      s << "All of them: " << markdown_code("omnilink ls " + campaign.id + " --verdict fail") << ".\n\n";
  }
  write_crashes(s, campaign.id, crashed, runs.size());
}

void write_results(std::ostream& s, const ResultsInput& input, StoredConfigs& configs) {
  s << "## Verdicts\n\n"
    << "| campaign | target | configuration | rr | runs | pass | fail | other | validation time |\n"
    << "| --- | --- | --- | --- | ---: | ---: | ---: | --- | --- |\n";
  for (const auto& c : input.results) {
    for (const auto& target : targets_of(c.runs)) {
      const auto runs = runs_of(c.runs, target);
      const auto config = configs.target(c.campaign, target);
      const Counts counts = count_outcomes(runs);
      std::string configuration = "-";
      if (config) {
        configuration = "threads " + list_text(config->threads) + "; ops " + list_text(config->ops) + "; " +
                        std::to_string(config->runs) + " runs each";
        const auto args = harness_args(config);
        if (!args.empty()) configuration += "; args " + join(args, " ");
      }
      s << "| " << markdown_text(c.campaign.id) << " | " << markdown_text(target) << " | " << markdown_text(configuration)
        << " | " << markdown_text(rr_text(runs, configs.rr_timeslice(c.campaign))) << " | " << runs.size() << " | " << counts.pass << " | " << counts.fail
        << " | " << markdown_text(counts.other) << " | " << validation_time(runs) << " |\n";
    }
  }
  s << "\n## Targets and failures\n\n";
  for (const auto& c : input.results)
    for (const auto& target : targets_of(c.runs)) {
      s << "### " << markdown_text(target) << " (" << markdown_text(c.campaign.id) << ")\n\n";
      write_findings(s, configs, c.campaign, target, runs_of(c.runs, target), input.failures_shown);
    }
}

std::uint64_t operations_of(const std::vector<store::RunRecord>& runs) {
  std::uint64_t n = 0;
  for (const auto& run : runs) n += std::uint64_t{run.threads} * run.ops;
  return n;
}

// A sweep run's configuration (sweep_file.hpp reads its id); an id of another shape stands alone.
std::string configuration_of(const store::RunRecord& run) { return std::string(sweep::configuration_name(run.id).value_or(run.id)); }

void write_sweeps(std::ostream& s, const ResultsInput& input, StoredConfigs& configs) {
  s << "## Sweeps\n\n"
    << "A sweep draws runs from every configuration of its file (target x threads x operations x perturbation x rr "
       "timeslice) until its time budget ends, giving more runs to configurations that keep finding failures or new "
       "interleavings (docs/sweep.md). *Operations* counts what the harnesses performed; *distinct windows* counts the "
       "distinct interleavings of " << sweep::kWindowEvents << " consecutive operation starts and ends seen in the "
       "target's traces (docs/sweep.md, \"Exploration\"): how much different behaviour the budget bought.\n\n";
  for (const auto& [c, spent] : input.sweeps) {
    std::set<std::string> configurations;
    for (const auto& run : c.runs) configurations.insert(configuration_of(run));
    s << "### " << markdown_text(c.campaign.name) << " (" << markdown_text(c.campaign.id) << ")\n\n"
      << markdown_code(fs::path(c.campaign.file).filename().string()) << ": ";
    if (spent) {
      std::ostringstream hours;
      hours << std::fixed << std::setprecision(2) << static_cast<double>(spent->count()) / 3.6e6;
      s << hours.str() << " h of runs, ";
    }
    else s << "time spent not recorded (a sweep merged from shards), ";
    s << configurations.size() << " configurations, " << c.runs.size() << " runs, " << operations_of(c.runs)
      << " operations; rr " << markdown_text(rr_text(c.runs, std::nullopt)) << ".\n\n"
      << "| target | configurations | runs | operations | pass | fail | other | distinct windows |\n"
      << "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |\n";
    for (const auto& target : targets_of(c.runs)) {
      const auto runs = runs_of(c.runs, target);
      std::set<std::string> drawn;
      sweep::ExplorationTally windows;
      std::size_t unread = 0;
      for (const auto& run : runs) {
        drawn.insert(configuration_of(run));
        if (const auto seen = sweep::explore_run(run.dir)) windows.add(*seen);
        else ++unread;
      }
      const Counts counts = count_outcomes(runs);
      s << "| " << markdown_text(target) << " | " << drawn.size() << " | " << runs.size() << " | " << operations_of(runs)
        << " | " << counts.pass << " | " << counts.fail << " | " << markdown_text(counts.other) << " | " << windows.windows()
        << (unread > 0 ? " (" + std::to_string(unread) + " runs without a trace)" : "") << " |\n";
    }
    s << "\n";
    for (const auto& target : targets_of(c.runs)) {
      s << "#### " << markdown_text(target) << "\n\n";
      const auto config = configs.target(c.campaign, target);
      const auto args = harness_args(config);
      if (config)
        s << "Harness " << markdown_code(config->harness.filename().string())
          << (args.empty() ? "" : " " + markdown_code(join(args, " "))) << "; threads "
          << markdown_text(list_text(config->threads)) << "; ops "
          << markdown_text(list_text(config->ops)) << " (perturbations and rr timeslices: the sweep file).\n\n";
      write_findings(s, configs, c.campaign, target, runs_of(c.runs, target), input.failures_shown);
    }
  }
}

void write_hunts(std::ostream& s, const ResultsInput& input, StoredConfigs& configs) {
  s << "## Bug-finding power: runs and wall time to the first failure\n\n"
    << "Each row is one campaign of one target, run with one harness at a time (`jobs` 1), validations overlapping "
       "the next run. *Wall time* is from the campaign's start to the first failing verdict; *run time* adds up the "
       "harness, packing and validation times of the runs up to and including the first failure (one core's work).\n\n"
    << "| target | lane | threads x ops | runs | failed | first failure at run | wall time to it | run time to it |\n"
    << "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |\n";
  for (const auto& c : input.hunts) {
    for (const auto& target : targets_of(c.runs)) {
      const auto runs = runs_of(c.runs, target);
      const auto config = configs.target(c.campaign, target);
      const std::string lane =
          hunt_lane(runs.empty() ? std::nullopt : runs.front().rr_mode, harness_args(config), configs.rr_timeslice(c.campaign));
      std::set<std::string> shapes;
      for (const auto& run : runs) shapes.insert(std::to_string(run.threads) + " x " + std::to_string(run.ops));
      std::size_t failed = 0, first = 0;
      std::int64_t run_ms = 0, wall_ms = 0;
      for (std::size_t i = 0; i < runs.size(); ++i) {
        const bool fail = store::outcome(runs[i]) == store::Outcome::fail;
        failed += fail;
        if (first != 0) continue;
        run_ms += runs[i].harness_ms + runs[i].pack_ms + (runs[i].validation ? runs[i].validation->duration_ms : 0);
        if (fail) {
          first = i + 1;
          wall_ms = runs[i].validation->created_ms - c.campaign.created_ms;
        }
      }
      s << "| " << markdown_text(target) << " | " << markdown_text(lane) << " | " << markdown_text(join({shapes.begin(), shapes.end()}, ", "))
        << " | " << runs.size() << " | " << failed << " | ";
      if (first == 0)
        s << "not found | - | " << seconds_text(run_ms) << " (all) |\n";
      else
        s << first << " | " << seconds_text(wall_ms) << " | " << seconds_text(run_ms) << " |\n";
    }
  }
  s << "\n";
}

}  // namespace

std::string hunt_lane(std::optional<store::RecordingMode> rr_mode, const std::vector<std::string>& harness_args,
                      std::uint64_t rr_timeslice_ticks) {
  if (rr_mode && *rr_mode != store::RecordingMode::off)
    return "rr " + store::to_string(*rr_mode) + ", timeslice " + std::to_string(rr_timeslice_ticks) + " ticks";
  std::string perturb = "none", rate = "0.1";  // the harness's defaults (docs/harness.md)
  for (std::size_t i = 0; i + 1 < harness_args.size(); ++i) {
    if (harness_args[i] == "--perturb") perturb = harness_args[i + 1];
    if (harness_args[i] == "--perturb-rate") rate = harness_args[i + 1];
  }
  return perturb == "none" ? "native" : "native + perturb " + perturb + " " + rate;
}

std::string results_markdown(const ResultsInput& input) {
  std::ostringstream s;
  StoredConfigs configs;
  s << "# Results\n\n"
    << "<!-- Generated by `omnilink results` (scripts/results); do not edit by hand. -->\n\n"
    << "What omnilink's campaigns found on the real systems in `examples/` (docs/results.md is regenerated from the "
       "store " << markdown_code(input.store) << " by `scripts/results`). A verdict is *pass* only when a checker (the "
       "embedded one, or TLC for a spec it does not evaluate) finished its search and found an order of the "
       "operations, within their timeboxes, that the spec accepts; a validation that did not finish is *unknown*.\n\n";
  if (!input.results.empty()) write_results(s, input, configs);
  if (!input.hunts.empty()) write_hunts(s, input, configs);
  if (!input.sweeps.empty()) write_sweeps(s, input, configs);
  std::string doc = s.str();
  if (!input.relative_to.empty()) {
    const std::string prefix = input.relative_to.back() == '/' ? input.relative_to : input.relative_to + "/";
    for (std::size_t at = doc.find(prefix); at != std::string::npos; at = doc.find(prefix, at)) doc.erase(at, prefix.size());
  }
  return doc;
}

}  // namespace omnilink::report
