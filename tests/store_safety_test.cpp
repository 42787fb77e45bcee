// A store never overwrites: an emptied or deleted index beside campaign directories is refused by
// every verb (and not silently recreated by a read-only one), `omnilink store rebuild` makes it
// again from the directories, a directory the index does not know is never reused, and the
// read-only verbs work on a read-only file system. The read-only mount needs a private mount
// namespace; without the privilege for one that case reports SKIPPED (77).
#include <catch2/catch.hpp>

#include <sys/mount.h>
#include <unistd.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "store/campaign_lock.hpp"
#include "store/store.hpp"
#include "platform/subprocess.hpp"
#include "support/mount_namespace.hpp"
#include "support/test_support.hpp"

namespace {

using namespace omnilink;
namespace fs = std::filesystem;

ProcessResult omnilink_cli(const std::vector<std::string>& args) { return run_process(OMNILINK_CLI, args); }

// A two-run campaign of the crashing harness that never crashes, rr off: quick, with or without TLC.
void run_campaign(const fs::path& dir) {
  const nlohmann::json target{{"name", "steps"}, {"harness", OMNILINK_CRASHING_HARNESS},
                              {"spec", std::string(OMNILINK_TEST_SPECS) + "/Steps.tla"}, {"threads", {2}}, {"ops", {50}},
                              {"runs", 2}, {"args", {"--param", "crash_at=-1"}}};
  std::ofstream(dir / "steps.json") << nlohmann::json{{"format", 1}, {"name", "steps"}, {"rr", "off"}, {"targets", {target}}}.dump();
}

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// What `ls CAMPAIGN --json` says of each run: status and verdict.
std::map<std::string, std::string> outcomes(const fs::path& store, const std::string& campaign) {
  const auto r = omnilink_cli({"ls", campaign, "--store", store.string(), "--json"});
  REQUIRE(r.exit_code == 0);
  std::map<std::string, std::string> out;
  for (const auto& run : nlohmann::json::parse(r.out))
    out[run["id"].get<std::string>()] = run["status"].get<std::string>() + "/" +
                                        (run["validation"].is_null() ? std::string("-") : run["validation"]["verdict"].get<std::string>());
  return out;
}

// The campaign of run_campaign, run into `store` as steps-1: its runs' outcomes.
std::map<std::string, std::string> first_campaign(const fs::path& dir, const fs::path& store) {
  run_campaign(dir);
  const auto first = omnilink_cli({"campaign", (dir / "steps.json").string(), "--store", store.string(), "--plain"});
  INFO(first.out << first.err);
  REQUIRE((first.exit_code == 0 || first.exit_code == 2));  // 2: no TLC here, verdicts unknown
  auto before = outcomes(store, "steps-1");
  REQUIRE(before.size() == 2);
  return before;
}

}  // namespace

TEST_CASE("an emptied or deleted index is refused by every verb, rebuilt from the directories, and nothing is overwritten",
          "[store][safety]") {
  testing::ScratchDir dir;
  const fs::path store = dir / "store";
  const auto before = first_campaign(dir.path(), store);
  const fs::path kept = store / "steps-1" / before.begin()->first / "trace" / "thread-0000.msgpack";
  const std::string kept_bytes = read_bytes(kept);
  REQUIRE_FALSE(kept_bytes.empty());

  for (const std::string how : {"emptied", "deleted"}) {
    INFO("index " << how);
    for (const char* suffix : {"-wal", "-shm"}) fs::remove(store.string() + "/omnilink.db" + suffix);
    if (how == "emptied") std::ofstream(store / "omnilink.db", std::ios::trunc);
    else fs::remove(store / "omnilink.db");

    const auto ls = omnilink_cli({"ls", "--store", store.string()});
    CHECK(ls.exit_code == 3);
    CHECK_THAT(ls.err, Catch::Contains("steps-1") && Catch::Contains("omnilink store rebuild"));
    if (how == "emptied") CHECK(fs::file_size(store / "omnilink.db") == 0);  // a read-only verb wrote no schema
    else CHECK_FALSE(fs::exists(store / "omnilink.db"));

    const auto again = omnilink_cli({"campaign", (dir / "steps.json").string(), "--store", store.string(), "--plain"});
    CHECK(again.exit_code == 3);
    CHECK_THAT(again.err, Catch::Contains("would number campaigns from 1 again"));
    CHECK(read_bytes(kept) == kept_bytes);
  }

  const auto rebuild = omnilink_cli({"store", "rebuild", store.string()});
  INFO(rebuild.out << rebuild.err);
  REQUIRE(rebuild.exit_code == 0);
  CHECK_THAT(rebuild.out, Catch::Contains("1 campaign(s), 2 run(s), 2 run directories read back"));
  CHECK(outcomes(store, "steps-1") == before);
  CHECK(omnilink_cli({"store", "rebuild", store.string()}).exit_code == 3);  // an index exists now
  const auto mistyped = omnilink_cli({"store", "rebuild", (dir / "no-such-store").string()});
  CHECK(mistyped.exit_code == 3);
  CHECK_THAT(mistyped.err, Catch::StartsWith("omnilink store rebuild: ") && Catch::Contains("no such directory"));
  CHECK_FALSE(fs::exists(dir / "no-such-store"));  // a rebuild never makes a store where there was none

  const auto next = omnilink_cli({"campaign", (dir / "steps.json").string(), "--store", store.string(), "--plain"});
  CHECK_THAT(next.out, Catch::Contains("omnilink campaign steps-2"));
  CHECK(read_bytes(kept) == kept_bytes);
}

