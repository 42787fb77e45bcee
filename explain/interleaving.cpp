#include "explain/interleaving.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <ostream>
#include <stdexcept>
#include <set>
#include <tuple>

#include "explain/explanation.hpp"
#include "explain/failing_core.hpp"
#include "platform/code_under_test.hpp"
#include "platform/join.hpp"
#include "replay/rr_events.hpp"
#include "replay/schedule_probe.hpp"
#include "trace/reader.hpp"
#include "trace/run_dir.hpp"

namespace omnilink::explain {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kCallersKept = 5;

/// The stack's frames in the code under test, innermost first: where the thread stopped, and the
/// few calls around it (an inlined helper's caller is often the function a reader knows).
std::vector<CodeLocation> frames_under_test(const replay::ThreadStack& stack) {
  std::vector<CodeLocation> out;
  for (const replay::StackFrame& f : stack.frames)
    if (in_code_under_test(f.file, f.line) && out.size() <= kCallersKept) out.push_back({plain_function_name(f.function), f.file, f.line});
  return out;
}

using OpKey = std::pair<std::uint32_t, std::uint64_t>;

/// The run's operations as its traces logged them, each thread's in index order (failed ones too:
/// a thread may be switched out in one).
history::History logged_history(const fs::path& run_dir) {
  history::History history;
  const trace::RunDir run = trace::RunDir::open(run_dir);
  for (const auto& file : run.thread_files) {
    trace::ThreadTraceReader reader(file);
    while (auto op = reader.next()) {
      if (op->thread >= history.threads.size()) history.threads.resize(op->thread + 1);
      history.threads[op->thread].push_back(std::move(*op));
    }
  }
  for (auto& thread : history.threads)
    std::stable_sort(thread.begin(), thread.end(), [](const trace::Operation& a, const trace::Operation& b) { return a.index < b.index; });
  return history;
}

/// The operation a thread was running when rr switched away from it after event k: from its
/// boundaries (in replay order), the last before the switch if it is a start, else, if it has none
/// before, the first after if it is an end. None: it was between operations.
std::optional<OpKey> running_at(const std::vector<const replay::OpBoundary*>& boundaries, std::uint64_t k) {
  const replay::OpBoundary* before = nullptr;
  for (const replay::OpBoundary* b : boundaries) {
    if (b->completed_event < k) {
      before = b;
      continue;
    }
    if (before == nullptr && b->kind == replay::OpBoundary::Kind::end) return OpKey{b->thread, b->index};
    break;
  }
  if (before != nullptr && before->kind == replay::OpBoundary::Kind::start) return OpKey{before->thread, before->index};
  return std::nullopt;
}

}  // namespace

std::string CodeLocation::text() const {
  return (function.empty() ? "??" : function) + " at " + fs::path(file).filename().string() + ":" + std::to_string(line);
}

