// `omnilink ls [CAMPAIGN]`: what a campaign store holds. Without CAMPAIGN, its campaigns (status,
// creation time, runs, counts per run status and verdict); with it, that campaign's runs in plan
// order (status, newest verdict, configuration, seed, harness time, rr mode), filtered by --status
// and --verdict. Exit code: 0, or 3 when the store or the campaign does not exist.
//
// Also the pieces `omnilink show` shares with it: the --store option and the formatting of the
// store's times.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "store/store.hpp"
#include "orchestrator/command.hpp"

namespace omnilink::cli {

// --store DIR of the verbs that only read a store.
struct StoreOption {
  std::string directory;  // empty: store::default_store_directory()

  void add_to(CLI::App& sub);
  // The store, never created: a read command pointed at the wrong directory must say so rather
  // than leave an empty store there. Throws store::StoreError.
  store::Store open() const;
  // The same, read-only: for verbs that only read (a read-only or archived store works too).
  store::Store open_read_only() const;
  std::filesystem::path path() const;
};

// An epoch-milliseconds time as local ISO 8601 ("2024-05-01T12:03:04"); "-" for 0 (not yet).
std::string local_time(std::int64_t epoch_ms);
// A duration in seconds with two decimals ("1.25 s").
std::string seconds(std::int64_t ms);
// JSON on stdout, indented.
void print_json(const nlohmann::json& json);
// "campaigns in the store: a-1, b-1" or "the store has no campaigns": for errors naming an unknown
// campaign or run.
std::string campaigns_note(store::Store& store);
// Why `key` names no run, with what exists instead: the campaign's first runs, or the campaigns.
std::string unknown_run_message(store::Store& store, const std::string& key);

class LsCommand : public Command {
 public:
  void add_to(CLI::App& app) override;
  void add_options() override;
  int run() override;

 private:
  int list_campaigns(store::Store& store) const;
  int list_runs(store::Store& store) const;

  StoreOption store_;
  std::string campaign_;
  std::optional<std::string> status_;
  std::optional<std::string> verdict_;
  bool json_ = false;
};

}  // namespace omnilink::cli