TEST_CASE("a campaign whose campaign.json was lost is recovered from its runs with a warning, and what needs its configuration refuses it",
          "[store][safety]") {
  testing::ScratchDir dir;
  const fs::path store = dir / "store";
  const auto before = first_campaign(dir.path(), store);
  const auto lose_index = [&] {
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(store.string() + "/omnilink.db" + suffix);
  };
  lose_index();
  REQUIRE(fs::remove(store / "steps-1" / "campaign.json"));
  REQUIRE(fs::remove(store / "steps-1" / "configuration.json"));  // its copy too (the next case restores from it)

  for (int rebuild_number = 1; rebuild_number <= 2; ++rebuild_number) {
    INFO("rebuild " << rebuild_number);  // the second from the campaign.json the first wrote
    const auto rebuild = omnilink_cli({"store", "rebuild", store.string()});
    INFO(rebuild.out << rebuild.err);
    REQUIRE(rebuild.exit_code == 0);
    CHECK_THAT(rebuild.out, Catch::Contains("1 campaign(s), 2 run(s), 2 run directories read back") &&
                                Catch::Contains("warning: steps-1: no campaign.json: recovered from the run.json of its 2 run(s); "
                                                "its configuration was lost"));
    CHECK(outcomes(store, "steps-1") == before);
    const auto ls = omnilink_cli({"ls", "--store", store.string(), "--json"});
    REQUIRE(ls.exit_code == 0);
    const auto campaigns = nlohmann::json::parse(ls.out);
    REQUIRE(campaigns.size() == 1);
    CHECK(campaigns[0]["name"] == "steps");
    if (rebuild_number == 1) lose_index();
  }
  for (const std::vector<std::string>& verb :
       {std::vector<std::string>{"revalidate", "steps-1", "--store", store.string()},
        std::vector<std::string>{"campaign", (dir / "steps.json").string(), "--store", store.string(), "--resume", "--plain"},
        std::vector<std::string>{"explain", "steps-1/" + before.begin()->first, "--store", store.string()}}) {
    const auto refused = omnilink_cli(verb);
    INFO(verb[0] << ": " << refused.out << refused.err);
    CHECK(refused.exit_code != 0);
    CHECK_THAT(refused.err, Catch::Contains("its configuration was lost"));
  }
  CHECK(outcomes(store, "steps-1") == before);
  const auto next = omnilink_cli({"campaign", (dir / "steps.json").string(), "--store", store.string(), "--plain"});
  CHECK_THAT(next.out, Catch::Contains("omnilink campaign steps-2"));

  // A shard's campaign recovered so is not merged: the merged campaign would need its plan.
  const fs::path shard = dir / "shard";
  const auto sharded = omnilink_cli({"campaign", (dir / "steps.json").string(), "--shard", "0/2", "--store", shard.string(), "--plain"});
  REQUIRE((sharded.exit_code == 0 || sharded.exit_code == 2));
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(shard.string() + "/omnilink.db" + suffix);
  REQUIRE(fs::remove(shard / "steps-1" / "campaign.json"));
  REQUIRE(fs::remove(shard / "steps-1" / "configuration.json"));
  REQUIRE(omnilink_cli({"store", "rebuild", shard.string()}).exit_code == 0);
  const auto merge = omnilink_cli({"merge", (dir / "merged").string(), shard.string()});
  INFO(merge.out << merge.err);
  CHECK(merge.exit_code == 3);
  CHECK_THAT(merge.err, Catch::Contains("its configuration was lost"));
}

