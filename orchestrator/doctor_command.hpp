// `omnilink doctor`: which external tools are present, where each came from (env var, location,
// PATH), their versions, and whether rr can record here with hardware or software counters.
#pragma once

#include <string>

#include "orchestrator/command.hpp"

namespace omnilink::cli {

class DoctorCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  bool json_ = false;
};

}  // namespace omnilink::cli
