// What `omnilink explain` costs beside the validation that found the failure, measured side by
// side on the same failing runs: for each injected bug (and the racy queue), 3 threads x 3000
// operations (the striped map: 8 keys, checked key by key), the native validation's wall time, the
// whole explanation's, the failing core's minimisation alone (`core_ms`), the questions of which
// rules the run breaks (`rules_ms`: one check of the whole run per rule), the ratio of the
// explanation to the validation, and the core's size. Runs are found by seed from 1 until `--runs`
// of each fail natively. The recording's analysis (the interleaving) is measured by
// bench/explain_recorded, on recorded runs.
//
// Where the build has them, the transactional misconfigurations too (docs/storage.md): WiredTiger
// read-committed and read-uncommitted taken for snapshot isolation (4 x 2,000, and 8 x 2,000 with
// timestamps and prepared transactions), RocksDB without snapshots and snapshot isolation taken
// for serializability (4 x 500); their cores' transactions are counted (the spec's @groups field),
// how many cores were proven one-minimal, and how many of them given the past rather than on their
// own (explain/given_past.hpp); and the paper's strict commit timestamps
// (MCWiredTigerStrictTimestamps.tla) refused by real runs (2 x 500, the campaign's parameters).
//
// Side by side, each failing run's core is found twice, in alternating order: as `explain` finds
// it and, with `--compare presumption` (the default), with every question decided in full instead
// of narrowed by presumption (explain/failing_core.hpp); with `--compare declaration`, with the
// spec's OmniLinkDataIndependent taken back by an MC module of the bench's (the search merges no
// states by renaming dead values: checkers/dead_values.hpp). `other s` is the latter's median, `x`
// the median of the per-run ratios (other / as explain finds it), and `same` counts the runs where
// both found the same core.
//
// Usage: explain_cost [--runs 5] [--compare presumption|declaration] [--only TARGET]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "explain/explain.hpp"
#include "platform/subprocess.hpp"
#include "checkers/validate.hpp"
#include "median.hpp"

namespace fs = std::filesystem;
using namespace omnilink;
using Clock = std::chrono::steady_clock;

