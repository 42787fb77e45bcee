// The campaign store (store/store): schema and its version, campaigns and their ids, runs and
// validations round-tripping every field, two processes writing one store at once; and the
// commands reading it, `omnilink ls` and `omnilink show`, run as real processes.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "store/outcome.hpp"
#include "store/run_record_file.hpp"
#include "platform/json_file.hpp"
#include "store/campaign_lock.hpp"
#include "store/store.hpp"
#include "platform/subprocess.hpp"
#include "support/store_sql.hpp"
#include "support/test_support.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
using store::RunRecord;
using store::Store;
using store::StoreError;
using store::ValidationRecord;
namespace fs = std::filesystem;

const auto sql = testing::store_sql;

RunRecord planned(const std::string& campaign, const std::string& id, std::uint64_t seed = 7) {
  RunRecord r;
  r.campaign = campaign;
  r.id = id;
  r.target = "locked-queue";
  r.threads = 2;
  r.ops = 500;
  r.number = 1;
  r.seed = seed;
  r.dir = "/store/" + campaign + "/" + id;
  return r;
}

ValidationRecord validation_record(Verdict verdict) {
  ValidationRecord v;
  v.verdict = verdict;
  v.reason = verdict == Verdict::fail ? "no order of the operations is accepted by the spec" : "";
  v.spec = "/specs/LinearizableQueue.tla";
  v.duration_ms = 1234;
  v.peak_rss_kb = 524288;
  v.operations = 1000;
  v.created_ms = 1'700'000'000'000;
  return v;
}

void check_same(const RunRecord& a, const RunRecord& b) {
  CHECK(a.campaign == b.campaign);
  CHECK(a.id == b.id);
  CHECK(a.target == b.target);
  CHECK(a.threads == b.threads);
  CHECK(a.ops == b.ops);
  CHECK(a.number == b.number);
  CHECK(a.seed == b.seed);
  CHECK(a.status == b.status);
  CHECK(a.detail == b.detail);
  CHECK(a.rr_mode == b.rr_mode);
  CHECK(a.rr_soft_counters == b.rr_soft_counters);
  CHECK(a.exit_code == b.exit_code);
  CHECK(a.exit_signal == b.exit_signal);
  // Read back under the store as it was opened, wherever the writer said it was (schema 3).
  CHECK(fs::path(a.dir).filename() == b.id);
  CHECK(fs::path(a.dir).parent_path().filename() == b.campaign);
  CHECK(fs::path(a.dir).is_absolute());
  CHECK(a.started_ms == b.started_ms);
  CHECK(a.finished_ms == b.finished_ms);
  CHECK(a.harness_ms == b.harness_ms);
  CHECK(a.pack_ms == b.pack_ms);
}

std::vector<std::string> ids(const std::vector<RunRecord>& runs) {
  std::vector<std::string> out;
  for (const auto& r : runs) out.push_back(r.id);
  return out;
}

}  // namespace

TEST_CASE("every status, verdict and outcome has one name that reads back as itself", "[store]") {
  // Each vocabulary's names are what the index, run.json, result.json and reports hold: a value
  // without its own name (or two sharing one) would read back as another.
  const auto check = [](const auto& values, auto parse) {
    std::set<std::string> names;
    for (const auto value : values) {
      const std::string name = to_string(value);
      INFO(name);
      CHECK(name != "?");
      CHECK(names.insert(name).second);
      CHECK(parse(name) == value);
      CHECK(nlohmann::json(value) == name);  // JSON holds the name, never the enum's number
    }
    CHECK_FALSE(parse("no-such-name").has_value());
  };
  check(store::kRunStatuses, store::parse_run_status);
  check(store::kCampaignStatuses, store::parse_campaign_status);
  check(store::kRecordingModes, store::parse_recording_mode);
  check(results::kVerdicts, results::parse_verdict);
  std::set<std::string> outcomes;
  for (const store::Outcome o : store::kOutcomes) outcomes.insert(store::to_string(o));
  CHECK(outcomes.size() == store::kOutcomes.size());
  CHECK_FALSE(outcomes.count("?"));
}

TEST_CASE("a new store has the schema version and WAL, and keeps its data when reopened", "[store]") {
  testing::ScratchDir dir;
  const fs::path store_dir = dir / "nested" / "store";
  {
    Store store = Store::open(store_dir);
    CHECK(store.directory() == store_dir);
    store.create_campaign(store::CampaignKind::campaign, "demo", "/c/demo.json", "{}");
  }
  CHECK(sql(store_dir, "PRAGMA user_version") == std::to_string(store::kStoreSchemaVersion));
  CHECK(sql(store_dir, "PRAGMA user_version") == "4");
  CHECK(sql(store_dir, "SELECT COUNT(*) FROM runs") == "0");
  CHECK(sql(store_dir, "PRAGMA journal_mode") == "wal");
  Store again = Store::open(store_dir);
  REQUIRE(again.campaigns().size() == 1);
  CHECK(again.campaigns()[0].id == "demo-1");
  CHECK(again.campaigns()[0].file == "/c/demo.json");
}

