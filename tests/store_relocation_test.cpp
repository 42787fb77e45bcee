// A store is a directory that can be copied, moved, archived and restored: the index keeps run
// directories relative to the store (schema 3), so every verb run on a copy reads and writes the
// copy alone, and a moved store names its own runs. The original's files are compared byte for
// byte before and after every verb has run on its copy. A version-2 index (absolute directories)
// is read as if upgraded by the read-only verbs, upgraded by the first verb that writes, and
// refused, naming the runs, where a directory lies where no omnilink puts a run.
#include <catch2/catch.hpp>


#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "support/campaign_support.hpp"
#include "support/store_sql.hpp"

namespace {

using namespace omnilink;
using namespace omnilink::testing;
namespace fs = std::filesystem;
using nlohmann::json;

// Every file below `dir` with its bytes.
std::map<std::string, std::string> file_bytes(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files[fs::relative(entry.path(), dir).string()] = {std::istreambuf_iterator<char>(in), {}};
  }
  return files;
}

const auto sql = testing::store_sql;

// The crashing harness (never crashing, rr off, the native checker) against a spec that refuses
// every step: quick, and every run fails, so there is something to explain. `steps.json` runs it
// twice; `nightly.json` sweeps it for two seconds.
void write_failing_files(const ScratchDir& dir) {
  std::ofstream(dir / "Strict.tla") << "---- MODULE Strict ----\nEXTENDS Integers\nVARIABLE steps\n"
                                       "\\* @type: (Int) => Bool;\nStep(n) == n < 0 /\\ steps' = steps + 1\n"
                                       "Init == steps = 0\nNext == \\E n \\in Int : Step(n)\n====\n";
  json target{{"name", "steps"}, {"harness", OMNILINK_CRASHING_HARNESS}, {"spec", (dir / "Strict.tla").string()},
              {"threads", {2}}, {"ops", {20}}, {"args", {"--param", "crash_at=-1"}}};
  const json validation{{"checker", "native"}, {"confirm_failures", 0}};
  json sweep{{"format", 1}, {"name", "nightly"}, {"rr", "off"}, {"validation", validation}, {"sweep", {{"for", "2s"}, {"min_runs", 1}}},
             {"targets", {target}}};
  std::ofstream(dir / "nightly.json") << sweep.dump();
  target["runs"] = 2;
  std::ofstream(dir / "steps.json") << json{{"format", 1}, {"name", "steps"}, {"rr", "off"}, {"validation", validation},
                                            {"targets", {target}}}.dump();
}

