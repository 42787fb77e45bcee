// `omnilink gen-hpp SPEC.tla [-o FILE]`: the C++ operation types of a spec (tla/hpp_generator).
#pragma once

#include <string>

#include "orchestrator/command.hpp"

namespace omnilink::cli {

class GenHppCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  std::string spec_;
  std::string output_;
  std::string next_ = "Next";
  std::string namespace_;
};

}  // namespace omnilink::cli
