#include "replay/schedule_probe.hpp"

#include <fstream>
#include <sstream>

#include "platform/subprocess.hpp"
#include "replay/replay_files.hpp"

namespace omnilink::replay {
namespace fs = std::filesystem;
namespace {

// Shared by both probes. rr defines `when` and `when-tid` in the gdb it starts; a thread's tid is
// its ptid's second field there. Every line the scripts print for C++ starts with "omnilink-".
constexpr const char* kCommonPython = R"(
import gdb

def omnilink_completed_event():
    # rr: "Completed event: N", the last event replayed in full
    return int(gdb.execute("when", to_string=True).split(":")[1])

def omnilink_tid():
    return gdb.selected_thread().ptid[1]
)";

// The boundary probe: its breakpoints are set when the file is read; the replay's first `continue`
// (rr attaches gdb just before it) stops at the first hook, and a `continue` loop goes on from
// there (a Python stop() callback may not run rr's commands), a round trip to rr per stop, as a
// conditional breakpoint would cost.
constexpr const char* kBoundaryPython = R"(
def omnilink_set_boundary_breakpoints():
    gdb.Breakpoint("omnilink_op_start", internal=True)
    try:
        gdb.Breakpoint("omnilink_op_end", internal=True)
    except gdb.error:
        print("omnilink-no-end-hook")

def omnilink_probe_boundaries(targets):
    remaining = set()
    for key in targets:
        remaining.add(("start",) + key)
        remaining.add(("end",) + key)
    threads = set()
    while remaining:
        try:
            name = gdb.selected_frame().name()
        except gdb.error as e:
            print("omnilink-stopped " + str(e).replace("\n", " "))
            break
        if name == "omnilink_op_start":
            kind = "start"
        elif name == "omnilink_op_end":
            kind = "end"
        else:
            print("omnilink-stopped elsewhere: " + str(name))
            break
        header = gdb.parse_and_eval("header").dereference()
        thread, index, start = int(header["thread"]), int(header["index"]), int(header["start"])
        tid = omnilink_tid()
        if tid not in threads:
            threads.add(tid)
            print("omnilink-thread %d %d" % (thread, tid))
        target = (kind, thread, start) in remaining
        remaining.discard((kind, thread, start))
        print("omnilink-boundary %s %d %d %d %d %d" % (kind, thread, index, tid, omnilink_completed_event(), 1 if target else 0))
        if remaining:
            try:
                gdb.execute("continue", to_string=True)
            except gdb.error as e:
                print("omnilink-stopped " + str(e).replace("\n", " "))
                break
    print("omnilink-done %d" % len(remaining))
)";

// The stack probe: rr restarts the replay at an event on `run EVENT`, from its nearest checkpoint.
// The first `continue` (before which rr attaches gdb) only needs to stop somewhere: at the first
// operation's start.
constexpr const char* kStackPython = R"(
def omnilink_set_stack_breakpoints():
    gdb.Breakpoint("omnilink_op_start", internal=True, temporary=True)

def omnilink_print_stack(event, tid):
    for thread in gdb.selected_inferior().threads():
        if thread.ptid[1] != tid:
            continue
        thread.switch()
        frame, depth = gdb.newest_frame(), 0
        while frame is not None and depth < 32:
            sal = frame.find_sal()
            source = sal.symtab.filename if sal.symtab is not None else "??"
            print("omnilink-frame %d %d %d %d %s\t%s\t%s" % (event, tid, depth, sal.line, hex(frame.pc()), source, frame.name() or "??"))
            try:
                frame, depth = frame.older(), depth + 1
            except gdb.error:
                break
        print("omnilink-stack-end %d %d" % (event, tid))
        return
    print("omnilink-no-thread %d %d" % (event, tid))

def omnilink_probe_stacks(points):
    for event, tid in points:
        try:
            gdb.execute("run %d" % event, to_string=True)
            reached = omnilink_completed_event()
        except gdb.error as e:
            print("omnilink-unreached %d %s" % (event, str(e).replace("\n", " ")))
            continue
        if reached != event:
            print("omnilink-unreached %d the replay stopped after event %d" % (event, reached))
            continue
        omnilink_print_stack(event, tid)
    print("omnilink-done 0")
)";

// The command file: the Python above, and `setup` run as the file is read (rr sources it before
// attaching gdb to the replay, so only breakpoints can be set there).
std::string script(const std::string& python, const std::string& setup) {
  return "set pagination off\nset confirm off\nset breakpoint pending on\npython\n" + std::string(kCommonPython) + python +
         "end\npython " + setup + "\n";
}

// Runs `rr replay` with the probe's script, then `-ex continue` (rr attaches gdb to the replay just
// before the first `continue`) and `-ex python CALL`.
ProcessResult run_probe(const fs::path& rr, const Recording& recording, const std::string& name, const std::string& text,
                        const std::string& call, std::optional<std::uint64_t> start_event, std::chrono::milliseconds time_limit) {
  fs::create_directories(replay_dir(recording.run_dir));
  const fs::path file = replay_dir(recording.run_dir) / name;
  std::ofstream(file) << text;
  std::vector<std::string> args = rr_replay_args(recording, file, start_event);
  args.insert(args.end(), {"-batch", "-ex", "continue", "-ex", "python " + call});
  ProcessOptions options;
  options.timeout = time_limit;
  return run_process(rr, args, options);
}