TEST_CASE("a campaign whose campaign.json was lost is restored whole from the copy made with it", "[store][safety]") {
  testing::ScratchDir dir;
  const fs::path store = dir / "store";
  const auto before = first_campaign(dir.path(), store);
  const std::string record = read_bytes(store / "steps-1" / "campaign.json");
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(store.string() + "/omnilink.db" + suffix);
  REQUIRE(fs::remove(store / "steps-1" / "campaign.json"));

  const auto rebuild = omnilink_cli({"store", "rebuild", store.string()});
  INFO(rebuild.out << rebuild.err);
  REQUIRE(rebuild.exit_code == 0);
  CHECK_THAT(rebuild.out, Catch::Contains("warning: steps-1: no campaign.json: restored from configuration.json"));
  CHECK(outcomes(store, "steps-1") == before);
  const auto record_now = nlohmann::json::parse(read_bytes(store / "steps-1" / "campaign.json"));
  CHECK(record_now.at("config") == nlohmann::json::parse(record).at("config"));
  const auto ls = omnilink_cli({"ls", "--store", store.string(), "--json"});
  REQUIRE(ls.exit_code == 0);
  CHECK(nlohmann::json::parse(ls.out)[0]["status"] == "finished");  // every run has its verdict
  // What needs the configuration has it.
  const auto revalidate = omnilink_cli({"revalidate", "steps-1", "--store", store.string()});
  INFO(revalidate.out << revalidate.err);
  CHECK((revalidate.exit_code == 0 || revalidate.exit_code == 2));
  CHECK(revalidate.err.find("configuration was lost") == std::string::npos);
  const auto resume = omnilink_cli({"campaign", (dir / "steps.json").string(), "--store", store.string(), "--resume", "--plain"});
  INFO(resume.out << resume.err);
  CHECK(resume.exit_code != 3);
  CHECK(outcomes(store, "steps-1") == before);
}

TEST_CASE("a new campaign never takes the name of a directory the index does not know", "[store][safety]") {
  testing::ScratchDir dir;
  store::Store store = store::Store::open(dir.path());
  fs::create_directories(dir / "x-1");
  std::ofstream(dir / "x-1" / "notes.txt") << "someone else's\n";
  const std::string id = store.create_campaign(store::CampaignKind::campaign, "x", "/x.json", "{}");
  CHECK(id == "x-2");
  CHECK(fs::exists(dir / "x-2" / "campaign.json"));
  CHECK(read_bytes(dir / "x-1" / "notes.txt") == "someone else's\n");
  const auto record = nlohmann::json::parse(read_bytes(dir / "x-2" / "campaign.json"));
  CHECK(record["id"] == "x-2");
  CHECK(record["seq"] == 2);
}

TEST_CASE("ls, show and results work on a store on a read-only file system", "[store][safety][readonly]") {
  testing::ScratchDir dir;
  const fs::path store = dir / "store";
  run_campaign(dir.path());
  REQUIRE(omnilink_cli({"campaign", (dir / "steps.json").string(), "--store", store.string(), "--plain"}).exit_code != 3);
  const fs::path mount_point = dir / "ro";
  fs::create_directories(mount_point);
  const auto runs = outcomes(store, "steps-1");
  const std::string run = "steps-1/" + runs.begin()->first;

  // Each command with the store bind-mounted read-only.
  auto read_only = [&](std::vector<std::string> args) {
    const auto result = testing::cli_with_mounts(
        [&] {
          return mount(store.c_str(), mount_point.c_str(), nullptr, MS_BIND, nullptr) == 0 &&
                 mount(nullptr, mount_point.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) == 0;
        },
        std::move(args), dir / "out.txt", "cannot make a private read-only mount here (needs CAP_SYS_ADMIN)");
    return std::pair{result.exit_code, result.output};
  };
  const auto [ls_code, ls_out] = read_only({"ls", "--store", mount_point.string()});
  INFO(ls_out);
  CHECK(ls_code == 0);
  CHECK_THAT(ls_out, Catch::Contains("steps-1"));
  const auto [show_code, show_out] = read_only({"show", run, "--store", mount_point.string()});
  INFO(show_out);
  CHECK(show_code == 0);
  const auto [results_code, results_out] = read_only({"results", "--store", mount_point.string()});
  INFO(results_out);
  CHECK(results_code == 0);
}

