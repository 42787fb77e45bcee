#include "tla/validation.hpp"

#include <fstream>
#include <sstream>

#include "platform/toolchain.hpp"
#include "tla/spec.hpp"
#include "tla/tlc_runner.hpp"
#include "tla/validation_input.hpp"
#include "tla/validation_module.hpp"
#include "trace/run_dir.hpp"
#include "validation/history.hpp"

namespace omnilink::tla {
namespace fs = std::filesystem;
namespace {

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  if (!out.flush()) throw ValidationError("cannot write " + path.string());
}

std::string describe_op(const trace::Operation& op) {
  std::string s = op.id() + " " + op.call() + " [" + std::to_string(op.start) + ", " + (op.pending() ? "?" : std::to_string(op.end)) + "]";
  if (op.pending()) s += op.inputs_known ? " pending" : " pending, inputs unknown";
  return s;
}

// Each thread's next operation at the frontier (thread t's next is threads[t][pc[t] - 1]).
std::vector<FrontierOp> next_at(const validation::History& history, const nlohmann::json& pc) {
  std::vector<const trace::Operation*> next;
  for (std::size_t t = 0; t < history.threads.size() && t < pc.size(); ++t) {
    const auto at = pc[t].get<std::int64_t>();
    if (at >= 1 && static_cast<std::size_t>(at) <= history.threads[t].size()) next.push_back(&history.threads[t][at - 1]);
  }
  std::vector<FrontierOp> out;
  for (const auto* op : next) {
    bool blocked = false;
    for (const auto* other : next)
      if (other != op && !other->pending() && other->end < op->start) blocked = true;
    out.push_back({*op, !blocked});
  }
  return out;
}

// Every pending operation of the history, with the arguments the report says it was linearized
// with: [{t, i, a: [TLA+ text per parameter]}] (TLA+ thread t is position t - 1).
std::vector<PendingOutcome> pending_outcomes(const validation::History& history, const Spec& spec, const nlohmann::json& completed) {
  std::vector<PendingOutcome> out;
  for (const auto& ops : history.threads)
    for (const auto& op : ops) {
      if (!op.pending()) continue;
      PendingOutcome outcome{op, false, {}};
      for (const auto& c : completed.is_array() ? completed : nlohmann::json::array()) {
        if (c.value("t", 0) != static_cast<std::int64_t>(op.thread) + 1 || c.value("i", std::int64_t{-1}) != static_cast<std::int64_t>(op.index)) continue;
        outcome.linearized = true;
        const OperationSpec* spec_op = nullptr;
        for (const auto& candidate : spec.operations)
          if (candidate.name == op.name) spec_op = &candidate;
        const nlohmann::json args = c.contains("a") && c["a"].is_array() ? c["a"] : nlohmann::json::array();
        for (std::size_t k = 0; spec_op != nullptr && k < spec_op->params.size() && k < args.size(); ++k)
          outcome.arguments.emplace_back(spec_op->params[k], args[k].get<std::string>());
      }
      out.push_back(std::move(outcome));
    }
  return out;
}

void finish_from_tlc(ValidationResult& result, const TlcOutcome& tlc, const ValidationInput& input, const Spec& spec,
                     const fs::path& frontier_file, const ValidateOptions& options) {
  result.tlc_command = tlc.command;
  result.peak_rss_kb = tlc.peak_rss_kb;
  result.duration = tlc.duration;
  result.states_generated = tlc.states_generated;
  result.states_distinct = tlc.states_distinct;
  if (tlc.started && !tlc.timed_out && tlc.signal == 0) result.tlc_exit_code = tlc.exit_code;

  auto set = [&](const char* verdict, std::string reason) {
    result.verdict = verdict;
    result.reason = std::move(reason);
  };
  if (!tlc.started) return set("unknown", "TLC could not be started: " + tlc.start_error);
  if (tlc.cancelled) {
    result.cancelled = true;
    return set("unknown", "TLC was stopped: the validation was cancelled");
  }
  if (tlc.timed_out) return set("unknown", "TLC did not finish within " + std::to_string(options.timeout.count()) + " s");
  if (tlc.out_of_memory) return set("unknown", "TLC ran out of memory (heap " + options.heap + "; raise it with --heap)");
  if (tlc.signal != 0) return set("unknown", "TLC was killed by signal " + std::to_string(tlc.signal));

  nlohmann::json frontier;
  if (std::ifstream in(frontier_file); in) {
    try {
      frontier = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception&) {
      frontier = nullptr;
    }
  }
  const bool have_frontier = frontier.is_object() && frontier.contains("linearized");
  if (have_frontier) {
    result.linearized = frontier["linearized"].get<std::int64_t>();
    if (frontier["frontier"].contains("state")) result.spec_state = frontier["frontier"]["state"].get<std::string>();
  }

  if (tlc.exit_code == 0) {
    // TLC stopped either at a complete linearization or after exhausting every order; its own
    // report says which. Nothing else counts as a pass.
    if (!have_frontier) return set("unknown", "TLC finished but wrote no frontier (" + frontier_file.string() + ")");
    if (*result.linearized < 0) return set("error", "no initial state: the spec's " + options.init + " is not satisfiable");
    if (frontier.value("total", -1) != static_cast<std::int64_t>(input.operations) ||
        frontier.value("pending", -1) != static_cast<std::int64_t>(input.pending))
      return set("unknown", "TLC's report counts " + std::to_string(frontier.value("total", -1)) + " completed and " +
                                std::to_string(frontier.value("pending", -1)) + " pending operations, the data file " +
                                std::to_string(input.operations) + " and " + std::to_string(input.pending));
    result.pending_outcomes = pending_outcomes(input.history, spec, frontier["frontier"].value("completed", nlohmann::json()));
    if (*result.linearized == static_cast<std::int64_t>(input.operations)) return set("pass", "");
    result.frontier = next_at(input.history, frontier["frontier"]["pc"]);
    return set("fail", "no order of the operations is accepted by the spec; the deepest search linearized " +
                           std::to_string(*result.linearized) + " of " + std::to_string(input.operations));
  }
  // 150: parse or semantic error; 75/76: evaluation error (e.g. an action applied to a value it
  // cannot handle); 255 and others: configuration problems. All are the spec's or the set-up's.
  if (tlc.exit_code == 150 || tlc.exit_code == 75 || tlc.exit_code == 76 || tlc.exit_code == 255 || tlc.exit_code == 10 ||
      tlc.exit_code == 11 || tlc.exit_code == 12 || tlc.exit_code == 13)
    return set("error", "TLC (exit " + std::to_string(tlc.exit_code) + "): " + tlc.error_text());
  return set("unknown", "TLC exited with code " + std::to_string(tlc.exit_code) + ": " + tlc.error_text());
}

}  // namespace

