// `omnilink revalidate RUN|CAMPAIGN [--spec FILE]`: validates archived traces again, without running
// anything: after a spec change, with a larger TLC heap, or once TLC is installed. Each validation
// is added to the store and becomes the run's newest; the run's earlier ones stay. Runs that never
// produced a trace (pending, interrupted, error before writing) are skipped.
// Exit code as `omnilink campaign`'s, over the runs validated: 0 all pass, 1 a fail, 2 otherwise;
// 3 for an unknown run or campaign or a bad option.
#pragma once

#include <optional>
#include <string>

#include "orchestrator/command.hpp"
#include "orchestrator/ls_command.hpp"

namespace omnilink::cli {

class RevalidateCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  StoreOption store_;
  std::string what_;
  std::string spec_, mc_, checker_, tlc_heap_;
  std::optional<int> timeout_s_;
  std::optional<unsigned> jobs_;
};

}  // namespace omnilink::cli
