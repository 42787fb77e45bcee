// `omnilink replay RUN OP [--batch | --print] [--rerun] [-- GDB ARGS...]`: stops a replay of RUN
// at operation OP (`T1.79` or `1.79`, as failure reports name them) with the gdb command file of
// replay/gdb_commands. RUN is a store key (CAMPAIGN/RUN) or a run directory. With --core instead of
// OP: one replay that stops at each operation of the run's failing core (its explanation, from
// `omnilink explain`), in the order the recording ran them, one command file per stop in
// RUN/replay/core/. With --crash instead: a crashed run's replay from the start to the signal
// that ended it, stopped where it struck (RUN/replay/crash.gdb); a run that did not crash is refused.
//  - recorded runs: `rr replay [-W] [-g EVENT] -x FILE RUN/rr -- -ex continue`, -W when the run
//    was recorded with software counters (the store says so), -g from the fast-seek index
//    (replay/seek_index, built on first use); interactive by default (exec, the gdb prompt is the
//    user's), --batch prints where it stopped and exits.
//  - --rerun: a run that is deterministic without rr (one thread, counter clock) re-executed from
//    its meta.json argv under plain gdb, writing its trace to RUN/replay/rerun.
// Exit code: 0 stopped at the operation or signal (--batch) or printed; 1 it did not stop there; 3 unknown
// run or operation, no recording, rr or gdb missing.
#pragma once

#include <string>
#include <vector>

#include "orchestrator/command.hpp"
#include "orchestrator/ls_command.hpp"

namespace omnilink::cli {

class ReplayCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  StoreOption store_;
  std::string run_, op_;
  bool core_ = false, crash_ = false, batch_ = false, print_ = false, rerun_ = false, no_seek_ = false;
  std::vector<std::string> gdb_args_;
};

}  // namespace omnilink::cli