namespace {

// One TLC check of `history` in `dir` (the data file, the generated module, TLC's output and
// frontier): sets the result's verdict and what TLC reported. Returns what was written.
ValidationInput check_with_tlc(ValidationResult& result, validation::History history, const Spec& spec, const std::optional<Spec>& mc,
                               const fs::path& dir, const ValidateOptions& options) {
  fs::create_directories(dir);
  const fs::path data_file = dir / "data.ndjson";
  const fs::path frontier_file = dir / "frontier.json";
  ValidationInput input = write_validation_input(std::move(history), spec, mc ? &*mc : nullptr, data_file);

  ValidationModuleOptions module_options;
  module_options.init = options.init;
  module_options.mc = mc ? &*mc : nullptr;
  module_options.view = options.view;
  module_options.data_file = data_file;
  module_options.frontier_file = frontier_file;
  const ValidationModule module = generate_validation_module(spec, module_options);
  write_file(dir / (std::string(kValidationModule) + ".tla"), module.tla);
  write_file(dir / (std::string(kValidationModule) + ".cfg"), module.cfg);
  write_file(dir / "OmniLinkTrace.tla", omnilink_trace_module());

  ToolLocation jar = options.tlc_jar ? ToolLocation{"tlc", "--tlc", *options.tlc_jar, "--tlc", "", {}} : find_tlc_jar();
  ToolLocation java = options.java ? ToolLocation{"java", "--java", *options.java, "--java", "", {}} : find_java();
  if (!jar.found() || !fs::is_regular_file(*jar.path)) {
    result.verdict = "unknown";
    result.reason = "TLC not found: " + (jar.found() ? jar.path->string() + " is not a file" : jar.explain_missing());
    return input;
  }
  if (!java.found()) {
    result.verdict = "unknown";
    result.reason = "java not found: " + java.explain_missing();
    return input;
  }
  TlcRun tlc_run;
  tlc_run.java = *java.path;
  tlc_run.jar = *jar.path;
  tlc_run.work_dir = dir;
  tlc_run.module = kValidationModule;
  tlc_run.library = {fs::absolute(options.spec).parent_path()};
  if (options.mc) tlc_run.library.push_back(fs::absolute(*options.mc).parent_path());
  tlc_run.heap = options.heap;
  tlc_run.timeout = options.timeout;
  tlc_run.cancel = options.cancel;
  const TlcOutcome tlc = run_tlc(tlc_run);
  write_file(dir / "tlc.out", tlc.raw_output);
  finish_from_tlc(result, tlc, input, spec, frontier_file, options);
  std::error_code ec;
  fs::remove_all(dir / "tlc-states", ec);  // TLC's fingerprint files: large, and of no use afterwards
  return input;
}

// A FAIL whose search gave pending operations results from the values logged in the run (the
// domain rule's third case) may be false: the real results need not have been logged anywhere.
// It stands only if the longest prefix of the run that every linearization must begin with, the
// operations that all ended before anything else (pending operations included) started, fails on
// its own; otherwise the verdict is unknown.
void certify_failure(ValidationResult& result, const validation::History& history, const Spec& spec, const std::optional<Spec>& mc,
                     const fs::path& dir, const ValidateOptions& options) {
  const std::string hint = "define OmniLinkDomain_<Op>_<field> in an MC module with every result a pending operation could have "
                           "returned for a decisive verdict";
  validation::History prefix = validation::prefix_before_pending(history);
  const std::uint64_t kept = prefix.operations();
  ValidationResult certified;
  if (kept > 0) check_with_tlc(certified, std::move(prefix), spec, mc, dir, options);
  if (certified.verdict == "fail") {
    result.caveats.push_back("the failure stands without the pending operations: the " + std::to_string(kept) +
                             " operations that ended before any later one started fail on their own (validation/certify/); "
                             "the frontier is theirs");
    result.linearized = certified.linearized;
    result.frontier = certified.frontier;
    result.spec_state = certified.spec_state;
    return;
  }
  result.verdict = "unknown";
  result.reason = "no order is accepted when the pending operations' unknown results are taken from the values logged in the run, "
                  "which may miss the real ones, and the " + std::to_string(kept) +
                  " operations before them " + (kept == 0 ? "decide nothing" : "are accepted (" + certified.verdict + ")") + ": " + hint;
  result.frontier.clear();
}

}  // namespace

