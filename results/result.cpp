#include "results/result.hpp"

#include <sstream>

namespace omnilink::results {
std::string shown(std::string text) {
  if (text.size() <= kShownChars) return text;
  const std::size_t cut = text.size() - kShownChars;
  text.resize(kShownChars);
  return text + "... (" + std::to_string(cut) + " more characters)";
}

namespace {

std::string describe_op(const trace::Operation& op) {
  std::string s = op.id() + " " + shown(op.call()) + " [" + std::to_string(op.start) + ", " + (op.pending() ? "?" : std::to_string(op.end)) + "]";
  if (op.pending()) s += op.inputs_known ? " pending" : " pending, inputs unknown";
  return s;
}

}  // namespace

std::vector<FrontierOp> frontier_at(const history::History& history, const std::vector<std::size_t>& next) {
  std::vector<const trace::Operation*> current;
  for (std::size_t t = 0; t < history.threads.size() && t < next.size(); ++t)
    if (next[t] < history.threads[t].size()) current.push_back(&history.threads[t][next[t]]);
  std::vector<FrontierOp> out;
  for (const auto* op : current) {
    bool blocked = false;
    for (const auto* other : current)
      if (other != op && !other->pending() && other->end < op->start) blocked = true;
    out.push_back({*op, !blocked});
  }
  return out;
}

nlohmann::json ValidationResult::to_json() const {
  nlohmann::json j{{"format", "omnilink-validation-result"}, {"version", 6}, {"verdict", verdict}, {"checker", checker},
                   {"reason", shown(reason)}, {"operations", operations}, {"dropped_failed_without_effect", dropped_failed},
                   {"pending", pending}, {"caveats", caveats}, {"duration_ms", duration.count()},
                   {"peak_rss_kb", peak_rss_kb}};
  if (corrupt_trace) j["corrupt_trace"] = true;
  if (cut)
    j["cut"] = {{"at", cut->at}, {"clock", clock}, {"cut_short_threads", cut->cut_short_threads}, {"dropped", cut->dropped},
                {"made_pending", cut->made_pending}};
  if (!pending_outcomes.empty()) {
    nlohmann::json outcomes = nlohmann::json::array();
    for (const auto& p : pending_outcomes) {
      nlohmann::json inputs = nlohmann::json::object(), arguments = nlohmann::json::object();
      for (const auto& [name, value] : p.op.fields) inputs[name] = shown(trace::to_tla(value));
      for (const auto& [name, text] : p.arguments) arguments[name] = shown(text);
      outcomes.push_back({{"thread", p.op.thread}, {"index", p.op.index}, {"name", p.op.name}, {"start", p.op.start},
                          {"inputs_known", p.op.inputs_known}, {"inputs", inputs}, {"linearized", p.linearized},
                          {"arguments", p.linearized ? arguments : nlohmann::json()}});
    }
    j["pending_operations"] = outcomes;
  }
  if (linearized) j["linearized"] = *linearized;
  if (partitions)
    j["partitions"] = {{"by", partitions->by}, {"count", partitions->count},
                       {"failed", partitions->failed.empty() ? nlohmann::json() : nlohmann::json(partitions->failed)}};
  if (states_generated) j["states_generated"] = *states_generated;
  if (states_distinct) j["states_distinct"] = *states_distinct;
  if (tlc_exit_code) j["tlc"]["exit_code"] = *tlc_exit_code;
  if (!tlc_command.empty()) j["tlc"]["command"] = tlc_command;
  if (verdict == Verdict::fail) {
    nlohmann::json next = nlohmann::json::array();
    for (const auto& f : frontier) {
      nlohmann::json fields = nlohmann::json::object();
      for (const auto& [name, value] : f.op.fields) fields[name] = shown(trace::to_tla(value));
      next.push_back({{"thread", f.op.thread}, {"index", f.op.index}, {"name", f.op.name}, {"fields", fields},
                         {"start", f.op.start}, {"end", f.op.pending() ? nlohmann::json() : nlohmann::json(f.op.end)},
                         {"pending", f.op.pending()}, {"viable", f.viable}});
    }
    // "pending" here is each thread's next operation at the deepest state (a name older than
    // pending operations; see docs/validation.md).
    j["frontier"] = {{"linearized", linearized.value_or(0)}, {"total", operations}, {"pending", next}, {"spec_state", shown(spec_state)}};
    if (!spec_variables.empty()) {
      nlohmann::json variables = nlohmann::json::object();
      for (const auto& [name, value] : spec_variables) variables[name] = shown(value);
      j["frontier"]["variables"] = variables;
    }
    if (refused) {
      const auto ops = [](const std::vector<RefusedOp::Tie>& list) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& r : list) out.push_back({{"thread", r.op.thread}, {"index", r.op.index}, {"name", r.op.name}, {"linearized", r.linearized}});
        return out;
      };
      j["frontier"]["refused"] = {{"thread", refused->op.thread}, {"index", refused->op.index}, {"name", refused->op.name},
                                  {"action", refused->action}, {"at", refused->at}, {"conjunct", refused->conjunct},
                                  {"related", ops(refused->related)}, {"unmatched", refused->unmatched}};
      if (refused->lost) j["frontier"]["refused"]["lost"] = {{"value", shown(refused->lost->value)}, {"logged_by", ops(refused->lost->logged_by)}};
      if (refused->in_place)
        j["frontier"]["refused"]["in_place"] = {{"value", shown(refused->in_place->value)}, {"logged_by", ops(refused->in_place->logged_by)}};
    }
  }
  return j;
}

