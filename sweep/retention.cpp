#include "sweep/retention.hpp"

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "campaign/recording.hpp"
#include "store/outcome.hpp"
#include "campaign/run_plan.hpp"
#include "findings/signature_history.hpp"
#include "platform/enum_names.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::sweep {
namespace fs = std::filesystem;
using store::RunRecord;

namespace {

/// What retention removes from a run directory: its rr recording or its traces.
enum class Part { recording, traces };

/// The parts' names in pruned.json and the report's lines.
constexpr platform::EnumNames<Part, 2> kPartNames{{{{Part::recording, "rr"}, {Part::traces, "trace"}}}};

fs::path part_path(Part part, const fs::path& run_dir) {
  return part == Part::recording ? trace::RunLayout(run_dir).recording() : trace::RunLayout(run_dir).traces();
}

struct Candidate {
  std::string run;  // "<campaign>/<run>"
  fs::path dir;
  Part part;
};

// Adds `part` to the run's pruned.json (format omnilink-pruned, version 1).
void note_pruned(const fs::path& run_dir, Part part, std::uint64_t bytes) {
  nlohmann::json record{{"format", "omnilink-pruned"}, {"version", 1}, {"parts", nlohmann::json::array()}};
  if (std::ifstream in(pruned_record(run_dir)); in) {
    const auto existing = nlohmann::json::parse(in, nullptr, false);
    if (existing.is_object() && existing.contains("parts")) record = existing;
  }
  record["parts"].push_back({{"part", kPartNames.name(part)}, {"bytes", bytes}, {"at_ms", store::now_ms()}});
  std::ofstream(pruned_record(run_dir)) << record.dump(2) << "\n";
}

}  // namespace

std::optional<std::uint64_t> parse_size(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::uint64_t n = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (n > (UINT64_MAX - 9) / 10) return std::nullopt;
    n = n * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  if (i == 0 || i + 1 < text.size()) return std::nullopt;
  if (i == text.size()) return n;
  const std::string units = "kmgt";
  const auto unit = units.find(static_cast<char>(std::tolower(static_cast<unsigned char>(text[i]))));
  if (unit == std::string::npos) return std::nullopt;
  const unsigned shift = 10 * static_cast<unsigned>(unit + 1);
  if (n > (UINT64_MAX >> shift)) return std::nullopt;
  return n << shift;
}

std::uint64_t disk_size(const fs::path& path) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return fs::file_size(path, ec);
  std::uint64_t total = 0;
  for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec)) total += it->file_size(ec);
  return total;
}

fs::path pruned_record(const fs::path& run_dir) { return trace::RunLayout(run_dir).pruned_record(); }

std::set<std::string> evidence_runs(store::Store& store, std::uint32_t per_signature) {
  std::set<std::string> names, evidence;
  for (const auto& c : store.campaigns()) names.insert(c.name);
  // Every sweep of each name, the running ones too: their first failures are evidence already.
  for (const auto& name : names)
    for (const auto& h : findings::signature_history(store, name, {0.95, per_signature, ""})) evidence.insert(h.runs.begin(), h.runs.end());
  return evidence;
}

std::uint64_t prune_recording(const fs::path& run_dir) {
  const fs::path recording = part_path(Part::recording, run_dir);
  if (!fs::exists(recording)) return 0;
  const std::uint64_t bytes = disk_size(recording);
  fs::remove_all(recording);
  fs::remove(trace::RunLayout(run_dir).pack_log());
  note_pruned(run_dir, Part::recording, bytes);
  return bytes;
}

PruneReport prune_store(store::Store& store, const RetentionPolicy& policy) {
  PruneReport report;
  const std::set<std::string> evidence = evidence_runs(store, policy.evidence_runs);
  report.evidence = evidence.size();
  report.size_before = disk_size(store.directory());

  // Oldest campaign first, each in run order; recordings of passing runs, then of failing ones,
  // then passing runs' traces, then failing ones'.
  std::vector<Candidate> passing_rr, failing_rr, passing_traces, failing_traces;
  for (const auto& c : store.campaigns())
    for (const RunRecord& run : store.runs(c.id)) {
      if (run.status == store::RunStatus::pending || run.status == store::RunStatus::running || evidence.contains(run.key())) continue;
      const fs::path dir = store::run_directory(store.directory(), run.campaign, run.id);
      const store::Outcome o = store::outcome(run);
      if (o == store::Outcome::interrupted) continue;
      const bool passed = o == store::Outcome::pass;
      if (fs::exists(part_path(Part::recording, dir))) (passed ? passing_rr : failing_rr).push_back({run.key(), dir, Part::recording});
      if (fs::exists(part_path(Part::traces, dir))) (passed ? passing_traces : failing_traces).push_back({run.key(), dir, Part::traces});
    }
  // Without a quota: what a sweep drops by default, every recording that is not evidence.
  std::vector<Candidate> order = passing_rr;
  order.insert(order.end(), failing_rr.begin(), failing_rr.end());
  if (policy.quota_bytes) {
    order.insert(order.end(), passing_traces.begin(), passing_traces.end());
    order.insert(order.end(), failing_traces.begin(), failing_traces.end());
  }

  std::uint64_t size = report.size_before;
  for (const Candidate& c : order) {
    if (policy.quota_bytes && size <= *policy.quota_bytes) break;
    const fs::path part = part_path(c.part, c.dir);
    // A recording is measured by the pruning itself: one walk of it, not two.
    const std::uint64_t bytes = !policy.dry_run && c.part == Part::recording ? prune_recording(c.dir) : disk_size(part);
    if (!policy.dry_run && c.part == Part::traces) {
      fs::remove_all(part);
      note_pruned(c.dir, c.part, bytes);
    }
    report.freed += bytes;
    size -= std::min(size, bytes);
    report.pruned.push_back(c.run + ": " + kPartNames.name(c.part) + " (" + std::to_string(bytes) + " bytes)");
  }
  report.quota_met = !policy.quota_bytes || size <= *policy.quota_bytes;
  report.quota = policy.quota_bytes;
  return report;
}

std::uint64_t default_store_quota(const fs::path& store) {
  std::error_code ec;
  const fs::space_info space = fs::space(store, ec);
  return disk_size(store) + (ec ? 0 : space.available / 2);
}

std::string size_text(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  double value = static_cast<double>(bytes) / 1024.0;
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) value /= 1024.0, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  return text;
}

}  // namespace omnilink::sweep
