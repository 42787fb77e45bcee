#include "report/explanation_text.hpp"

#include <algorithm>
#include <iomanip>
#include <limits>
#include <sstream>
#include <utility>

#include "omnilink/clock.hpp"
#include "platform/join.hpp"

namespace omnilink::report {
namespace {

using results::StoredOperation;

/// The unit of a clock's timestamps; a history file may name a clock of its own. (By name, not
/// parse_clock, which refuses rdtsc on a machine without it: the run may come from one with it.)
std::string unit(const std::string& clock) {
  constexpr std::pair<ClockKind, const char*> kUnits[] = {
      {ClockKind::monotonic, "ns"}, {ClockKind::rdtsc, "TSC ticks"}, {ClockKind::counter, "counter ticks"}};
  for (const auto& [kind, unit] : kUnits)
    if (clock_name(kind) == clock) return unit;
  return "the file's units";
}

/// The core's operations and its context's, by start, times from the first start; the core's marked.
/// At most `most_rows` of them: those up to a few past the refused operation, the rest counted.
std::string ops_table(const explain::Explanation& e, std::size_t most_rows = std::numeric_limits<std::size_t>::max()) {
  std::vector<std::pair<const StoredOperation*, bool>> rows;  // operation, in the core
  for (const StoredOperation& op : e.core) rows.emplace_back(&op, true);
  for (const StoredOperation& op : e.context) rows.emplace_back(&op, false);
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first->start < b.first->start; });
  const std::uint64_t origin = rows.empty() ? 0 : rows.front().first->start.value();
  std::size_t from = 0, to = rows.size();
  if (rows.size() > most_rows) {
    // A core the minimisation did not finish can hold hundreds of operations: a summary shows the
    // ones before the refused operation, where the search stopped.
    std::size_t refused = rows.size() - 1;
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (e.refused && rows[i].first->id() == e.refused->op) refused = i;
    to = std::min(rows.size(), refused + 1 + std::min<std::size_t>(3, most_rows / 4));
    from = to > most_rows ? to - most_rows : 0;
    to = std::min(rows.size(), from + most_rows);
  }
  std::size_t id_width = 2, call_width = 4;
  for (std::size_t i = from; i < to; ++i) id_width = std::max(id_width, rows[i].first->id().size()), call_width = std::max(call_width, rows[i].first->call().size());
  std::ostringstream s;
  s << "    " << std::left << std::setw(6) << "" << std::setw(static_cast<int>(id_width)) << "op" << "  " << std::setw(static_cast<int>(call_width))
    << "call" << "  " << std::right << std::setw(12) << "start" << "  " << std::setw(12) << "end" << "\n";
  if (from > 0) s << "    ... " << from << " earlier operations of the core and its context\n";
  for (std::size_t i = from; i < to; ++i) {
    const auto& [op, core] = rows[i];
    s << "    " << std::left << std::setw(6) << (core ? "core" : "") << std::setw(static_cast<int>(id_width)) << op->id() << "  "
      << std::setw(static_cast<int>(call_width)) << op->call() << "  " << std::right << std::setw(12) << op->start.value() - origin << "  "
      << std::setw(12) << op->end.value() - origin << "\n";
  }
  if (to < rows.size()) s << "    ... " << rows.size() - to << " later operations of the core and its context\n";
  return s.str();
}

std::string tied_list(const std::vector<explain::CoreRefusal::Tie>& ops, const explain::Explanation& e) {
  std::string out;
  for (const auto& t : ops) {
    const StoredOperation* op = e.find(t.op);
    out += (out.empty() ? "" : ", ") + t.op + (op != nullptr ? " " + op->name : "");
  }
  return out;
}

/// "T0.1 -> T0.2, T0.2 -> T1.4": the real-time order among the core's operations (a ended before
/// b started), without the pairs it implies through a third.
std::string real_time_order(const std::vector<StoredOperation>& core) {
  const std::size_t n = core.size();
  const auto before = [&](std::size_t a, std::size_t b) { return core[a].end.value() < core[b].start.value(); };
  std::string out;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      if (!before(a, b)) continue;
      bool implied = false;
      for (std::size_t c = 0; c < n && !implied; ++c) implied = c != a && c != b && before(a, c) && before(c, b);
      if (!implied) out += (out.empty() ? "" : ", ") + core[a].id() + " -> " + core[b].id();
    }
  return out;
}