TEST_CASE("a store written by a newer omnilink is refused, naming the file and its version", "[store]") {
  testing::ScratchDir dir;
  Store::open(dir.path());
  sql(dir.path(), "PRAGMA user_version = 99");
  CHECK_THROWS_MATCHES(Store::open(dir.path()), StoreError,
                       Catch::Message((dir.path() / "omnilink.db").string() +
                                      " has schema version 99; this omnilink knows up to " + std::to_string(store::kStoreSchemaVersion) + " (upgrade omnilink)"));
  CHECK_THROWS_AS(Store::open_existing(dir.path()), StoreError);
}

TEST_CASE("open_existing never creates a store", "[store]") {
  testing::ScratchDir dir;
  CHECK_THROWS_WITH(Store::open_existing(dir / "none"), "no store at " + (dir / "none").string() + " (omnilink.db missing)");
  CHECK_FALSE(fs::exists(dir / "none"));
  Store::open(dir / "some");
  CHECK_NOTHROW(Store::open_existing(dir / "some"));
}

TEST_CASE("campaigns of one name are numbered, the latest is found, finishing sets finished_ms", "[store]") {
  testing::ScratchDir dir;
  Store store = Store::open(dir.path());
  const auto before = store::now_ms();
  CHECK(store.create_campaign(store::CampaignKind::campaign, "demo", "/c/demo.json", R"({"name":"demo"})") == "demo-1");
  CHECK(store.create_campaign(store::CampaignKind::campaign, "other", "/c/other.json", "{}") == "other-1");
  CHECK(store.create_campaign(store::CampaignKind::campaign, "demo", "/c/demo.json", R"({"name":"demo"})") == "demo-2");

  // demo-2's session is alive (it holds the campaign's lock); other-1's is not, and its end was
  // never written (a full disk, a kill): it reads as interrupted, though the index says running.
  std::string why;
  auto session = store::CampaignLock::acquire(dir.path() / "demo-2", why);
  REQUIRE(session);
  CHECK(store.campaign("other-1")->status == store::CampaignStatus::interrupted);
  auto latest = store.latest_campaign("demo");
  REQUIRE(latest);
  CHECK(latest->id == "demo-2");
  CHECK(latest->name == "demo");
  CHECK(latest->config_json == R"({"name":"demo"})");
  CHECK(latest->status == store::CampaignStatus::running);
  CHECK(latest->created_ms >= before);
  CHECK(latest->finished_ms == 0);
  CHECK_FALSE(store.latest_campaign("nope"));
  CHECK_FALSE(store.campaign("demo-3"));

  store.set_campaign_status("demo-1", store::CampaignStatus::finished);
  auto finished = store.campaign("demo-1");
  REQUIRE(finished);
  CHECK(finished->status == store::CampaignStatus::finished);
  CHECK(finished->finished_ms >= finished->created_ms);
  CHECK(store.campaign("demo-2")->finished_ms == 0);
  store.set_campaign_status("demo-1", store::CampaignStatus::running);  // resumed
  CHECK(store.campaign("demo-1")->finished_ms == 0);
  CHECK_THROWS_AS(store.set_campaign_status("demo-9", store::CampaignStatus::finished), StoreError);

  // Ends are numbered in the order they happen, whatever the campaigns' ages; running clears it.
  CHECK(store.campaign("demo-1")->ended_seq == 0);
  store.set_campaign_status("demo-2", store::CampaignStatus::interrupted);
  store.set_campaign_status("demo-1", store::CampaignStatus::finished);
  CHECK(store.campaign("demo-2")->ended_seq == 1);  // demo-1's first end was cleared by its resume
  CHECK(store.campaign("demo-1")->ended_seq == 2);
  CHECK(store.campaign("other-1")->ended_seq == 0);
  // ... and campaign.json says so too, for a rebuild.
  std::ifstream record(store::campaign_record_file(dir.path(), "demo-1"));
  const auto mirrored = nlohmann::json::parse(record);
  CHECK(mirrored.at("status") == "finished");
  CHECK(mirrored.at("ended_seq") == 2);
  CHECK(mirrored.at("finished_ms") == store.campaign("demo-1")->finished_ms);
  CHECK(mirrored.at("config") == nlohmann::json::parse(R"({"name":"demo"})"));

  std::vector<std::string> order;
  for (const auto& c : store.campaigns()) order.push_back(c.id);
  CHECK(order == std::vector<std::string>{"demo-1", "other-1", "demo-2"});
}

