// RocksDB transactions (examples/rocksdb, docs/storage.md) end to end, through the real CLI: the
// shipped campaign's correct targets pass SnapshotKV.tla (pessimistic and optimistic) and
// SerializableKV.tla (reads for update), rr off and under rr chaos; the no-snapshot
// misconfiguration fails with a lost update or a read of a later commit; write skew passes
// snapshot isolation and fails serializability on the same recorded run; the workload's
// parameters are checked. rr cases are SKIPPED (77) where rr cannot record.
#include <catch2/catch.hpp>

#include <set>

#include "support/campaign_support.hpp"

namespace {

using namespace omnilink;
using omnilink::testing::ScratchDir;
using Catch::Contains;
namespace fs = std::filesystem;

const fs::path kSpecs = OMNILINK_SPECS_DIR;

// `omnilink validate RUN --spec SPEC --mc MCSnapshotKV.tla`: its exit code (0 pass, 1 fail) and output.
ProcessResult validate(const fs::path& run, const std::string& spec) {
  return testing::omnilink_cli({"validate", run.string(), "--spec", (kSpecs / spec).string(), "--mc",
                                (kSpecs / "MCSnapshotKV.tla").string(), "--checker", "native"});
}

// What the campaign's summary says its failures' symptoms are: the refused operation's failing
// conjunct (a signature's title names only the operation and action).
std::set<std::string> symptom_titles(const testing::CampaignResult& result) {
  std::set<std::string> out;
  for (const auto& s : result.summary.value("signatures", nlohmann::json::array()))
    for (const auto& symptom : s.at("symptoms")) out.insert(symptom.at("title").get<std::string>());
  return out;
}

// Whether op logged `status` (every RocksDB operation but Begin and Rollback logs one).
bool has_status(const trace::Operation& op, const char* status) {
  const auto* v = op.field("status");
  return v != nullptr && v->is<std::string>() && v->as<std::string>() == status;
}

}  // namespace

TEST_CASE("the correct configurations pass, the no-snapshot one fails with a lost update or a later commit's read, rr off",
          "[rocksdb]") {
  ScratchDir dir;
  const auto result = testing::run_campaign(testing::example_campaign("rocksdb.json"), dir,
                                            {"--set", "rr=off", "--runs", "2", "--set", "validation.checker=native"});
  INFO(result.output);
  for (const char* target : {"rocksdb-si", "rocksdb-optimistic", "rocksdb-serializable"}) {
    INFO(target);
    CHECK(result.outcomes(target) == std::vector<std::string>(4, "pass"));
  }
  CHECK(result.count("rocksdb-no-snapshot", "fail") >= 2);  // measured natively with these sleeps: 8 of 8
  CHECK(result.count("rocksdb-no-snapshot", "fail") + result.count("rocksdb-no-snapshot", "pass") == 4);
  CHECK(result.count("rocksdb-si-as-serializable", "pass") + result.count("rocksdb-si-as-serializable", "fail") == 2);
  // Every failure is signed by a rule of the specs, and the misconfiguration's by what it breaks:
  // a write that should have been refused (a lost update) or a read of a commit made after the
  // snapshot. (A signature comes from the search's deepest refusal, which in some runs is another
  // rule the wrong order there broke first, such as a lock held: not every one names the anomaly.
  // Where the snapshot's value there is a committed write nobody read, the symptom is that value
  // (findings/failure_signature.cpp), whichever rule refused: seen in 3 of 24 failing runs.)
  const auto signed_as = symptom_titles(result);
  REQUIRE_FALSE(signed_as.empty());
  bool anomaly_named = false;
  for (const auto& s : signed_as) {
    INFO(s);
    const bool lost_update_or_later_read = s.find("FirstCommitterWins") != std::string::npos || s.find("Visible(txn, key) =") != std::string::npos;
    // A title reads "Get refused by Get: the state holds a value that only Put logged ...", or
    // "... only GetForUpdate, Put logged ..." where a locking read of the same transaction logged it too.
    const std::string only = ": the state holds a value that only ";
    const auto names_at = s.find(only);
    const auto names_end = names_at == std::string::npos ? names_at : s.find(" logged", names_at);
    const std::string logged_by = names_end == std::string::npos ? "" : s.substr(names_at + only.size(), names_end - names_at - only.size());
    const bool unread_write = logged_by.find("Put") != std::string::npos && s.ends_with("and no operation takes out");
    anomaly_named |= lost_update_or_later_read || unread_write;
    CHECK((lost_update_or_later_read || unread_write || s.find("WaitsOnlyForAHeldLock") != std::string::npos ||
           s.find("RunsAtItsCommit") != std::string::npos));
  }
  CHECK(anomaly_named);
  // The workload met the conflicts the specs are about.
  CHECK(result.count_logged("rocksdb-si", [](const trace::Operation& op) { return has_status(op, "busy"); }) > 0);
  CHECK(result.count_logged("rocksdb-si", [](const trace::Operation& op) { return has_status(op, "timed_out"); }) > 0);
  CHECK(result.count_logged("rocksdb-optimistic", [](const trace::Operation& op) { return op.name == "Commit" && has_status(op, "busy"); }) > 0);
}