std::string overlapping(const std::vector<StoredOperation>& core) {
  std::string out;
  for (std::size_t a = 0; a < core.size(); ++a)
    for (std::size_t b = a + 1; b < core.size(); ++b)
      if (!(core[a].end.value() < core[b].start.value()) && !(core[b].end.value() < core[a].start.value())) out += (out.empty() ? "" : ", ") + core[a].id() + " || " + core[b].id();
  return out;
}

/// "preempted" (rr's SCHED) or the system call the thread stopped in.
std::string why_switched(const std::string& stopped_at) {
  if (stopped_at == "SCHED") return "preempted";
  if (stopped_at.starts_with("SYSCALL: ")) return "in system call " + stopped_at.substr(9);
  return "at rr event " + stopped_at;
}

/// " (in find at striped_map.cpp:121, ...)": the calls around a switch point.
std::string called_from(const std::vector<explain::CodeLocation>& callers) {
  std::vector<std::string> texts;
  for (const auto& c : callers) texts.push_back(c.text());
  return texts.empty() ? "" : ", called from " + join(texts, ", ");
}

}  // namespace

/// "Failing core: 2 of 12000 operations are rejected on their own, ...", or given what past.
std::string core_headline(const explain::Explanation& e) {
  std::string claim = "on their own, whatever the run's other operations did";
  if (e.given) {
    // Named by the operation the cut is at (the first of the core's transactions), which is shown.
    std::string cut = "time " + std::to_string(e.given->before);
    for (const auto* list : {&e.core, &e.context})
      for (const StoredOperation& op : *list)
        if (op.start && *op.start == e.given->before) cut = op.id() + " started";
    claim = "given the " + std::to_string(e.given->operations) + " operations that ended before " + cut +
            ", as the run logged them (they pass on their own), whatever its other operations did";
  }
  return "Failing core: " + std::to_string(e.core.size()) + " of " + std::to_string(e.run_operations) + " operations" +
         (e.part.empty() ? "" : " (of the part " + e.part + ")") + " are rejected " + claim;
}

/// Where every order of the core and its context stops, and the conjunct that stops it.
std::string core_stops_at(const explain::Explanation& e) {
  if (!e.refused)
    return "no operation is refused as a whole at the deepest state (" + std::to_string(e.linearized) +
           " linearized); every one that may go next leads nowhere";
  const explain::CoreRefusal& r = *e.refused;
  const StoredOperation* op = e.find(r.op);
  return "every order stops at " + r.op + " " + (op != nullptr ? op->call() : "") + " after " + std::to_string(e.linearized) + " operation" +
         (e.linearized == 1 ? "" : "s") + ";\n  " + r.action + " is refused there by  " + (r.conjunct.empty() ? "?" : r.conjunct) + "  (" + r.at + ")";
}

std::string core_breaks(const explain::Explanation& e) {
  if (e.broken_rules.empty()) return "";
  std::vector<std::string> rules;
  for (const explain::BrokenRule& rule : e.broken_rules) rules.push_back(rule.name + " (" + rule.module + ", " + rule.at + ")");
  return std::string(e.broken_rules.size() == 1 ? "The rule it breaks: " : "The rules it breaks: ") + join(rules, "; ") +
         (e.broken_rules.size() == 1 ? ": defined TRUE, the spec accepts the run"
                                     : ": defined TRUE together, the spec accepts the run, and not without any one of them");
}

std::string rules_unnamed_text(const explain::Explanation& e) {
  return e.broken_rules.empty() && !e.rules_unnamed.empty() ? "No rule is named: " + e.rules_unnamed : "";
}

