#include "explain/broken_rules.hpp"

#include "checkers/native_check.hpp"
#include "checkers/spec_cache.hpp"
#include "history/problem.hpp"
#include "language/interface.hpp"

namespace omnilink::explain {

std::vector<language::Rule> broken_rules(const history::History& run, const checkers::ValidateOptions& validate,
                                         std::uint64_t question_states) {
  checkers::ReadSpec& read = checkers::read_spec(validate);
  const std::vector<language::Rule> rules = language::spec_rules(*read.loaded, validate.next);
  checkers::ValidateOptions asked = validate;
  asked.max_states = question_states;
  std::vector<language::Rule> out;
  for (const language::Rule& rule : rules) {
    try {
      auto relaxed = language::LoadedSpec::load(validate.spec, validate.mc, nullptr, {rule.name});
      const language::SpecInterface interface = language::spec_interface(*relaxed, validate.next);
      results::ValidationResult r;
      checkers::check_natively(r, history::make_problem(run, interface, *relaxed), *relaxed, asked);
      if (r.verdict == results::Verdict::pass) out.push_back(rule);
    } catch (const std::exception&) {
      // Defined TRUE, the rule leaves the spec unable to evaluate the run (a value it stood for
      // is now a truth value): it is not what the run breaks alone.
    }
  }
  return out;
}

}  // namespace omnilink::explain
