// The omnilink CLI: parses the command line with CLI11 and hands over to the selected verb, whose
// errors take the one path (command_errors.hpp).
#include <iostream>
#include <memory>
#include <vector>

#include <CLI/CLI.hpp>

#include "language/parse_cache.hpp"

#include "orchestrator/campaign_command.hpp"
#include "orchestrator/command.hpp"
#include "orchestrator/command_errors.hpp"
#include "orchestrator/doctor_command.hpp"
#include "orchestrator/explain_command.hpp"
#include "orchestrator/gc_command.hpp"
#include "orchestrator/gen_hpp_command.hpp"
#include "orchestrator/ls_command.hpp"
#include "orchestrator/merge_command.hpp"
#include "orchestrator/slurm_task_command.hpp"
#include "orchestrator/spec_command.hpp"
#include "orchestrator/replay_command.hpp"
#include "orchestrator/report_command.hpp"
#include "orchestrator/results_command.hpp"
#include "orchestrator/revalidate_command.hpp"
#include "orchestrator/show_command.hpp"
#include "orchestrator/store_command.hpp"
#include "orchestrator/sweep_command.hpp"
#include "orchestrator/trace_command.hpp"
#include "orchestrator/validate_command.hpp"
#include "orchestrator/version.hpp"

int main(int argc, char** argv) {
  using namespace omnilink::cli;
  // Specs are parsed once per text and build, not once per process (parse_cache.hpp).
  omnilink::language::use_parse_cache(omnilink::language::default_parse_cache_dir());
  CLI::App app{"omnilink: find concurrency bugs by validating traces against a TLA+ spec, and replay them"};
  app.set_version_flag("--version", std::string("omnilink ") + omnilink::kVersion);
  app.require_subcommand(1);

  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(std::make_unique<CampaignCommand>());
  commands.push_back(std::make_unique<DoctorCommand>());
  commands.push_back(std::make_unique<TraceCommand>());
  commands.push_back(std::make_unique<GenHppCommand>());
  commands.push_back(std::make_unique<SpecCommand>());
  commands.push_back(std::make_unique<ValidateCommand>());
  commands.push_back(std::make_unique<LsCommand>());
  commands.push_back(std::make_unique<ShowCommand>());
  commands.push_back(std::make_unique<RevalidateCommand>());
  commands.push_back(std::make_unique<ReplayCommand>());
  commands.push_back(std::make_unique<ExplainCommand>());
  commands.push_back(std::make_unique<ResultsCommand>());
  commands.push_back(std::make_unique<StoreCommand>());
  commands.push_back(std::make_unique<SweepCommand>());
  commands.push_back(std::make_unique<GcCommand>());
  commands.push_back(std::make_unique<ReportCommand>());
  commands.push_back(std::make_unique<MergeCommand>());
  commands.push_back(std::make_unique<SlurmTaskCommand>());
  for (auto& c : commands) c->attach(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  for (auto& c : commands)
    if (c->selected()) return run_command(*c);
  return kExitUsage;
}
