#include "orchestrator/replay_command.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <iostream>

#include <string.h>  // sigabbrev_np
#include <unistd.h>

#include "campaign/recording.hpp"
#include "explain/explain.hpp"
#include "explain/explanation.hpp"
#include "sweep/retention.hpp"
#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"
#include "replay/gdb_commands.hpp"
#include "replay/replay_files.hpp"
#include "replay/rr_replay.hpp"
#include "replay/seek_index.hpp"
#include "trace/run_dir.hpp"
#include "trace/run_layout.hpp"
#include "results/result_file.hpp"

namespace omnilink::cli {
namespace fs = std::filesystem;

namespace {

struct ResolvedRun {
  fs::path dir;
  std::string name;            // as the user named it
  bool soft_counters = false;  // recorded with rr -W
};

ResolvedRun resolve_run(const std::string& what, const StoreOption& store_option) {
  std::error_code ec;
  if (fs::is_regular_file(trace::RunLayout(what).meta(), ec))
    return {fs::absolute(what), what, campaign::recorded_with_soft_counters(what)};
  store::Store store = store_option.open_read_only();
  if (auto run = store.run(what)) return {run->dir, what, run->rr_soft_counters};
  throw CommandError(kExitUsage, "'" + what + "' is not a run directory; " + unknown_run_message(store, what));
}

// "T1.79" or "1.79" -> (1, 79). Digits only, each part within its type's range: a thread of
// 2^32 + 1 is an error, never thread 1.
std::pair<std::uint32_t, std::uint64_t> parse_operation(const std::string& text) {
  const std::string_view s = !text.empty() && (text[0] == 'T' || text[0] == 't') ? std::string_view(text).substr(1) : text;
  const auto dot = s.find('.');
  const auto usage = [&](const std::string& why) {
    return CommandError(kExitUsage, "'" + text + "' is not an operation" + why + ": write THREAD.INDEX, e.g. T1.79 or 1.79");
  };
  if (dot == std::string_view::npos) throw usage("");
  auto number = [&](std::string_view digits, auto& value, const char* what) {
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos || end != digits.data() + digits.size())
      throw usage("");
    if (ec == std::errc::result_out_of_range) throw usage(std::string(" (its ") + what + " is out of range)");
  };
  std::uint32_t thread = 0;
  std::uint64_t index = 0;
  number(s.substr(0, dot), thread, "thread");
  number(s.substr(dot + 1), index, "index");
  return {thread, index};
}

trace::Operation find_operation(const fs::path& run_dir, const std::string& text) {
  const auto [thread, index] = parse_operation(text);
  const trace::RunDir run = trace::RunDir::open(run_dir);
  if (thread >= run.thread_files.size())
    throw CommandError(kExitUsage, "no thread " + std::to_string(thread) + ": the run has threads 0.." + std::to_string(run.thread_files.size() - 1));
  trace::ThreadTraceReader reader(run.thread_files[thread]);
  std::uint64_t count = 0;
  while (auto op = reader.next()) {
    if (op->index == index) return *op;
    ++count;
  }
  std::string frontier;
  if (fs::is_directory(replay::replay_dir(run_dir)))
    for (const auto& f : fs::directory_iterator(replay::replay_dir(run_dir)))
      if (f.path().extension() == ".gdb") frontier += " " + f.path().stem().string();
  throw CommandError(kExitUsage, "thread " + std::to_string(thread) + " has no operation " + std::to_string(index) + " (it logged " +
                    std::to_string(count) + ": indices 0.." + std::to_string(count == 0 ? 0 : count - 1) + ")" +
                    (frontier.empty() ? "" : "; the failure frontier's operations:" + frontier));
}

// The run's harness command from meta.json, writing its trace to `out` instead of the run's own.
std::vector<std::string> rerun_argv(const trace::RunMeta& meta, const fs::path& out) {
  if (!replay::reruns_the_same(meta))
    throw CommandError(kExitUsage, "--rerun needs a deterministic run (1 thread, counter clock); this one has " +
                      std::to_string(meta.threads) + " thread(s) and the " + meta.clock + " clock");
  std::vector<std::string> argv = meta.json.value("argv", std::vector<std::string>{});
  if (argv.empty() || !fs::is_regular_file(argv[0])) throw CommandError(kExitUsage, "meta.json names no harness executable that exists");
  for (std::size_t i = 0; i + 1 < argv.size(); ++i)
    if (argv[i] == "--out") argv[i + 1] = out.string();
  return argv;
}

// The core of the run's explanation (omnilink explain) as stops, in the order its recording ran
// them (its interleaving's starts), else by logged start.
std::vector<trace::Operation> core_stops(const fs::path& run_dir, const std::string& run_name) {
  const std::optional<explain::Explanation> e = explain::read_explanation(explain::explanation_dir(run_dir));
  if (!e) {
    // Only a failing run has a core: a passing one is said so, not sent to explain.
    const auto result = results::read_result_file(run_dir);
    if (result && result->verdict != results::Verdict::fail)
      throw CommandError(kExitUsage, run_name + " did not fail (its verdict is " + results::to_string(result->verdict) +
                                         "): it has no failing core to stop at; give an operation instead (replay " + run_name + " T0.5)");
    throw CommandError(kExitUsage, run_name + " has no explanation yet: run omnilink explain " + run_name + " first");
  }
  std::vector<std::string> order;
  if (e->interleaving)
    for (const auto& step : e->interleaving->steps)
      if (step.kind == explain::ScheduleStep::Kind::start) order.push_back(step.op);
  for (const auto& op : e->core)  // by logged start; those the interleaving did not place last
    if (std::find(order.begin(), order.end(), op.id()) == order.end()) order.push_back(op.id());
  std::vector<trace::Operation> stops;
  for (const auto& id : order) stops.push_back(find_operation(run_dir, id));
  return stops;
}

// The signal that ended a crashed run ("SIGSEGV"), from its meta.json; a run that did not crash is
// refused with its exit status.
std::string crash_signal(const fs::path& run_dir, const std::string& run_name) {
  const trace::RunMeta meta = trace::read_run_meta(trace::RunLayout(run_dir).meta());
  if (meta.exit_status != trace::ExitStatus::crashed || !meta.exit_signal)
    throw CommandError(kExitUsage, run_name + " did not crash (its harness exit status is " + trace::to_string(meta.exit_status) +
                                       "): there is no signal to stop at; give an operation instead (replay " + run_name + " T0.5)");
  const char* abbrev = sigabbrev_np(*meta.exit_signal);
  if (abbrev == nullptr) throw CommandError(kExitUsage, run_name + " ended by signal " + std::to_string(*meta.exit_signal) + ", which has no name here");
  return std::string("SIG") + abbrev;
}

}  // namespace

void ReplayCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("replay", "Stop a replay of a run at one operation, or at each operation of its failing core (rr, or --rerun under plain gdb)");
}

void ReplayCommand::add_options() {
  sub_->add_option("RUN", run_, "A run: CAMPAIGN/RUN from the store, or a run directory")->required();
  sub_->add_option("OP", op_, "The operation: THREAD.INDEX as failure reports print it (T1.79 or 1.79)");
  sub_->add_option("GDB_ARGS", gdb_args_, "After --: passed to gdb");
  store_.add_to(*sub_);
  sub_->add_flag("--core", core_, "Instead of OP: stop at each operation of the run's failing core (omnilink explain), in the order the recording ran them");
  sub_->add_flag("--crash", crash_, "Instead of OP: run a crashed run's replay to the signal that ended it, and stop where it struck");
  sub_->add_flag("--batch", batch_, "Stop at the operation(s) or the signal, print each with a backtrace, and exit");
  sub_->add_flag("--print", print_, "Print the gdb command file(s) and exit");
  sub_->add_flag("--rerun", rerun_, "Re-execute a deterministic run (1 thread, counter clock) under gdb instead of replaying");
  sub_->add_flag("--no-seek", no_seek_, "Replay from the start with the conditional breakpoint alone (no fast seek)");
}

