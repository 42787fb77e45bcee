#include "orchestrator/show_command.hpp"

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "campaign/recording.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::cli {
namespace {

namespace fs = std::filesystem;
using store::RunRecord;
using store::ValidationRecord;

// What a run leaves in its directory (docs/trace-format.md), by label. rr/ only
// exists for recorded runs, so it is listed only when it is there; the others are always listed
// (marked when missing: a run that crashed early has no trace, a pending one nothing at all).
std::vector<std::pair<std::string, fs::path>> run_paths(const RunRecord& r) {
  const trace::RunLayout layout(r.dir);
  std::vector<std::pair<std::string, fs::path>> paths{{"dir", layout.root}, {"trace", layout.traces()}};
  if (fs::exists(layout.recording())) paths.emplace_back("rr", layout.recording());
  paths.emplace_back("harness.out", layout.harness_out());
  paths.emplace_back("harness.err", layout.harness_err());
  paths.emplace_back("result.json", layout.result());
  return paths;
}

void field(const std::string& label, const std::string& value, int indent = 0) {
  std::cout << std::string(static_cast<std::size_t>(indent), ' ') << std::left << std::setw(14) << label << value << "\n";
}

std::string exit_status(const RunRecord& r) {
  if (r.exit_signal) return "signal " + std::to_string(*r.exit_signal);
  if (r.exit_code) return "code " + std::to_string(*r.exit_code);
  return "-";
}

std::string mib(std::uint64_t kb) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << static_cast<double>(kb) / 1024.0 << " MiB";
  return out.str();
}

template <class T>
std::string or_dash(const std::optional<T>& value) {
  return value ? std::to_string(*value) : "-";
}

void print_validation(const ValidationRecord& v) {
  std::cout << "\nvalidation (newest, " << local_time(v.created_ms) << ")\n";
  field("verdict", results::to_string(v.verdict), 2);
  if (!v.reason.empty()) field("reason", v.reason, 2);
  field("spec", v.spec, 2);
  field("duration", seconds(v.duration_ms), 2);
  field("peak RSS", mib(v.peak_rss_kb), 2);
  field("states", or_dash(v.states_generated) + " generated, " + or_dash(v.states_distinct) + " distinct", 2);
  field("operations", std::to_string(v.operations), 2);
  field("linearized", or_dash(v.linearized), 2);
  if (v.frontier_summary.empty()) return;
  std::cout << "  frontier\n";
  std::istringstream lines(v.frontier_summary);
  for (std::string line; std::getline(lines, line);) std::cout << "    " << line << "\n";
}

void print_run(const RunRecord& r) {
  field("run", r.key());
  field("target", r.target);
  field("threads", std::to_string(r.threads));
  field("ops", std::to_string(r.ops));
  field("number", std::to_string(r.number));
  field("seed", std::to_string(r.seed));
  field("status", store::to_string(r.status));
  if (!r.detail.empty()) field("detail", r.detail);
  field("rr", !r.rr_mode ? "-" : store::to_string(*r.rr_mode) + (r.rr_soft_counters ? " (-W, soft counters)" : ""));
  field("exit", exit_status(r));
  field("started", local_time(r.started_ms));
  field("finished", local_time(r.finished_ms));
  field("harness", r.harness_ms > 0 ? seconds(r.harness_ms) : "-");
  field("rr pack", r.pack_ms > 0 ? seconds(r.pack_ms) : "-");
  if (r.validation) print_validation(*r.validation);
  else std::cout << "\nvalidation    none yet\n";
  std::cout << "\npaths\n";
  for (const auto& [label, path] : run_paths(r)) field(label, path.string() + (fs::exists(path) ? "" : " (missing)"), 2);
}

}  // namespace

void ShowCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("show", "Show one run of a campaign store: its record, newest validation and files");
}

void ShowCommand::add_options() {
  sub_->add_option("RUN", key_, "<campaign>/<run-id>, as `omnilink ls CAMPAIGN` lists them")->required();
  store_.add_to(*sub_);
  sub_->add_flag("--json", json_, "Print the record as JSON (with its validation and paths)");
}

int ShowCommand::run() {
  store::Store store = store_.open_read_only();
  const std::optional<RunRecord> run = store.run(key_);
  if (!run) throw CommandError(kExitUsage, unknown_run_message(store, key_));
  if (!json_) {
    print_run(*run);
    return kExitOk;
  }
  nlohmann::json j = *run;
  for (const auto& [label, path] : run_paths(*run)) j["paths"][label] = path.string();
  print_json(j);
  return kExitOk;
}

}  // namespace omnilink::cli