ValidationResult validate_run(const ValidateOptions& options) {
  ValidationResult result;
  result.directory = options.run_dir / "validation";
  auto write_result = [&] {
    std::error_code ec;
    fs::create_directories(result.directory, ec);
    // replace: a message quoting a damaged byte must not stop the result from being written.
    std::ofstream(result.directory / "result.json", std::ios::trunc)
        << result.to_json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  };
  try {
    const trace::RunDir run = trace::RunDir::open(options.run_dir);
    const Spec spec = parse_spec_file(options.spec.string(), options.next);
    std::optional<Spec> mc;
    if (options.mc) mc = parse_module_file(options.mc->string());

    // A fresh directory each time: nothing from an earlier validation can be mistaken for this one's.
    fs::remove_all(result.directory);
    const fs::path dir = fs::absolute(result.directory);
    validation::History history = validation::read_history(run);
    result.cut = history.cut;
    result.clock = history.clock;
    result.dropped_failed = history.dropped_failed;
    if (history.cut && history.operations() == history.pending_operations()) {
      // Nothing completed survived the cut: a pass would claim a run was checked that was not.
      result.verdict = "unknown";
      result.reason = "the run was killed and its consistent cut keeps no completed operation to validate";
      result.caveats = history.caveats;
      write_result();
      return result;
    }
    const ValidationInput input = check_with_tlc(result, std::move(history), spec, mc, dir, options);
    result.operations = input.operations;
    result.pending = input.pending;
    result.caveats.insert(result.caveats.begin(), input.caveats.begin(), input.caveats.end());
    if (result.verdict == "fail" && input.logged_value_domains) certify_failure(result, input.history, spec, mc, dir / "certify", options);
  } catch (const SpecError& e) {
    result.verdict = "error";
    result.reason = e.what();
  } catch (const validation::HistoryError& e) {
    result.verdict = "error";
    result.reason = e.what();
    result.corrupt_trace = true;
  } catch (const ValidationError& e) {
    result.verdict = "error";
    result.reason = e.what();
  } catch (const trace::RunDirError& e) {
    result.verdict = "error";
    result.reason = e.what();
  } catch (const fs::filesystem_error& e) {
    result.verdict = "error";
    result.reason = e.what();
  }
  write_result();
  return result;
}

