#include "campaign/campaign_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <span>
#include <sstream>
#include <string_view>
#include <thread>

#include "omnilink/clock.hpp"
#include "platform/join.hpp"
#include "store/store.hpp"
#include "platform/memory.hpp"
#include "platform/subprocess.hpp"
#include "platform/special_file.hpp"

namespace omnilink::campaign {
namespace fs = std::filesystem;
using nlohmann::json;

std::string to_string(RrMode mode) {
  switch (mode) {
    case RrMode::automatic: return "auto";
    case RrMode::off: return "off";
    case RrMode::record: return "record";
    case RrMode::chaos: return "chaos";
  }
  return "?";
}

std::optional<RrMode> parse_rr_mode(const std::string& text) {
  for (RrMode mode : {RrMode::automatic, RrMode::off, RrMode::record, RrMode::chaos})
    if (to_string(mode) == text) return mode;
  return std::nullopt;
}

std::string target_path(std::size_t index, const json& target) {
  const std::string path = "targets[" + std::to_string(index) + "]";
  if (!target.is_object()) return path;
  const auto name = target.find("name");
  if (name == target.end() || !name->is_string() || name->get_ref<const std::string&>().empty()) return path;
  return path + " (" + name->get<std::string>() + ")";
}

namespace {

// The fields each object of the campaign file may have (docs/campaign.md). Anything else is an
// error: a misspelt optional field would otherwise be silently replaced by its default.
constexpr std::array<std::string_view, 10> kTopFields{"format", "name", "store", "rr", "rr_timeslice_ticks", "jobs", "run_timeout_s",
                                                     "tlc", "validation", "targets"};
// tlc.timeout_s and tlc.jobs are the older names of validation.timeout_s and validation.jobs,
// from when TLC was the only checker; still read.
constexpr std::array<std::string_view, 3> kTlcFields{"heap", "timeout_s", "jobs"};
constexpr std::array<std::string_view, 7> kValidationFields{"checker", "confirm_failures", "jobs", "timeout_s", "memory",
                                                           "interleavings", "interleavings_budget_s"};
constexpr std::array<std::string_view, 14> kTargetFields{"name", "description", "harness", "args", "clock", "spec",
                                                         "mc",   "init",        "next",    "view", "threads",
                                                         "ops",  "runs",        "seed_base"};
// The harness library's clocks (harness.md, "Choosing a clock"), whether or not this machine has
// rdtsc: the machine that runs the campaign may.
constexpr std::array<ClockKind, 3> kClocks{ClockKind::counter, ClockKind::monotonic, ClockKind::rdtsc};

// A -Xmx size: [1-9][0-9]*[kKmMgG].
// Absolute and lexically normal, without a trailing separator. Symlinks are kept as they are: a
// harness may dispatch on its own name.
fs::path normal_absolute(const fs::path& path) {
  fs::path out = fs::absolute(path).lexically_normal();
  if (!out.has_filename() && out != out.root_path()) out = out.parent_path();
  return out;
}

// --- overrides ---

struct Override {
  std::string text;
  std::vector<std::string> field;  // components; for targets.NAME.FIELD exactly those three
  json value;
};

[[noreturn]] void fail_override(const std::string& text, const std::string& problem) {
  throw CampaignFileError("override '" + text + "': " + problem);
}

std::vector<std::string> split_field(const std::string& text, const std::string& field) {
  // Target names may contain dots, so NAME is everything between `targets.` and the last dot
  // (target fields are never objects, so the last component is the field).
  if (field.starts_with("targets.")) {
    const std::string rest = field.substr(std::string_view("targets.").size());
    const auto dot = rest.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == rest.size())
      fail_override(text, "expected targets.NAME.FIELD (NAME may be *)");
    return {"targets", rest.substr(0, dot), rest.substr(dot + 1)};
  }
  std::vector<std::string> components;
  std::stringstream parts(field);
  for (std::string part; std::getline(parts, part, '.');) components.push_back(part);
  if (field.ends_with('.') || std::any_of(components.begin(), components.end(), [](const auto& c) { return c.empty(); }))
    fail_override(text, "empty component in the field '" + field + "'");
  return components;
}

Override parse_override(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos) fail_override(text, "expected FIELD=VALUE");
  const std::string field = text.substr(0, eq);
  if (field.empty()) fail_override(text, "the field before '=' is empty");
  const std::string value_text = text.substr(eq + 1);
  // JSON when it parses (numbers, lists, quoted strings), else the text itself: `rr=off` needs no quotes.
  json value = json::parse(value_text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) value = value_text;
  return {text, split_field(text, field), std::move(value)};
}