TEST_CASE("runs round-trip every field, keep plan order, and are not reset by adding them again", "[store]") {
  testing::ScratchDir dir;
  Store store = Store::open(dir.path());
  const std::string c = store.create_campaign(store::CampaignKind::campaign, "demo", "/c/demo.json", "{}");
  store.add_runs({planned(c, "q.t2.o500.r002"), planned(c, "q.t2.o500.r001"), planned(c, "q.t4.o500.r001")});
  CHECK(ids(store.runs(c)) == std::vector<std::string>{"q.t2.o500.r002", "q.t2.o500.r001", "q.t4.o500.r001"});
  auto fresh = store.run(c + "/q.t2.o500.r001");
  REQUIRE(fresh);
  check_same(*fresh, planned(c, "q.t2.o500.r001"));
  CHECK(fresh->status == store::RunStatus::pending);
  CHECK_FALSE(fresh->validation);

  RunRecord crashed = planned(c, "q.t2.o500.r001", 0xFFFFFFFFFFFFFFFFull);
  crashed.target = "racy-queue";
  crashed.threads = 4;
  crashed.ops = 1ull << 40;
  crashed.number = 3;
  crashed.status = store::RunStatus::crashed;
  crashed.detail = "killed by signal 11 (SIGSEGV)";
  crashed.rr_mode = store::RecordingMode::chaos;
  crashed.rr_soft_counters = true;
  crashed.exit_signal = 11;
  crashed.dir = "/elsewhere/run";  // no run directory of this store: omnilink's own error, refused
  CHECK_THROWS_AS(store.update_run(crashed), StoreError);
  crashed.dir = (dir / c / crashed.id).string();
  crashed.started_ms = 1'700'000'000'123;
  crashed.finished_ms = 1'700'000'004'567;
  crashed.harness_ms = 4000;
  crashed.pack_ms = 321;
  store.update_run(crashed);

  RunRecord ok = planned(c, "q.t2.o500.r002", 1ull << 63);
  ok.status = store::RunStatus::ok;
  ok.rr_mode = store::RecordingMode::off;
  ok.exit_code = 0;
  store.update_run(ok);

  auto back = store.run(c + "/q.t2.o500.r001");
  REQUIRE(back);
  check_same(*back, crashed);
  CHECK(back->dir == crashed.dir);
  CHECK(back->seed == 0xFFFFFFFFFFFFFFFFull);
  CHECK_FALSE(back->exit_code);
  check_same(*store.run(c + "/q.t2.o500.r002"), ok);

  // Resume: the plan is added again, with one new run; nothing is duplicated or reset.
  store.add_runs({planned(c, "q.t2.o500.r002"), planned(c, "q.t2.o500.r001"), planned(c, "q.t4.o500.r001"),
                  planned(c, "q.t4.o500.r002")});
  const auto all = store.runs(c);
  CHECK(ids(all) == std::vector<std::string>{"q.t2.o500.r002", "q.t2.o500.r001", "q.t4.o500.r001", "q.t4.o500.r002"});
  check_same(all[1], crashed);
  check_same(all[0], ok);

  CHECK(ids(store.runs(c, store::RunStatus::pending)) == std::vector<std::string>{"q.t4.o500.r001", "q.t4.o500.r002"});
  CHECK(ids(store.runs(c, store::RunStatus::crashed)) == std::vector<std::string>{"q.t2.o500.r001"});
  CHECK(store.runs(c, store::RunStatus::timeout).empty());
  CHECK(store.runs("demo-7").empty());
}

TEST_CASE("the newest validation is a run's current one, and optional fields round-trip", "[store]") {
  testing::ScratchDir dir;
  Store store = Store::open(dir.path());
  const std::string c = store.create_campaign(store::CampaignKind::campaign, "demo", "/c/demo.json", "{}");
  store.add_runs({planned(c, "a"), planned(c, "b")});

  store.add_validation(c, "a", validation_record(Verdict::unknown));  // no states, no linearized
  auto first = store.run(c + "/a")->validation;
  REQUIRE(first);
  CHECK(first->verdict == Verdict::unknown);
  CHECK_FALSE(first->states_generated);
  CHECK_FALSE(first->states_distinct);
  CHECK_FALSE(first->linearized);

  ValidationRecord fail = validation_record(Verdict::fail);
  fail.states_generated = 1ull << 40;
  fail.states_distinct = 0;
  fail.linearized = 174;
  fail.peak_rss_kb = 0xFFFFFFFFFFFFFFFFull;
  fail.frontier_summary = "pending at the deepest state:\n  T0.157 Dequeue(elem = 144, ok = TRUE)";
  fail.created_ms = 0;  // now
  const auto before = store::now_ms();
  store.add_validation(c, "a", fail);

  auto newest = store.run(c + "/a")->validation;
  REQUIRE(newest);
  CHECK(newest->verdict == Verdict::fail);
  CHECK(newest->reason == fail.reason);
  CHECK(newest->spec == fail.spec);
  CHECK(newest->duration_ms == 1234);
  CHECK(newest->peak_rss_kb == 0xFFFFFFFFFFFFFFFFull);
  CHECK(newest->states_generated == (1ull << 40));
  CHECK(newest->states_distinct == 0u);
  CHECK(newest->operations == 1000);
  CHECK(newest->linearized == 174);
  CHECK(newest->frontier_summary == fail.frontier_summary);
  CHECK(newest->created_ms >= before);

  const auto runs = store.runs(c);
  REQUIRE(runs.size() == 2);
  REQUIRE(runs[0].validation);
  CHECK(runs[0].validation->verdict == Verdict::fail);
  CHECK_FALSE(runs[1].validation);
  CHECK_THROWS_AS(store.add_validation(c, "zzz", fail), StoreError);  // no such run
}

