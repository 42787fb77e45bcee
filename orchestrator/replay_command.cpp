#include "orchestrator/replay_command.hpp"

#include <charconv>
#include <fstream>
#include <optional>
#include <iostream>

#include <unistd.h>

#include "campaign/recording.hpp"
#include "sweep/retention.hpp"
#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"
#include "replay/gdb_commands.hpp"
#include "replay/replay_files.hpp"
#include "replay/seek_index.hpp"
#include "trace/run_dir.hpp"
#include "trace/run_layout.hpp"

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

std::vector<std::string> rr_replay_args(bool soft_counters, const fs::path& command_file, const fs::path& recording,
                                        std::optional<std::uint64_t> start_event) {
  std::vector<std::string> args{"replay"};
  if (soft_counters) args.push_back("-W");
  if (start_event) args.insert(args.end(), {"-g", std::to_string(*start_event)});
  args.insert(args.end(), {"-x", command_file.string(), recording.string(), "--"});
  return args;
}

// The run's seek index, from its cache or built by one indexing replay.
replay::SeekIndex seek_index(const Command& command, const fs::path& rr, const ResolvedRun& run) {
  if (auto cached = replay::load_seek_index(run.dir)) return *cached;
  const fs::path commands = replay::replay_dir(run.dir) / "seek-index.gdb";
  std::ofstream(commands) << replay::index_commands();
  std::vector<std::string> args = rr_replay_args(run.soft_counters, commands, trace::RunLayout(run.dir).recording(), std::nullopt);
  args.insert(args.end(), {"-batch", "-ex", "continue"});
  ProcessOptions options;
  options.timeout = std::chrono::hours(2);
  command.complain() << "indexing the recording for fast seek (once per run)...\n";
  const ProcessResult r = run_process(rr, args, options);
  const replay::SeekIndex index = replay::parse_index_output(r.out);
  command.complain() << index.checkpoints.size() << " checkpoints indexed in " << r.duration.count() / 1000.0
            << " s (" << replay::seek_index_file(run.dir).string() << ")\n";
  if (r.ok()) replay::save_seek_index(run.dir, index);  // an index of a replay that failed is not kept
  return index;
}

}  // namespace

void ReplayCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("replay", "Stop a replay of a run at one operation (rr, or --rerun under plain gdb)");
  sub_->add_option("RUN", run_, "A run: CAMPAIGN/RUN from the store, or a run directory")->required();
  sub_->add_option("OP", op_, "The operation: THREAD.INDEX as failure reports print it (T1.79 or 1.79)")->required();
  sub_->add_option("GDB_ARGS", gdb_args_, "After --: passed to gdb");
  store_.add_to(*sub_);
  sub_->add_flag("--batch", batch_, "Stop at the operation, print it and a backtrace, and exit");
  sub_->add_flag("--print", print_, "Print the gdb command file and exit");
  sub_->add_flag("--rerun", rerun_, "Re-execute a deterministic run (1 thread, counter clock) under gdb instead of replaying");
  sub_->add_flag("--no-seek", no_seek_, "Replay from the start with the conditional breakpoint alone (no fast seek)");
}

int ReplayCommand::run() {
  const ResolvedRun run = resolve_run(run_, store_);
  const trace::Operation op = find_operation(run.dir, op_);
  const std::string commands = replay::stop_at_operation(op);
  if (print_) {
    std::cout << commands;
    return kExitOk;
  }
  fs::create_directories(replay::replay_dir(run.dir));
  const fs::path file = replay::command_file(run.dir, op);
  std::ofstream(file) << commands;

  fs::path exe;
  std::vector<std::string> args;
  std::optional<std::uint64_t> start_event;  // fast seek: where the replay starts
  // The rr replay that stops at `op` with the command file, from `from` (or the start).
  const auto replay_to_operation = [&](std::optional<std::uint64_t> from) {
    std::vector<std::string> a = rr_replay_args(run.soft_counters, file, trace::RunLayout(run.dir).recording(), from);
    if (batch_) a.push_back("-batch");
    a.insert(a.end(), {"-ex", "continue"});
    a.insert(a.end(), gdb_args_.begin(), gdb_args_.end());
    return a;
  };
  if (rerun_) {
    const ToolLocation gdb = find_gdb();
    if (!gdb.found()) throw CommandError(kExitUsage, "gdb: " + gdb.explain_missing());
    const fs::path out = replay::replay_dir(run.dir) / "rerun";
    fs::remove_all(out);
    exe = *gdb.path;
    args = {"-nx", "-x", file.string(), "-ex", "run"};
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
    if (!no_seek_) start_event = seek_index(*this, exe, run).event_before(op.thread, op.index);
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
  const std::string marker = "omnilink: stopped at operation " + op.id();
  ProcessResult r = run_process(exe, args, options);
  if (start_event && r.out.find(marker) == std::string::npos) {
    // The seek must never cost a stop: from the start, as if there were no index.
    complain() << "no stop after seeking to event " << *start_event << "; replaying from the start\n";
    r = run_process(exe, replay_to_operation(std::nullopt), options);
  }
  std::cout << r.out;
  std::cerr << r.err;
  const bool stopped = r.out.find(marker) != std::string::npos;
  if (!stopped) complain() << "the replay did not stop at " << op.id() << " (" << r.describe() << ")\n";
  return stopped ? kExitOk : kExitProblem;
}

}  // namespace omnilink::cli