void apply_target_override(json& document, const Override& o, FileErrors& errors) {
  const std::string& name = o.field[1];
  const auto targets = document.find("targets");
  if (targets == document.end() || !targets->is_array()) fail_override(o.text, "the campaign has no list of targets");
  bool matched = false;
  for (std::size_t i = 0; i < targets->size(); ++i) {
    json& target = (*targets)[i];
    if (!target.is_object()) continue;  // reported by the checks that follow
    const auto target_name = target.find("name");
    if (name != "*" && (target_name == target.end() || *target_name != name)) continue;
    target[o.field[2]] = o.value;
    errors.note_override(member_path(target_path(i, target), o.field[2]), o.text);
    matched = true;
  }
  if (!matched && name != "*") fail_override(o.text, "no target named '" + name + "'");
}

void apply_override(json& document, const Override& o, FileErrors& errors) {
  if (o.field.size() == 3 && o.field[0] == "targets") return apply_target_override(document, o, errors);
  json* node = &document;
  std::string path;
  for (std::size_t i = 0; i + 1 < o.field.size(); ++i) {
    path = member_path(path, o.field[i]);
    json& next = (*node)[o.field[i]];
    if (next.is_null()) next = json::object();
    if (!next.is_object()) fail_override(o.text, path + " is not an object");
    node = &next;
  }
  (*node)[o.field.back()] = o.value;
  errors.note_override(member_path(path, o.field.back()), o.text);
}

// --- paths ---

// Why `path` cannot be run as a harness, if it cannot.
std::optional<std::string> not_executable(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return "does not exist";
  if (!fs::is_regular_file(path, ec)) return "is not a regular file";
  if (::access(path.c_str(), X_OK) != 0) return "is not executable";
  return std::nullopt;
}

// Resolves the file's paths where docs/campaign.md says, failing with every place it looked.
class PathResolver {
 public:
  PathResolver(const FileErrors& errors, fs::path base, const LoadOptions& options)
      : errors_(errors), base_(std::move(base)), options_(options) {}

  // With a '/': relative to the campaign file. A bare name: the harness dirs in order, then PATH.
  fs::path harness(const std::string& value, const std::string& field) const {
    if (value.empty()) errors_.fail(field, "must not be empty");
    if (value.find('/') != std::string::npos) {
      const fs::path candidate = normal_absolute(base_ / value);
      if (const auto problem = not_executable(candidate)) errors_.fail(field, "'" + value + "': " + candidate.string() + " " + *problem);
      return candidate;
    }
    std::vector<std::string> looked;
    for (const auto& dir : options_.harness_dirs) {
      const fs::path candidate = normal_absolute(dir / value);
      if (!not_executable(candidate)) return candidate;
      looked.push_back(candidate.string());
    }
    if (const auto found = find_on_path(value)) return normal_absolute(*found);
    const std::string dirs = looked.empty() ? "" : "for " + join(looked, ", ") + ", then ";
    errors_.fail(field, "no executable '" + value + "' (looked " + dirs + "on PATH)");
  }

  // Beside the campaign file (or absolute); a bare name also in the spec dirs, in order.
  fs::path spec(const std::string& value, const std::string& field) const {
    if (!value.ends_with(".tla")) errors_.fail(field, "'" + value + "' must name a .tla file");
    std::vector<fs::path> dirs{base_};
    if (value.find('/') == std::string::npos) dirs.insert(dirs.end(), options_.spec_dirs.begin(), options_.spec_dirs.end());
    std::vector<std::string> looked;
    for (const auto& dir : dirs) {
      const fs::path candidate = normal_absolute(dir / value);
      if (const auto what = platform::not_a_regular_file(candidate, "a spec")) errors_.fail(field, candidate.string() + ": " + *what);
      std::error_code ec;
      if (fs::is_regular_file(candidate, ec)) return candidate;
      looked.push_back(candidate.string());
    }
    errors_.fail(field, "'" + value + "' not found (looked for " + join(looked, ", ") + ")");
  }

  // --store (relative to the current directory), the file's `store`, $OMNILINK_STORE, ./omnilink-store.
  fs::path store(const std::optional<std::string>& in_file) const {
    if (options_.store) return normal_absolute(*options_.store);
    if (in_file) return normal_absolute(base_ / *in_file);
    return normal_absolute(store::default_store_directory());
  }

