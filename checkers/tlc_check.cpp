#include "checkers/tlc_check.hpp"

#include <algorithm>

#include <fstream>

#include "platform/toolchain.hpp"
#include "checkers/tlc_input.hpp"
#include "checkers/tlc_module.hpp"
#include "checkers/tlc_runner.hpp"

namespace omnilink::checkers {
namespace fs = std::filesystem;
using language::Operation;
using language::SpecInterface;

namespace {

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  if (!out.flush()) throw history::ValidationError("cannot write " + path.string());
}

// Every pending operation of the history, with the arguments the report says it was linearized
// with: [{t, i, a: [TLA+ text per parameter]}] (TLA+ thread t is position t - 1).
std::vector<results::PendingOutcome> pending_outcomes(const history::History& history, const SpecInterface& spec, const nlohmann::json& completed) {
  std::vector<results::PendingOutcome> out;
  for (const auto& ops : history.threads)
    for (const auto& op : ops) {
      if (!op.pending()) continue;
      results::PendingOutcome outcome{op, false, {}};
      for (const auto& c : completed.is_array() ? completed : nlohmann::json::array()) {
        if (c.value("t", 0) != static_cast<std::int64_t>(op.thread) + 1 || c.value("i", std::int64_t{-1}) != static_cast<std::int64_t>(op.index)) continue;
        outcome.linearized = true;
        const Operation* spec_op = spec.find(op.name);
        const nlohmann::json args = c.contains("a") && c["a"].is_array() ? c["a"] : nlohmann::json::array();
        for (std::size_t k = 0; spec_op != nullptr && k < spec_op->params.size() && k < args.size(); ++k)
          outcome.arguments.emplace_back(spec_op->params[k], args[k].get<std::string>());
      }
      out.push_back(std::move(outcome));
    }
  return out;
}

void finish_from_tlc(results::ValidationResult& result, const TlcOutcome& tlc, const history::Problem& input, const SpecInterface& spec,
                     const fs::path& frontier_file, const ValidateOptions& options) {
  result.tlc_command = tlc.command;
  result.peak_rss_kb = tlc.peak_rss_kb;
  result.duration = tlc.duration;
  result.states_generated = tlc.states_generated;
  result.states_distinct = tlc.states_distinct;
  if (tlc.started && !tlc.timed_out && tlc.signal == 0) result.tlc_exit_code = tlc.exit_code;

  auto set = [&](results::Verdict verdict, std::string reason) {
    result.verdict = verdict;
    result.reason = std::move(reason);
  };
  if (!tlc.started) return set(results::Verdict::unknown, "TLC could not be started: " + tlc.start_error);
  if (tlc.cancelled) {
    result.cancelled = true;
    return set(results::Verdict::unknown, "TLC was stopped: the validation was cancelled");
  }
  if (tlc.timed_out) return set(results::Verdict::unknown, "TLC did not finish within " + std::to_string(options.timeout.count()) + " s");
  if (tlc.out_of_memory) return set(results::Verdict::unknown, "TLC ran out of memory (heap " + options.heap + "; raise it with --heap)");
  if (tlc.signal != 0) return set(results::Verdict::unknown, "TLC was killed by signal " + std::to_string(tlc.signal));

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
    if (!have_frontier) return set(results::Verdict::unknown, "TLC finished but wrote no frontier (" + frontier_file.string() + ")");
    if (*result.linearized < 0) return set(results::Verdict::error, "no initial state: the spec's " + options.init + " is not satisfiable");
    if (frontier.value("total", -1) != static_cast<std::int64_t>(input.operations) ||
        frontier.value("pending", -1) != static_cast<std::int64_t>(input.pending))
      return set(results::Verdict::unknown, "TLC's report counts " + std::to_string(frontier.value("total", -1)) + " completed and " +
                                std::to_string(frontier.value("pending", -1)) + " pending operations, the data file " +
                                std::to_string(input.operations) + " and " + std::to_string(input.pending));
    result.pending_outcomes = pending_outcomes(input.history, spec, frontier["frontier"].value("completed", nlohmann::json()));
    if (*result.linearized == static_cast<std::int64_t>(input.operations)) return set(results::Verdict::pass, "");
    std::vector<std::size_t> next;  // TLC's pc is 1-based: the index of the next operation
    for (const auto& pc : frontier["frontier"]["pc"]) next.push_back(static_cast<std::size_t>(std::max<std::int64_t>(pc.get<std::int64_t>() - 1, 0)));
    result.frontier = results::frontier_at(input.history, next);
    return set(results::Verdict::fail, "no order of the operations is accepted by the spec; the deepest search linearized " +
                           std::to_string(*result.linearized) + " of " + std::to_string(input.operations));
  }
  // 150: parse or semantic error; 75/76: evaluation error (e.g. an action applied to a value it
  // cannot handle); 255 and others: configuration problems. All are the spec's or the set-up's.
  if (tlc.exit_code == 150 || tlc.exit_code == 75 || tlc.exit_code == 76 || tlc.exit_code == 255 || tlc.exit_code == 10 ||
      tlc.exit_code == 11 || tlc.exit_code == 12 || tlc.exit_code == 13)
    return set(results::Verdict::error, "TLC (exit " + std::to_string(tlc.exit_code) + "): " + tlc.error_text());
  return set(results::Verdict::unknown, "TLC exited with code " + std::to_string(tlc.exit_code) + ": " + tlc.error_text());
}

}  // namespace

