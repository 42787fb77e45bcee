#include "sweep/sweep_file.hpp"

#include <array>
#include <cctype>
#include <string_view>

#include "campaign/file_reader.hpp"
#include "sweep/retention.hpp"

namespace omnilink::sweep {
namespace fs = std::filesystem;
using campaign::CampaignFileError;
using campaign::ObjectReader;
using nlohmann::json;

namespace {

constexpr std::array<std::string_view, 10> kSweepFields{"for", "until", "max_runs", "max_failures", "min_runs",
                                                       "keep_passing_recordings", "keep_failing_recordings", "evidence_runs",
                                                       "fixed_confidence", "store_quota"};
// The dimensions a sweep target adds to the campaign target's threads and ops.
constexpr std::array<std::string_view, 3> kAxisFields{"perturb", "perturb_rate", "rr_timeslice_ticks"};
constexpr std::array<std::string_view, 4> kPerturbModes{"none", "yield", "sleep", "mixed"};
// Configurations are listed one by one (and each gets min_runs runs first): a grid larger than this
// is surely a mistake.
constexpr std::size_t kMaxConfigurations = 10'000;

struct Axes {
  std::vector<std::string> perturb;
  std::vector<double> perturb_rate;
  std::vector<std::uint64_t> timeslices;
};

Axes read_axes(const ObjectReader& target) {
  Axes axes;
  axes.perturb = target.string_list("perturb", /*distinct=*/true);
  for (std::size_t i = 0; i < axes.perturb.size(); ++i)
    if (std::find(kPerturbModes.begin(), kPerturbModes.end(), axes.perturb[i]) == kPerturbModes.end())
      target.errors().fail(target.path("perturb") + "[" + std::to_string(i) + "]",
                           "'" + axes.perturb[i] + "' is not a perturbation mode: none, yield, sleep or mixed");
  axes.perturb_rate = target.fraction_list("perturb_rate", 1.0);
  if (target.find("rr_timeslice_ticks")) axes.timeslices = target.integer_list("rr_timeslice_ticks", campaign::kTicks);
  return axes;
}

// A dimension the file leaves out has one value, "as the target says" (nullopt).
template <class T>
std::vector<std::optional<T>> or_unset(const std::vector<T>& values) {
  if (values.empty()) return {std::nullopt};
  return {values.begin(), values.end()};
}

std::string rate_text(double rate) { return json(rate).dump(); }

std::string configuration_name(const std::string& target, const Configuration& c) {
  std::string name = target + ".t" + std::to_string(c.threads) + ".o" + std::to_string(c.ops);
  if (c.perturb) name += ".p" + *c.perturb;
  if (c.perturb_rate) name += ".pr" + rate_text(*c.perturb_rate);
  if (c.timeslice_ticks) name += ".ts" + std::to_string(*c.timeslice_ticks);
  return name;
}

SweepSettings read_settings(const ObjectReader& top, const BudgetOverride& override_budget) {
  SweepSettings s;
  const json* value = top.find("sweep");
  static const json kEmpty = json::object();
  const ObjectReader o(top.errors(), value != nullptr ? *value : kEmpty, top.path("sweep"), kSweepFields);
  auto duration = [&](const std::string& text, const std::string& origin) {
    const auto seconds = parse_duration(text);
    if (!seconds) top.errors().fail(origin, "'" + text + "' is not a duration: e.g. 8h, 90m, 1h30m or 45s");
    return *seconds;
  };
  auto time_of_day = [&](const std::string& text, const std::string& origin) {
    if (!parse_time_of_day(text)) top.errors().fail(origin, "'" + text + "' is not a time of day HH:MM (e.g. 06:00)");
    return text;
  };
  if (override_budget.duration || override_budget.until) {
    // The command line's budget replaces the file's whole: `--for 10m` on a file that says `until`.
    if (override_budget.duration) s.budget.duration = duration(*override_budget.duration, "--for");
    if (override_budget.until) s.budget.until = time_of_day(*override_budget.until, "--until");
  } else {
    if (const auto text = o.string("for")) s.budget.duration = duration(*text, o.path("for"));
    if (const auto text = o.string("until")) s.budget.until = time_of_day(*text, o.path("until"));
  }
  if (s.budget.duration && s.budget.until) top.errors().fail(o.path("until"), "give for or until, not both");
  if (!s.budget.duration && !s.budget.until && !override_budget.resuming)
    top.errors().fail("sweep", "a sweep needs a time budget: `for` (e.g. \"8h\") or `until` (e.g. \"06:00\") here, or --for/--until");
  s.max_runs = o.integer("max_runs", campaign::Range{1, campaign::kUnbounded});
  s.max_failures = o.integer("max_failures", campaign::Range{1, campaign::kUnbounded});
  if (const auto n = o.integer("min_runs", campaign::Range{1, 1000})) s.min_runs = static_cast<std::uint32_t>(*n);
  for (const auto& [field, keep] : {std::pair{"keep_passing_recordings", &s.keep_passing_recordings},
                                     std::pair{"keep_failing_recordings", &s.keep_failing_recordings}})
    if (const json* given = o.find(field)) {
      if (!given->is_boolean()) o.fail(field, "must be true or false (got " + campaign::shown(*given) + ")");
      else *keep = given->get<bool>();
    }
  if (const auto n = o.integer("evidence_runs", campaign::Range{1, 1000})) s.evidence_runs = static_cast<std::uint32_t>(*n);
  if (const auto quota = o.string("store_quota")) {
    s.store_quota = parse_size(*quota);
    if (!s.store_quota) o.fail("store_quota", "'" + *quota + "' is not a size: digits, then optionally k, m, g or t (e.g. 20g)");
  }
  if (const auto c = o.fraction("fixed_confidence", 1.0)) {
    if (*c >= 1.0 || *c < 0.5) o.fail("fixed_confidence", "must be at least 0.5 and below 1 (got " + campaign::shown(*c) + ")");
    s.fixed_confidence = *c;
  }
  return s;
}

}  // namespace

std::optional<std::chrono::seconds> parse_duration(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::uint64_t total = 0;
  std::string_view rest = text;
  std::string_view units = "hms";  // each unit at most once, in this order
  while (!rest.empty()) {
    std::uint64_t n = 0;
    std::size_t digits = 0;
    while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits])) && digits < 9)
      n = n * 10 + static_cast<std::uint64_t>(rest[digits++] - '0');
    if (digits == 0 || digits == rest.size()) return std::nullopt;
    const auto unit = units.find(rest[digits]);
    if (unit == std::string_view::npos) return std::nullopt;
    total += n * (rest[digits] == 'h' ? 3600 : rest[digits] == 'm' ? 60 : 1);
    units.remove_prefix(unit + 1);
    rest.remove_prefix(digits + 1);
  }
  if (total == 0 || total > campaign::kSeconds.max) return std::nullopt;
  return std::chrono::seconds(total);
}

