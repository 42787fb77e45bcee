// `omnilink spec SPEC.tla [--mc MC.tla]`: reads a spec as validation would, and says what it found:
// the operations a harness logs (with their fields and types), and whether the embedded checker
// evaluates Init and each action, or the first construct it does not (then TLC decides). Exit 0
// when the embedded checker evaluates everything validation needs, 2 when TLC would have to
// decide, 1 when the spec is not valid TLA+ (or its Next is not a choice among actions).
// With --explore N (and a TLC configuration, --cfg, for the constants), it also counts the
// distinct states of the first N levels of the state space, as TLC would with the constraint
// TLCGet("level") <= N: how bench/corpus checks the evaluator against TLC on whole specs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "orchestrator/command.hpp"

namespace omnilink::cli {

class SpecCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  std::string spec_;
  std::string mc_;
  std::string next_ = "Next";
  std::string init_ = "Init";
  std::string cfg_;
  std::uint32_t explore_levels_ = 0;
  std::uint64_t max_states_ = 200'000;
  bool json_ = false;
};

}  // namespace omnilink::cli
