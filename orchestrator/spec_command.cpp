#include "orchestrator/spec_command.hpp"

#include <iostream>

#include <nlohmann/json.hpp>

#include "language/explorer.hpp"
#include "language/interface.hpp"

namespace omnilink::cli {

namespace {
inline constexpr int kExitNeedsTlc = 2;
}

void SpecCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("spec", "Read a spec as validation would: its operations, and whether the embedded checker evaluates them");
}

void SpecCommand::add_options() {
  sub_->add_option("SPEC", spec_, "The spec module (.tla)")->required();
  sub_->add_option("--mc", mc_, "An MC module: values for constants, definitions that stand for the spec's");
  sub_->add_option("--next", next_, "The next-state relation to read actions from")->capture_default_str();
  sub_->add_option("--init", init_, "The initial predicate")->capture_default_str();
  sub_->add_option("--cfg", cfg_, "A TLC configuration: the constants' values and `Op <- Other` substitutions (with --explore)");
  sub_->add_option("--explore", explore_levels_, "Count the distinct states of the first N levels of the state space");
  sub_->add_option("--max-states", max_states_, "Stop exploring after this many distinct states")->capture_default_str();
  sub_->add_flag("--json", json_, "Print the findings as JSON");
}

int SpecCommand::run() {
  nlohmann::json out{{"spec", spec_}};
  auto finish = [&](int code) {
    out["exit"] = code;
    if (json_) std::cout << out.dump(2) << "\n";
    return code;
  };
  auto problem = [&](const char* kind, const std::string& what) {
    out["error"] = {{"kind", kind}, {"message", what}};
    if (!json_) complain() << what << "\n";
    return finish(kExitProblem);
  };
  std::unique_ptr<language::LoadedSpec> loaded;
  language::SpecInterface spec;
  std::optional<language::TlcConfig> config;
  try {
    if (!cfg_.empty()) {
      config = language::read_tlc_config(cfg_);
      if (!config->state_space_changes.empty())
        out["config_changes_state_space"] = config->state_space_changes;
    }
    loaded = language::LoadedSpec::load(spec_, mc_.empty() ? std::nullopt : std::optional<std::filesystem::path>(mc_),
                                        config ? &*config : nullptr);
    spec = language::spec_interface(*loaded, next_);
  } catch (const language::SyntaxError& e) {
    return problem("syntax", e.what());
  } catch (const language::SpecError& e) {  // after SyntaxError, which is one
    return problem("spec", e.what());
  } catch (const language::FragmentError& e) {
    return problem("interface", e.what());
  }

  // What validation evaluates: Init and every action. The first construct the embedded checker
  // does not evaluate, for each.
  nlohmann::json evaluated = nlohmann::json::array();
  int code = kExitOk;
  auto check = [&](const std::string& what, const language::Definition* def) {
    nlohmann::json entry{{"definition", what}};
    if (def == nullptr) {
      entry["missing"] = true;
      code = kExitProblem;
    } else if (!def->unsupported.empty()) {
      entry["unsupported"] = def->unsupported;
      if (code == kExitOk) code = kExitNeedsTlc;
    }
    evaluated.push_back(entry);
  };
  try {
    check(init_, loaded->spec_definition_structure(init_));
    for (const auto& op : spec.operations) {
      check(op.reference + (op.multi_step ? "_Step" : ""), op.action);
      if (op.done) check(op.reference + "_Done", op.done);
    }
  } catch (const language::SpecError& e) {
    return problem("spec", e.what());
  }
  nlohmann::json operations = nlohmann::json::array();
  for (const auto& op : spec.operations)
    operations.push_back({{"name", op.name}, {"fields", op.params}, {"type", op.type ? *op.type : ""}, {"multi_step", op.multi_step},
                          {"action", op.reference}, {"at", op.pos.text()}});
  if (explore_levels_ > 0) {
    try {
      const auto explored = language::explore(*loaded, init_, next_, explore_levels_, max_states_,
                                              config ? config->constraints : std::vector<std::string>{});
      out["explored"] = {{"initial", explored.initial}, {"distinct", explored.distinct}, {"levels", explored.levels},
                         {"truncated", explored.truncated}};
      if (!json_)
        std::cout << "explored: " << explored.distinct << " distinct states in " << explored.levels << " level(s)"
                  << (explored.truncated ? " (stopped at --max-states)" : "") << ", " << explored.initial << " initial\n";
    } catch (const std::exception& e) {
      // Not a pass: the spec went wrong in a state it reaches (1), or the embedded checker cannot
      // evaluate what it met there (2, TLC would decide).
      out["explore_error"] = e.what();
      if (!json_) std::cout << "exploring failed: " << e.what() << "\n";
      if (dynamic_cast<const language::FragmentError*>(&e) == nullptr) code = kExitProblem;
      else if (code == kExitOk) code = kExitNeedsTlc;
    }
  }
  out["module"] = spec.module;
  out["variables"] = spec.variables;
  out["constants"] = spec.constants;
  out["operations"] = operations;
  out["evaluated"] = evaluated;
  out["inline_steps"] = spec.inline_steps;
  if (!json_) {
    std::cout << "module " << spec.module << " (" << spec_ << ")\n"
              << "  variables: " << nlohmann::json(spec.variables).dump() << "\n"
              << "  constants: " << nlohmann::json(spec.constants).dump() << "\n"
              << "  operations (what a harness logs):\n";
    for (const auto& op : spec.operations) {
      std::cout << "    " << op.name << "(";
      for (std::size_t k = 0; k < op.params.size(); ++k) std::cout << (k ? ", " : "") << op.params[k];
      std::cout << ")" << (op.multi_step ? " in steps" : "") << (op.type ? "  " + *op.type : "") << "   " << op.pos.text() << "\n";
    }
    for (const auto& step : spec.inline_steps) std::cout << "  a step of " << next_ << " no harness logs (written inline): " << step << "\n";
    for (const auto& e : evaluated) {
      if (e.contains("missing")) std::cout << "  " << e["definition"].get<std::string>() << ": not defined\n";
      if (e.contains("unsupported"))
        std::cout << "  " << e["definition"].get<std::string>() << ": TLC decides, the embedded checker does not evaluate "
                  << e["unsupported"].get<std::string>() << "\n";
    }
    if (code == kExitOk) std::cout << "  the embedded checker evaluates " << init_ << " and every action\n";
  }
  return finish(code);
}

}  // namespace omnilink::cli