 private:
  const FileErrors& errors_;
  fs::path base_;
  const LoadOptions& options_;
};

// --- the checks, object by object ---

void check_format(const json& document, const FileErrors& errors) {
  const std::string readable = "this omnilink reads format " + std::to_string(kCampaignFormat);
  const auto format = document.find("format");
  if (format == document.end()) errors.fail("format", "required (" + readable + ")");
  if (!format->is_number_unsigned() || *format != kCampaignFormat)
    errors.fail("format", "format " + shown(*format) + " is not supported; " + readable);
}

// What the `tlc` object gives under the older names of validation.timeout_s and validation.jobs.
struct OlderNames {
  std::optional<std::int64_t> timeout_s, jobs;
};

// The `tlc` object: TLC's heap, and the older names.
OlderNames read_tlc(const ObjectReader& top, TlcBudget& tlc) {
  const json* value = top.find("tlc");
  if (value == nullptr) return {};
  const ObjectReader o(top.errors(), *value, top.path("tlc"), kTlcFields);
  if (const auto heap = o.string("heap")) {
    if (!platform::parse_byte_size(*heap)) o.fail("heap", "'" + *heap + "' is not a heap size: digits, then k, m or g (e.g. 2g)");
    tlc.heap = *heap;
  }
  return {o.integer("timeout_s", kSeconds), o.integer("jobs", kJobs)};
}

// The `validation` object's checker, confirmations and the native checker's memory.
void read_checks(const ObjectReader& o, ValidationConfig& v) {
  if (const auto checker = o.string("checker")) {
    const auto parsed = checkers::parse_checker(*checker);
    if (!parsed) o.fail("checker", "'" + *checker + "' is not a checker: native, tlc, auto or both");
    else v.checker = *parsed;
  }
  if (const auto confirm = o.integer("confirm_failures", Range{0, std::numeric_limits<unsigned>::max()}))
    v.confirm_failures = static_cast<unsigned>(*confirm);
  if (const auto memory = o.string("memory")) {
    const auto mb = platform::parse_memory_limit_mb(*memory);
    if (!mb) o.fail("memory", "'" + *memory + "' is not a size of at least 1m (e.g. 512m, 4g)");
    else v.native.memory_mb = *mb;
  }
  if (const auto n = o.integer("interleavings", Range{0, std::numeric_limits<unsigned>::max()})) v.interleavings = static_cast<unsigned>(*n);
  if (const auto budget = o.integer("interleavings_budget_s", kSeconds)) v.interleavings_budget = std::chrono::seconds(*budget);
}

ValidationConfig read_validation(const ObjectReader& top) {
  ValidationConfig v;
  const OlderNames older = read_tlc(top, v.tlc);
  const json* value = top.find("validation");
  std::optional<std::int64_t> timeout_s, jobs;
  if (value != nullptr) {
    const ObjectReader o(top.errors(), *value, top.path("validation"), kValidationFields);
    read_checks(o, v);
    timeout_s = o.integer("timeout_s", kSeconds);
    jobs = o.integer("jobs", kJobs);
    if (timeout_s && older.timeout_s) o.fail("timeout_s", "given twice: here and as tlc.timeout_s, its older name");
    if (jobs && older.jobs) o.fail("jobs", "given twice: here and as tlc.jobs, its older name");
  }
  if (const auto t = timeout_s ? timeout_s : older.timeout_s) v.timeout = std::chrono::seconds(*t);
  if (const auto n = jobs ? jobs : older.jobs) v.jobs = static_cast<unsigned>(*n);
  return v;
}

// What omnilink sets for each run, if `args` sets it: given again there, the harness would take
// the target's (its last value wins) while the run's id and record say omnilink's. The clock is
// omnilink's too: under rr it must be the counter, and a run's clock decides how far its timeboxes
// can be trusted, so it is a field of the target rather than an argument passed unread.
std::optional<std::string> omnilink_owned_argument(const std::vector<std::string>& args) {
  for (const std::string& arg : args)
    for (const std::string_view owned : {"--threads", "--ops", "--seed", "--out", "--clock", "--help", "-h"})
      if (arg == owned || arg.starts_with(std::string(owned) + "="))
        return "'" + arg + "' is omnilink's to set for each run" +
               (owned == "--threads" || owned == "--ops" || owned == "--clock"
                    ? " (use the target's \"" + std::string(owned.substr(2)) + "\")"
                : owned == "--seed" ? " (use \"seed_base\")"
                                    : "");
  return std::nullopt;
}

