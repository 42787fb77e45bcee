#include "orchestrator/gc_command.hpp"

#include <iostream>

#include "store/store.hpp"
#include "sweep/retention.hpp"

namespace omnilink::cli {

void GcCommand::add_to(CLI::App& app) {
  sub_ = app.add_subcommand("gc", "Free space in a store: the recordings that are not evidence, or down to a quota; never a signature's evidence");
}

void GcCommand::add_options() {
  sub_->add_option("STORE", directory_, "The store directory (default: $OMNILINK_STORE, else ./omnilink-store)");
  sub_->add_option("--quota", quota_, "Prune until the store is at most this large, e.g. 20g (k, m, g, t)");
  sub_->add_option("--evidence-runs", evidence_runs_, "Failing runs kept per signature (default 3)")->check(CLI::Range(1, 1000));
  sub_->add_flag("--dry-run", dry_run_, "Say what would be removed, remove nothing");
}

int GcCommand::run() {
  const std::filesystem::path store_dir = directory_.empty() ? store::default_store_directory() : std::filesystem::path(directory_);
  sweep::RetentionPolicy policy;
  policy.evidence_runs = evidence_runs_;
  policy.dry_run = dry_run_;
  if (!quota_.empty()) {
    policy.quota_bytes = sweep::parse_size(quota_);
    if (!policy.quota_bytes) throw CommandError(kExitUsage, "--quota " + quota_ + ": not a size (digits, then optionally k, m, g or t)");
  }
  auto store = store::Store::open_existing(store_dir);
  const sweep::PruneReport report = sweep::prune_store(store, policy);
  for (const auto& line : report.pruned) std::cout << (dry_run_ ? "would remove " : "removed ") << line << "\n";
  std::cout << store_dir.string() << ": " << report.size_before << " bytes; " << (dry_run_ ? "would free " : "freed ") << report.freed
            << " bytes in " << report.pruned.size() << " part(s); kept " << report.evidence << " run(s) as evidence";
  if (!report.quota_met) std::cout << "; STILL ABOVE the quota (what is left is evidence and verdicts)";
  std::cout << "\n";
  return report.quota_met ? kExitOk : kExitProblem;
}

}  // namespace omnilink::cli