std::optional<int> parse_time_of_day(const std::string& text) {
  if (text.size() != 5 || text[2] != ':') return std::nullopt;
  for (const std::size_t i : {0, 1, 3, 4})
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
  const int hours = (text[0] - '0') * 10 + (text[1] - '0');
  const int minutes = (text[3] - '0') * 10 + (text[4] - '0');
  if (hours > 23 || minutes > 59) return std::nullopt;
  return hours * 60 + minutes;
}

SweepConfig load_sweep(const fs::path& file, const campaign::LoadOptions& options, const BudgetOverride& budget) {
  campaign::FileExtension extension;
  extension.top_fields = {"sweep"};
  extension.target_fields.assign(kAxisFields.begin(), kAxisFields.end());
  extension.refused_target_fields = {"runs", "seed_base"};
  extension.refused_why = "not in a sweep file: a sweep draws runs with fresh seeds until its budget ends (see sweep.max_runs)";
  campaign::ExtendedCampaign read = campaign::load_extended_campaign(file, options, extension);

  SweepConfig config;
  config.campaign = std::move(read.config);
  const ObjectReader top = ObjectReader::checked_elsewhere(read.errors, read.document, "");
  config.sweep = read_settings(top, budget);
  const json& targets = read.document.at("targets");  // a list: checked by the campaign reading
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const auto name = targets[i].at("name").get<std::string>();
    const auto kept = std::find_if(config.campaign.targets.begin(), config.campaign.targets.end(),
                                   [&](const campaign::TargetConfig& t) { return t.name == name; });
    if (kept == config.campaign.targets.end()) continue;  // left out by --only
    const Axes axes = read_axes(ObjectReader::checked_elsewhere(read.errors, targets[i], campaign::target_path(i, targets[i])));
    Configuration c;
    c.target = static_cast<std::size_t>(kept - config.campaign.targets.begin());
    for (const auto threads : kept->threads)
      for (const auto ops : kept->ops)
        for (const auto& perturb : or_unset(axes.perturb))
          for (const auto& rate : or_unset(axes.perturb_rate))
            for (const auto& ticks : or_unset(axes.timeslices)) {
              c.threads = threads;
              c.ops = ops;
              c.perturb = perturb;
              c.perturb_rate = rate;
              c.timeslice_ticks = ticks;
              c.name = configuration_name(name, c);
              config.configurations.push_back(c);
              if (config.configurations.size() > kMaxConfigurations)
                read.errors.fail("targets", "more than " + std::to_string(kMaxConfigurations) +
                                                " configurations (every combination of each target's lists); list fewer values");
            }
  }
  return config;
}