TargetConfig read_target(const ObjectReader& o, const PathResolver& paths) {
  TargetConfig target;
  target.name = o.required_string("name");
  check_name(o.errors(), o.path("name"), target.name, "target name");
  if (const auto description = o.string("description")) target.description = *description;
  target.harness = paths.harness(o.required_string("harness"), o.path("harness"));
  target.args = o.string_list("args");
  if (const auto problem = omnilink_owned_argument(target.args)) o.fail("args", *problem);
  if (const auto clock = o.string("clock")) {
    if (std::none_of(kClocks.begin(), kClocks.end(), [&](ClockKind kind) { return clock_name(kind) == *clock; }))
      o.fail("clock", "'" + *clock + "' is not a clock: counter, monotonic or rdtsc");
    target.clock = *clock;
  }
  target.spec = paths.spec(o.required_string("spec"), o.path("spec"));
  if (const auto mc = o.string("mc")) target.mc = paths.spec(*mc, o.path("mc"));
  if (const auto init = o.identifier("init")) target.init = *init;
  if (const auto next = o.identifier("next")) target.next = *next;
  target.view = o.identifier("view");
  for (const auto threads : o.integer_list("threads", kThreads)) target.threads.push_back(static_cast<std::uint32_t>(threads));
  target.ops = o.integer_list("ops", kOps);
  if (const auto runs = o.integer("runs", kRuns)) target.runs = static_cast<std::uint32_t>(*runs);
  if (const auto seed = o.integer("seed_base", kSeed)) target.seed_base = *seed;
  return target;
}

// The fields of a file's objects: the campaign file's, and those its extension adds.
std::vector<std::string_view> with(std::span<const std::string_view> fields, const std::vector<std::string_view>& more) {
  std::vector<std::string_view> out(fields.begin(), fields.end());
  out.insert(out.end(), more.begin(), more.end());
  return out;
}

std::vector<TargetConfig> read_targets(const ObjectReader& top, const PathResolver& paths, const FileExtension& extension) {
  const json& list = top.require("targets");
  if (!list.is_array()) top.fail("targets", "must be a list of targets (got " + shown(list) + ")");
  if (list.empty()) top.fail("targets", "must not be empty: a campaign runs at least one target");
  std::vector<TargetConfig> targets;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = target_path(i, list[i]);
    const ObjectReader target(top.errors(), list[i], path, with(kTargetFields, extension.target_fields));
    for (const auto field : extension.refused_target_fields)
      if (target.find(field)) target.fail(field, extension.refused_why);
    targets.push_back(read_target(target, paths));
    for (std::size_t j = 0; j < i; ++j)
      if (targets[j].name == targets[i].name)
        top.errors().fail(member_path(path, "name"), "duplicate: targets[" + std::to_string(j) + "] has the same name");
  }
  return targets;
}

unsigned default_jobs() { return std::max(1u, std::thread::hardware_concurrency()); }

template <class T>
json or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

json target_json(const TargetConfig& t) {
  json out{{"name", t.name},
          {"harness", t.harness.string()},
          {"args", t.args},
          {"spec", t.spec.string()},
          {"mc", t.mc ? json(t.mc->string()) : json(nullptr)},
          {"init", t.init},
          {"next", t.next},
          {"view", or_null(t.view)},
          {"threads", t.threads},
          {"ops", t.ops},
          {"runs", t.runs},
          {"seed_base", t.seed_base}};
  // Only when given: configurations stored before the field existed stay equal (--resume).
  if (!t.description.empty()) out["description"] = t.description;
  if (t.clock) out["clock"] = *t.clock;
  return out;
}

}  // namespace

const TargetConfig* CampaignConfig::target(const std::string& target_name) const {
  for (const auto& t : targets)
    if (t.name == target_name) return &t;
  return nullptr;
}

std::optional<Shard> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  const auto number = [](const std::string& digits) -> std::optional<std::uint32_t> {
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return static_cast<std::uint32_t>(std::stoul(digits));
  };
  if (slash == std::string::npos) return std::nullopt;
  const auto index = number(text.substr(0, slash)), count = number(text.substr(slash + 1));
  if (!index || !count || *count == 0 || *index >= *count) return std::nullopt;
  return Shard{*index, *count};
}

