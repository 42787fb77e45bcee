// What validating a transactional storage trace costs beside a queue trace of the same size:
// RocksDB transactions (examples/rocksdb, snapshot isolation, SnapshotKV.tla) against the locked
// queue (LinearizableQueue.tla), the same threads and operations per thread, each validated by the
// native checker. Runs alternate between the two so that a noisy machine slows both alike; the
// table gives each one's median validation time, per operation, and their ratio. A second part
// times the failing cases: the no-snapshot misconfiguration against SnapshotKV.tla and snapshot
// isolation against SerializableKV.tla (write skew), where the search must exhaust the orders
// before it rejects.
//
// Usage: storage_validation [--threads 4] [--ops 500,2000,5000] [--rounds 5]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "platform/subprocess.hpp"
#include "checkers/validate.hpp"
#include "median.hpp"

namespace fs = std::filesystem;
using omnilink::results::Verdict;

namespace {

struct Case {
  const char* name;
  const char* harness;
  std::vector<std::string> args;
  const char* spec;
  const char* mc;  // "" for none
};

// Runs the harness into `dir`; false (and says why) if it fails.
bool record(const Case& c, std::uint32_t threads, std::uint64_t ops, std::uint64_t seed, const fs::path& dir) {
  fs::remove_all(dir);
  std::vector<std::string> args{"--threads", std::to_string(threads), "--ops", std::to_string(ops), "--seed", std::to_string(seed),
                                "--quiet", "--out", dir.string()};
  args.insert(args.end(), c.args.begin(), c.args.end());
  omnilink::ProcessOptions po;
  po.timeout = std::chrono::minutes(10);
  const auto r = omnilink::run_process(c.harness, args, po);
  if (!r.ok()) std::printf("%s: harness failed: %s\n%s", c.name, r.describe().c_str(), r.err.c_str());
  return r.ok();
}

struct Timed {
  double seconds = 0;
  Verdict verdict = Verdict::error;
  std::uint64_t operations = 0;
};

Timed validate(const Case& c, const fs::path& dir) {
  omnilink::checkers::ValidateOptions o;
  o.run_dir = dir;
  o.spec = fs::path(OMNILINK_SPECS_DIR) / c.spec;
  if (*c.mc != '\0') o.mc = fs::path(OMNILINK_SPECS_DIR) / c.mc;
  o.checker = omnilink::checkers::Checker::native;
  o.confirm_failures = false;
  o.timeout = std::chrono::minutes(10);
  const auto begin = std::chrono::steady_clock::now();
  const auto r = omnilink::checkers::validate_run(o);
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count(), r.verdict, r.operations};
}

}  // namespace

int main(int argc, char** argv) {
  std::uint32_t threads = 4;
  std::vector<std::uint64_t> sizes{500, 2000, 5000};
  int rounds = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--threads") threads = static_cast<std::uint32_t>(std::stoul(argv[i + 1]));
    else if (flag == "--rounds") rounds = std::stoi(argv[i + 1]);
    else if (flag == "--ops") {
      sizes.clear();
      std::stringstream list(argv[i + 1]);
      for (std::string n; std::getline(list, n, ',');) sizes.push_back(std::stoull(n));
    }
  }
  const std::vector<std::string> overlap{"--perturb", "sleep", "--perturb-rate", "0.2"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = overlap;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  const Case queue{"locked queue", OMNILINK_LOCKED_QUEUE, overlap, "LinearizableQueue.tla", ""};
  const Case txns{"RocksDB snapshot isolation", OMNILINK_ROCKSDB_TXN, with({"--param", "keys=3"}), "SnapshotKV.tla", "MCSnapshotKV.tla"};
  const fs::path scratch = fs::temp_directory_path() / "omnilink-bench-storage";

  std::printf("native validation, %u threads, median of %d runs each (different seeds), the two alternating\n", threads, rounds);
  std::printf("%10s  %14s %12s  %14s %12s  %8s\n", "ops/thread", "queue s", "queue us/op", "txn s", "txn us/op", "txn/queue");
  for (std::uint64_t ops : sizes) {
    std::vector<double> queue_s, txn_s;
    std::uint64_t operations = 0;
    for (int round = 0; round < rounds; ++round) {
      for (const Case* c : {&queue, &txns}) {
        if (!record(*c, threads, ops, static_cast<std::uint64_t>(round + 1), scratch)) return 1;
        const Timed t = validate(*c, scratch);
        if (t.verdict != Verdict::pass) {
          std::printf("%s, seed %d: %s, not pass: the benchmark measures correct runs\n", c->name, round + 1, to_string(t.verdict).c_str());
          return 1;
        }
        (c == &queue ? queue_s : txn_s).push_back(t.seconds);
        operations = t.operations;
      }
    }
    const double q = median(queue_s), t = median(txn_s);
    std::printf("%10llu  %14.3f %12.2f  %14.3f %12.2f  %8.2f\n", static_cast<unsigned long long>(ops), q, 1e6 * q / static_cast<double>(operations),
                t, 1e6 * t / static_cast<double>(operations), t / q);
    std::fflush(stdout);
  }

  std::printf("\nfailing runs (%u threads x %llu ops): native validation until the verdict\n", threads,
              static_cast<unsigned long long>(sizes.front()));
  const Case failing[] = {
      {"no snapshot vs SnapshotKV", OMNILINK_ROCKSDB_TXN, with({"--param", "keys=3", "--param", "snapshot=0"}), "SnapshotKV.tla", "MCSnapshotKV.tla"},
      {"snapshot isolation vs SerializableKV", OMNILINK_ROCKSDB_TXN, with({"--param", "keys=2"}), "SerializableKV.tla", "MCSnapshotKV.tla"}};
  std::printf("%-38s %8s %8s %10s\n", "case", "runs", "failed", "median s");
  for (const Case& c : failing) {
    std::vector<double> seconds;
    int failed = 0;
    for (int round = 0; round < rounds; ++round) {
      if (!record(c, threads, sizes.front(), static_cast<std::uint64_t>(round + 1), scratch)) return 1;
      const Timed t = validate(c, scratch);
      failed += t.verdict == Verdict::fail;
      seconds.push_back(t.seconds);
    }
    std::printf("%-38s %8d %8d %10.3f\n", c.name, rounds, failed, median(seconds));
  }
  fs::remove_all(scratch);
  return 0;
}
