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
                    std::uint64_t max_states) {
  const Definition* init = spec.spec_definition(init_name);
  const Definition* next = spec.spec_definition(next_name);
  if (init == nullptr) throw SpecError(spec.spec_module().pos.text() + ": no definition of " + init_name);
  if (next == nullptr) throw SpecError(spec.spec_module().pos.text() + ": no definition of " + next_name);
  Evaluator evaluator(spec);
  Exploration out;
  std::unordered_set<Fingerprint, FingerprintHash> seen;
  std::vector<State> level;
  for (State& s : evaluator.initial_states(*init))
    if (seen.insert(fingerprint(s)).second) level.push_back(std::move(s));
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
        if (!seen.insert(fingerprint(t)).second) continue;
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