json CampaignConfig::to_json() const {
  json target_list = json::array();
  for (const auto& target : targets) target_list.push_back(target_json(target));
  // nlohmann's default object keeps keys sorted, so the dump is deterministic.
  json out{{"format", kCampaignFormat},
          {"name", name},
          {"store", store.string()},
          {"rr", to_string(rr)},
          {"rr_timeslice_ticks", rr_timeslice_ticks},
          {"jobs", jobs},
          {"run_timeout_s", run_timeout.count()},
          {"tlc", {{"heap", validation.tlc.heap}}},
          {"validation", {{"checker", omnilink::checkers::checker_name(validation.checker)},
                          {"confirm_failures", validation.confirm_failures},
                          {"jobs", or_null(validation.jobs)},
                          {"timeout_s", validation.timeout.count()},
                          {"interleavings", validation.interleavings},
                          {"interleavings_budget_s", validation.interleavings_budget.count()}}},
          {"targets", std::move(target_list)}};
  // As the file gives it, so that the effective configuration reads back as a campaign file.
  if (validation.native.memory_mb != 0) out["validation"]["memory"] = std::to_string(validation.native.memory_mb) + "m";
  if (shard) out["shard"] = {{"index", shard->index}, {"count", shard->count}};
  return out;
}

// --only and --harness-arg shape the configuration like overrides do, so what is stored (and
// compared by --resume) is what runs.
void select_targets(std::vector<TargetConfig>& targets, const LoadOptions& options, const FileErrors& errors) {
  const auto is_named = [](const std::string& name) {
    return [&name](const TargetConfig& t) { return t.name == name; };
  };
  for (const auto& name : options.only_targets) {
    if (std::none_of(targets.begin(), targets.end(), is_named(name))) {
      std::vector<std::string> names;
      for (const auto& t : targets) names.push_back(t.name);
      errors.fail("targets", "--only " + name + ": no such target (the file has: " + join(names, ", ") + ")");
    }
  }
  if (!options.only_targets.empty())
    std::erase_if(targets, [&](const TargetConfig& t) {
      return std::find(options.only_targets.begin(), options.only_targets.end(), t.name) == options.only_targets.end();
    });
  if (const auto problem = omnilink_owned_argument(options.extra_harness_args)) errors.fail("--harness-arg", *problem);
  for (auto& t : targets) t.args.insert(t.args.end(), options.extra_harness_args.begin(), options.extra_harness_args.end());
}

namespace {

// The file's document with the overrides applied, each noted in `errors`.
json overridden(json document, const LoadOptions& options, FileErrors& errors) {
  if (!document.is_object()) errors.fail("", "must be a JSON object (got " + shown(document) + ")");
  for (const auto& text : options.overrides) apply_override(document, parse_override(text), errors);
  return document;
}

CampaignConfig check_campaign(const json& document, const fs::path& file, const LoadOptions& options, const FileErrors& errors,
                              const FileExtension& extension) {
  // The format first: a newer file's fields would otherwise be reported as unknown.
  check_format(document, errors);
  const ObjectReader top(errors, document, "", with(kTopFields, extension.top_fields));

  CampaignConfig config;
  config.file = normal_absolute(file);
  const PathResolver paths(errors, config.file.parent_path(), options);
  const auto name = top.string("name");
  config.name = name.value_or(config.file.stem().string());
  check_name(errors, "name", config.name, name ? "campaign name" : "the file's stem (the default campaign name)");
  const auto store = top.string("store");
  if (store && store->empty()) top.fail("store", "must not be empty");
  config.store = paths.store(store);
  if (const auto rr = top.string("rr")) {
    const auto mode = parse_rr_mode(*rr);
    if (!mode) top.fail("rr", "must be auto, off, record or chaos (got '" + *rr + "')");
    config.rr = *mode;
  }
  config.rr_timeslice_ticks = top.integer("rr_timeslice_ticks", kTicks).value_or(kDefaultRrTimesliceTicks);
  config.jobs = static_cast<unsigned>(top.integer("jobs", kJobs).value_or(default_jobs()));
  if (const auto timeout = top.integer("run_timeout_s", kSeconds)) config.run_timeout = std::chrono::seconds(*timeout);
  config.validation = read_validation(top);
  config.targets = read_targets(top, paths, extension);
  select_targets(config.targets, options, errors);
  return config;
}

}  // namespace

CampaignConfig parse_campaign(json document, const fs::path& file, const LoadOptions& options) {
  FileErrors errors(file.string());
  const json checked = overridden(std::move(document), options, errors);
  return check_campaign(checked, file, options, errors, FileExtension{});
}

