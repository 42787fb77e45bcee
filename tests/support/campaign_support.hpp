// Running `omnilink campaign` from a test: through the real CLI, on a real TLC, reading back the
// `--json` summary says. Tests that need TLC call require_tlc(), those that need rr recording
// require_rr_chaos(); both end the case as SKIPPED (77).
#pragma once

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "platform/rr_probe.hpp"
#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"
#include "support/test_support.hpp"

namespace omnilink::testing {

inline void require_tlc() {
  if (!find_tlc_jar().found() || !find_java().found()) skip_test("TLC or java not found (see `omnilink doctor`)");
}

// Ends the case as SKIPPED unless rr can record here under chaos (plain, or with -W).
inline void require_rr_chaos() {
#ifdef OMNILINK_SANITIZER_BUILD
  skip_test("sanitizer build: rr --chaos randomises the address space, which collides with the sanitizers' fixed shadow memory");
#endif
  const ToolLocation rr = find_rr();
  if (!rr.found()) skip_test("rr not found (see `omnilink doctor`)");
  if (!probe_rr(*rr.path).can_record()) skip_test("rr cannot record on this machine (see `omnilink doctor`)");
}

// Starts ARGS[0] with ARGS as its own process, stdout and stderr to /dev/null, without waiting: for
// tests that kill it. The caller reaps it.
inline pid_t spawn_silenced(const std::vector<std::string>& args) {
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE(rc == 0);
  return pid;
}

// A store's runs of one campaign, by run id (the store opened read-only).
inline std::map<std::string, store::RunRecord> runs_by_id(const std::filesystem::path& store, const std::string& campaign_id) {
  auto s = store::Store::open_read_only(store);
  std::map<std::string, store::RunRecord> out;
  for (auto& r : s.runs(campaign_id)) out.emplace(r.id, std::move(r));
  return out;
}

// Every regular file below `dir` as "relative/path: N bytes", sorted, but those whose name contains
// one of `skip`: what "nothing moved" compares, printable when it fails.
inline std::vector<std::string> file_listing(const std::filesystem::path& dir, const std::vector<std::string>& skip = {}) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || std::any_of(skip.begin(), skip.end(), [&](const auto& s) { return name.find(s) != std::string::npos; }))
      continue;
    files.push_back(std::filesystem::relative(entry.path(), dir).string() + ": " + std::to_string(entry.file_size()) + " bytes");
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A one-configuration sweep file of the Treiber stack with its planted bug (rr off, native checker):
// real runs, a real signature and a real frontier. The bug fails most runs of 4 threads x 2000
// operations, not every one.
inline nlohmann::json stack_sweep(const std::string& budget = "10m") {
  return {{"format", 1},
          {"name", "nightly"},
          {"rr", "off"},
          {"run_timeout_s", 120},
          {"validation", {{"checker", "native"}, {"confirm_failures", 0}}},
          {"sweep", {{"for", budget}, {"min_runs", 1}}},
          {"targets",
           {{{"name", "stack"}, {"harness", "treiber-stack-bug"}, {"spec", "Stack.tla"}, {"threads", 4}, {"ops", 2000},
             {"perturb", {"sleep"}}, {"perturb_rate", 0.02}}}}};
}

inline ProcessResult omnilink_cli(const std::vector<std::string>& args, int timeout_s = 600) {
  ProcessOptions options;
  options.timeout = std::chrono::seconds(timeout_s);
  return run_process(OMNILINK_CLI, args, options);
}

// A campaign's result as its `--json` summary says, plus what the CLI printed.
struct CampaignResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr, for INFO()
  nlohmann::json summary;

  // The outcomes of TARGET's runs, in plan order.
  std::vector<std::string> outcomes(const std::string& target) const {
    std::vector<std::string> out;
    for (const auto& run : summary.at("runs"))
      if (run.at("target") == target) out.push_back(run.at("outcome").get<std::string>());
    return out;
  }
  // The 1-based position, in TARGET's plan order, of its first failed run; 0 when none failed.
  std::size_t first_failure(const std::string& target) const {
    const auto all = outcomes(target);
    for (std::size_t i = 0; i < all.size(); ++i)
      if (all[i] == "fail") return i + 1;
    return 0;
  }
  std::size_t count(const std::string& target, const std::string& outcome) const {
    std::size_t n = 0;
    for (const auto& o : outcomes(target)) n += o == outcome;
    return n;
  }
  // How many of TARGET's logged operations, over all its runs' traces, satisfy `pred`.
  template <class Pred>
  std::size_t count_logged(const std::string& target, Pred pred) const {
    std::size_t n = 0;
    for (const auto& run : summary.at("runs")) {
      if (run.at("target") != target) continue;
      for (const auto& thread : read_run(run.at("dir").get<std::string>()))
        for (const auto& op : thread.ops) n += pred(op) ? 1 : 0;
    }
    return n;
  }
  // ... that are NAME, took effect, and have boolean FIELD equal to VALUE.
  std::size_t count_logged(const std::string& target, const std::string& name, const std::string& field, bool value) const {
    return count_logged(target, [&](const trace::Operation& op) {
      const auto* v = op.field(field);
      return op.name == name && !op.failed && v != nullptr && v->is<bool>() && v->as<bool>() == value;
    });
  }
};

// Runs `omnilink campaign FILE --store DIR/store --plain --json DIR/summary.json ARGS...`.
inline CampaignResult run_campaign(const std::filesystem::path& file, const ScratchDir& dir,
                                   const std::vector<std::string>& args = {}, int timeout_s = 1200) {
  std::vector<std::string> argv{"campaign", file.string(), "--store", (dir / "store").string(), "--plain",
                                "--json", (dir / "summary.json").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessResult r = omnilink_cli(argv, timeout_s);
  CampaignResult result;
  result.exit_code = r.exit_code;
  result.output = r.describe() + "\n" + r.out + r.err;
  std::ifstream in(dir / "summary.json");
  if (in) result.summary = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!result.summary.is_object()) result.summary = {{"runs", nlohmann::json::array()}};
  return result;
}

// An example campaign file shipped in examples/campaigns/.
inline std::filesystem::path example_campaign(const std::string& file) {
  return std::filesystem::path(OMNILINK_SOURCE_DIR) / "examples" / "campaigns" / file;
}

}  // namespace omnilink::testing
