// `omnilink store rebuild [STORE]`: makes a store's index (omnilink.db) again from its campaign
// directories, after it was deleted or emptied (maintenance/rebuild.hpp). Read-only and
// campaign verbs refuse such a store and point here.
// Exit code: 0 rebuilt; 1 rebuilt, but some directory could not be indexed; 3 usage, or the store
// has an index already.
#pragma once

#include <string>

#include "orchestrator/command.hpp"

namespace omnilink::cli {

class StoreCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  CLI::App* rebuild_ = nullptr;
  std::string directory_;
};

}  // namespace omnilink::cli
