#include "orchestrator/ls_command.hpp"

#include <algorithm>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

namespace omnilink::cli {
namespace {

using store::CampaignRecord;
using store::RunRecord;
using Table = std::vector<std::vector<std::string>>;

// Columns padded to their widest cell; the last one is not padded (it may be long).
void print_table(const Table& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (widths.size() <= i) widths.push_back(0);
      widths[i] = std::max(widths[i], row[i].size());
    }
  for (const auto& row : rows) {
    for (std::size_t i = 0; i + 1 < row.size(); ++i) std::cout << std::left << std::setw(static_cast<int>(widths[i] + 2)) << row[i];
    if (!row.empty()) std::cout << row.back();
    std::cout << "\n";
  }
}

// "ok 38, crashed 2" in the order of `names`; counts not in `names` (none today) follow.
std::string describe_counts(const std::map<std::string, std::size_t>& counts, const std::vector<std::string>& names) {
  std::string text;
  auto add = [&text](const std::string& name, std::size_t n) { text += (text.empty() ? "" : ", ") + name + " " + std::to_string(n); };
  for (const auto& name : names)
    if (auto it = counts.find(name); it != counts.end()) add(name, it->second);
  for (const auto& [name, n] : counts)
    if (std::find(names.begin(), names.end(), name) == names.end()) add(name, n);
  return text.empty() ? "-" : text;
}

// The names of a vocabulary's values (store::kRunStatuses, results::kVerdicts), in its order.
template <class Values>
std::vector<std::string> names_of(const Values& values) {
  std::vector<std::string> names;
  for (const auto value : values) names.push_back(to_string(value));
  return names;
}
const std::vector<std::string> kStatuses = names_of(store::kRunStatuses);
const std::vector<std::string> kVerdicts = names_of(results::kVerdicts);

struct Outcomes {
  std::size_t runs = 0;
  std::map<std::string, std::size_t> statuses, verdicts;
};

Outcomes count_outcomes(const std::vector<RunRecord>& runs) {
  Outcomes o;
  o.runs = runs.size();
  for (const auto& r : runs) {
    ++o.statuses[store::to_string(r.status)];
    if (r.validation) ++o.verdicts[results::to_string(r.validation->verdict)];
  }
  return o;
}

std::string rr_column(const RunRecord& r) {
  if (!r.rr_mode) return "-";
  return store::to_string(*r.rr_mode) + (r.rr_soft_counters ? " -W" : "");
}

}  // namespace

void print_json(const nlohmann::json& json) {
  // Details and reasons carry tools' output, which need not be UTF-8.
  std::cout << json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void StoreOption::add_to(CLI::App& sub) {
  sub.add_option("--store", directory, "The campaign store directory (default: $OMNILINK_STORE, else ./omnilink-store)");
}

std::filesystem::path StoreOption::path() const {
  return directory.empty() ? store::default_store_directory() : std::filesystem::path(directory);
}

store::Store StoreOption::open() const { return store::Store::open_existing(path()); }

store::Store StoreOption::open_read_only() const { return store::Store::open_read_only(path()); }

std::string local_time(std::int64_t epoch_ms) {
  if (epoch_ms == 0) return "-";
  const std::time_t t = static_cast<std::time_t>(epoch_ms / 1000);
  std::tm local{};
  localtime_r(&t, &local);
  std::ostringstream out;
  out << std::put_time(&local, "%Y-%m-%dT%H:%M:%S");
  return out.str();
}

std::string seconds(std::int64_t ms) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << static_cast<double>(ms) / 1000.0 << " s";
  return out.str();
}

std::string campaigns_note(store::Store& store) {
  std::string ids;
  for (const auto& c : store.campaigns()) ids += (ids.empty() ? "" : ", ") + c.id;
  return ids.empty() ? "the store has no campaigns" : "campaigns in the store: " + ids;
}

