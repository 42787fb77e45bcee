#include "orchestrator/trace_command.hpp"

#include <algorithm>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "trace/reader.hpp"
#include "trace/run_dir.hpp"
#include "history/history.hpp"
#include "history/history_file.hpp"

namespace omnilink::cli {
namespace {

std::string describe_run(const trace::RunDir& run) {
  if (!run.meta) return run.root.string() + " (meta.json unreadable: " + run.meta_error + ")";
  const trace::RunMeta& m = *run.meta;
  std::string s = run.root.string() + ": seed " + std::to_string(m.seed) + ", " + std::to_string(m.threads) +
                  " threads x " + std::to_string(m.ops_per_thread) + " ops, clock " + m.clock + ", exit " + trace::to_string(m.exit_status);
  if (m.exit_signal) s += " (signal " + std::to_string(*m.exit_signal) + ")";
  return s;
}

std::string format_op(const trace::Operation& op) {
  std::string line = op.id() + "  [" + std::to_string(op.start) + ", " + (op.pending() ? std::string("?") : std::to_string(op.end)) +
                     "]  " + op.call();
  if (op.failed) line += "  failed-without-effect";
  if (op.pending())
    line += "  PENDING (in flight at signal " + std::to_string(op.signal) + (op.inputs_known ? "; inputs shown" : "; inputs unknown") + ")";
  return line;
}

std::uint64_t percentile(std::vector<std::uint64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  auto i = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

}  // namespace

void TraceCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("trace", "Inspect a run directory's trace");
}

void TraceCommand::add_options() {
  sub_->require_subcommand(1);
  show_ = sub_->add_subcommand("show", "Print every record, one operation a line: T<thread>.<index> [start, end] Op(fields)");
  show_->add_option("RUN_DIR", run_dir_, "Run directory (holds meta.json and trace/)")->required();
  show_->add_option("--thread", thread_, "Only this thread");
  show_->add_option("--limit", limit_, "At most this many operations per thread");
  stats_ = sub_->add_subcommand("stats", "Summarise a run: operations per thread and name, timebox widths, errors");
  stats_->add_option("RUN_DIR", run_dir_, "Run directory (holds meta.json and trace/)")->required();
  stats_->add_flag("--json", json_, "Print the summary as JSON");
  export_ = sub_->add_subcommand("export", "Write the run's history as a history file (docs/history-format.md): completed and "
                                           "pending operations, failed-without-effect ones left out");
  export_->add_option("RUN_DIR", run_dir_, "Run directory (holds meta.json and trace/)")->required();
  export_->add_option("FILE", out_, "The history file to write (JSON lines)")->required();
}

int TraceCommand::run() {
  if (export_->parsed()) return export_history();
  return show_->parsed() ? show() : stats();
}

int TraceCommand::export_history() {
  const history::History history = history::read_history(trace::RunDir::open(run_dir_));
  history::write_history_file(out_, history);
  std::size_t operations = 0;
  for (const auto& thread : history.threads) operations += thread.size();
  std::cout << out_ << ": " << operations << " operations of " << history.threads.size() << " threads\n";
  return kExitOk;
}

int TraceCommand::show() {
  const trace::RunDir run = trace::RunDir::open(run_dir_);
  std::cout << describe_run(run) << "\n";
  int code = kExitOk;
  for (const auto& file : run.thread_files) {
    trace::ThreadTraceReader reader(file);
    std::uint64_t shown = 0;
    while (auto op = reader.next()) {
      if (thread_ && op->thread != *thread_) break;
      if (limit_ && shown >= *limit_) break;
      std::cout << format_op(*op) << "\n";
      ++shown;
    }
    if (reader.error()) {
      complain() << reader.error()->describe() << "\n";
      code = kExitProblem;
    }
  }
  return code;
}

int TraceCommand::stats() {
  const trace::RunDir run = trace::RunDir::open(run_dir_);
  nlohmann::json threads = nlohmann::json::array();
  std::map<std::string, std::uint64_t> by_name;
  std::vector<std::uint64_t> widths;
  std::uint64_t total = 0, failed_total = 0, pending_total = 0;
  std::vector<std::string> errors;
  for (const auto& file : run.thread_files) {
    trace::ThreadTraceReader reader(file);
    std::uint64_t ops = 0, failed = 0, pending = 0;
    while (auto op = reader.next()) {
      if (op->pending()) {
        ++pending;
        continue;
      }
      ++ops;
      failed += op->failed ? 1 : 0;
      ++by_name[op->name];
      widths.push_back(op->end - op->start);
    }
    if (reader.error()) errors.push_back(reader.error()->describe());
    nlohmann::json t{{"file", file.filename().string()}, {"ops", ops}, {"failed", failed}, {"pending", pending}};
    if (reader.header()) {
      t["thread"] = reader.header()->thread;
      t["clock"] = reader.header()->clock;
    }
    t["end"] = reader.end() ? reader.end()->reason : (reader.has_pending() ? "pending" : "missing");
    threads.push_back(t);
    total += ops;
    failed_total += failed;
    pending_total += pending;
  }
  std::sort(widths.begin(), widths.end());
  nlohmann::json width{{"min", widths.empty() ? 0 : widths.front()},
                       {"median", percentile(widths, 0.5)},
                       {"p99", percentile(widths, 0.99)},
                       {"max", widths.empty() ? 0 : widths.back()}};
  const int code = errors.empty() ? kExitOk : kExitProblem;

  if (json_) {
    nlohmann::json j{{"run", run.root.string()}, {"threads", threads}, {"operations", total},
                     {"failed", failed_total}, {"pending", pending_total}, {"by_name", by_name},
                     {"timebox_width", width}, {"errors", errors}};
    if (run.meta) j["meta"] = run.meta->json;
    else j["meta_error"] = run.meta_error;
    std::cout << j.dump(2) << "\n";
    return code;
  }
  std::cout << describe_run(run) << "\n\n";
  std::cout << "thread  ops        failed     pending  end\n";
  for (const auto& t : threads) {
    std::string id = t.contains("thread") ? std::to_string(t["thread"].get<std::uint32_t>()) : "?";
    auto pad = [](std::string s, std::size_t n) { return s.size() < n ? s + std::string(n - s.size(), ' ') : s + " "; };
    std::cout << pad(id, 8) << pad(std::to_string(t["ops"].get<std::uint64_t>()), 11)
              << pad(std::to_string(t["failed"].get<std::uint64_t>()), 11)
              << pad(std::to_string(t["pending"].get<std::uint64_t>()), 9) << t["end"].get<std::string>() << "\n";
  }
  std::cout << "\noperations: " << total << " (" << failed_total << " failed without effect, " << pending_total
            << " pending)\n";
  for (const auto& [name, n] : by_name) std::cout << "  " << name << ": " << n << "\n";
  std::cout << "timebox width (clock units): min " << width["min"] << ", median " << width["median"] << ", p99 "
            << width["p99"] << ", max " << width["max"] << "\n";
  for (const auto& e : errors) std::cout << "error: " << e << "\n";
  return code;
}

}  // namespace omnilink::cli