Interleaving trace_interleaving(const fs::path& rr, const replay::Recording& recording, const std::vector<results::StoredOperation>& core,
                                const InterleavingOptions& options) {
  Interleaving out;
  const history::History logged = logged_history(recording.run_dir);
  std::map<OpKey, const trace::Operation*> by_key;
  for (const auto& thread : logged.threads)
    for (const trace::Operation& op : thread) by_key.emplace(OpKey{op.thread, op.index}, &op);
  const auto op_of = [&](const OpKey& key) -> const trace::Operation* {
    const auto it = by_key.find(key);
    return it == by_key.end() ? nullptr : it->second;
  };
  std::vector<replay::ProbeTarget> targets;
  std::vector<OpKey> target_ids;
  for (const results::StoredOperation& op : core) {
    const trace::Operation* found = op_of({op.thread, op.index});
    if (found == nullptr) throw std::runtime_error("the run's traces have no operation " + op.id());
    targets.push_back({op.thread, op.index, found->replay_start()});
    target_ids.emplace_back(op.thread, op.index);
  }
  // Where the spec groups operations into transactions, the switches that matter are those inside
  // the core's transactions (InterleavingOptions::group_field).
  TransactionOf transaction;
  std::set<std::uint64_t> core_transactions;
  if (options.group_field) {
    transaction = transactions_by_operation(logged, options.group_field);
    for (const OpKey& key : target_ids)
      if (const auto t = transaction.find(key); t != transaction.end()) core_transactions.insert(t->second);
  }
  std::map<OpKey, std::string> core_ids;
  for (const results::StoredOperation& op : core) core_ids[{op.thread, op.index}] = op.id();
  const auto of_core_transaction = [&](const OpKey& key) {
    if (!options.group_field || core_ids.count(key) > 0) return true;
    const auto it = transaction.find(key);
    return it != transaction.end() && core_transactions.count(it->second) > 0;
  };
  // Start where every target is still ahead.
  std::ostream quiet(nullptr);
  const std::optional<std::uint64_t> start_event =
      replay::seek_index(rr, recording, options.progress != nullptr ? *options.progress : quiet, options.index_time_limit)
          .event_before_all(target_ids);
  const replay::BoundaryProbe probe = replay::probe_boundaries(rr, recording, targets, start_event, options.time_limit);
  std::vector<std::string> notes;
  if (!probe.note.empty()) notes.push_back(probe.note);
  std::vector<const replay::OpBoundary*> core_boundaries;
  std::map<std::uint32_t, std::vector<const replay::OpBoundary*>> by_thread;
  for (const auto& b : probe.boundaries) {
    by_thread[b.thread].push_back(&b);
    if (b.target) core_boundaries.push_back(&b);
  }
  if (core_boundaries.empty()) {
    out.note = notes.empty() ? "the replay met none of the core's operations" : join(notes, "; ");
    return out;
  }
  out.first_event = core_boundaries.front()->completed_event;
  out.last_event = core_boundaries.back()->completed_event;
  // The window opens with the first core start, or earlier with the start of an operation another
  // thread was in the middle of then: the race a core shows may have begun before it (an enqueue
  // that read the tail, was switched out, and overwrites the core's link when it runs again).
  const std::uint64_t first_core_event = out.first_event;
  for (auto& [thread, boundaries] : by_thread)
    if (const auto running = running_at(boundaries, first_core_event + 1); running && of_core_transaction(*running))
      for (const replay::OpBoundary* b : boundaries)
        if (b->kind == replay::OpBoundary::Kind::start && b->thread == running->first && b->index == running->second)
          out.first_event = std::min(out.first_event, b->completed_event);
  // A boundary with completed event N lies before the switch after event k exactly when N < k: the
  // switches inside the window are those after events first+1..last. The events are read from
  // where the probe began, to look back too.
  std::uint64_t probe_first = out.first_event;
  for (const auto& b : probe.boundaries) probe_first = std::min(probe_first, b.completed_event);
  const std::vector<replay::RrEvent> events = replay::read_rr_events(rr, recording, probe_first, out.last_event + 1);
  const std::vector<replay::ThreadSwitch> all_switches = replay::thread_switches(events);

  // The switches that took a thread away in the middle of an operation are located by its stack
  // (with transactions, of an operation of the core's transactions).
  struct Located {
    const replay::ThreadSwitch* at;
    std::uint32_t thread;
    OpKey running;
  };
  const auto in_the_middle = [&](const replay::ThreadSwitch& s) -> std::optional<Located> {
    const auto thread = probe.threads.find(s.from);
    if (thread == probe.threads.end()) return std::nullopt;  // not a harness thread
    const auto running = running_at(by_thread[thread->second], s.after);
    if (!running || !of_core_transaction(*running)) return std::nullopt;
    return Located{&s, thread->second, *running};
  };
  // Looking back: the damage a core shows may have been done before its first operation (an
  // enqueue switched out mid-way that later cut the list the core's enqueue links to). The window
  // opens at the last few such switches before it, among the events the probe replayed.
  std::size_t looked_back = 0;
  for (auto s = all_switches.rbegin(); s != all_switches.rend() && looked_back < options.look_back; ++s)
    if (s->after <= out.first_event && in_the_middle(*s)) {
      out.first_event = s->after - 1;
      ++looked_back;
    }
  std::vector<const replay::ThreadSwitch*> switches;
  for (const auto& s : all_switches)
    if (s.after > out.first_event && s.after <= out.last_event) switches.push_back(&s);
  out.switches = switches.size();
  std::vector<Located> located;
  std::size_t over_limit = 0;
  for (const replay::ThreadSwitch* s : switches) {
    const auto l = in_the_middle(*s);
    if (!l) continue;
    if (located.size() == options.max_located) {
      ++over_limit;
      continue;
    }
    located.push_back(*l);
  }
  std::vector<replay::StackPoint> points;
  for (const Located& l : located) points.push_back({l.at->after, l.at->from});
  const replay::StackProbe stacks = replay::probe_stacks(rr, recording, points, options.time_limit);
  std::map<std::pair<std::uint64_t, int>, const replay::ThreadStack*> stack_at;
  for (const auto& st : stacks.stacks) stack_at[{st.at.event, st.at.tid}] = &st;

  // Steps, by position: a switch after event k comes before a boundary with completed event k.
  std::vector<std::tuple<std::uint64_t, int, std::size_t, ScheduleStep>> ordered;
  std::size_t sequence = 0;
  for (const replay::OpBoundary* b : core_boundaries) {
    ScheduleStep step;
    step.kind = b->kind == replay::OpBoundary::Kind::start ? ScheduleStep::Kind::start : ScheduleStep::Kind::end;
    step.thread = b->thread;
    step.op = core_ids.at({b->thread, b->index});
    step.event = b->completed_event;
    ordered.emplace_back(b->completed_event, 1, sequence++, std::move(step));
  }
  // The hints, one per operation and place, in the order of their first switch there.
  struct Hinted {
    OpKey op;
    CodeLocation at;
    std::vector<CodeLocation> callers;
    std::set<OpKey> ran;
    std::uint64_t switches;
  };
  std::vector<Hinted> hinted;
  for (const Located& l : located) {
    ScheduleStep step;
    step.kind = ScheduleStep::Kind::switched_out;
    step.thread = l.thread;
    step.op = trace::operation_id(l.running.first, l.running.second);
    if (const trace::Operation* op = op_of(l.running)) step.call = op->call();
    step.event = l.at->after;
    step.stopped_at = l.at->kind;
    if (const auto next = probe.threads.find(l.at->to); next != probe.threads.end()) step.next_thread = next->second;
    if (const auto st = stack_at.find({l.at->after, l.at->from}); st != stack_at.end()) {
      std::vector<CodeLocation> frames = frames_under_test(*st->second);
      if (!frames.empty()) {
        step.where = frames.front();
        step.callers.assign(frames.begin() + 1, frames.end());
      }
      ++out.located;
    }
    // Hint: the operations other threads ran before this one's thread ran again (at its next
    // event; a boundary with completed event N runs before event N+1): those with a start or end
    // in between, and those the other threads were running at their events in between.
    if (step.where) {
      // Not back before the window ends (the events are read up to its last core boundary): every
      // boundary in the window ran while it was out.
      std::uint64_t resumes = std::numeric_limits<std::uint64_t>::max();
      for (const auto& e : events)
        if (e.event > l.at->after && e.tid == l.at->from) {
          resumes = e.event;
          break;
        }
      std::vector<OpKey> ran;
      for (const auto& b : probe.boundaries)
        if (b.thread != l.thread && b.completed_event >= l.at->after && b.completed_event + 1 < resumes) ran.emplace_back(b.thread, b.index);
      for (const auto& e : events) {
        const auto thread = probe.threads.find(e.tid);
        if (e.event <= l.at->after || e.event >= resumes || thread == probe.threads.end() || thread->second == l.thread) continue;
        if (const auto running = running_at(by_thread[thread->second], e.event)) ran.push_back(*running);
      }
      if (!ran.empty()) {
        const auto same = std::find_if(hinted.begin(), hinted.end(), [&](const Hinted& h) { return h.op == l.running && h.at == *step.where; });
        if (same == hinted.end()) {
          hinted.push_back({l.running, *step.where, step.callers, {ran.begin(), ran.end()}, 1});
        } else {
          same->ran.insert(ran.begin(), ran.end());
          ++same->switches;
        }
      }
    }
    ordered.emplace_back(l.at->after, 0, sequence++, std::move(step));
  }
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    return std::tie(std::get<0>(a), std::get<1>(a), std::get<2>(a)) < std::tie(std::get<0>(b), std::get<1>(b), std::get<2>(b));
  });
  for (auto& o : ordered) out.steps.push_back(std::move(std::get<3>(o)));
  for (Hinted& h : hinted) {
    AtomicityHint hint{trace::operation_id(h.op.first, h.op.second), "", std::move(h.at), std::move(h.callers), {}, {}, h.switches};
    if (const trace::Operation* op = op_of(h.op)) hint.op_name = op->name;
    std::set<std::string> names;
    for (const OpKey& key : h.ran) {
      hint.between.push_back(trace::operation_id(key.first, key.second));
      if (const trace::Operation* op = op_of(key)) names.insert(op->name);
    }
    hint.between_names.assign(names.begin(), names.end());
    out.hints.push_back(std::move(hint));
  }

  if (!stacks.note.empty()) notes.push_back(stacks.note);
  if (over_limit > 0)
    notes.push_back(std::to_string(over_limit) + " further switch(es) in the middle of an operation were counted, not located (limit " +
                    std::to_string(options.max_located) + ")");
  out.note = join(notes, "; ");
  return out;
}