TEST_CASE("a version-1 store is read as it would be upgraded, and upgraded when opened to write", "[store]") {
  testing::ScratchDir dir;
  {
    Store store = Store::open(dir.path());
    store.create_campaign(store::CampaignKind::campaign, "demo", "/c/demo.json", "{}");
    store.create_campaign(store::CampaignKind::campaign, "demo", "/c/demo.json", "{}");
    store.create_campaign(store::CampaignKind::campaign, "demo", "/c/demo.json", "{}");
    store.set_campaign_status("demo-3", store::CampaignStatus::finished);
    store.set_campaign_status("demo-1", store::CampaignStatus::interrupted);
  }
  // What omnilink wrote before ended_seq existed.
  sql(dir.path(), "ALTER TABLE campaigns DROP COLUMN ended_seq");
  sql(dir.path(), "ALTER TABLE campaigns DROP COLUMN kind");
  sql(dir.path(), "PRAGMA user_version = 1");
  auto ends = [](Store& store) {
    std::vector<std::int64_t> out;
    for (const auto& c : store.campaigns()) out.push_back(c.ended_seq);
    return out;
  };
  {
    Store read_only = Store::open_read_only(dir.path());
    CHECK(ends(read_only) == std::vector<std::int64_t>{1, 0, 3});  // ended in the order they were made
  }
  CHECK(sql(dir.path(), "PRAGMA user_version") == "1");  // reading changed nothing
  Store store = Store::open_existing(dir.path());
  CHECK(sql(dir.path(), "PRAGMA user_version") == "4");  // through versions 2 and 3
  CHECK(ends(store) == std::vector<std::int64_t>{1, 0, 3});
  store.set_campaign_status("demo-2", store::CampaignStatus::finished);
  CHECK(store.campaign("demo-2")->ended_seq == 4);
}

TEST_CASE("a campaign's kind is recorded, and a version-3 store's is told from its configuration", "[store]") {
  testing::ScratchDir dir;
  const std::string sweep_config = R"({"name":"nightly","sweep":{"budget":{"for_s":60},"configurations":["stack.t4"]}})";
  {
    Store store = Store::open(dir.path());
    store.create_campaign(store::CampaignKind::campaign, "demo", "/c/demo.json", R"({"name":"demo","sweep":null})");
    store.create_campaign(store::CampaignKind::sweep, "nightly", "/c/nightly.json", sweep_config);
    CHECK(store.campaign("demo-1")->kind == store::CampaignKind::campaign);
    CHECK(store.campaign("nightly-1")->kind == store::CampaignKind::sweep);
    CHECK(nlohmann::json(*store.campaign("nightly-1")).at("kind") == "sweep");  // ls --json
  }
  for (const char* file : {"campaign.json", "configuration.json"})
    CHECK(nlohmann::json::parse(std::ifstream(dir.path() / "nightly-1" / file)).at("kind") == "sweep");
  CHECK(sql(dir.path(), "SELECT group_concat(kind, ',') FROM (SELECT kind FROM campaigns ORDER BY id)") == "campaign,sweep");

  // As omnilink wrote the index before it kept the kind, one row's configuration damaged.
  sql(dir.path(), "ALTER TABLE campaigns DROP COLUMN kind");
  sql(dir.path(), "PRAGMA user_version = 3");
  Store::open(dir.path()).create_campaign(store::CampaignKind::sweep, "x", "/c/x.json", sweep_config);  // upgraded, then one more
  sql(dir.path(), "ALTER TABLE campaigns DROP COLUMN kind");
  sql(dir.path(), "PRAGMA user_version = 3");
  sql(dir.path(), "UPDATE campaigns SET config_json = '{not json' WHERE id = 'x-1'");
  const auto kinds = [](Store& store) {
    std::vector<store::CampaignKind> out;
    for (const auto& c : store.campaigns()) out.push_back(c.kind);
    return out;
  };
  const std::vector<store::CampaignKind> expected{store::CampaignKind::campaign, store::CampaignKind::sweep, store::CampaignKind::campaign};
  {
    Store read_only = Store::open_read_only(dir.path());
    CHECK(kinds(read_only) == expected);
  }
  CHECK(sql(dir.path(), "PRAGMA user_version") == "3");  // reading changed nothing
  Store store = Store::open_existing(dir.path());
  CHECK(sql(dir.path(), "PRAGMA user_version") == "4");
  CHECK(kinds(store) == expected);

  // A kind no omnilink writes is damage, named, never read as either.
  sql(dir.path(), "UPDATE campaigns SET kind = 'hunt' WHERE id = 'demo-1'");
  CHECK_THROWS_WITH(Store::open_read_only(dir.path()).campaign("demo-1"),
                    Catch::Contains("campaign demo-1 has kind 'hunt' in the index"));
}