TEST_CASE("one writer at a time: revalidate refuses a campaign another omnilink holds, validate refuses a store's run",
          "[store][safety][writers]") {
  testing::ScratchDir dir;
  const fs::path store = dir / "store";
  run_campaign(dir.path());
  REQUIRE(omnilink_cli({"campaign", (dir / "steps.json").string(), "--store", store.string(), "--plain"}).exit_code != 3);
  const auto before = outcomes(store, "steps-1");
  const fs::path run = store / "steps-1" / before.begin()->first;
  const std::string result_before = read_bytes(run / "validation" / "result.json");
  const std::string lax = std::string(OMNILINK_TEST_SPECS) + "/Steps.tla";
  {
    // The lock a campaign's session holds (an flock, as a live campaign or another revalidate has it).
    std::string why;
    const auto held = store::CampaignLock::acquire(store / "steps-1", why);
    REQUIRE(held);
    const auto refused = omnilink_cli({"revalidate", "steps-1", "--store", store.string(), "--spec", lax, "--checker", "native"});
    CHECK(refused.exit_code == 3);
    CHECK_THAT(refused.err, Catch::Contains("pid " + std::to_string(::getpid())) && Catch::Contains("is running this campaign now"));
    CHECK(outcomes(store, "steps-1") == before);
    CHECK(read_bytes(run / "validation" / "result.json") == result_before);
  }
  // Released: revalidate goes on.
  const auto allowed = omnilink_cli({"revalidate", "steps-1", "--store", store.string(), "--spec", lax, "--checker", "native"});
  INFO(allowed.out << allowed.err);
  CHECK(allowed.exit_code == 0);

  // validate of a store's run directory would write its result.json behind the index: refused,
  // pointing at revalidate; a copy made outside the store validates as any run directory.
  const std::string revalidated = read_bytes(run / "validation" / "result.json");
  const auto direct = omnilink_cli({"validate", run.string(), "--spec", lax, "--checker", "native"});
  CHECK(direct.exit_code == 3);
  CHECK_THAT(direct.err, Catch::Contains("omnilink revalidate steps-1/" + before.begin()->first));
  CHECK(read_bytes(run / "validation" / "result.json") == revalidated);
  // Through a symlink to the run, or to the store, it is still the store's run.
  fs::create_directory_symlink(run, dir / "run-link");
  fs::create_directory_symlink(store, dir / "store-link");
  for (const fs::path& linked : {dir / "run-link", dir / "store-link" / "steps-1" / run.filename()}) {
    const auto through = omnilink_cli({"validate", linked.string(), "--spec", lax, "--checker", "native"});
    INFO(linked << "\n" << through.out << through.err);
    CHECK(through.exit_code == 3);
    CHECK_THAT(through.err, Catch::Contains("omnilink revalidate steps-1/" + before.begin()->first));
  }
  CHECK(read_bytes(run / "validation" / "result.json") == revalidated);
  fs::copy(run, dir / "outside", fs::copy_options::recursive);
  const auto copy = omnilink_cli({"validate", (dir / "outside").string(), "--spec", lax, "--checker", "native"});
  INFO(copy.out << copy.err);
  CHECK(copy.exit_code == 0);

  // A passing run has no failing core: replay --core says so, rather than sending the user to explain.
  const auto core = omnilink_cli({"replay", "steps-1/" + before.begin()->first, "--core", "--batch", "--store", store.string()});
  CHECK(core.exit_code == 3);
  CHECK_THAT(core.err, Catch::Contains("did not fail (its verdict is pass): it has no failing core"));
}
