#include "findings/failure_signature.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <vector>

#include "explain/explain.hpp"
#include "explain/explanation.hpp"
#include "findings/crash_site.hpp"
#include "platform/code_under_test.hpp"
#include "platform/join.hpp"
#include "store/outcome.hpp"
#include "platform/fnv1a.hpp"
#include "results/result_file.hpp"

namespace omnilink::findings {
namespace {

std::string hash_id(const std::string& key) {
  const std::uint64_t h = fnv1a64(key);
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return std::string(out, 12);
}

// Runs of whitespace as one space: a conjunct's text, however it was indented or wrapped.
std::string collapse_spaces(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// A set's items joined in their (sorted) order.
std::string join_sorted(const std::set<std::string>& items, std::string_view separator) {
  return join({items.begin(), items.end()}, separator);
}

/// A refusal as a signature reads it, from a validation's frontier or from a failing core: its
/// operations by name (Enqueue), whoever they were.
using NamedRefusal = results::Refusal<std::string>;

/// A failing core as a symptom names it: `key` in the symptom's key, `text` after "the failing core: ".
struct CoreShape {
  std::string key, text;
};

/// A one-minimal core by its operations' names, sorted (with repeats). One cut short by its time
/// limit only by its size: it holds whatever the search had not removed yet (hundreds of
/// operations, no two runs alike), which would make each such run a symptom of its own and its
/// title a page long.
CoreShape core_shape(const explain::Explanation& e) {
  if (!e.minimal) return {"not minimal", std::to_string(e.core.size()) + " operations, not proven minimal"};
  std::vector<std::string> names;
  for (const auto& c : e.core) names.push_back(c.name);
  std::sort(names.begin(), names.end());
  return {join(names, ","), join(names, ", ")};
}

/// `core`: a failing core's shape; its symptom is the refusing conjunct and that, not the ties,
/// which count its own transaction's operations and whatever the core's context happens to hold.
/// Nothing for a validation's frontier.
FailureSignature refused_signature(const std::string& target, const NamedRefusal& refused, const std::optional<CoreShape>& core) {
  FailureSignature s;
  s.key = target + "|refused|" + refused.op + "|" + refused.action;
  s.title = refused.op + " refused by " + refused.action;
  FailureSymptom& symptom = s.symptom;
  if (refused.lost) {
    // A value no operation takes out: the same one is refused by different conjuncts (an empty
    // dequeue, a dequeue of the element after it), so neither the conjunct nor the operation's own
    // ties are in it; only who logged it.
    std::set<std::string> lost_by;
    for (const auto& t : refused.lost->logged_by) lost_by.insert(t.op);
    symptom.key = s.key + "|lost|by:" + join_sorted(lost_by, ",");
    symptom.title = "the state holds a value that only " + join_sorted(lost_by, ", ") + " logged (linearized) and no operation takes out";
  } else if (core) {
    const std::string conjunct = collapse_spaces(refused.conjunct);
    symptom.key = s.key + "|" + conjunct + "|core:" + core->key;
    symptom.title = (conjunct.empty() ? "?" : conjunct) + "; the failing core: " + core->text;
  } else {
    const std::string conjunct = collapse_spaces(refused.conjunct);
    std::set<std::string> tied, tied_text;
    for (const auto& [name, linearized] : refused.related) {
      tied.insert(name + (linearized ? "+" : "-"));
      tied_text.insert(name + (linearized ? " (linearized)" : " (not yet linearized)"));
    }
    const std::set<std::string> unmatched(refused.unmatched.begin(), refused.unmatched.end());
    symptom.key = s.key + "|" + conjunct + "|tied:" + join_sorted(tied, ",") + "|unmatched:" + join_sorted(unmatched, ",");
    symptom.title = conjunct.empty() ? "?" : conjunct;
    if (!tied_text.empty()) symptom.title += "; its values tie it to " + join_sorted(tied_text, ", ");
    if (!unmatched.empty()) symptom.title += "; no other operation logged its " + join_sorted(unmatched, ", ");
  }
  symptom.id = hash_id(symptom.key);
  s.id = hash_id(s.key);
  return s;
}

/// The signature of a failing core's refusal (explain/): the same bug's runs fail their own ways
/// at the deepest state of the whole run, and alike in the few operations that are the failure.
std::optional<FailureSignature> core_signature(const std::string& target, const explain::Explanation& e) {
  if (!e.refused) return std::nullopt;
  const explain::CoreRefusal& r = *e.refused;
  const results::StoredOperation* op = e.find(r.op);
  if (op == nullptr) return std::nullopt;
  const NamedRefusal by_name = r.renamed([&](const std::string& id) {
    const results::StoredOperation* tied = e.find(id);
    return tied == nullptr ? id : tied->name;
  });
  FailureSignature s = refused_signature(target, by_name, core_shape(e));
  if (e.broken_rules.empty()) return s;
  // The rules it breaks name the bug, each as the guarantee its spec says it is a facet of
  // (`@guarantee:`), or as itself: a misconfiguration shows a different facet of one guarantee in
  // each run (a dirty write in one, a dirty read and a dirty removal in the next). Which rules, and
  // where the core's search stopped (a commit, or a read only the commits explain), is how this run
  // showed it.
  std::set<std::string> broken, rules;
  std::map<std::string, std::set<std::string>> broken_by_module, rules_by_module;
  bool faceted = false;
  for (const explain::BrokenRule& rule : e.broken_rules) {
    const std::string& what = rule.guarantee.empty() ? rule.name : rule.guarantee;
    faceted = faceted || !rule.guarantee.empty();
    broken.insert(rule.module + "!" + what);
    broken_by_module[rule.module].insert(what);
    rules.insert(rule.module + "!" + rule.name);
    rules_by_module[rule.module].insert(rule.name);
  }
  const auto shown = [](const std::map<std::string, std::set<std::string>>& by_module) {
    std::vector<std::string> text;
    for (const auto& [module, names] : by_module) text.push_back(listed({names.begin(), names.end()}) + " (" + module + ")");
    return "breaks " + listed(text);
  };
  s.symptom.title = s.title + ": " + s.symptom.title;
  if (faceted) {
    // The rules are then part of how it showed: without annotations they are the signature itself.
    s.symptom.key = "rules:" + join_sorted(rules, ",") + "|" + s.symptom.key;
    s.symptom.title = shown(rules_by_module) + "; " + s.symptom.title;
    s.symptom.id = hash_id(s.symptom.key);
  }
  s.key = target + "|breaks|" + join_sorted(broken, ",");
  s.title = shown(broken_by_module);
  s.id = hash_id(s.key);
  return s;
}

}  // namespace

std::optional<FailureSignature> failure_signature(const std::string& target, const results::StoredResult& result) {
  if (!result.frontier) return std::nullopt;
  const results::StoredFrontier& frontier = *result.frontier;
  if (frontier.refused) {
    return refused_signature(target, frontier.refused->renamed([](const results::StoredOperation& op) { return op.name; }), std::nullopt);
  }
  FailureSignature s;
  std::set<std::string> viable;
  for (const auto& op : frontier.next)
    if (op.viable) viable.insert(op.name);
  s.key = target + "|stuck|" + join_sorted(viable, ",");
  s.title = "no linearization; stuck at " + (viable.empty() ? std::string("no viable operation") : join_sorted(viable, ", ")) +
            " (no single refused operation recorded: TLC decided, or no operation is refused as a whole there)";
  s.id = hash_id(s.key);
  s.symptom = {s.id, s.key, s.title};
  return s;
}

FailureSignature crash_signature(const std::string& target, const CrashSite& site) {
  FailureSignature s;
  const std::string signal = site.signal_name.empty() ? "signal " + std::to_string(site.signal) : site.signal_name;
  if (const CrashFrame* frame = site.innermost_under_test()) {
    const std::string function = plain_function_name(frame->function);
    const std::string file = std::filesystem::path(frame->file).filename().string(), line = std::to_string(frame->line);
    if (function.starts_with("std::")) {
      // The code under test was inlined into a standard library wrapper (a lambda or function
      // object called through std::function or std::invoke): the name says nothing, the line does.
      s.key = target + "|crashed|" + signal + "|" + file + ":" + line;
      s.title = signal + " at " + file + ":" + line + " (a lambda or function object, inlined into " + function + ")";
    } else {
      // Not the line: an edit elsewhere in the file moves it, and the crash is the same.
      s.key = target + "|crashed|" + signal + "|" + function + "|" + file;
      s.title = signal + " in " + function + " (" + file + ":" + line + ")";
    }
  } else {
    s.key = target + "|crashed|" + signal;
    s.title = signal + " (no frame in the code under test" + (site.note.empty() ? "" : ": " + site.note) + ")";
  }
  s.id = hash_id(s.key);
  s.symptom = {s.id, s.key, s.title};
  s.crash = true;
  return s;
}

namespace {

// A failed run's signature by its failing core, where one was found against the spec of its newest
// validation and proven one-minimal (a core cut short by its time limit may still hold another
// failure's operations, and its context reads less well), or where the rules it breaks are named
// (then it holds no other failure: without those rules it passes).
std::optional<FailureSignature> core_signature_of(const store::RunRecord& run, const std::optional<explain::Explanation>& kept) {
  if (kept && (kept->minimal || !kept->broken_rules.empty()) && run.validation && kept->explains_validation_against(run.validation->spec))
    return core_signature(run.target, *kept);
  return std::nullopt;
}

}  // namespace

std::optional<FailureSignature> failure_signature(const store::RunRecord& run) {
  if (store::outcome(run) != store::Outcome::fail) return failure_signature(run, std::nullopt, std::nullopt);
  std::optional<explain::Explanation> kept;
  try {
    kept = explain::read_explanation(explain::explanation_dir(run.dir));
  } catch (const std::exception&) {
    // A damaged explanation.json: the validation's frontier signs the run.
  }
  if (auto by_core = core_signature_of(run, kept)) return by_core;
  std::optional<results::StoredResult> result;
  try {
    result = results::read_result_file(run.dir);
  } catch (const results::ResultFileError&) {
    // A result.json that does not read signs nothing; the run still counts as failed.
  }
  return result ? failure_signature(run.target, *result) : std::nullopt;
}

std::optional<FailureSignature> failure_signature(const store::RunRecord& run, const std::optional<explain::Explanation>& kept,
                                                  const std::optional<results::StoredResult>& result) {
  if (store::outcome(run) == store::Outcome::crashed) {
    const auto site = read_crash_site(run.dir);
    if (!site) return std::nullopt;
    return crash_signature(run.target, *site);
  }
  if (store::outcome(run) != store::Outcome::fail) return std::nullopt;
  if (auto by_core = core_signature_of(run, kept)) return by_core;
  return result ? failure_signature(run.target, *result) : std::nullopt;
}

}  // namespace omnilink::findings