std::string unknown_run_message(store::Store& store, const std::string& key) {
  constexpr std::size_t kRunsNamed = 10;
  const auto slash = key.rfind('/');
  std::string message = slash == std::string::npos ? "RUN is <campaign>/<run-id>, not " + key + "; "
                                                   : "no run " + key + " in " + store.directory().string() + "; ";
  // Without a '/' the argument may be a campaign id: then its runs are what the user wants to see.
  const std::string campaign = key.substr(0, slash);
  if (!store.campaign(campaign)) return message + campaigns_note(store);
  const std::vector<RunRecord> runs = store.runs(campaign);
  if (runs.empty()) return message + "campaign " + campaign + " has no runs";
  message += "runs of " + campaign + ":";
  for (std::size_t i = 0; i < runs.size() && i < kRunsNamed; ++i) message += " " + runs[i].key();
  if (runs.size() > kRunsNamed) message += " ... (" + std::to_string(runs.size() - kRunsNamed) + " more)";
  return message;
}


void LsCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("ls", "List the campaigns in a store, or the runs of one campaign");
}

void LsCommand::add_options() {
  auto* campaign = sub_->add_option("CAMPAIGN", campaign_, "A campaign id (<name>-<n>): list its runs");
  store_.add_to(*sub_);
  sub_->add_option("--status", status_, "Only runs with this status")->check(CLI::IsMember(kStatuses))->needs(campaign);
  sub_->add_option("--verdict", verdict_, "Only runs whose newest validation has this verdict")
      ->check(CLI::IsMember(kVerdicts))
      ->needs(campaign);
  sub_->add_flag("--json", json_, "Print a JSON array of the records instead of a table");
}

int LsCommand::run() {
  store::Store store = store_.open_read_only();
  return campaign_.empty() ? list_campaigns(store) : list_runs(store);
}

int LsCommand::list_campaigns(store::Store& store) const {
  nlohmann::json json = nlohmann::json::array();
  Table table{{"campaign", "kind", "status", "created", "runs", "statuses", "verdicts"}};
  for (const CampaignRecord& c : store.campaigns()) {
    const Outcomes o = count_outcomes(store.runs(c.id));
    if (json_) {
      nlohmann::json j = c;
      j["runs"] = o.runs;
      j["statuses"] = o.statuses;
      j["verdicts"] = o.verdicts;
      json.push_back(std::move(j));
    } else {
      table.push_back({c.id, store::to_string(c.kind), to_string(c.status), local_time(c.created_ms), std::to_string(o.runs), describe_counts(o.statuses, kStatuses),
                       describe_counts(o.verdicts, kVerdicts)});
    }
  }
  if (json_) print_json(json);
  else print_table(table);
  return kExitOk;
}

int LsCommand::list_runs(store::Store& store) const {
  if (!store.campaign(campaign_))
    throw CommandError(kExitUsage, "no campaign " + campaign_ + " in " + store.directory().string() + "; " + campaigns_note(store));
  nlohmann::json json = nlohmann::json::array();
  Table table{{"run", "status", "verdict", "threads", "ops", "seed", "harness", "rr"}};
  // --status and --verdict took only their vocabularies' names (CLI::IsMember).
  const std::optional<store::RunStatus> status = status_ ? store::parse_run_status(*status_) : std::nullopt;
  const std::optional<results::Verdict> verdict = verdict_ ? results::parse_verdict(*verdict_) : std::nullopt;
  for (const RunRecord& r : store.runs(campaign_, status)) {
    if (verdict && (!r.validation || r.validation->verdict != *verdict)) continue;
    if (json_) json.push_back(r);
    else
      table.push_back({r.id, store::to_string(r.status), r.validation ? results::to_string(r.validation->verdict) : "-", std::to_string(r.threads), std::to_string(r.ops),
                       std::to_string(r.seed), r.harness_ms > 0 ? seconds(r.harness_ms) : "-", rr_column(r)});
  }
  if (json_) print_json(json);
  else print_table(table);
  return kExitOk;
}

}  // namespace omnilink::cli
