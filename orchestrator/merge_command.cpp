#include "orchestrator/merge_command.hpp"

#include <iostream>

#include "maintenance/merge.hpp"

namespace omnilink::cli {
namespace {

// A move or a marker that failed part way (a full disk): the markers say where it was going.
CommandError stopped_part_way(const std::string& why) {
  return CommandError(kExitProblem, why + "\nThe merge stopped part way; once the cause is fixed, run the same merge again to finish it.");
}

}  // namespace

void MergeCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("merge", "Bring the shard stores of one campaign (campaign --shard I/N) into one store");
}

void MergeCommand::add_options() {
  sub_->add_option("DEST", destination_, "The store to merge into (created if needed)")->required();
  sub_->add_option("SHARD", shards_, "The shard stores")->required();
  sub_->add_option("--into", into_, "Continue this campaign of DEST, made by an earlier merge of the same campaign's shards");
}

int MergeCommand::run() {
  std::vector<std::filesystem::path> shards(shards_.begin(), shards_.end());
  try {
    const auto report = maintenance::merge_shards(destination_, shards, into_);
    std::cout << "merged shard(s) ";
    for (std::size_t i = 0; i < report.shards.size(); ++i) std::cout << (i ? ", " : "") << report.shards[i];
    std::cout << " into " << destination_ << " as campaign " << report.campaign << (report.created ? " (new)" : "") << ": " << report.runs.size()
              << " run(s) moved in";
    if (report.shards_missing.empty()) {
      std::cout << "; every shard of " << report.shard_count << " merged";
    } else {
      std::cout << "; shards still missing:";
      for (const auto i : report.shards_missing) std::cout << " " << i << "/" << report.shard_count;
      std::cout << " (merge them with --into " << report.campaign << ")";
    }
    if (report.pending > 0)
      std::cout << "; " << report.pending << " run(s) without a final result (omnilink campaign FILE --resume --id " << report.campaign
                << " --store " << destination_ << " runs them here)";
    std::cout << "\n";
    return kExitOk;
  } catch (const maintenance::MergeError& e) {
    throw CommandError(kExitUsage, std::string(e.what()) + " (nothing moved)");
  } catch (const maintenance::MergeStoppedPartWay& e) {
    throw stopped_part_way(e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    throw stopped_part_way(e.what());
  }
}

}  // namespace omnilink::cli
