#include "explain/explain.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "explain/broken_rules.hpp"
#include "language/syntax.hpp"
#include "platform/fnv1a.hpp"
#include "trace/run_dir.hpp"
#include "trace/run_layout.hpp"
#include "history/history_file.hpp"
#include "checkers/native_check.hpp"
#include "checkers/spec_cache.hpp"
#include "history/value_index.hpp"

namespace omnilink::explain {
namespace {

namespace fs = std::filesystem;
using results::Verdict;

/// The spec's and MC module's text (every file they read) and the operators validation names,
/// hashed: what an explanation is of.
std::string spec_digest(const language::LoadedSpec& spec, const checkers::ValidateOptions& v) {
  std::uint64_t h = fnv1a64("init=" + v.init + "\nnext=" + v.next + "\nview=" + v.view.value_or("") + "\n");
  for (const fs::path& file : spec.source_files()) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    h = fnv1a64(file.filename().string() + "\n" + text.str(), h);
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

results::StoredOperation explained(const trace::Operation& op) {
  results::StoredOperation out{op.thread, op.index, op.name, {}, op.start, op.end};
  for (const auto& [name, value] : op.fields) out.fields.emplace_back(name, results::shown(trace::to_tla(value)));
  return out;
}

/// Operations by thread and index.
using OpIds = std::set<std::pair<std::uint32_t, std::uint64_t>>;

std::uint64_t transaction_of(const TransactionOf& groups, const trace::Operation& op) {
  const auto it = groups.find({op.thread, op.index});
  return it == groups.end() ? 0 : it->second;
}

/// The operations that logged `value` in one of their inputs (history::History::inputs), where at
/// most kIdentifyingUses did: the write of a value that many reads returned (a Put whose value four
/// Searches saw) is tied to each of them, where the value, logged by them all, identifies nothing.
std::vector<history::OpRef> writers_of(const history::Problem& problem, const history::ValueIndex& index, const std::string& value) {
  std::vector<history::OpRef> out;
  for (const history::OpRef& ref : index.users(value)) {
    const trace::Operation& op = *problem.threads[ref.first][ref.second].op;
    const auto declared = problem.history.inputs.find(op.name);
    if (declared == problem.history.inputs.end()) continue;
    for (const std::string& input : declared->second)
      if (const trace::Value* v = op.field(input); v != nullptr && trace::to_tla(*v) == value) {
        out.push_back(ref);
        break;
      }
  }
  if (out.size() > history::kIdentifyingUses) out.clear();
  return out;
}

/// The operations of `problem` outside the core (`core`, whose ids are `in_core`) that logged an
/// identifying value of a core operation (`index` is the problem's) or wrote one it read, and the whole of each
/// transaction (`groups`) a core or context operation belongs to: Begin to end, whatever how many
/// operations logged its id.
std::vector<const trace::Operation*> context_of(const history::Problem& problem, const history::ValueIndex& index,
                                                const history::History& core, const OpIds& in_core, const TransactionOf& groups) {
  OpIds added;
  std::vector<const trace::Operation*> out;
  std::set<std::uint64_t> whole;
  auto add = [&](const trace::Operation& other) {
    if (const std::uint64_t g = transaction_of(groups, other); g != 0) whole.insert(g);
    if (!in_core.count({other.thread, other.index}) && added.emplace(other.thread, other.index).second) out.push_back(&other);
  };
  for (const auto& thread : core.threads)
    for (const auto& op : thread) {
      add(op);
      for (const auto& [name, value] : op.fields) {
        const std::string text = trace::to_tla(value);
        if (const auto* logged = index.identifying(text))
          for (const auto& [t, position] : *logged) add(*problem.threads[t][position].op);
        else if (!value.is<bool>())
          for (const auto& [t, position] : writers_of(problem, index, text)) add(*problem.threads[t][position].op);
      }
    }
  if (!whole.empty())
    for (const auto& thread : problem.threads)
      for (const history::ProblemOp& p : thread)
        if (whole.count(transaction_of(groups, *p.op)) > 0) add(*p.op);
  std::stable_sort(out.begin(), out.end(), [](const trace::Operation* a, const trace::Operation* b) { return a->start < b->start; });
  return out;
}

/// Reads the core's interleaving from the recording into `e`, and keeps it; `group_field`: the
/// spec's @groups field, whose transactions the interleaving keeps to.
void add_interleaving(Explanation& e, const ExplainOptions& options, const fs::path& dir, const std::optional<std::string>& group_field) {
  InterleavingOptions interleaving = options.interleaving;
  interleaving.group_field = group_field;
  // The file is written at this version: an interleaving of an older one is not carried into it.
  e.version = kExplanationVersion;
  e.interleaving.reset();
  try {
    e.interleaving = trace_interleaving(options.rr, *options.recording, e.core, interleaving);
    e.no_interleaving.clear();
  } catch (const std::exception& error) {
    e.no_interleaving = std::string("the recording could not be read: ") + error.what();
  }
  write_explanation(dir, e);
}

/// The verdict as the reason nothing is explained.
std::string verdict_text(const results::ValidationResult& r) {
  return to_string(r.verdict) + (r.reason.empty() ? "" : ": " + r.reason);
}

}  // namespace

fs::path explanation_dir(const fs::path& run) {
  if (history::is_history_file(run)) return fs::path(run.string() + ".explain");
  return trace::RunLayout(run).explanation();
}

Explanation explain_run(const ExplainOptions& options) {
  const checkers::ValidateOptions& v = options.validate;
  if (std::error_code ec; !fs::exists(v.run_dir, ec))
    throw history::ValidationError(v.run_dir.string() + ": no such run directory or history file");
  checkers::ReadSpec& read = checkers::read_spec(v);
  language::LoadedSpec& loaded = *read.loaded;
  const fs::path dir = explanation_dir(v.run_dir);
  const std::string spec = fs::absolute(v.spec).string(), mc = v.mc ? fs::absolute(*v.mc).string() : "";
  const std::string digest = spec_digest(loaded, v);
  if (options.reuse)
    // An explanation older than kExplanationReusedSince lacks what signatures now read (the broken rules): made again.
    if (auto cached = read_explanation(dir); cached && cached->version >= kExplanationReusedSince && cached->spec == spec && cached->mc == mc &&
                                             cached->spec_digest == digest) {
      const bool current_interleaving = cached->interleaving && cached->version == kExplanationVersion;
      if (options.recording && !current_interleaving) add_interleaving(*cached, options, dir, read.interface.group_field);
      if (!options.recording && !cached->interleaving) cached->no_interleaving = options.no_interleaving;
      return std::move(*cached);
    }

  history::History history = history::read_run_or_history_file(v.run_dir);
  if (history.cut && history.operations() == history.pending_operations())
    throw NothingToExplain("the run was killed and its consistent cut keeps no completed operation");
  history::Problem problem = history::make_problem(std::move(history), read.interface, loaded);
  // A failure that rests on guessed results of pending operations stands only on the quiescent
  // prefix before them (validate.cpp): that prefix is what is explained.
  if (problem.logged_value_domains)
    problem = history::make_problem(history::prefix_before_pending(problem.history), read.interface, loaded);
  results::ValidationResult decided;
  try {
    checkers::check_natively(decided, problem, loaded, v);
  } catch (const language::FragmentError& e) {
    throw NothingToExplain(std::string("the native checker cannot evaluate this spec (") + e.what() + "); a core is found natively");
  }
  // An error (the spec or the trace cannot be read together) is the input's, as validate says it.
  if (decided.verdict == Verdict::error) throw history::ValidationError(decided.reason);
  if (decided.verdict != Verdict::fail) throw NothingToExplain("the run does not fail natively: " + verdict_text(decided));

  explain::CoreOptions core_options = options.core;
  core_options.group_field = read.interface.group_field;
  explain::FailingCore core = explain::find_failing_core(problem, decided, loaded, v, core_options);
  // The core and its context (the operations that logged its values, and the rest of each
  // transaction it touches where the spec groups operations) as one history: the story reads
  // whole (a dequeue with its enqueue, a write with its transaction's Begin), and it is rejected on its own, the core being rejected
  // with any of the run's other operations. Its search's refusal says why, the context taken as
  // having happened (a dequeue refused after its element's enqueue reads best). The file has the
  // context optional, as the core's search had it: it is the failing history the core proves, not
  // a stronger one (its completed operations are the core's; leaving one out is accepted).
  const history::ValueIndex users(problem);
  OpIds core_ops;
  for (const auto& thread : core.history.threads)
    for (const auto& op : thread) core_ops.emplace(op.thread, op.index);
  OpIds shown_ops = core_ops;
  const TransactionOf groups = transactions_by_operation(problem.history, read.interface.group_field);
  std::vector<const trace::Operation*> context = context_of(problem, users, core.history, shown_ops, groups);
  for (const trace::Operation* op : context) shown_ops.emplace(op->thread, op->index);
  // A core proven given the past is searched with it, as its questions had it: required.
  const auto in_past = [&](const trace::Operation& op) { return core.given && core.given->holds(op); };
  history::History story;
  story.clock = problem.history.clock;
  story.inputs = problem.history.inputs;
  for (const auto& thread : problem.history.threads) {
    auto& kept = story.threads.emplace_back();
    for (const auto& op : thread)
      if (shown_ops.count({op.thread, op.index}) || in_past(op)) kept.push_back(op);
  }
  // The file: as the core's questions had it, a transaction the core is in may have happened in
  // part, any other whole or not at all.
  history::History proved = story;
  std::set<std::uint64_t> core_groups;
  for (const auto& thread : core.history.threads)
    for (const auto& op : thread) core_groups.insert(transaction_of(groups, op));
  for (auto& thread : proved.threads)
    for (auto& op : thread) {
      op.optional = core_ops.count({op.thread, op.index}) == 0 && !in_past(op);
      const std::uint64_t group = transaction_of(groups, op);
      op.optional_group = op.optional && core_groups.count(group) == 0 ? group : 0;
    }
  results::ValidationResult why;
  checkers::check_natively(why, history::make_problem(story, read.interface, loaded), loaded, v);
  // The context taken as having happened may stop first at a context operation for want of what
  // the story leaves out (a read of its transaction's whose writer is not shown): then the reason
  // is the file's search's, where the context may not have happened, if it refuses a core operation.
  const auto refuses_core = [&](const results::ValidationResult& r) {
    return r.verdict == Verdict::fail && r.refused && core_ops.count({r.refused->op.thread, r.refused->op.index}) > 0;
  };
  if (!refuses_core(why)) {
    results::ValidationResult as_proved;
    checkers::check_natively(as_proved, history::make_problem(proved, read.interface, loaded), loaded, v);
    if (refuses_core(as_proved)) why = std::move(as_proved);
  }

  // Given the past, the refusal may name operations of it (those that logged a value the state
  // holds): they join the context, so that the explanation and the signature name them as they
  // name the others, by what they are rather than by id.
  if (core.given && why.refused) {
    const auto add = [&](const trace::Operation& named) {
      if (!shown_ops.emplace(named.thread, named.index).second) return;
      if (const history::ProblemOp* p = problem.find(named.thread, named.index)) context.push_back(p->op);
    };
    const results::RefusedOp& r = *why.refused;
    for (const auto& tie : r.related) add(tie.op);
    for (const auto* held : {&r.lost, &r.in_place})
      if (*held)
        for (const auto& tie : (*held)->logged_by) add(tie.op);
    std::stable_sort(context.begin(), context.end(), [](const trace::Operation* a, const trace::Operation* b) { return a->start < b->start; });
  }

  Explanation e;
  e.run = v.run_dir.string();
  e.spec = spec;
  e.mc = mc;
  e.spec_digest = digest;
  e.clock = problem.history.clock;
  e.run_operations = problem.operations;
  if (decided.partitions) e.part = decided.partitions->failed;
  for (const auto& thread : core.history.threads)
    for (const auto& op : thread) e.core.push_back(explained(op));
  std::stable_sort(e.core.begin(), e.core.end(), [](const results::StoredOperation& a, const results::StoredOperation& b) { return a.start < b.start; });
  e.minimal = core.minimal;
  e.not_minimal = core.not_minimal;
  e.seed = core.seed;
  e.given = core.given;
  e.questions = core.questions;
  e.core_ms = core.duration.count();
  e.linearized = why.linearized.value_or(0);
  for (const auto& [name, value] : why.spec_variables) e.spec_variables.emplace_back(name, results::shown(value));
  for (const trace::Operation* op : context) e.context.push_back(explained(*op));
  if (why.verdict != Verdict::fail)  // the core's claim implies this: anything else is a bug
    throw history::ValidationError("the failing core and its context do not fail on their own (" + verdict_text(why) + "): a bug in omnilink, please report it");
  if (why.refused) {
    const results::RefusedOp& r = *why.refused;
    e.refused = r.renamed([](const trace::Operation& op) { return op.id(); });
    // Unmatched in the run, not only among the operations shown: a value no other operation logged.
    e.refused->unmatched.clear();
    for (const auto& [name, value] : r.op.fields)
      if (!value.is<bool>() && users.users(trace::to_tla(value)).size() <= 1) e.refused->unmatched.push_back(name);
    for (auto* held : {&e.refused->lost, &e.refused->in_place})
      if (*held) (*held)->value = results::shown((*held)->value);
  }
  const auto asking = std::chrono::steady_clock::now();
  const BrokenRules broken = broken_rules(problem.history, v, core_options.question_states, core_options.time_limit);
  for (const language::Rule& rule : broken.rules) e.broken_rules.push_back({rule.name.module, rule.name.name, rule.pos.text(), rule.guarantee});
  e.rules_unnamed = broken.unnamed;
  e.rules_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - asking).count();
  if (!options.recording) e.no_interleaving = options.no_interleaving;
  fs::create_directories(dir);
  history::write_history_file(dir / e.core_file, proved);
  write_explanation(dir, e);
  if (options.recording) add_interleaving(e, options, dir, read.interface.group_field);
  return e;
}

}  // namespace omnilink::explain