TEST_CASE("a run's row is mirrored into its directory, and read back field for field", "[store]") {
  testing::ScratchDir dir;
  Store store = Store::open(dir.path());
  const std::string c = store.create_campaign(store::CampaignKind::campaign, "demo", "/c/demo.json", "{}");
  RunRecord run = planned(c, "q.t2.o500.r001", 0xFFFFFFFFFFFFFFFFull);
  RunRecord unstarted = planned(c, "q.t2.o500.r002");
  store.add_runs({run, unstarted});
  run.dir = (dir / c / run.id).string();
  fs::create_directories(run.dir);
  run.status = store::RunStatus::crashed;
  run.detail = "killed by signal 11 (SIGSEGV)";
  run.rr_mode = store::RecordingMode::chaos;
  run.rr_soft_counters = true;
  run.exit_signal = 11;
  run.started_ms = 1'700'000'000'123;
  run.finished_ms = 1'700'000'004'567;
  run.harness_ms = 4000;
  run.pack_ms = 321;
  store.update_run(run);
  store.update_run(unstarted);
  CHECK_FALSE(fs::exists(dir / c / unstarted.id));  // a run that never started gets no directory

  auto back = store::read_run_record_file(run.dir);
  REQUIRE(back);
  back->run.campaign = c;  // where it lives is where the file is
  back->run.dir = run.dir;
  check_same(back->run, run);
  CHECK(back->position == 1);
  CHECK_FALSE(back->run.validation);

  ValidationRecord v = validation_record(Verdict::fail);
  v.states_generated = 42;
  v.linearized = -1;
  store.add_validation(c, run.id, v);
  back = store::read_run_record_file(run.dir);
  REQUIRE(back->run.validation);
  CHECK(back->run.validation->verdict == Verdict::fail);
  CHECK(back->run.validation->states_generated == std::optional<std::uint64_t>(42));
  CHECK_FALSE(back->run.validation->states_distinct);
  CHECK(back->run.validation->linearized == std::optional<std::int64_t>(-1));
  CHECK(back->run.validation->created_ms == v.created_ms);

  CHECK_FALSE(store::read_run_record_file(dir / c));  // none there
  const fs::path file = store::run_record_file(run.dir);
  nlohmann::json j = nlohmann::json::parse(std::ifstream(file));
  j["threads"] = "2";
  std::ofstream(file) << j.dump();
  CHECK_THROWS_MATCHES(store::read_run_record_file(run.dir), StoreError, Catch::Message(file.string() + ": threads: not a non-negative integer"));
  j["threads"] = 2;
  j["version"] = 2;
  std::ofstream(file) << j.dump();
  CHECK_THROWS_MATCHES(store::read_run_record_file(run.dir), StoreError,
                       Catch::Message(file.string() + ": version: version 2; this omnilink reads version 1"));
  j["version"] = 1;
  j["id"] = "elsewhere";
  std::ofstream(file) << j.dump();
  CHECK_THROWS_MATCHES(store::read_run_record_file(run.dir), StoreError,
                       Catch::Message(file.string() + ": id: 'elsewhere' is not the name of its directory"));
  j["id"] = run.id;
  j["rr_mode"] = "sometimes";
  std::ofstream(file) << j.dump();
  CHECK_THROWS_MATCHES(store::read_run_record_file(run.dir), StoreError, Catch::Message(file.string() + ": rr_mode: 'sometimes' is no rr mode"));
  j["rr_mode"] = "";  // a run not started yet
  std::ofstream(file) << j.dump();
  CHECK_FALSE(store::read_run_record_file(run.dir)->run.rr_mode);
}

TEST_CASE("unknown runs: run() is nullopt, update_run throws", "[store]") {
  testing::ScratchDir dir;
  Store store = Store::open(dir.path());
  const std::string c = store.create_campaign(store::CampaignKind::campaign, "demo", "/c/demo.json", "{}");
  store.add_runs({planned(c, "a")});
  CHECK_FALSE(store.run("nope/x"));
  CHECK_FALSE(store.run(c + "/x"));
  CHECK_FALSE(store.run("no-slash"));
  CHECK_THROWS_WITH(store.update_run(planned(c, "x")), Catch::Contains("no run " + c + "/x"));
  CHECK_THROWS_AS(store.add_runs({planned("nope-1", "a")}), StoreError);  // no such campaign
}

