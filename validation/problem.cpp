#include "validation/problem.hpp"

#include <algorithm>

#include "tla/hpp_generator.hpp"

namespace omnilink::validation {
namespace {

const tla::OperationSpec* find_operation(const tla::Spec& spec, const std::string& name) {
  for (const auto& op : spec.operations)
    if (op.name == name) return &op;
  return nullptr;
}

std::string known_operations(const tla::Spec& spec) {
  std::string names;
  for (const auto& op : spec.operations) names += (names.empty() ? "" : ", ") + op.name;
  return names;
}

}  // namespace

std::string operation_name(const trace::Operation& op) {
  return "T" + std::to_string(op.thread) + "." + std::to_string(op.index) + " " + op.name;
}

std::map<std::string, OperationParams> operation_params(const tla::Spec& spec, const tla::Spec* mc) {
  std::map<std::string, OperationParams> params;
  for (const auto& op : spec.operations) {
    OperationParams& p = params[op.name];
    p.names = op.params;
    const std::vector<std::string> types = tla::cpp_param_types(spec, op);
    for (std::size_t k = 0; k < op.params.size(); ++k) {
      p.boolean.push_back(types[k] == "bool");
      p.defined.push_back(mc != nullptr && mc->find_operator(domain_override_name(op.name, op.params[k])) != nullptr);
    }
  }
  return params;
}

Problem make_problem(History history, const tla::Spec& spec, const tla::Spec* mc) {
  Problem problem;
  problem.caveats = history.caveats;
  problem.params = operation_params(spec, mc);
  problem.domains = pending_domains(history, problem.params, problem.caveats);
  for (const auto& [name, slots] : problem.domains)
    for (const auto& slot : slots)
      if (slot && !slot->defined && !slot->boolean) problem.logged_value_domains = true;
  problem.history = std::move(history);
  for (const auto& ops : problem.history.threads) {
    std::vector<ProblemOp>& thread = problem.threads.emplace_back();
    for (const trace::Operation& op : ops) {
      const std::string where = operation_name(op);
      const tla::OperationSpec* spec_op = find_operation(spec, op.name);
      if (spec_op == nullptr)
        throw ValidationError(where + ": the spec (" + spec.file + ") has no operation '" + op.name + "' (it has: " +
                              known_operations(spec) + ")");
      for (const auto& [name, value] : op.fields)
        if (std::find(spec_op->params.begin(), spec_op->params.end(), name) == spec_op->params.end())
          throw ValidationError(where + ": field '" + name + "' is not a parameter of the spec's " + op.name);
      ProblemOp p{&op, spec_op, {}};
      for (const std::string& param : spec_op->params) {
        const trace::Value* v = op.field(param);
        if (v == nullptr && !op.pending())
          throw ValidationError(where + ": no field '" + param + "' (a parameter of the spec's " + op.name + ")");
        p.args.push_back(v);
      }
      thread.push_back(std::move(p));
      ++(op.pending() ? problem.pending : problem.operations);
    }
  }
  return problem;
}

}  // namespace omnilink::validation
