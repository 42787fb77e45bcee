#include "language/explorer.hpp"

#include <unordered_set>

#include "language/evaluator.hpp"

namespace omnilink::language {

namespace {
struct FingerprintHash {
  std::size_t operator()(const Fingerprint& f) const { return static_cast<std::size_t>(f.high ^ (f.low * 0x9e3779b97f4a7c15ULL)); }
};
}  // namespace

Exploration explore(LoadedSpec& spec, const std::string& init_name, const std::string& next_name, std::uint32_t levels,
                    std::uint64_t max_states, const std::vector<std::string>& constraint_names) {
  auto definition = [&](const std::string& name) {
    const Definition* d = spec.spec_definition(name);
    if (d == nullptr) throw SpecError(spec.spec_module().pos.text() + ": no definition of " + name);
    return d;
  };
  const Definition* init = definition(init_name);
  const Definition* next = definition(next_name);
  std::vector<const Definition*> constraints;
  for (const std::string& name : constraint_names) constraints.push_back(definition(name));
  Evaluator evaluator(spec);
  auto in_model = [&](const State& s) {
    for (const Definition* c : constraints) {
      const Value holds = evaluator.evaluate(*c, s);
      if (holds.kind() != Value::Kind::Bool)
        throw EvalError(c->pos.text() + ": the constraint " + c->name + " is not a boolean: " + holds.text());
      if (!holds.as_bool()) return false;
    }
    return true;
  };
  Exploration out;
  std::unordered_set<Fingerprint, FingerprintHash> seen;
  std::vector<State> level;
  for (State& s : evaluator.initial_states(*init))
    if (in_model(s) && seen.insert(fingerprint(s)).second) level.push_back(std::move(s));
  out.initial = level.size();
  out.distinct = level.size();
  out.levels = level.empty() ? 0 : 1;
  std::vector<State> successors;
  while (out.levels < levels && !level.empty()) {
    std::vector<State> deeper;
    for (const State& s : level) {
      successors.clear();
      evaluator.successors(*next, {}, s, successors);
      for (State& t : successors) {
        if (!in_model(t) || !seen.insert(fingerprint(t)).second) continue;
        deeper.push_back(std::move(t));
        if (++out.distinct >= max_states) {
          out.truncated = true;
          return out;
        }
      }
    }
    if (deeper.empty()) break;
    ++out.levels;
    level = std::move(deeper);
  }
  return out;
}

}  // namespace omnilink::language