namespace {

constexpr int kCampaignsEach = 20;
constexpr int kRunsEach = 50;

// One process's share of the concurrency test: campaigns named "demo", each with runs and
// validations added one transaction at a time. Returns "" or what went wrong.
std::string fill_store(const fs::path& dir, const std::string& who) {
  try {
    Store store = Store::open(dir);
    for (int i = 0; i < kCampaignsEach; ++i) {
      const std::string c = store.create_campaign(store::CampaignKind::campaign, "demo", "/c/" + who + ".json", "{}");
      for (int k = 0; k < kRunsEach; ++k) {
        RunRecord r = planned(c, who + ".r" + std::to_string(k), static_cast<std::uint64_t>(k));
        store.add_runs({r});
        r.status = store::RunStatus::ok;
        store.update_run(r);
        store.add_validation(c, r.id, validation_record(Verdict::pass));
      }
    }
    return "";
  } catch (const std::exception& e) {
    return who + ": " + e.what();
  }
}

}  // namespace

TEST_CASE("two processes create campaigns and write runs into one new store at once", "[store][concurrency]") {
  testing::ScratchDir dir;
  const fs::path store_dir = dir / "store";  // created by whichever process gets there first
  std::cout.flush();
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The child only uses its own Store and leaves without running Catch's or anyone's teardown.
    const std::string error = fill_store(store_dir, "child");
    if (!error.empty()) std::cerr << error << std::endl;
    ::_exit(error.empty() ? 0 : 1);
  }
  const std::string error = fill_store(store_dir, "parent");
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(error == "");
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);

  Store store = Store::open(store_dir);
  std::set<std::string> campaign_ids;
  std::map<std::string, int> by_file;
  for (const auto& c : store.campaigns()) {
    campaign_ids.insert(c.id);
    ++by_file[c.file];
    const auto runs = store.runs(c.id);
    CHECK(runs.size() == static_cast<std::size_t>(kRunsEach));
    for (const auto& r : runs) {
      CHECK(r.status == store::RunStatus::ok);
      CHECK((r.validation && r.validation->verdict == Verdict::pass));
    }
  }
  CHECK(store.campaigns().size() == 2 * kCampaignsEach);
  std::set<std::string> expected;
  for (int n = 1; n <= 2 * kCampaignsEach; ++n) expected.insert("demo-" + std::to_string(n));
  CHECK(campaign_ids == expected);
  CHECK(by_file["/c/parent.json"] == kCampaignsEach);
  CHECK(by_file["/c/child.json"] == kCampaignsEach);
  CHECK(sql(store_dir, "SELECT COUNT(*) FROM validations") == std::to_string(2 * kCampaignsEach * kRunsEach));
}