nlohmann::json ValidationResult::to_json() const {
  nlohmann::json j{{"format", "omnilink-validation-result"}, {"version", 2}, {"verdict", verdict},
                   {"reason", reason}, {"operations", operations}, {"dropped_failed_without_effect", dropped_failed},
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
      for (const auto& [name, value] : p.op.fields) inputs[name] = trace::to_tla(value);
      for (const auto& [name, text] : p.arguments) arguments[name] = text;
      outcomes.push_back({{"thread", p.op.thread}, {"index", p.op.index}, {"name", p.op.name}, {"start", p.op.start},
                          {"inputs_known", p.op.inputs_known}, {"inputs", inputs}, {"linearized", p.linearized},
                          {"arguments", p.linearized ? arguments : nlohmann::json()}});
    }
    j["pending_operations"] = outcomes;
  }
  if (linearized) j["linearized"] = *linearized;
  if (states_generated) j["states_generated"] = *states_generated;
  if (states_distinct) j["states_distinct"] = *states_distinct;
  if (tlc_exit_code) j["tlc"]["exit_code"] = *tlc_exit_code;
  if (!tlc_command.empty()) j["tlc"]["command"] = tlc_command;
  if (verdict == "fail") {
    nlohmann::json next = nlohmann::json::array();
    for (const auto& f : frontier) {
      nlohmann::json fields = nlohmann::json::object();
      for (const auto& [name, value] : f.op.fields) fields[name] = trace::to_tla(value);
      next.push_back({{"thread", f.op.thread}, {"index", f.op.index}, {"name", f.op.name}, {"fields", fields},
                         {"start", f.op.start}, {"end", f.op.pending() ? nlohmann::json() : nlohmann::json(f.op.end)},
                         {"pending", f.op.pending()}, {"viable", f.viable}});
    }
    // "pending" here is each thread's next operation at the deepest state (a name older than
    // pending operations; see docs/validation.md).
    j["frontier"] = {{"linearized", linearized.value_or(0)}, {"total", operations}, {"pending", next}, {"spec_state", spec_state}};
  }
  return j;
}

std::string ValidationResult::summary() const {
  std::ostringstream s;
  if (verdict == "pass") {
    s << "pass: all " << operations << " completed operations linearized";
  } else if (verdict == "fail") {
    s << "FAIL: " << reason << "\n  pending at the deepest state:";
    for (const auto& f : frontier) s << "\n    " << describe_op(f.op) << (f.viable ? "" : "  (not yet viable)");
    s << "\n  spec state there: " << spec_state;
  } else {
    s << verdict << ": " << reason;
  }
  if (states_generated) s << "\n  " << *states_generated << " states generated, " << states_distinct.value_or(0) << " distinct";
  if (duration.count() > 0) s << "; TLC " << duration.count() / 1000.0 << " s, peak " << peak_rss_kb / 1024 << " MiB";
  for (const auto& p : pending_outcomes) {
    s << "\n  pending " << p.op.id() << " " << p.op.name << ": ";
    if (!p.linearized) {
      s << "left out";
      continue;
    }
    s << "linearized as " << p.op.name << "(";
    for (std::size_t k = 0; k < p.arguments.size(); ++k) s << (k ? ", " : "") << p.arguments[k].first << " = " << p.arguments[k].second;
    s << ")";
  }
  for (const auto& c : caveats) s << "\n  note: " << c;
  return s.str();
}

int ValidationResult::exit_code() const {
  if (verdict == "pass") return 0;
  if (verdict == "fail") return 1;
  if (verdict == "unknown") return 2;
  return 3;
}

}  // namespace omnilink::tla
