#include "history/problem.hpp"

#include <algorithm>
#include <optional>


namespace omnilink::history {
namespace {


std::string known_operations(const language::SpecInterface& spec) {
  std::string names;
  for (const auto& op : spec.operations) names += (names.empty() ? "" : ", ") + op.name;
  return names;
}

}  // namespace

std::string operation_name(const trace::Operation& op) {
  return "T" + std::to_string(op.thread) + "." + std::to_string(op.index) + " " + op.name;
}

std::map<std::string, OperationParams> operation_params(const language::SpecInterface& spec, const language::LoadedSpec& loaded) {
  std::map<std::string, OperationParams> params;
  for (const auto& op : spec.operations) {
    OperationParams& p = params[op.name];
    p.names = op.params;
    const std::vector<std::string> types = language::param_types(op);
    for (std::size_t k = 0; k < op.params.size(); ++k) {
      p.boolean.push_back(types[k] == "Bool");
      p.defined.push_back(loaded.mc_defines(domain_override_name(op.name, op.params[k])));
    }
  }
  return params;
}

const ProblemOp* Problem::find(std::uint32_t thread, std::uint64_t index) const {
  for (const auto& ops : threads)
    for (const ProblemOp& p : ops)
      if (p.op->thread == thread && p.op->index == index) return &p;
  return nullptr;
}

Problem make_problem(History history, const language::SpecInterface& spec, const language::LoadedSpec& loaded) {
  Problem problem;
  problem.caveats = history.caveats;
  problem.params = operation_params(spec, loaded);
  problem.domains = pending_domains(history, problem.params, problem.caveats);
  for (const auto& [name, slots] : problem.domains)
    for (const auto& slot : slots)
      if (slot && !slot->defined && !slot->boolean) problem.logged_value_domains = true;
  problem.history = std::move(history);
  std::uint64_t optional = 0;
  for (const auto& ops : problem.history.threads) {
    std::vector<ProblemOp>& thread = problem.threads.emplace_back();
    thread.reserve(ops.size());
    for (const trace::Operation& op : ops) {
      // Only for an error: most runs have none. A history file's operations are found by line.
      auto where = [&] {
        const std::string& file = problem.history.file;
        return (file.empty() ? "" : file + ":" + std::to_string(op.offset) + ": ") + operation_name(op);
      };
      const language::Operation* spec_op = spec.find(op.name);
      if (spec_op == nullptr)
        throw ValidationError(where() + ": the spec (" + spec.file + ") has no operation '" + op.name + "' (it has: " +
                              known_operations(spec) + ")");
      for (const auto& [name, value] : op.fields) {
        if (std::find(spec_op->params.begin(), spec_op->params.end(), name) == spec_op->params.end())
          throw ValidationError(where() + ": field '" + name + "' is not a parameter of the spec's " + op.name);
      }
      ProblemOp p{&op, spec_op, {}, op.optional};
      p.args.reserve(spec_op->params.size());
      for (const std::string& param : spec_op->params) {
        const trace::Value* v = op.field(param);
        if (v == nullptr && !op.pending())
          throw ValidationError(where() + ": no field '" + param + "' (a parameter of the spec's " + op.name + ")");
        p.args.push_back(v);
      }
      thread.push_back(std::move(p));
      if (op.optional) ++optional;
      else ++(op.pending() ? problem.pending : problem.operations);
    }
  }
  if (optional > 0)
    problem.caveats.push_back(std::to_string(optional) + " operation(s) the history file marks optional (a failing core's context) "
                              "may each be left out, or linearized within their timeboxes with their logged results");
  return problem;
}

std::vector<Problem> split_problem(const Problem& problem, std::size_t parts,
                                   const std::function<std::size_t(const ProblemOp&)>& part_of,
                                   const std::function<MadeOptional(const ProblemOp&)>& optional) {
  std::vector<Problem> split(parts);
  // kept[part][thread]: the original operations each part keeps, in order.
  std::vector<std::vector<std::vector<const ProblemOp*>>> kept(parts, std::vector<std::vector<const ProblemOp*>>(problem.threads.size()));
  for (std::size_t t = 0; t < problem.threads.size(); ++t)
    for (const ProblemOp& p : problem.threads[t]) kept.at(part_of(p))[t].push_back(&p);
  for (std::size_t k = 0; k < parts; ++k) {
    Problem& part = split[k];
    part.params = problem.params;
    part.domains = problem.domains;
    part.logged_value_domains = problem.logged_value_domains;
    part.caveats = problem.caveats;
    part.history.clock = problem.history.clock;
    part.history.inputs = problem.history.inputs;
    part.history.cut = problem.history.cut;
    part.history.caveats = problem.history.caveats;
    for (const auto& thread_kept : kept[k]) {
      auto& ops = part.history.threads.emplace_back();
      ops.reserve(thread_kept.size());
      for (const ProblemOp* p : thread_kept) {
        trace::Operation& op = ops.emplace_back(*p->op);
        if (op.optional || op.pending() || !optional) continue;
        const MadeOptional made = optional(*p);
        op.optional = made.optional;
        op.optional_group = made.optional ? made.group : 0;
      }
    }
    // The history is complete (it no longer moves): now point into it.
    for (std::size_t t = 0; t < kept[k].size(); ++t) {
      auto& thread = part.threads.emplace_back();
      thread.reserve(kept[k][t].size());
      for (std::size_t n = 0; n < kept[k][t].size(); ++n) {
        const trace::Operation& op = part.history.threads[t][n];
        const ProblemOp& original = *kept[k][t][n];
        ProblemOp p{&op, original.spec_op, {}, op.optional};
        p.args.reserve(p.spec_op->params.size());
        for (const std::string& param : p.spec_op->params) p.args.push_back(op.field(param));
        if (!p.optional) ++(op.pending() ? part.pending : part.operations);
        thread.push_back(std::move(p));
      }
    }
  }
  return split;
}

}  // namespace omnilink::history