std::string schedule_step_text(const explain::ScheduleStep& step, const explain::Explanation& e) {
  const std::string thread = "T" + std::to_string(step.thread);
  const StoredOperation* op = e.find(step.op);
  const std::string call = op != nullptr ? " " + op->call() : "";
  switch (step.kind) {
    case explain::ScheduleStep::Kind::start: return thread + "  starts " + step.op + call;
    case explain::ScheduleStep::Kind::end: return thread + "  ends   " + step.op;
    case explain::ScheduleStep::Kind::switched_out:
      return thread + "  switched out during " + step.op + (op == nullptr && !step.call.empty() ? " " + step.call : "") + (step.where ? " in " + step.where->text() + called_from(step.callers) : " (no frame in the code under test)") +
             " (" + why_switched(step.stopped_at) + ")" + (step.next_thread ? "; T" + std::to_string(*step.next_thread) + " runs" : "");
  }
  return "";
}

std::string atomicity_hint_text(const explain::AtomicityHint& h) {
  constexpr std::size_t kShown = 6;
  std::string between;
  for (std::size_t k = 0; k < h.between.size() && k < kShown; ++k) between += (k ? ", " : "") + h.between[k];
  if (h.between.size() > kShown) between += " and " + std::to_string(h.between.size() - kShown) + " more";
  const std::string times = h.switches > 1 ? " " + std::to_string(h.switches) + " times" : "";
  return h.op + " " + h.op_name + " was switched out" + times + " in " + h.at.text() + called_from(h.callers) + " while " + between +
         " ran (" + join(h.between_names, ", ") + ")";
}

const char* const kNoCoreSwitchText =
    "No core operation was switched out in its middle: the failure needs no interleaving inside an operation, so no code region is "
    "hinted (a misconfiguration, or a rule of the spec the system keeps under no schedule).";

namespace {

/// The interleaving and its hints, or why there is none.
std::string interleaving_text(const explain::Explanation& e) {
  std::ostringstream s;
  if (!e.interleaving) {
    if (!e.no_interleaving.empty()) s << "\n\nNo interleaving: " << e.no_interleaving;
    return s.str();
  }
  const explain::Interleaving& in = *e.interleaving;
  s << "\n\nHow the recording ran it (rr events " << in.first_event << " to " << in.last_event << ", " << in.switches << " thread switch"
    << (in.switches == 1 ? "" : "es") << ", " << in.located << " located in the middle of an operation):";
  for (const auto& step : in.steps) s << "\n  " << schedule_step_text(step, e);
  if (!in.note.empty()) s << "\n  (" << in.note << ")";
  if (!in.hints.empty()) {
    s << "\n\nAtomicity hints (observed: where an operation's thread was switched out in its middle, and what other threads ran"
         "\nbefore it ran again; the hint: that code region may need to run atomically against those operations):";
    for (const auto& h : in.hints) s << "\n  " << atomicity_hint_text(h);
  } else if (!explain::core_switched_out(in, e.core)) {
    s << "\n\n" << kNoCoreSwitchText;
  }
  return s.str();
}

}  // namespace

std::string ranked_hints_text(const std::vector<explain::RankedHint>& ranked, std::size_t runs) {
  if (runs < 2 || ranked.empty()) return "";
  std::ostringstream s;
  s << "\nAtomicity hints across the " << runs << " explained failing runs of this signature with an interleaving, by how many show each:";
  for (const auto& r : ranked) {
    s << "\n  " << std::setw(3) << r.runs << " run" << (r.runs == 1 ? " " : "s") << "  " << r.example.op_name << " switched out in "
      << r.example.at.text() << " while " << join(r.example.between_names, ", ") << " ran";
  }
  s << "\n";
  return s.str();
}

std::string core_summary(const explain::Explanation& e) {
  // A few lines: a core of a handful of operations shows whole; one the minimisation did not
  // finish is cut to the rows before where it stops, and the hints to the first few.
  constexpr std::size_t kMostRows = 24, kMostHints = 5;
  std::ostringstream s;
  s << core_headline(e) << (e.minimal ? "" : " (not proven minimal)") << "\n" << ops_table(e, kMostRows) << "  " << core_stops_at(e) << "\n";
  if (const std::string breaks = core_breaks(e); !breaks.empty()) s << "  " << breaks << "\n";
  if (e.interleaving) {
    const auto& hints = e.interleaving->hints;
    for (std::size_t i = 0; i < hints.size() && i < kMostHints; ++i) s << "  atomicity hint: " << atomicity_hint_text(hints[i]) << "\n";
    if (hints.size() > kMostHints) s << "  ... " << hints.size() - kMostHints << " more atomicity hints\n";
  }
  return s.str();
}