void check_with_tlc(results::ValidationResult& result, const history::Problem& problem, const SpecInterface& spec, language::LoadedSpec& loaded,
                    const fs::path& dir, const ValidateOptions& options) {
  // TLC decides from here, also when it cannot be run (and after a native attempt that found the
  // spec outside its fragment).
  result.checker = results::DecidedBy::tlc;
  fs::create_directories(dir);
  const fs::path data_file = dir / "data.ndjson";
  const fs::path frontier_file = dir / "frontier.json";
  // Not a wrapped value: TLC would check another history than the one logged.
  if (const auto what = unrepresentable_in_tlc(problem)) {
    result.verdict = results::Verdict::unknown;
    result.reason = "TLC cannot check this history: " + *what + " (the native checker can)";
    return;
  }
  write_tlc_input(problem, data_file);

  ValidationModuleOptions module_options;
  module_options.init = options.init;
  module_options.loaded = &loaded;
  module_options.view = options.view;
  module_options.data_file = data_file;
  module_options.frontier_file = frontier_file;
  const ValidationModule module = generate_validation_module(spec, module_options);
  write_file(dir / (std::string(kValidationModule) + ".tla"), module.tla);
  write_file(dir / (std::string(kValidationModule) + ".cfg"), module.cfg);
  write_file(dir / "OmniLinkTrace.tla", omnilink_trace_module());
  // The community modules the spec uses, as omnilink has them: TLC evaluates the same definitions.
  for (const auto& [name, text] : loaded.library_modules()) write_file(dir / (name + ".tla"), text);

  std::string why_not;
  const std::optional<TlcTools> tools = locate_tlc(options, why_not);
  if (!tools) {
    result.verdict = results::Verdict::unknown;
    result.reason = why_not;
    return;
  }
  TlcRun tlc_run;
  tlc_run.java = tools->java;
  tlc_run.jar = tools->jar;
  tlc_run.work_dir = dir;
  tlc_run.module = kValidationModule;
  tlc_run.library = {fs::absolute(options.spec).parent_path()};
  if (options.mc) tlc_run.library.push_back(fs::absolute(*options.mc).parent_path());
  tlc_run.heap = options.heap;
  tlc_run.timeout = options.timeout;
  tlc_run.cancel = options.cancel;
  const TlcOutcome tlc = run_tlc(tlc_run);
  write_file(dir / "tlc.out", tlc.raw_output);
  finish_from_tlc(result, tlc, problem, spec, frontier_file, options);
  std::error_code ec;
  fs::remove_all(dir / "tlc-states", ec);  // TLC's fingerprint files: large, and of no use afterwards
  fs::remove_all(dir / "tlc-tmp", ec);
}

std::optional<TlcTools> locate_tlc(const ValidateOptions& options, std::string& why_not) {
  ToolLocation jar = options.tlc_jar ? ToolLocation{"tlc", "--tlc", *options.tlc_jar, "--tlc", "", {}} : find_tlc_jar();
  ToolLocation java = options.java ? ToolLocation{"java", "--java", *options.java, "--java", "", {}} : find_java();
  if (!jar.found() || !fs::is_regular_file(*jar.path)) {
    why_not = "TLC not found: " + (jar.found() ? jar.path->string() + " is not a file" : jar.explain_missing());
    return std::nullopt;
  }
  if (!java.found()) {
    why_not = "java not found: " + java.explain_missing();
    return std::nullopt;
  }
  return TlcTools{*java.path, *jar.path};
}

}  // namespace omnilink::checkers
