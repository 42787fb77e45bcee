// A CLI verb. Each verb is one class (DoctorCommand, TraceCommand, ...): it registers its
// subcommand and options on the CLI11 app, and runs when selected.
//
// Exit codes shared by all verbs: 0 success; 1 the command ran and found a problem (a bad trace, a
// missing tool); 3 usage or configuration error. (Verbs may add codes; they are documented in
// README.md and docs/.)
#pragma once

#include <CLI/CLI.hpp>

namespace omnilink::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitProblem = 1;
inline constexpr int kExitUsage = 3;

class Command {
 public:
  virtual ~Command() = default;
  // Adds the verb's subcommand (stored in sub_) and its options to `app`.
  virtual void add_to(CLI::App& app) = 0;
  virtual int run() = 0;
  // Whether this verb was selected on the command line.
  bool selected() const { return sub_ != nullptr && sub_->parsed(); }

 protected:
  CLI::App* sub_ = nullptr;
};

}  // namespace omnilink::cli