std::string failure_summary(const store::RunRecord& run, const RunExplanation& kept) {
  std::string text = kept.explanation ? core_summary(*kept.explanation) + "(why: omnilink explain " + run.key() +
                                            "; the search's frontier: omnilink show " + run.key() + ")\n"
                     : run.validation ? run.validation->frontier_summary + "\n"
                                      : "";
  if (!kept.damaged.empty()) text += "(its failing core cannot be shown: " + kept.damaged + ")\n";
  return text;
}

std::string explanation_text(const explain::Explanation& e, const std::string& core_path, const std::string& validate_hint) {
  std::ostringstream s;
  s << core_headline(e);
  s << "\n  " << (e.minimal ? std::string("one-minimal: leaving out any one of them lets the rest pass") + (e.given ? " given that past" : "")
                                   : "not proven minimal: " + e.not_minimal) << " (" << e.questions
    << " searches, " << std::fixed << std::setprecision(1) << static_cast<double>(e.core_ms) / 1000.0 << " s, from " << e.seed << ")\n\n";
  s << "  the core" << (e.context.empty() ? "" : " and the operations outside it that logged its values or share its transactions (which it fails with or without)")
    << "; times in " << unit(e.clock) << " from the first start\n"
    << ops_table(e);
  std::vector<StoredOperation> shown = e.core;
  shown.insert(shown.end(), e.context.begin(), e.context.end());
  std::stable_sort(shown.begin(), shown.end(), [](const StoredOperation& a, const StoredOperation& b) { return a.start < b.start; });
  if (const std::string order = real_time_order(shown); !order.empty()) s << "\n  real-time order: " << order;
  if (const std::string concurrent = overlapping(shown); !concurrent.empty()) s << "\n  overlapping: " << concurrent;
  if (const std::string breaks = core_breaks(e); !breaks.empty()) s << "\n\n" << breaks << ".";
  if (const std::string unnamed = rules_unnamed_text(e); !unnamed.empty()) s << "\n\n" << unnamed << ".";
  s << "\n\nWhy no order works: " << core_stops_at(e);
  if (!e.spec_variables.empty()) {
    s << "\n  spec state there:";
    for (const auto& [name, value] : e.spec_variables) s << "\n    " << name << " = " << value;
  }
  if (e.refused) {
    const explain::CoreRefusal& r = *e.refused;
    if (r.lost) {
      s << "\n  " << r.lost->value << " is in the state there, and only " << tied_list(r.lost->logged_by, e)
        << " logged it (linearized there): nothing is left to take it out";
    } else if (r.in_place) {
      const StoredOperation* refused = e.find(r.op);
      s << "\n  the state holds " << r.in_place->value << " there, logged by";
      for (std::size_t k = 0; k < r.in_place->logged_by.size(); ++k) {
        const explain::CoreRefusal::Tie& t = r.in_place->logged_by[k];
        const StoredOperation* op = e.find(t.op);
        s << (k ? "," : "") << " " << t.op << (op != nullptr ? " " + op->name : "");
        if (t.linearized) s << " (linearized there)";
        else if (op != nullptr && refused != nullptr && op->start.value() > refused->end.value()) s << " (which starts only after " << r.op << " ends)";
        else s << " (not linearized there)";
      }
    }
    for (const auto& field : r.unmatched) s << "\n  its " << field << " was logged by no other operation of the run";
    if (const StoredOperation* refused = e.find(r.op))
      for (const auto& [field, value] : refused->fields) {
        if (value == "TRUE" || value == "FALSE") continue;  // a flag ties nothing together
        std::string others;
        for (const StoredOperation& op : shown)
          if (op.id() != r.op && std::any_of(op.fields.begin(), op.fields.end(), [&](const auto& f) { return f.second == value; }))
            others += (others.empty() ? "" : ", ") + op.id() + " " + op.name;
        if (!others.empty()) s << "\n  its " << field << " = " << value << " was logged by " << others << " too";
      }
  }
  s << interleaving_text(e);
  s << "\n\nThe core as a history file: " << core_path;
  if (!validate_hint.empty()) s << "\n  " << validate_hint;
  s << "\n";
  return s.str();
}

}  // namespace omnilink::report