// "NAME = [(a, b), ...]": the probe's input, as a Python list of pairs.
std::string python_pairs(const std::string& name, const std::vector<std::pair<std::uint64_t, std::uint64_t>>& pairs) {
  std::string out = name + " = [";
  for (const auto& [a, b] : pairs) out += "(" + std::to_string(a) + ", " + std::to_string(b) + "), ";
  return out + "]\n";
}

std::string why_incomplete(const ProcessResult& r, std::chrono::milliseconds time_limit) {
  if (r.timed_out) return "the replay did not finish within " + std::to_string(time_limit.count() / 1000) + " s";
  if (!r.ok()) return "the replay failed (" + r.describe() + "): " + summarize_output(r.err + "\n" + r.out);
  return "";
}

}  // namespace

std::string boundary_probe_script(const std::vector<ProbeTarget>& targets) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs;
  for (const ProbeTarget& t : targets) pairs.emplace_back(t.thread, t.hook_start);
  return script(kBoundaryPython + python_pairs("omnilink_targets", pairs), "omnilink_set_boundary_breakpoints()");
}

BoundaryProbe parse_boundary_probe(const std::string& output, std::size_t targets) {
  BoundaryProbe probe;
  std::istringstream lines(output);
  bool done = false, no_end_hook = false;
  std::size_t met = 0;  // target boundaries
  std::string stopped;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::string word;
    in >> word;
    if (word == "omnilink-thread") {
      std::uint32_t thread = 0;
      int tid = 0;
      if (in >> thread >> tid) probe.threads[tid] = thread;
    } else if (word == "omnilink-boundary") {
      std::string kind;
      OpBoundary b;
      int target = 0;
      if (in >> kind >> b.thread >> b.index >> b.tid >> b.completed_event >> target) {
        b.kind = kind == "end" ? OpBoundary::Kind::end : OpBoundary::Kind::start;
        b.target = target != 0;
        probe.boundaries.push_back(b);
        met += b.target;
      }
    } else if (word == "omnilink-no-end-hook") {
      no_end_hook = true;
    } else if (word == "omnilink-stopped") {
      stopped = line.substr(word.size() + 1);
    } else if (word == "omnilink-done") {
      done = true;
    }
  }
  probe.complete = done && met == 2 * targets;
  if (no_end_hook)
    probe.note = "the harness was built before omnilink_op_end existed: the operations' ends cannot be placed";
  else if (!stopped.empty())
    probe.note = "the replay stopped before meeting every core operation: " + stopped;
  else if (!probe.complete)
    probe.note = "met " + std::to_string(met) + " of the core operations' " + std::to_string(2 * targets) +
                 " starts and ends";
  return probe;
}

BoundaryProbe probe_boundaries(const fs::path& rr, const Recording& recording, const std::vector<ProbeTarget>& targets,
                               std::optional<std::uint64_t> start_event, std::chrono::milliseconds time_limit) {
  const ProcessResult r = run_probe(rr, recording, "boundary-probe.gdb", boundary_probe_script(targets),
                                    "omnilink_probe_boundaries(omnilink_targets)", start_event, time_limit);
  BoundaryProbe probe = parse_boundary_probe(r.out, targets.size());
  if (!probe.complete && probe.note.empty()) probe.note = why_incomplete(r, time_limit);
  else if (!probe.complete) probe.note += "; " + why_incomplete(r, time_limit);
  return probe;
}

std::string stack_probe_script(const std::vector<StackPoint>& points) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs;
  for (const StackPoint& p : points) pairs.emplace_back(p.event, static_cast<std::uint64_t>(p.tid));
  return script(kStackPython + python_pairs("omnilink_points", pairs), "omnilink_set_stack_breakpoints()");
}

StackProbe parse_stack_probe(const std::string& output) {
  StackProbe probe;
  std::istringstream lines(output);
  std::vector<std::string> unreached;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::string word;
    in >> word;
    if (word == "omnilink-frame") {
      StackPoint at;
      int depth = 0;
      StackFrame f;
      if (!(in >> at.event >> at.tid >> depth >> f.line >> f.pc)) continue;
      std::string rest;
      std::getline(in, rest);
      if (!rest.empty() && rest[0] == '\t') rest.erase(0, 1);
      const auto tab = rest.find('\t');
      f.file = tab == std::string::npos ? rest : rest.substr(0, tab);
      f.function = tab == std::string::npos ? "??" : rest.substr(tab + 1);
      if (probe.stacks.empty() || probe.stacks.back().at.event != at.event || probe.stacks.back().at.tid != at.tid || depth == 0)
        probe.stacks.push_back({at, {}});
      probe.stacks.back().frames.push_back(std::move(f));
    } else if (word == "omnilink-unreached" || word == "omnilink-no-thread") {
      unreached.push_back(line.substr(word.size() + 1));
    }
  }
  if (!unreached.empty()) {
    probe.note = std::to_string(unreached.size()) + " switch point(s) not located (event: " + unreached.front() + ")";
  }
  return probe;
}

StackProbe probe_stacks(const fs::path& rr, const Recording& recording, const std::vector<StackPoint>& points,
                        std::chrono::milliseconds time_limit) {
  if (points.empty()) return {};
  const ProcessResult r = run_probe(rr, recording, "stack-probe.gdb", stack_probe_script(points),
                                    "omnilink_probe_stacks(omnilink_points)", std::nullopt, time_limit);
  StackProbe probe = parse_stack_probe(r.out);
  if (probe.stacks.size() < points.size()) {
    const std::string why = why_incomplete(r, time_limit);
    if (!why.empty()) probe.note += (probe.note.empty() ? "" : "; ") + why;
  }
  return probe;
}

}  // namespace omnilink::replay
