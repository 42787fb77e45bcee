#include "orchestrator/store_command.hpp"

#include <iostream>

#include "store/store.hpp"
#include "maintenance/rebuild.hpp"

namespace omnilink::cli {

void StoreCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("store", "Maintain a campaign store");
}

void StoreCommand::add_options() {
  sub_->require_subcommand(1);
  rebuild_ = sub_->add_subcommand("rebuild", "Make the store's index (omnilink.db) again from its campaign directories");
  rebuild_->add_option("STORE", directory_, "The store directory (default: $OMNILINK_STORE, else ./omnilink-store)");
}

int StoreCommand::run() {
  const std::filesystem::path store = directory_.empty() ? store::default_store_directory() : std::filesystem::path(directory_);
  const maintenance::RebuildReport report = maintenance::rebuild_index(store);
  std::cout << "rebuilt the index of " << store.string() << ": " << report.campaigns.size() << " campaign(s), " << report.runs
            << " run(s), " << report.run_directories << " run directories read back, " << report.validations
            << " verdict(s)\n";
  for (const auto& id : report.campaigns) std::cout << "  " << id << "\n";
  for (const auto& what : report.recovered) std::cout << "  warning: " << what << "\n";
  for (const auto& why : report.left_alone) std::cout << "  left alone: " << why << "\n";
  return report.left_alone.empty() ? kExitOk : kExitProblem;
}

}  // namespace omnilink::cli