int ReplayCommand::run() {
  if (static_cast<int>(core_) + static_cast<int>(crash_) + static_cast<int>(!op_.empty()) != 1)
    throw CommandError(kExitUsage, op_.empty() && !core_ && !crash_ ? "name the operation (OP), or use --core or --crash"
                                                                    : "give one of OP, --core and --crash");
  const ResolvedRun run = resolve_run(run_, store_);
  const std::string signal = crash_ ? crash_signal(run.dir, run.name) : "";
  const std::vector<trace::Operation> stops = crash_ ? std::vector<trace::Operation>{}
                                              : core_ ? core_stops(run.dir, run.name)
                                                      : std::vector{find_operation(run.dir, op_)};
  std::vector<std::string> commands;
  if (crash_) commands.push_back(replay::stop_at_signal(signal));
  for (std::size_t k = 0; k < stops.size(); ++k)
    commands.push_back(core_ ? replay::stop_at_operation(stops[k], "core stop " + std::to_string(k + 1) + " of " + std::to_string(stops.size()))
                             : replay::stop_at_operation(stops[k]));
  if (print_) {
    for (const auto& c : commands) std::cout << c;
    return kExitOk;
  }
  fs::create_directories(replay::replay_dir(run.dir));
  std::vector<fs::path> files;
  if (crash_) std::ofstream(files.emplace_back(replay::signal_command_file(run.dir))) << commands.front();
  for (std::size_t k = 0; k < stops.size(); ++k) {
    files.push_back(core_ ? replay::core_command_file(run.dir, stops[k], k) : replay::command_file(run.dir, stops[k]));
    std::ofstream(files.back()) << commands[k];
  }
  // One `continue` reaches each stop in batch mode; interactively, the first, and the user goes on.
  std::vector<std::string> continues;
  for (std::size_t k = 0; k < (batch_ ? commands.size() : 1); ++k) continues.insert(continues.end(), {"-ex", "continue"});

  const replay::Recording recording{run.dir, run.soft_counters};
  fs::path exe;
  std::vector<std::string> args;
  std::optional<std::uint64_t> start_event;  // fast seek: where the replay starts
  // The rr replay that stops at the operations with the command files, from `from` (or the start).
  const auto replay_to_operation = [&](std::optional<std::uint64_t> from) {
    std::vector<std::string> a = replay::rr_replay_args(recording, files.front(), from);
    for (std::size_t k = 1; k < files.size(); ++k) a.insert(a.end() - 2, {"-x", files[k].string()});  // before TRACE --
    if (batch_) a.push_back("-batch");
    a.insert(a.end(), continues.begin(), continues.end());
    a.insert(a.end(), gdb_args_.begin(), gdb_args_.end());
    return a;
  };
  if (rerun_) {
    const ToolLocation gdb = find_gdb();
    if (!gdb.found()) throw CommandError(kExitUsage, "gdb: " + gdb.explain_missing());
    const fs::path out = replay::replay_dir(run.dir) / "rerun";
    fs::remove_all(out);
    exe = *gdb.path;
    args = {"-nx"};
    for (const fs::path& f : files) args.insert(args.end(), {"-x", f.string()});
    args.insert(args.end(), {"-ex", "run"});
    args.insert(args.end(), continues.begin() + 2, continues.end());
    if (batch_) args.insert(args.begin(), "-batch");
    args.insert(args.end(), gdb_args_.begin(), gdb_args_.end());
    args.push_back("--args");
    for (auto& a : rerun_argv(trace::read_run_meta(trace::RunLayout(run.dir).meta()), out)) args.push_back(a);
  } else {
    if (!fs::is_directory(trace::RunLayout(run.dir).recording())) {
      if (fs::exists(sweep::pruned_record(run.dir)))
        throw CommandError(kExitUsage, run.name + "'s recording was removed by retention (" + sweep::pruned_record(run.dir).string() +
                          "): it was not a signature's evidence; replay one of its signature's evidence runs instead");
      const trace::RunMeta meta = trace::read_run_meta(trace::RunLayout(run.dir).meta());
      throw CommandError(kExitUsage, run.name + " was not recorded with rr (rr off, or rr could not record where it ran): there is nothing "
                        "to replay" + std::string(replay::reruns_the_same(meta)
                                                      ? "; it is deterministic (1 thread, counter clock): use --rerun"
                                                      : "; record it again under rr (omnilink campaign --rr chaos)"));
    }
    const ToolLocation rr = find_rr();
    if (!rr.found()) throw CommandError(kExitUsage, "rr: " + rr.explain_missing());
    exe = *rr.path;
    // A crash has no operation to seek before: its replay runs from the start to the signal.
    if (!no_seek_ && !crash_) {
      std::vector<std::pair<std::uint32_t, std::uint64_t>> ops;
      for (const auto& op : stops) ops.emplace_back(op.thread, op.index);
      start_event = replay::seek_index(exe, recording, complain()).event_before_all(ops);
    }
    args = replay_to_operation(start_event);
  }
  if (!batch_) {
    // Interactive: the debugger takes over this terminal.
    std::vector<char*> argv{const_cast<char*>(exe.c_str())};
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    throw CommandError(kExitUsage, exe.string() + ": cannot execute");
  }
  ProcessOptions options;
  options.timeout = std::chrono::hours(2);
  const auto stopped_at_all = [&](const std::string& out) {
    if (crash_ && out.find("omnilink: stopped at signal " + signal + ",") == std::string::npos) return false;
    for (const auto& op : stops)
      if (out.find("omnilink: stopped at operation " + op.id() + " ") == std::string::npos) return false;
    return true;
  };
  ProcessResult r = run_process(exe, args, options);
  if (start_event && !stopped_at_all(r.out)) {
    // The seek must never cost a stop: from the start, as if there were no index.
    complain() << "no stop after seeking to event " << *start_event << "; replaying from the start\n";
    r = run_process(exe, replay_to_operation(std::nullopt), options);
  }
  std::cout << r.out;
  std::cerr << r.err;
  const bool stopped = stopped_at_all(r.out);
  if (!stopped) complain() << "the replay did not stop " << (crash_ ? "at the signal " + signal : "at every operation asked for") << " (" << r.describe() << ")\n";
  return stopped ? kExitOk : kExitProblem;
}

}  // namespace omnilink::cli