namespace {

ProcessResult omnilink_cli(const std::vector<std::string>& args, std::map<std::string, std::string> env = {}) {
  ProcessOptions options;
  options.timeout = std::chrono::seconds(60);
  options.env_overrides = std::move(env);
  return run_process(OMNILINK_CLI, args, options);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// demo-1 with three runs: a passed, b crashed (under rr chaos -W) and failed validation, c pending.
// Run directories are under the store, as a campaign lays them out; only b's has an rr/.
std::string populate(const fs::path& dir) {
  Store store = Store::open(dir);
  const std::string c = store.create_campaign(store::CampaignKind::campaign, "demo", "/c/demo.json", R"({"name":"demo"})");
  store.add_runs({planned(c, "q.t2.o500.r001"), planned(c, "q.t2.o500.r002"), planned(c, "q.t2.o500.r003")});
  RunRecord a = planned(c, "q.t2.o500.r001");
  a.status = store::RunStatus::ok;
  a.rr_mode = store::RecordingMode::off;
  a.exit_code = 0;
  a.harness_ms = 1500;
  a.dir = (dir / c / a.id).string();
  store.update_run(a);
  store.add_validation(c, a.id, validation_record(Verdict::pass));
  RunRecord b = planned(c, "q.t2.o500.r002", 0xFFFFFFFFFFFFFFFFull);
  b.status = store::RunStatus::crashed;
  b.detail = "killed by signal 11 (SIGSEGV)";
  b.rr_mode = store::RecordingMode::chaos;
  b.rr_soft_counters = true;
  b.exit_signal = 11;
  b.dir = (dir / c / b.id).string();
  fs::create_directories(fs::path(b.dir) / "rr");
  store.update_run(b);
  ValidationRecord fail = validation_record(Verdict::fail);
  fail.states_generated = 4242;
  fail.linearized = 174;
  fail.frontier_summary = "pending at the deepest state:\n  T0.157 Dequeue(elem = 144, ok = TRUE)";
  store.add_validation(c, b.id, fail);
  return c;
}

}  // namespace

TEST_CASE("omnilink ls lists the campaigns, and a campaign's runs filtered by status and verdict", "[cli][store]") {
  testing::ScratchDir dir;
  const std::string c = populate(dir.path());
  const std::string store = dir.path().string();

  auto campaigns = omnilink_cli({"ls", "--store", store});
  REQUIRE(campaigns.exit_code == 0);
  CHECK(contains(campaigns.out, "demo-1"));
  CHECK(contains(campaigns.out, "pending 1, ok 1, crashed 1"));
  CHECK(contains(campaigns.out, "pass 1, fail 1"));
  // Each campaign's kind, a sweep's night as such: a second store holding one of each.
  {
    testing::ScratchDir kinds;
    Store both = Store::open(kinds.path());
    const std::string campaign = both.create_campaign(store::CampaignKind::campaign, "steps", "/c/steps.json", R"({"name":"steps"})");
    const std::string night = both.create_campaign(store::CampaignKind::sweep, "nightly", "/c/nightly.json", R"({"name":"nightly"})");
    const auto listed = omnilink_cli({"ls", "--store", kinds.path().string()});
    REQUIRE(listed.exit_code == 0);
    const auto kind_of = [&](const std::string& id) {
      std::istringstream lines(listed.out);
      for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string first, second;
        if (words >> first >> second && first == id) return second;
      }
      return std::string("(not listed)");
    };
    CHECK(kind_of("campaign") == "kind");  // the header
    CHECK(kind_of(campaign) == "campaign");
    CHECK(kind_of(night) == "sweep");
  }
  auto from_env = omnilink_cli({"ls"}, {{"OMNILINK_STORE", store}});  // the default store
  CHECK(from_env.exit_code == 0);
  CHECK(from_env.out == campaigns.out);

  auto runs = omnilink_cli({"ls", c, "--store", store});
  REQUIRE(runs.exit_code == 0);
  CHECK(contains(runs.out, "q.t2.o500.r001"));
  CHECK(contains(runs.out, "q.t2.o500.r003"));
  CHECK(contains(runs.out, "fail"));
  CHECK(contains(runs.out, "18446744073709551615"));
  CHECK(contains(runs.out, "chaos -W"));
  CHECK(contains(runs.out, "1.50 s"));
  CHECK(runs.out.find("r001") < runs.out.find("r002"));  // plan order

  auto crashed = omnilink_cli({"ls", c, "--store", store, "--status", "crashed"});
  CHECK(contains(crashed.out, "q.t2.o500.r002"));
  CHECK_FALSE(contains(crashed.out, "q.t2.o500.r001"));
  auto passed = omnilink_cli({"ls", c, "--store", store, "--verdict", "pass"});
  CHECK(contains(passed.out, "q.t2.o500.r001"));
  CHECK_FALSE(contains(passed.out, "q.t2.o500.r002"));
  CHECK_FALSE(contains(passed.out, "q.t2.o500.r003"));
  CHECK(omnilink_cli({"ls", c, "--store", store, "--status", "bogus"}).exit_code == 3);
  CHECK(omnilink_cli({"ls", "--store", store, "--status", "ok"}).exit_code == 3);  // needs CAMPAIGN

  auto json = omnilink_cli({"ls", c, "--store", store, "--json"});
  REQUIRE(json.exit_code == 0);
  const auto j = nlohmann::json::parse(json.out);
  REQUIRE(j.size() == 3);
  CHECK(j[1]["key"] == c + "/q.t2.o500.r002");
  CHECK(j[1]["seed"].get<std::uint64_t>() == 0xFFFFFFFFFFFFFFFFull);
  CHECK(j[1]["exit_signal"] == 11);
  CHECK(j[1]["exit_code"].is_null());
  CHECK(j[1]["validation"]["verdict"] == "fail");
  CHECK(j[2]["validation"].is_null());
  auto campaigns_json = nlohmann::json::parse(omnilink_cli({"ls", "--store", store, "--json"}).out);
  REQUIRE(campaigns_json.size() == 1);
  CHECK(campaigns_json[0]["id"] == c);
  CHECK(campaigns_json[0]["runs"] == 3);
  CHECK(campaigns_json[0]["verdicts"]["fail"] == 1);
  CHECK(campaigns_json[0]["config"]["name"] == "demo");
}