ExtendedCampaign load_extended_campaign(const fs::path& file, const LoadOptions& options, const FileExtension& extension) {
  FileErrors errors(file.string());
  json document = overridden(parse_json(read_text(file), file), options, errors);
  CampaignConfig config = check_campaign(document, file, options, errors, extension);
  return {std::move(config), std::move(document), std::move(errors)};
}

json recovered_config(const std::vector<std::string>& targets) {
  json names = json::array();
  for (const std::string& t : targets) names.push_back({{"name", t}});
  return {{"recovered_from_runs", true}, {"targets", names}};
}

bool is_recovered_config(const json& effective) { return effective.is_object() && effective.value("recovered_from_runs", false); }

CampaignConfig stored_campaign(const json& effective, const std::string& origin) {
  if (is_recovered_config(effective)) throw CampaignFileError(origin + ": " + kLostConfiguration);
  try {
    CampaignConfig config;
    config.file = origin;
    config.name = effective.at("name").get<std::string>();
    config.store = effective.at("store").get<std::string>();
    config.rr = parse_rr_mode(effective.at("rr").get<std::string>()).value_or(RrMode::automatic);
    // Absent in stores written before the field existed, whose runs used rr's own default.
    config.rr_timeslice_ticks = effective.value("rr_timeslice_ticks", kRrOwnTimesliceTicks);
    config.jobs = effective.at("jobs").get<unsigned>();
    config.run_timeout = std::chrono::seconds(effective.at("run_timeout_s").get<std::int64_t>());
    const json& tlc = effective.at("tlc");
    config.validation.tlc.heap = tlc.at("heap").get<std::string>();
    // Absent in stores written before the embedded checker, whose runs TLC validated.
    const json checks = effective.value("validation", json{{"checker", "tlc"}, {"confirm_failures", 0}});
    config.validation.checker =
        omnilink::checkers::parse_checker(checks.at("checker").get<std::string>()).value_or(omnilink::checkers::Checker::tlc);
    config.validation.confirm_failures = checks.at("confirm_failures").get<unsigned>();
    if (checks.contains("memory"))
      config.validation.native.memory_mb = platform::parse_memory_limit_mb(checks.at("memory").get<std::string>()).value_or(0);
    // Stores written before validation.timeout_s and validation.jobs have them in `tlc`.
    const json& timeout_s = checks.contains("timeout_s") ? checks.at("timeout_s") : tlc.at("timeout_s");
    config.validation.timeout = std::chrono::seconds(timeout_s.get<std::int64_t>());
    const json& jobs = checks.contains("jobs") ? checks.at("jobs") : tlc.value("jobs", json());
    if (!jobs.is_null()) config.validation.jobs = jobs.get<unsigned>();
    // Absent in stores written before campaigns read interleavings: the defaults.
    config.validation.interleavings = checks.value("interleavings", config.validation.interleavings);
    config.validation.interleavings_budget = std::chrono::seconds(checks.value("interleavings_budget_s", config.validation.interleavings_budget.count()));
    for (const json& t : effective.at("targets")) {
      TargetConfig target;
      target.name = t.at("name").get<std::string>();
      target.description = t.value("description", "");
      target.harness = t.at("harness").get<std::string>();
      target.args = t.at("args").get<std::vector<std::string>>();
      if (t.contains("clock")) target.clock = t.at("clock").get<std::string>();
      target.spec = t.at("spec").get<std::string>();
      if (!t.at("mc").is_null()) target.mc = t.at("mc").get<std::string>();
      target.init = t.at("init").get<std::string>();
      target.next = t.at("next").get<std::string>();
      if (!t.at("view").is_null()) target.view = t.at("view").get<std::string>();
      target.threads = t.at("threads").get<std::vector<std::uint32_t>>();
      target.ops = t.at("ops").get<std::vector<std::uint64_t>>();
      target.runs = t.at("runs").get<std::uint32_t>();
      target.seed_base = t.at("seed_base").get<std::uint64_t>();
      config.targets.push_back(std::move(target));
    }
    if (effective.contains("shard"))
      config.shard = Shard{effective["shard"].at("index").get<std::uint32_t>(), effective["shard"].at("count").get<std::uint32_t>()};
    return config;
  } catch (const json::exception& e) {
    throw CampaignFileError(origin + ": the stored configuration is not one this omnilink wrote: " + e.what());
  }
}

CampaignConfig load_campaign(const fs::path& file, const LoadOptions& options) {
  return parse_campaign(parse_json(read_text(file), file), file, options);
}

}  // namespace omnilink::campaign