bool core_switched_out(const Interleaving& in, const std::vector<results::StoredOperation>& core) {
  return std::any_of(in.steps.begin(), in.steps.end(), [&](const ScheduleStep& step) {
    return step.kind == ScheduleStep::Kind::switched_out &&
           std::any_of(core.begin(), core.end(), [&](const results::StoredOperation& op) { return op.id() == step.op; });
  });
}

std::vector<RankedHint> rank_hints(const std::vector<std::vector<AtomicityHint>>& hints_by_run) {
  using Key = std::tuple<std::string, std::string, int, std::string, std::vector<std::string>>;
  std::map<Key, RankedHint> groups;
  std::vector<Key> order;  // first seen first, among equals
  for (const auto& run : hints_by_run) {
    std::set<Key> in_this_run;
    for (const AtomicityHint& h : run) {
      const Key key{h.op_name, h.at.file, h.at.line, h.at.function, h.between_names};
      if (!in_this_run.insert(key).second) continue;
      auto [it, fresh] = groups.try_emplace(key, RankedHint{h, 0});
      if (fresh) order.push_back(key);
      ++it->second.runs;
    }
  }
  std::vector<RankedHint> ranked;
  for (const Key& k : order) ranked.push_back(groups.at(k));
  std::stable_sort(ranked.begin(), ranked.end(), [](const RankedHint& a, const RankedHint& b) { return a.runs > b.runs; });
  return ranked;
}

}  // namespace omnilink::explain