TEST_CASE("omnilink show prints a run's record, newest validation and paths", "[cli][store]") {
  testing::ScratchDir dir;
  const std::string c = populate(dir.path());
  const std::string key = c + "/q.t2.o500.r002";
  const fs::path run_dir = dir / c / "q.t2.o500.r002";

  auto show = omnilink_cli({"show", key, "--store", dir.path().string()});
  REQUIRE(show.exit_code == 0);
  CHECK(contains(show.out, key));
  CHECK(contains(show.out, "crashed"));
  CHECK(contains(show.out, "killed by signal 11 (SIGSEGV)"));
  CHECK(contains(show.out, "18446744073709551615"));
  CHECK(contains(show.out, "signal 11"));
  CHECK(contains(show.out, "fail"));
  CHECK(contains(show.out, "no order of the operations is accepted by the spec"));
  CHECK(contains(show.out, "512.0 MiB"));
  CHECK(contains(show.out, "4242 generated, - distinct"));
  CHECK(contains(show.out, "174"));
  CHECK(contains(show.out, "T0.157 Dequeue(elem = 144, ok = TRUE)"));
  CHECK(contains(show.out, (run_dir / "rr").string() + "\n"));
  CHECK(contains(show.out, (run_dir / "trace").string() + " (missing)"));
  CHECK(contains(show.out, (run_dir / "harness.err").string()));
  CHECK(contains(show.out, (run_dir / "validation" / "result.json").string()));

  auto pending = omnilink_cli({"show", c + "/q.t2.o500.r003", "--store", dir.path().string()});
  REQUIRE(pending.exit_code == 0);
  CHECK(contains(pending.out, "none yet"));
  CHECK_FALSE(contains(pending.out, "/rr"));  // no recording, so not listed

  auto json = omnilink_cli({"show", key, "--store", dir.path().string(), "--json"});
  REQUIRE(json.exit_code == 0);
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["status"] == "crashed");
  CHECK(j["rr_soft_counters"] == true);
  CHECK(j["validation"]["linearized"] == 174);
  CHECK(j["validation"]["states_distinct"].is_null());
  CHECK(j["paths"]["rr"] == (run_dir / "rr").string());
  CHECK(j["paths"]["result.json"] == (run_dir / "validation" / "result.json").string());
}

TEST_CASE("ls and show name a missing store, campaign or run and exit 3", "[cli][store]") {
  testing::ScratchDir dir;
  const std::string c = populate(dir / "store");
  const std::string store = (dir / "store").string();

  auto no_store = omnilink_cli({"ls", "--store", (dir / "empty").string()});
  CHECK(no_store.exit_code == 3);
  CHECK(contains(no_store.err, "no store at " + (dir / "empty").string() + " (omnilink.db missing)"));
  CHECK_FALSE(fs::exists(dir / "empty"));  // a read command creates nothing
  CHECK(omnilink_cli({"show", c + "/x", "--store", (dir / "empty").string()}).exit_code == 3);

  auto no_campaign = omnilink_cli({"ls", "nope-1", "--store", store});
  CHECK(no_campaign.exit_code == 3);
  CHECK(contains(no_campaign.err, "no campaign nope-1"));
  CHECK(contains(no_campaign.err, "campaigns in the store: " + c));

  auto no_run = omnilink_cli({"show", c + "/zzz", "--store", store});
  CHECK(no_run.exit_code == 3);
  CHECK(contains(no_run.err, "no run " + c + "/zzz"));
  CHECK(contains(no_run.err, c + "/q.t2.o500.r001 " + c + "/q.t2.o500.r002 " + c + "/q.t2.o500.r003"));

  auto campaign_only = omnilink_cli({"show", c, "--store", store});
  CHECK(campaign_only.exit_code == 3);
  CHECK(contains(campaign_only.err, "RUN is <campaign>/<run-id>, not " + c));
  CHECK(contains(campaign_only.err, c + "/q.t2.o500.r001"));

  auto no_run_campaign = omnilink_cli({"show", "nope-1/zzz", "--store", store});
  CHECK(no_run_campaign.exit_code == 3);
  CHECK(contains(no_run_campaign.err, "no run nope-1/zzz"));
  CHECK(contains(no_run_campaign.err, "campaigns in the store: " + c));
}

TEST_CASE("a file that cannot be written for a full disk says so, and leaves the previous one", "[store][disk-full]") {
  testing::ScratchDir dir;
  const fs::path file = dir / "run.json";
  platform::write_json_file<StoreError>(file, nlohmann::json{{"before", 1}});
  // The temporary beside it is where the bytes go first: there, /dev/full (every write: ENOSPC).
  fs::create_symlink("/dev/full", dir / ".run.json.tmp");
  CHECK_THROWS_WITH(platform::write_json_file<StoreError>(file, nlohmann::json{{"after", 2}}),
                    "cannot write " + (dir / ".run.json.tmp").string() + ": No space left on device");
  CHECK(platform::read_json_file<StoreError>(file) == nlohmann::json{{"before", 1}});
  CHECK_FALSE(fs::exists(fs::symlink_status(dir / ".run.json.tmp")));  // the temporary is not left behind
}
