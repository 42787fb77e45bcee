// `omnilink doctor`: which external tools are present, where each came from (env var, location,
// PATH), their versions, and whether rr can record here with hardware or software counters.
#pragma once

#include <string>

#include "orchestrator/command.hpp"

namespace omnilink::cli {

class DoctorCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  bool selected() const override { return sub_ != nullptr && sub_->parsed(); }
  int run() override;

 private:
  CLI::App* sub_ = nullptr;
  bool json_ = false;
};

}  // namespace omnilink::cli
