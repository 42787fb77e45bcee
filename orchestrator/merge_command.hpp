// `omnilink merge DEST SHARD...`: brings the shard stores of one campaign (each from `omnilink
// campaign FILE --shard I/N`) into the store DEST (maintenance/merge.hpp): every run once, with its
// verdict, recording and run directory. `--into ID` continues a campaign an earlier merge made, for
// shards that finish at different times. Prints what it merged and which shards are still missing.
// Exit code: 0 merged, 1 the merge stopped part way (a move failed: run it again to finish it), 3 a
// shard that cannot be merged (not a shard, another campaign's, an index twice, merged already,
// still running, a run already there) or a store that cannot be opened: nothing moved.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "orchestrator/command.hpp"

namespace omnilink::cli {

class MergeCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  std::string destination_;
  std::vector<std::string> shards_;
  std::optional<std::string> into_;
};

}  // namespace omnilink::cli