std::string ValidationResult::summary() const {
  std::ostringstream s;
  if (verdict == Verdict::pass) {
    s << "pass: all " << operations << " completed operations linearized";
  } else if (verdict == Verdict::fail) {
    s << "FAIL: " << shown(reason) << "\n  pending at the deepest state:";
    for (const auto& f : frontier) s << "\n    " << describe_op(f.op) << (f.viable ? "" : "  (not yet viable)");
    if (spec_variables.empty()) s << "\n  spec state there: " << shown(spec_state);
    else s << "\n  spec state there:";
    for (const auto& [name, value] : spec_variables) s << "\n    " << name << " = " << shown(value);
    if (refused) {
      s << "\n  refused: " << refused->op.id() << " " << shown(refused->op.call()) << " by " << refused->action << ": "
        << (refused->conjunct.empty() ? "?" : refused->conjunct) << "  (" << refused->at << ")";
      for (const auto& r : refused->related)
        s << "\n    a value it logged was also logged by " << r.op.id() << " " << r.op.name << " ("
          << (r.linearized ? "linearized" : "not linearized") << " there)";
      for (const auto& field : refused->unmatched) s << "\n    its " << field << " was logged by no other operation";
      if (refused->lost) {
        s << "\n    the state held " << shown(refused->lost->value) << " there, which only";
        for (const auto& r : refused->lost->logged_by) s << " " << r.op.id() << " " << r.op.name;
        s << " logged (linearized): no operation is left to take it out";
      }
    }
  } else {
    s << verdict << ": " << shown(reason);
  }
  if (states_generated) s << "\n  " << *states_generated << " states generated, " << states_distinct.value_or(0) << " distinct";
  if (duration.count() > 0 || checker != DecidedBy::none)
    s << "; " << (checker == DecidedBy::native ? "native checker" : "TLC") << " " << duration.count() / 1000.0 << " s, peak " << peak_rss_kb / 1024 << " MiB";
  if (partitions) {
    s << "\n  checked in " << partitions->count << " parts by " << partitions->by;
    if (!partitions->failed.empty()) s << "; the part " << partitions->failed << " failed";
  }
  for (const auto& p : pending_outcomes) {
    s << "\n  pending " << p.op.id() << " " << p.op.name << ": ";
    if (!p.linearized) {
      s << "left out";
      continue;
    }
    s << "linearized as " << p.op.name << "(";
    for (std::size_t k = 0; k < p.arguments.size(); ++k) s << (k ? ", " : "") << p.arguments[k].first << " = " << shown(p.arguments[k].second);
    s << ")";
  }
  for (const auto& c : caveats) s << "\n  note: " << c;
  return s.str();
}

int ValidationResult::exit_code() const {
  if (verdict == Verdict::pass) return 0;
  if (verdict == Verdict::fail) return 1;
  if (verdict == Verdict::unknown) return 2;
  return 3;
}

}  // namespace omnilink::results
