// `omnilink trace show RUN_DIR` and `omnilink trace stats RUN_DIR`: read a run directory with the
// trace reader and print its records or a summary. A corrupt or truncated trace is reported with
// file and byte offset, after everything readable before it (exit 1). `omnilink trace export
// RUN_DIR FILE` writes the run's history as a history file (docs/history-format.md), for another
// checker to read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "orchestrator/command.hpp"

namespace omnilink::cli {

class TraceCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  int show();
  int stats();
  int export_history();

  CLI::App* show_ = nullptr;
  CLI::App* stats_ = nullptr;
  CLI::App* export_ = nullptr;
  std::string run_dir_;
  std::string out_;
  std::optional<std::uint32_t> thread_;
  std::optional<std::uint64_t> limit_;
  bool json_ = false;
};

}  // namespace omnilink::cli
