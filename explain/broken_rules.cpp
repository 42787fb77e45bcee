#include "explain/broken_rules.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include "checkers/native_check.hpp"
#include "checkers/spec_cache.hpp"
#include "history/problem.hpp"
#include "language/interface.hpp"

namespace omnilink::explain {

namespace {

using Clock = std::chrono::steady_clock;

/// Does `run` pass the spec of `validate` with `relaxed` defined TRUE? Empty when undecided: out of
/// states or time, or the relaxed spec cannot evaluate the run (a rule used as a value elsewhere).
std::optional<bool> passes_relaxed(const history::History& run, const checkers::ValidateOptions& validate,
                                   const std::vector<language::Rule>& relaxed, Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::seconds>(deadline - Clock::now());
  if (left.count() <= 0) return std::nullopt;
  checkers::ValidateOptions asked = validate;
  asked.timeout = left;
  std::vector<language::DefinitionName> names;
  for (const language::Rule& rule : relaxed) names.push_back(rule.name);
  try {
    auto spec = language::LoadedSpec::load(validate.spec, validate.mc, nullptr, names);
    const language::SpecInterface interface = language::spec_interface(*spec, validate.next);
    results::ValidationResult r;
    checkers::check_natively(r, history::make_problem(run, interface, *spec), *spec, asked);
    if (r.verdict == results::Verdict::pass) return true;
    if (r.verdict == results::Verdict::fail) return false;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

/// The actions of `interface` that `run` never takes, nor any action it takes calls (Commit calls
/// CommitAt_Done): a rule only they reach cannot be what the run breaks, so it is not asked.
std::set<const language::Definition*> actions_not_taken(const history::History& run, const language::SpecInterface& interface) {
  std::set<std::string> taken;
  for (const auto& thread : run.threads)
    for (const auto& op : thread) taken.insert(op.name);
  std::vector<const language::Definition*> pending;
  for (const language::Operation& op : interface.operations)
    if (taken.count(op.name))
      for (const language::Definition* action : {op.action, op.done})
        if (action != nullptr) pending.push_back(action);
  std::set<const language::Definition*> reached, not_taken;
  language::reach_definitions(std::move(pending), reached);
  for (const language::Operation& op : interface.operations)
    for (const language::Definition* action : {op.action, op.done})
      if (action != nullptr && !reached.count(action)) not_taken.insert(action);
  return not_taken;
}

}  // namespace

BrokenRules broken_rules(const history::History& run, const checkers::ValidateOptions& validate, std::uint64_t question_states,
                         std::chrono::milliseconds time_limit) {
  const Clock::time_point deadline = Clock::now() + time_limit;
  checkers::ValidateOptions asked = validate;
  asked.max_states = question_states;
  checkers::ReadSpec& read = checkers::read_spec(validate);
  const std::string undecided = "a question was not decided within " + std::to_string(question_states) + " states and the time limit of " +
                                std::to_string(time_limit.count() / 1000) + " s, or the relaxed spec cannot evaluate the run";
  std::vector<language::Rule> relaxed = language::spec_rules(*read.loaded, validate.next, actions_not_taken(run, read.interface));
  if (relaxed.empty())
    return {{}, "the spec has no rule that an action of the run reaches (a definition that is a truth value, reads no next state, and is used only positively)"};
  if (const std::optional<bool> passes = passes_relaxed(run, asked, relaxed, deadline); !passes)
    return {{}, undecided};
  else if (!*passes)
    return {{}, "the run fails with every rule relaxed: what it breaks is written inline in an action, not as a definition of its own"};
  // Give each rule back in turn, in the spec's order: one the run still passes without stays given
  // back (so where two rules each cover an anomaly, every run of it keeps the same one). A question
  // the run passes checks all of it, a few hundred milliseconds on a long run, where one it fails
  // stops at the failure, within milliseconds; and most rules are given back. So a whole block of
  // rules is given back at once, and split in halves only when the run fails without it: relaxing
  // fewer rules only refuses more (each rule is used positively), so a block the run passes
  // without is exactly what giving back its rules one by one would drop, and the answer is the
  // same as asking rule by rule (where every question is decided), with fewer passing questions.
  std::vector<bool> given_back(relaxed.size(), false);
  const auto relaxed_without = [&](std::size_t from, std::size_t to) {
    std::vector<language::Rule> out;
    for (std::size_t k = 0; k < relaxed.size(); ++k)
      if (!given_back[k] && (k < from || k >= to)) out.push_back(relaxed[k]);
    return out;
  };
  bool decided = true;
  // `fails`: the run is known to fail with the block given back (with none relaxed it does: it is
  // the run explained; and a block's second half, once its first half is given back entirely, is
  // asked the question the whole block was).
  const std::function<void(std::size_t, std::size_t, bool)> give_back = [&](std::size_t from, std::size_t to, bool fails) {
    if (!decided || from == to) return;
    const std::optional<bool> passes = fails ? std::optional<bool>(false) : passes_relaxed(run, asked, relaxed_without(from, to), deadline);
    if (!passes) {
      decided = false;
    } else if (*passes) {
      for (std::size_t k = from; k < to; ++k) given_back[k] = true;
    } else if (to - from > 1) {
      const std::size_t middle = from + (to - from) / 2;
      give_back(from, middle, false);
      give_back(middle, to, std::all_of(given_back.begin() + static_cast<std::ptrdiff_t>(from), given_back.begin() + static_cast<std::ptrdiff_t>(middle), [](bool b) { return b; }));
    }
  };
  give_back(0, relaxed.size(), true);
  if (!decided) return {{}, undecided};
  return {relaxed_without(0, 0), ""};
}

}  // namespace omnilink::explain