void failing_campaign(const ScratchDir& dir) {
  write_failing_files(dir);
  const ProcessResult r = omnilink_cli({"campaign", (dir / "steps.json").string(), "--store", (dir / "original").string(), "--plain"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 1);  // failures found
}

// The bytes of every store in `stores`, to compare after the copies were used.
std::map<std::string, std::map<std::string, std::string>> stores_bytes(const std::vector<fs::path>& stores) {
  std::map<std::string, std::map<std::string, std::string>> all;
  for (const fs::path& store : stores) all[store.string()] = file_bytes(store);
  return all;
}

void copy_store(const fs::path& from, const fs::path& to) {
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
}

// `ls steps-1 --json` on `store`: each run's directory and verdict.
std::map<std::string, std::pair<std::string, std::string>> listed_runs(const fs::path& store) {
  const ProcessResult r = omnilink_cli({"ls", "steps-1", "--store", store.string(), "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  std::map<std::string, std::pair<std::string, std::string>> out;
  for (const auto& run : json::parse(r.out))
    out[run.at("id").get<std::string>()] = {run.at("dir").get<std::string>(), run.at("validation").at("verdict").get<std::string>()};
  return out;
}

// Every verb that reads or writes a store's runs, on `store`: each works, names only `store`'s
// files, and what it writes lands there. `other` is a store whose path must never appear.
void every_verb(const ScratchDir& dir, const fs::path& store, const fs::path& other, const std::string& tag) {
  INFO("store " << store << " (" << tag << ")");
  const std::string s = store.string();
  auto no_other = [&](const ProcessResult& r) {
    INFO(r.describe() << "\n" << r.out << r.err);
    CHECK(r.out.find(other.string() + "/") == std::string::npos);
    CHECK(r.err.find(other.string() + "/") == std::string::npos);
  };
  for (const auto& [id, run] : listed_runs(store)) {
    CHECK(run.first == (store / "steps-1" / id).string());
    CHECK(run.second == "fail");
  }
  const std::string first = "steps-1/" + listed_runs(store).begin()->first;

  const ProcessResult ls = omnilink_cli({"ls", "--store", s});
  CHECK(ls.exit_code == 0);
  no_other(ls);
  const ProcessResult show = omnilink_cli({"show", first, "--store", s, "--json"});
  CHECK(show.exit_code == 0);
  no_other(show);
  CHECK(show.out.find(s + "/steps-1/") != std::string::npos);

  const ProcessResult explain = omnilink_cli({"explain", first, "--store", s, "--fresh"});
  CHECK(explain.exit_code == 0);
  no_other(explain);
  CHECK(fs::exists(store / first / "explain" / "explanation.json"));

  const ProcessResult exported = omnilink_cli({"trace", "export", (store / first).string(), (dir / (tag + ".jsonl")).string()});
  CHECK(exported.exit_code == 0);

  // Validated again with a spec that allows every step: the runs pass, in this store's index and files.
  const ProcessResult lax = omnilink_cli({"revalidate", "steps-1", "--store", s, "--spec", std::string(OMNILINK_TEST_SPECS) + "/Steps.tla",
                                          "--checker", "native"});
  CHECK(lax.exit_code == 0);
  no_other(lax);
  for (const auto& [id, run] : listed_runs(store)) {
    CHECK(run.second == "pass");
    std::ifstream in(store / "steps-1" / id / "validation" / "result.json");
    CHECK(json::parse(in).at("verdict") == "pass");
  }
  const ProcessResult strict = omnilink_cli({"revalidate", "steps-1", "--store", s});  // the campaign's own spec again
  CHECK(strict.exit_code == 1);
  no_other(strict);

  const ProcessResult results = omnilink_cli({"results", "steps-1", "--store", s, "-o", (dir / (tag + ".md")).string()});
  CHECK(results.exit_code == 0);
  no_other(results);
  const ProcessResult report = omnilink_cli({"report", "steps-1", "--store", s, "--html", (dir / (tag + "-html")).string()});
  CHECK(report.exit_code == 0);
  no_other(report);
  // Recorded without rr (this store's run record says so): replay has nothing to replay.
  const ProcessResult replay = omnilink_cli({"replay", first, "--store", s, "--core"});
  no_other(replay);
  CHECK(replay.exit_code == 3);
  CHECK_THAT(replay.err, Catch::Contains(first + " was not recorded with rr"));
  const ProcessResult gc = omnilink_cli({"gc", s});
  CHECK(gc.exit_code == 0);
  no_other(gc);
  const ProcessResult resume = omnilink_cli({"campaign", (dir / "steps.json").string(), "--store", s, "--resume", "--id", "steps-1", "--plain"});
  CHECK((resume.exit_code == 0 || resume.exit_code == 1));
  no_other(resume);
  for (const auto& [id, run] : listed_runs(store)) CHECK(run.second == "fail");
}

}  // namespace

TEST_CASE("a copied and then moved store: every verb works on it and touches only it", "[store][relocation]") {
  ScratchDir dir;
  failing_campaign(dir);
  const fs::path original = dir / "original";
  const auto before = file_bytes(original);
  REQUIRE(before.count("omnilink.db") == 1);
  CHECK(sql(original, "PRAGMA user_version") == std::to_string(store::kStoreSchemaVersion));
  CHECK(sql(original, "SELECT COUNT(*) FROM runs WHERE dir LIKE '/%'") == "0");  // relative to the store

  fs::copy(original, dir / "copy", fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  every_verb(dir, dir / "copy", original, "copy");
  fs::rename(dir / "copy", dir / "moved");
  every_verb(dir, dir / "moved", dir / "copy", "moved");

  // The index made again from the moved store's directories names them there too.
  for (const char* file : {"omnilink.db", "omnilink.db-wal", "omnilink.db-shm"}) fs::remove(dir / "moved" / file);
  const ProcessResult rebuild = omnilink_cli({"store", "rebuild", (dir / "moved").string()});
  INFO(rebuild.out << rebuild.err);
  CHECK(rebuild.exit_code == 0);
  for (const auto& [id, run] : listed_runs(dir / "moved")) CHECK(run.first == (dir / "moved" / "steps-1" / id).string());

  const auto after = file_bytes(original);
  CHECK(after.size() == before.size());
  for (const auto& [file, bytes] : before) {
    INFO(file);
    CHECK(after.count(file) == 1);
    if (after.count(file) == 1) CHECK(after.at(file) == bytes);
  }
}

TEST_CASE("a version-2 index is read as if upgraded, upgraded when written, and refused with directories elsewhere",
          "[store][relocation]") {
  ScratchDir dir;
  failing_campaign(dir);
  const fs::path original = dir / "original";
  // As omnilink wrote a version-2 store, then copied: absolute paths into the original.
  for (const char* name : {"old", "odd"}) {
    fs::copy(original, dir / name, fs::copy_options::recursive);
    sql(dir / name, "UPDATE runs SET dir = '" + original.string() + "/' || campaign || '/' || id");
    sql(dir / name, "ALTER TABLE campaigns DROP COLUMN kind");
    sql(dir / name, "PRAGMA user_version = 2");
  }
  const auto before = file_bytes(original);

  for (const auto& [id, run] : listed_runs(dir / "old")) CHECK(run.first == (dir / "old" / "steps-1" / id).string());
  CHECK(sql(dir / "old", "PRAGMA user_version") == "2");  // a read-only verb does not upgrade
  const ProcessResult lax = omnilink_cli({"revalidate", "steps-1", "--store", (dir / "old").string(), "--spec",
                                          std::string(OMNILINK_TEST_SPECS) + "/Steps.tla", "--checker", "native"});
  INFO(lax.out << lax.err);
  CHECK(lax.exit_code == 0);
  CHECK(sql(dir / "old", "PRAGMA user_version") == "4");
  CHECK(sql(dir / "old", "SELECT COUNT(*) FROM runs WHERE dir = campaign || '/' || id") == "2");
  for (const auto& [id, run] : listed_runs(dir / "old")) CHECK(run.second == "pass");

  // A run directory where no omnilink puts one: the upgrade refuses, naming it, and changes nothing.
  sql(dir / "odd", "UPDATE runs SET dir = '/elsewhere/somewhere' WHERE id = (SELECT MIN(id) FROM runs)");
  const ProcessResult refused = omnilink_cli({"revalidate", "steps-1", "--store", (dir / "odd").string()});
  CHECK(refused.exit_code == 3);
  CHECK_THAT(refused.err, Catch::Contains("/elsewhere/somewhere") && Catch::Contains("schema version 3"));
  CHECK(sql(dir / "odd", "PRAGMA user_version") == "2");
  CHECK(file_bytes(original) == before);
}

TEST_CASE("copied shard stores merge into a copied store, and a copied store sweeps on from its own history",
          "[store][relocation]") {
  ScratchDir dir;
  write_failing_files(dir);
  for (int i = 0; i < 2; ++i) {
    const ProcessResult shard = omnilink_cli({"campaign", (dir / "steps.json").string(), "--shard", std::to_string(i) + "/2", "--store",
                                              (dir / ("shard" + std::to_string(i))).string(), "--plain"});
    INFO(shard.out << shard.err);
    REQUIRE(shard.exit_code == 1);
  }
  // The first shard merged into a store, which is then copied; the copy takes the second shard's copy.
  const ProcessResult first = omnilink_cli({"merge", (dir / "dest").string(), (dir / "shard0").string()});
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  copy_store(dir / "dest", dir / "dest-copy");
  copy_store(dir / "shard1", dir / "shard1-copy");
  const auto before = stores_bytes({dir / "dest", dir / "shard1"});

  const ProcessResult rest =
      omnilink_cli({"merge", (dir / "dest-copy").string(), (dir / "shard1-copy").string(), "--into", "steps-1"});
  INFO(rest.out << rest.err);
  REQUIRE(rest.exit_code == 0);
  CHECK_THAT(rest.out, Catch::Contains("every shard of 2 merged"));
  CHECK(rest.out.find((dir / "dest").string() + "/") == std::string::npos);
  const auto merged = listed_runs(dir / "dest-copy");
  CHECK(merged.size() == 2);
  for (const auto& [id, run] : merged) {
    CHECK(run.first == (dir / "dest-copy" / "steps-1" / id).string());
    CHECK(run.second == "fail");
    CHECK(fs::is_regular_file(dir / "dest-copy" / "steps-1" / id / "meta.json"));
  }
  // The copied shard says it went into the copy; the original shard and the first store are as they were.
  const json marker = json::parse(std::ifstream(dir / "shard1-copy" / "steps-1" / "merged.json"));
  CHECK(marker.at("into") == (dir / "dest-copy").string());
  CHECK(stores_bytes({dir / "dest", dir / "shard1"}) == before);

  // A sweep, then the store copied: the copy's next sweep of the same file knows the failure
  // (nothing new, exit 0, where a store without that history would say new, exit 1), and the
  // original does not hear of it.
  const fs::path nightly = dir / "nightly.json";
  const ProcessResult swept = omnilink_cli({"sweep", nightly.string(), "--store", (dir / "swept").string(), "--plain"});
  INFO(swept.out << swept.err);
  REQUIRE(swept.exit_code == 1);  // a new signature
  copy_store(dir / "swept", dir / "swept-copy");
  const auto swept_before = file_bytes(dir / "swept");
  const ProcessResult again = omnilink_cli({"sweep", nightly.string(), "--store", (dir / "swept-copy").string(), "--plain"});
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
  CHECK(again.out.find((dir / "swept").string() + "/") == std::string::npos);
  const ProcessResult report =
      omnilink_cli({"sweep", nightly.string(), "--report", "--id", "nightly-1", "--store", (dir / "swept-copy").string(), "--plain"});
  INFO(report.out << report.err);
  CHECK(report.exit_code == 1);  // the first sweep's report, read from the copy: its signature was new then
  CHECK(report.out.find((dir / "swept").string() + "/") == std::string::npos);
  CHECK(file_bytes(dir / "swept") == swept_before);
  const ProcessResult listed = omnilink_cli({"ls", "--store", (dir / "swept-copy").string()});
  CHECK_THAT(listed.out, Catch::Contains("nightly-1") && Catch::Contains("nightly-2"));

  // Moved, the copies go on in their new place: a third sweep, a merged run's directory.
  fs::rename(dir / "swept-copy", dir / "swept-moved");
  const ProcessResult third = omnilink_cli({"sweep", nightly.string(), "--store", (dir / "swept-moved").string(), "--plain"});
  INFO(third.out << third.err);
  CHECK(third.exit_code == 0);
  CHECK(third.out.find((dir / "swept-copy").string() + "/") == std::string::npos);
  fs::rename(dir / "dest-copy", dir / "dest-moved");
  for (const auto& [id, run] : listed_runs(dir / "dest-moved")) CHECK(run.first == (dir / "dest-moved" / "steps-1" / id).string());
  CHECK(file_bytes(dir / "swept") == swept_before);
}