namespace {

struct Target {
  std::string name, harness, spec, mc;
  std::vector<std::string> args;
  bool transactions = false;  // operations log a "txn"
};

/// How many transactions the core's operations belong to.
double transactions_of(const explain::Explanation& e) {
  std::vector<std::string> txns;
  for (const auto& op : e.core)
    for (const auto& [name, value] : op.fields)
      if (name == "txn" && std::find(txns.begin(), txns.end(), value) == txns.end()) txns.push_back(value);
  return static_cast<double>(txns.size());
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  std::string compare = "presumption", only;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--runs") runs = std::stoi(argv[i + 1]);
    else if (option == "--compare") compare = argv[i + 1];
    else if (option == "--only") only = argv[i + 1];
  }
  if (compare != "presumption" && compare != "declaration") {
    std::fprintf(stderr, "--compare %s: presumption or declaration\n", compare.c_str());
    return 2;
  }
  const std::string specs = OMNILINK_SPECS_DIR;
  std::vector<Target> targets{
      {"ms-queue-bug", OMNILINK_MS_QUEUE_BUG, "LinearizableQueue.tla", "", {"--threads", "3", "--ops", "3000", "--perturb", "sleep", "--perturb-rate", "0.02", "--param", "max_len=16"}},
      {"treiber-stack-bug", OMNILINK_TREIBER_STACK_BUG, "Stack.tla", "", {"--threads", "3", "--ops", "3000", "--perturb", "sleep", "--perturb-rate", "0.02"}},
      {"striped-map-bug", OMNILINK_STRIPED_MAP_BUG, "Map.tla", "MCMapPartitioned.tla", {"--threads", "3", "--ops", "3000", "--perturb", "mixed", "--perturb-rate", "0.1", "--param", "keys=8"}},
      {"racy-queue", OMNILINK_RACY_QUEUE, "LinearizableQueue.tla", "", {"--threads", "3", "--ops", "3000", "--perturb", "mixed", "--perturb-rate", "0.05"}},
  };
#ifdef OMNILINK_WIREDTIGER_TXN
  const std::vector<std::string> wt{"--perturb", "sleep", "--perturb-rate", "0.2", "--param", "keys=3"};
  auto wiredtiger = [&](const std::string& name, std::vector<std::string> args) {
    args.insert(args.begin(), wt.begin(), wt.end());
    targets.push_back({name, OMNILINK_WIREDTIGER_TXN, "WiredTigerKV.tla", "MCWiredTigerSnapshot.tla", args, true});
  };
  wiredtiger("wt-read-committed", {"--threads", "4", "--ops", "2000", "--param", "isolation=read-committed"});
  wiredtiger("wt-read-uncommitted", {"--threads", "4", "--ops", "2000", "--param", "isolation=read-uncommitted"});
  wiredtiger("wt-rc-ts-prepare", {"--threads", "8", "--ops", "2000", "--param", "isolation=read-committed", "--param", "timestamps=wide", "--param",
                                  "prepare=30"});
  targets.push_back({"wt-strict-ts", OMNILINK_WIREDTIGER_TXN, "WiredTigerKV.tla", "MCWiredTigerStrictTimestamps.tla",
                     {"--threads", "2", "--ops", "500", "--perturb", "sleep", "--perturb-rate", "0.2", "--param", "keys=2", "--param", "timestamps=small",
                      "--param", "commits_per_ts=4"},
                     true});
#endif
#ifdef OMNILINK_ROCKSDB_TXN
  const std::vector<std::string> rocks{"--threads", "4", "--ops", "500", "--perturb", "sleep", "--perturb-rate", "0.2"};
  auto rocksdb = [&](const std::string& name, const std::string& spec, std::vector<std::string> args) {
    args.insert(args.begin(), rocks.begin(), rocks.end());
    targets.push_back({name, OMNILINK_ROCKSDB_TXN, spec, "MCSnapshotKV.tla", args, true});
  };
  rocksdb("rocks-no-snapshot", "SnapshotKV.tla", {"--param", "keys=3", "--param", "snapshot=0"});
  rocksdb("rocks-si-as-serial", "SerializableKV.tla", {"--param", "keys=2"});
#endif
  const fs::path scratch = fs::temp_directory_path() / "omnilink-bench-explain";
  fs::create_directories(scratch);
  std::printf("explain beside validation, native, %d failing runs each (medians); other: %s\n", runs,
              compare == "presumption" ? "every question decided in full" : "without the spec's OmniLinkDataIndependent");
  std::printf("%-20s %6s %12s %10s %10s %10s %10s %10s %6s %5s %8s %10s %10s %10s %6s %8s %8s %6s\n", "target", "seeds", "validate s", "explain s", "core s",
              "slowest s", "other s", "slowest s", "x", "same", "rules s", "expl/val", "core ops", "largest", "txns", "most tx", "minimal", "given");
  for (const Target& t : targets) {
    if (!only.empty() && t.name != only) continue;
    // The target's MC module (or an empty one) with the declaration taken back, for --compare
    // declaration: a copy under another name (its own definitions must be the MC module's, not
    // an extended module's), the modules it extends found beside the spec.
    const fs::path undeclared = scratch / ("MCBenchUndeclared" + std::to_string(&t - targets.data()) + ".tla");
    {
      std::string text = "---- MODULE X ----\n====\n";
      if (!t.mc.empty()) {
        std::ifstream in(specs + "/" + t.mc);
        text.assign(std::istreambuf_iterator<char>(in), {});
      }
      const std::size_t name = text.find("MODULE ") + 7, end = text.find_first_of(" -\n", name);
      text.replace(name, end - name, undeclared.stem().string());
      text.insert(text.rfind("\n====") + 1, "OmniLinkDataIndependent == {}\nOmniLinkProjectable == FALSE\n");
      std::ofstream(undeclared) << text;
    }
    std::vector<double> validate_s, explain_s, core_s, decided_s, speedups, rules_s, ratios, sizes, txns;
    int minimal = 0, same = 0, given = 0;
    int seed = 0;
    while (static_cast<int>(explain_s.size()) < runs && seed < 40 * runs) {
      ++seed;
      const fs::path run = scratch / (t.name + "-" + std::to_string(seed));
      fs::remove_all(run);
      std::vector<std::string> args = t.args;
      for (const std::string& a : {std::string("--seed"), std::to_string(seed), std::string("--quiet"), std::string("--out"), run.string()})
        args.push_back(a);
      if (!run_process(t.harness, args).ok()) continue;
      explain::ExplainOptions o;
      o.validate.run_dir = run;
      o.validate.spec = specs + "/" + t.spec;
      if (!t.mc.empty()) o.validate.mc = specs + "/" + t.mc;
      o.validate.checker = checkers::Checker::native;
      o.validate.confirm_failures = false;
      o.reuse = false;
      const auto validating = Clock::now();
      const auto verdict = checkers::validate_run(o.validate);
      const double v = seconds_since(validating);
      if (verdict.verdict != results::Verdict::fail) continue;
      // Alternating which goes first, so that neither always runs on a warmer cache.
      explain::ExplainOptions decided = o;
      if (compare == "presumption") decided.core.presumption.reset();
      else decided.validate.mc = undeclared;
      std::optional<explain::Explanation> without;
      if (seed % 2 == 0) without = explain::explain_run(decided);
      const auto explaining = Clock::now();
      const explain::Explanation e = explain::explain_run(o);
      const double c = seconds_since(explaining);
      if (!without) without = explain::explain_run(decided);
      decided_s.push_back(static_cast<double>(without->core_ms) / 1000.0);
      speedups.push_back(static_cast<double>(std::max<std::int64_t>(without->core_ms, 1)) / static_cast<double>(std::max<std::int64_t>(e.core_ms, 1)));
      std::vector<std::string> core, core_without;
      for (const auto& op : e.core) core.push_back(op.id());
      for (const auto& op : without->core) core_without.push_back(op.id());
      same += core == core_without ? 1 : 0;
      validate_s.push_back(v);
      explain_s.push_back(c);
      core_s.push_back(static_cast<double>(e.core_ms) / 1000.0);
      rules_s.push_back(static_cast<double>(e.rules_ms) / 1000.0);
      ratios.push_back(c / v);
      sizes.push_back(static_cast<double>(e.core.size()));
      txns.push_back(transactions_of(e));
      minimal += e.minimal ? 1 : 0;
      given += e.given ? 1 : 0;
    }
    auto largest = [](const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); };
    const std::string of = std::to_string(minimal) + "/" + std::to_string(core_s.size());
    std::printf("%-20s %6d %12.3f %10.3f %10.3f %10.3f %10.3f %10.3f %6.2f %5d %8.3f %10.2f %10.0f %10.0f", t.name.c_str(), seed, median(validate_s),
                median(explain_s), median(core_s), largest(core_s), median(decided_s), largest(decided_s), median(speedups), same, median(rules_s),
                median(ratios), median(sizes), largest(sizes));
    if (t.transactions)
      std::printf(" %6.0f %8.0f %8s %6d\n", median(txns), largest(txns), of.c_str(), given);
    else
      std::printf(" %6s %8s %8s %6d\n", "-", "-", of.c_str(), given);
  }
  fs::remove_all(scratch);
  return 0;
}