TEST_CASE("under rr chaos: snapshot isolation passes, the no-snapshot misconfiguration fails", "[rocksdb]") {
  testing::require_rr_chaos();
  ScratchDir dir;
  const auto result = testing::run_campaign(testing::example_campaign("rocksdb.json"), dir,
                                            {"--set", "rr=chaos", "--runs", "1", "--only", "rocksdb-si", "--only",
                                             "rocksdb-no-snapshot", "--set", "validation.checker=native", "--set",
                                             "validation.interleavings=0"});
  INFO(result.output);
  CHECK(result.outcomes("rocksdb-si") == std::vector<std::string>(2, "pass"));
  CHECK(result.count("rocksdb-no-snapshot", "fail") >= 1);
  for (const auto& run : result.summary.at("runs")) CHECK(run.at("rr_mode") == "chaos");
}

TEST_CASE("write skew: one recorded run passes snapshot isolation and fails serializability", "[rocksdb]") {
  // Recorded under rr chaos where rr records, natively otherwise: the verdicts are the trace's.
  ScratchDir dir;
  const auto result = testing::run_campaign(testing::example_campaign("rocksdb.json"), dir,
                                            {"--only", "rocksdb-si-as-serializable", "--runs", "3", "--set",
                                             "validation.checker=native", "--set", "validation.interleavings=0"});
  INFO(result.output);
  std::optional<fs::path> skewed;
  for (const auto& run : result.summary.at("runs"))
    if (run.at("outcome") == "fail") {
      skewed = run.at("dir").get<std::string>();
      break;
    }
  REQUIRE(skewed);  // 4 threads over 2 keys: measured natively, 8 runs of 8 had one
  // Validated against other specs as a copy outside the store (the store's own run goes through
  // `revalidate`, which keeps its index in step).
  fs::copy(*skewed, dir / "skewed", fs::copy_options::recursive);
  skewed = dir / "skewed";
  const ProcessResult serializable = validate(*skewed, "SerializableKV.tla");
  INFO(serializable.out << serializable.err);
  CHECK(serializable.exit_code == 1);
  // Whatever conjunct the deepest refusal names: SnapshotKV accepts the run below, so the rule
  // SerializableKV adds, RunsAtItsCommit, is what refuses every order. (Under rr's counter clock
  // the timeboxes overlap widely, and the search's deepest order may stop at another rule first:
  // seen in CI as FirstCommitterWins at a GetForUpdate.)
  CHECK_THAT(serializable.out, Contains("refused: "));
  const ProcessResult snapshot = validate(*skewed, "SnapshotKV.tla");
  INFO(snapshot.out << snapshot.err);
  CHECK(snapshot.exit_code == 0);
}

TEST_CASE("the RocksDB workload's parameters are checked, and a bad one is named", "[rocksdb]") {
  ScratchDir dir;
  auto error = [&](const std::string& param) {
    const ProcessResult r = run_process(OMNILINK_EXAMPLE_ROCKSDB_TXN, {"--threads", "1", "--ops", "10", "--quiet", "--out",
                                                                       (dir / "bad").string(), "--param", param});
    CHECK(r.exit_code == 3);
    return r.err;
  };
  CHECK_THAT(error("db=mysql"), Contains("--param db=mysql: must be pessimistic or optimistic"));
  CHECK_THAT(error("reads=dirty"), Contains("--param reads=dirty: must be get or for_update"));
  CHECK_THAT(error("snapshot=2"), Contains("--param snapshot=2: must be 0 or 1"));
  CHECK_THAT(error("keys=0"), Contains("--param keys=0: must be 1 to 1000"));
  CHECK_THAT(error("txn_ops=x"), Contains("--param txn_ops=x: not an integer"));
  CHECK_THAT(error("lock_timeout_ms=0"), Contains("--param lock_timeout_ms=0: must be 1 to 60000"));
}