nlohmann::json SweepConfig::to_json() const {
  json out = campaign.to_json();
  json budget = json::object();
  if (sweep.budget.duration) budget["for_s"] = sweep.budget.duration->count();
  if (sweep.budget.until) budget["until"] = *sweep.budget.until;
  out["sweep"] = {{"budget", budget},
                  {"max_runs", sweep.max_runs ? json(*sweep.max_runs) : json(nullptr)},
                  {"max_failures", sweep.max_failures ? json(*sweep.max_failures) : json(nullptr)},
                  {"min_runs", sweep.min_runs},
                  {"keep_passing_recordings", sweep.keep_passing_recordings},
                  {"keep_failing_recordings", sweep.keep_failing_recordings},
                  {"evidence_runs", sweep.evidence_runs},
                  {"store_quota", sweep.store_quota ? json(*sweep.store_quota) : json(nullptr)},
                  {"fixed_confidence", sweep.fixed_confidence}};
  json names = json::array();
  for (const auto& c : configurations) names.push_back(c.name);
  out["sweep"]["configurations"] = std::move(names);
  return out;
}

std::optional<StoredSweep> stored_sweep(const nlohmann::json& stored, const std::string& origin) {
  if (!stored.is_object() || !stored.contains("sweep") || stored["sweep"].is_null()) return std::nullopt;
  try {
    const json& part = stored["sweep"];
    StoredSweep out;
    SweepSettings& s = out.settings;
    const json budget = part.value("budget", json::object());
    if (budget.contains("for_s")) s.budget.duration = std::chrono::seconds(budget.at("for_s").get<std::int64_t>());
    if (budget.contains("until")) s.budget.until = budget.at("until").get<std::string>();
    const auto optional_count = [&](const char* name) -> std::optional<std::uint64_t> {
      const json value = part.value(name, json());
      return value.is_null() ? std::nullopt : std::optional<std::uint64_t>(value.get<std::uint64_t>());
    };
    s.max_runs = optional_count("max_runs");
    s.max_failures = optional_count("max_failures");
    s.store_quota = optional_count("store_quota");
    s.min_runs = part.value("min_runs", s.min_runs);
    s.keep_passing_recordings = part.value("keep_passing_recordings", s.keep_passing_recordings);
    s.keep_failing_recordings = part.value("keep_failing_recordings", s.keep_failing_recordings);
    s.evidence_runs = part.value("evidence_runs", s.evidence_runs);
    s.fixed_confidence = part.value("fixed_confidence", s.fixed_confidence);
    out.configurations = part.value("configurations", std::vector<std::string>{});
    return out;
  } catch (const json::exception& e) {
    throw campaign::CampaignFileError(origin + ": the stored sweep is not one this omnilink wrote: " + e.what());
  }
}

std::optional<std::string_view> configuration_name(std::string_view run_id) {
  // "<configuration>.r<digits>"
  const auto dot = run_id.rfind(".r");
  if (dot == std::string_view::npos || dot + 2 == run_id.size() ||
      !std::all_of(run_id.begin() + static_cast<std::ptrdiff_t>(dot) + 2, run_id.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
    return std::nullopt;
  return run_id.substr(0, dot);
}

const Configuration* configuration_of(const SweepConfig& config, const store::RunRecord& run) {
  const auto name = configuration_name(run.id);
  if (!name) return nullptr;
  for (const auto& c : config.configurations)
    if (c.name == *name) return &c;
  return nullptr;
}

std::string plan_difference(const nlohmann::json& stored, const nlohmann::json& now) {
  const auto before = stored_sweep(stored, "the stored sweep");
  // The record's kind says sweep (Session and --report check it first); a configuration without
  // its sweep part is one omnilink did not write.
  if (!before) return "its stored configuration has no sweep settings";
  if (stored.value("targets", nlohmann::json()) != now.value("targets", nlohmann::json()))
    return "its targets differ from the sweep file's now";
  const auto after = stored_sweep(now, "the sweep file");
  if (!after || before->configurations != after->configurations) return "its configurations differ from the sweep file's now";
  if (stored.value("shard", nlohmann::json()) != now.value("shard", nlohmann::json())) return "it is another shard of the sweep (--shard)";
  return "";
}

}  // namespace omnilink::sweep
