// The campaign file (campaign/campaign_file) and its plan (campaign/run_plan): loading the demo,
// every kind of error naming its field, overrides, path and store resolution, and the run plan.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <thread>

#include "campaign/campaign_file.hpp"
#include "campaign/recording.hpp"
#include "campaign/run_plan.hpp"
#include "platform/subprocess.hpp"
#include "support/test_support.hpp"

using namespace omnilink;
using namespace omnilink::campaign;
using Catch::Contains;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kSpecsDir = fs::path(OMNILINK_SPECS_DIR).lexically_normal();
const fs::path kDemo = (kSpecsDir / "../../examples/campaigns/demo.json").lexically_normal();

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

void make_executable(const fs::path& path) {
  write_file(path, "#!/bin/sh\nexit 0\n");
  fs::permissions(path, fs::perms::owner_all, fs::perm_options::add);
}

// Sets an environment variable for one scope and restores it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value != nullptr ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~ScopedEnv() { old_ ? ::setenv(name_, old_->c_str(), 1) : ::unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A scratch dir with bin/locked-queue and bin/racy-queue (executable), options that look there and
// in tla/specs, and campaign files written into it.
struct Fixture {
  testing::ScratchDir dir;
  LoadOptions options;

  Fixture() {
    make_executable(dir / "bin/locked-queue");
    make_executable(dir / "bin/racy-queue");
    options.harness_dirs = {dir / "bin"};
    options.spec_dirs = {kSpecsDir};
  }

  fs::path write(const json& document, const std::string& name = "c.json") const {
    write_file(dir / name, document.dump(2));
    return dir / name;
  }

  CampaignConfig load(const json& document, const std::vector<std::string>& overrides = {}) const {
    LoadOptions with = options;
    with.overrides = overrides;
    return load_campaign(write(document), with);
  }

  // The message of the CampaignFileError loading `document` throws.
  std::string error(const json& document, const std::vector<std::string>& overrides = {}) const {
    try {
      load(document, overrides);
    } catch (const CampaignFileError& e) {
      return e.what();
    }
    FAIL("loaded without an error: " << document.dump());
    return "";
  }
};

json target(const std::string& name, const std::string& harness = "locked-queue") {
  return {{"name", name}, {"harness", harness}, {"spec", "LinearizableQueue.tla"}, {"threads", 2}, {"ops", 10}};
}

json minimal() { return {{"format", 1}, {"targets", {target("q")}}}; }

}  // namespace

TEST_CASE("the demo campaign file loads with its values and the defaults") {
  Fixture f;
  const CampaignConfig c = load_campaign(kDemo, f.options);
  CHECK(c.file == kDemo);
  CHECK(c.name == "demo");
  CHECK(c.rr == RrMode::automatic);
  CHECK(c.jobs == std::max(1u, std::thread::hardware_concurrency()));
  CHECK(c.run_timeout == std::chrono::seconds(120));
  CHECK(c.validation.tlc.heap == "1g");
  CHECK(c.validation.timeout == std::chrono::seconds(300));
  CHECK_FALSE(c.validation.jobs);
  REQUIRE(c.targets.size() == 2);

  const TargetConfig& locked = c.targets[0];
  CHECK(locked.name == "locked-queue");
  CHECK(locked.harness == f.dir / "bin/locked-queue");
  CHECK(locked.spec == kSpecsDir / "LinearizableQueue.tla");
  CHECK(locked.args == std::vector<std::string>{"--perturb", "mixed", "--perturb-rate", "0.05"});
  CHECK(locked.threads == std::vector<std::uint32_t>{2, 3});
  CHECK(locked.ops == std::vector<std::uint64_t>{300});
  CHECK(locked.runs == 2);
  CHECK(locked.seed_base == 1);
  CHECK(locked.init == "Init");
  CHECK(locked.next == "Next");
  CHECK_FALSE(locked.mc);
  CHECK_FALSE(locked.view);

  const TargetConfig& racy = c.targets[1];
  CHECK(racy.harness == f.dir / "bin/racy-queue");
  CHECK(racy.threads == std::vector<std::uint32_t>{3});
  CHECK(racy.ops == std::vector<std::uint64_t>{2000});
  CHECK(racy.runs == 8);
  CHECK(racy.seed_base == 100);
}

TEST_CASE("a minimal campaign file gets every default") {
  Fixture f;
  const CampaignConfig c = f.load(minimal());
  CHECK(c.name == "c");  // the file's stem
  CHECK(c.rr == RrMode::automatic);
  CHECK(c.rr_timeslice_ticks == kDefaultRrTimesliceTicks);
  CHECK(c.run_timeout == std::chrono::seconds(300));
  CHECK(c.validation.tlc.heap == "2g");
  CHECK(c.validation.timeout == std::chrono::seconds(600));
  CHECK(c.validation.checker == checkers::Checker::automatic);
  CHECK(c.validation.confirm_failures == 3);
  CHECK(c.validation.interleavings == 3);
  CHECK(c.validation.interleavings_budget == std::chrono::seconds(600));
  REQUIRE(c.targets.size() == 1);
  CHECK(c.targets[0].threads == std::vector<std::uint32_t>{2});  // a single integer means [n]
  CHECK(c.targets[0].ops == std::vector<std::uint64_t>{10});
  CHECK(c.targets[0].runs == 1);
  CHECK(c.targets[0].seed_base == 1);
  CHECK(c.targets[0].args.empty());
}

TEST_CASE("unknown fields are errors naming the field") {
  Fixture f;
  json top = minimal();
  top["job"] = 2;
  CHECK_THAT(f.error(top), Contains("c.json: job: unknown field") && Contains("jobs"));

  json tlc = minimal();
  tlc["tlc"] = {{"heap", "1g"}, {"workers", 2}};
  CHECK_THAT(f.error(tlc), Contains(": tlc.workers: unknown field"));

  json in_target = minimal();
  in_target["targets"][0]["thread"] = 2;
  CHECK_THAT(f.error(in_target), Contains(": targets[0] (q).thread: unknown field"));
}

TEST_CASE("threads and ops may be ranges: from, to, and a step or a factor") {
  Fixture f;
  auto with_target = [](const std::string& field, json value) {
    json d = minimal();
    d["targets"][0][field] = std::move(value);
    return d;
  };
  CHECK(f.load(with_target("threads", {{"from", 2}, {"to", 5}})).targets[0].threads == std::vector<std::uint32_t>{2, 3, 4, 5});
  CHECK(f.load(with_target("threads", {{"from", 1}, {"to", 8}, {"step", 3}})).targets[0].threads == std::vector<std::uint32_t>{1, 4, 7});
  CHECK(f.load(with_target("ops", {{"from", 100}, {"to", 20000}, {"times", 10}})).targets[0].ops ==
        std::vector<std::uint64_t>{100, 1000, 10000});
  CHECK(f.load(with_target("ops", {{"from", 7}, {"to", 7}})).targets[0].ops == std::vector<std::uint64_t>{7});
  CHECK_THAT(f.error(with_target("threads", {{"from", 4}, {"to", 2}})), Contains(": targets[0] (q).threads.to: must not be below from (4)"));
  CHECK_THAT(f.error(with_target("threads", {{"from", 1}, {"to", 2000}})), Contains(": targets[0] (q).threads.to: must be an integer from 1 to 1024"));
  CHECK_THAT(f.error(with_target("ops", {{"from", 1}, {"to", 9}, {"step", 2}, {"times", 2}})), Contains(".ops.times: give step or times, not both"));
  CHECK_THAT(f.error(with_target("ops", {{"from", 1}, {"to", 9}, {"times", 1}})), Contains(".ops.times: must be an integer >= 2"));
  CHECK_THAT(f.error(with_target("ops", {{"from", 1}, {"to", 5000}})), Contains(".ops: lists more than 1000 values"));
  CHECK_THAT(f.error(with_target("ops", {{"from", 1}, {"upto", 5}})), Contains(".ops.upto: unknown field"));
}

TEST_CASE("wrong types and values out of range are errors naming the field") {
  Fixture f;
  auto with = [](const std::string& field, json value) {
    json d = minimal();
    d[field] = std::move(value);
    return d;
  };
  auto with_target = [](const std::string& field, json value) {
    json d = minimal();
    d["targets"][0][field] = std::move(value);
    return d;
  };
  CHECK_THAT(f.error(with("jobs", "4")), Contains(": jobs: must be an integer from 1 to 1024 (got \"4\")"));
  CHECK_THAT(f.error(with("jobs", 2.5)), Contains(": jobs: must be an integer from 1 to 1024"));
  CHECK_THAT(f.error(with("jobs", 100000)), Contains(": jobs: must be an integer from 1 to 1024"));
  CHECK(f.load(with("jobs", 1024)).jobs == 1024);
  CHECK_THAT(f.error(with("run_timeout_s", -1)), Contains(": run_timeout_s: must be an integer from 1 to"));
  CHECK_THAT(f.error(with("name", 7)), Contains(": name: must be a string (got 7)"));
  CHECK_THAT(f.error(with("targets", json::object())), Contains(": targets: must be a list of targets"));
  CHECK_THAT(f.error(with_target("threads", {2, 0})), Contains(": targets[0] (q).threads[1]: must be an integer from 1 to 1024 (got 0)"));
  CHECK_THAT(f.error(with_target("threads", 0)), Contains(": targets[0] (q).threads: must be an integer from 1 to 1024 (got 0)"));
  CHECK_THAT(f.error(with_target("threads", json::array())), Contains(": targets[0] (q).threads: must be an integer or a non-empty list"));
  CHECK_THAT(f.error(with_target("threads", {2, 3, 2})), Contains(": targets[0] (q).threads[2]: 2 is listed twice"));
  CHECK_THAT(f.error(with_target("ops", 100'000'001)), Contains(": targets[0] (q).ops: must be an integer from 1 to 100000000"));
  CHECK_THAT(f.error(with_target("runs", 0)), Contains(": targets[0] (q).runs:"));
  CHECK_THAT(f.error(with_target("seed_base", -1)), Contains(": targets[0] (q).seed_base: must be a non-negative integer"));
  CHECK_THAT(f.error(with_target("args", {"--x", 1})), Contains(": targets[0] (q).args[1]: must be a string (got 1)"));
  CHECK_THAT(f.error(with_target("next", "Next Step")), Contains(": targets[0] (q).next: 'Next Step' is not a TLA+ identifier"));
  CHECK_THAT(f.error(with("rr", "sometimes")), Contains(": rr: must be auto, off, record or chaos (got 'sometimes')"));
  CHECK_THAT(f.error(with("rr_timeslice_ticks", 0)), Contains(": rr_timeslice_ticks: must be an integer from 1 to"));
  CHECK(f.load(with("rr_timeslice_ticks", 50'000)).rr_timeslice_ticks == 50'000);

  for (const char* heap : {"2", "0g", "2gb", "g", "1.5g"}) {
    json d = minimal();
    d["tlc"] = {{"heap", heap}};
    CHECK_THAT(f.error(d), Contains(": tlc.heap: '" + std::string(heap) + "' is not a heap size"));
  }
  json checker = minimal();
  checker["validation"] = {{"checker", "jvm"}};
  CHECK_THAT(f.error(checker), Contains(": validation.checker: 'jvm' is not a checker: native, tlc, auto or both"));
  checker["validation"] = {{"checker", "native"}, {"confirm_failures", -1}};
  CHECK_THAT(f.error(checker), Contains(": validation.confirm_failures:"));
  checker["validation"] = {{"checker", "both"}, {"confirm_failures", 0}, {"jobs", 1}, {"timeout_s", 30}};
  CHECK(f.load(checker).validation.jobs == 1u);
  CHECK(f.load(checker).validation.timeout == std::chrono::seconds(30));
  // tlc.jobs and tlc.timeout_s are their older names: still read, but not both.
  checker["tlc"] = {{"jobs", 2}};
  CHECK_THAT(f.error(checker), Contains(": validation.jobs: given twice: here and as tlc.jobs, its older name"));
  checker["validation"].erase("jobs");
  checker["tlc"]["timeout_s"] = 40;
  CHECK_THAT(f.error(checker), Contains(": validation.timeout_s: given twice: here and as tlc.timeout_s, its older name"));
  checker["validation"].erase("timeout_s");
  CHECK(f.load(checker).validation.jobs == 2u);
  CHECK(f.load(checker).validation.timeout == std::chrono::seconds(40));
  checker.erase("tlc");
  // ... and never wrapped around past 64 bits to a small one: 2^64 bytes + 64 MiB, and 10^14 GiB.
  for (const char* memory : {"2", "0g", "4x", "1k", "17592186044480m", "99999999999999g"}) {
    checker["validation"]["memory"] = memory;
    CHECK_THAT(f.error(checker), Contains(": validation.memory: '" + std::string(memory) + "' is not a size of at least 1m"));
  }
  checker["validation"]["memory"] = "2g";
  CHECK(f.load(checker).validation.native.memory_mb == 2048);
  CHECK(f.load(checker).to_json()["validation"]["memory"] == "2048m");  // reads back as a campaign file
  checker["validation"].erase("memory");
  CHECK(f.load(checker).validation.native.memory_mb == 0);
  CHECK(f.load(checker).validation.checker == checkers::Checker::both);
  CHECK(f.load(checker).validation.confirm_failures == 0);
  // How many of each signature's first runs have their interleaving read, within what time.
  checker["validation"]["interleavings"] = -1;
  CHECK_THAT(f.error(checker), Contains(": validation.interleavings:"));
  checker["validation"]["interleavings"] = 0;
  checker["validation"]["interleavings_budget_s"] = 0;
  CHECK_THAT(f.error(checker), Contains(": validation.interleavings_budget_s:"));
  checker["validation"]["interleavings_budget_s"] = 90;
  CHECK(f.load(checker).validation.interleavings == 0);
  CHECK(f.load(checker).validation.interleavings_budget == std::chrono::seconds(90));
  CHECK(f.load(checker).to_json()["validation"]["interleavings_budget_s"] == 90);  // reads back as a campaign file

  json heap_ok = minimal();
  heap_ok["tlc"] = {{"heap", "512M"}, {"jobs", 2}};
  CHECK(f.load(heap_ok).validation.tlc.heap == "512M");
  CHECK(f.load(heap_ok).validation.jobs == 2u);

  json missing = minimal();
  missing["targets"][0].erase("spec");
  CHECK_THAT(f.error(missing), Contains(": targets[0] (q).spec: required"));
}

TEST_CASE("target and campaign names must be valid and target names unique") {
  Fixture f;
  json duplicate = minimal();
  duplicate["targets"].push_back(target("other"));
  duplicate["targets"].push_back(target("q", "racy-queue"));
  CHECK_THAT(f.error(duplicate), Contains(": targets[2] (q).name: duplicate: targets[0] has the same name"));

  for (const char* bad : {"", "-q", "a/b", "a b", ".."}) {
    json d = minimal();
    d["targets"][0]["name"] = bad;
    CHECK_THAT(f.error(d), Contains(".name: target name '" + std::string(bad) + "' is not a valid name"));
  }
  json too_long = minimal();
  too_long["targets"][0]["name"] = std::string(65, 'a');
  CHECK_THAT(f.error(too_long), Contains("is not a valid name"));
  const std::string longest = "a._-" + std::string(60, 'b');
  json good = minimal();
  good["targets"][0]["name"] = longest;
  CHECK(f.load(good).targets[0].name == longest);

  json campaign = minimal();
  campaign["name"] = "my campaign";
  CHECK_THAT(f.error(campaign), Contains(": name: campaign name 'my campaign' is not a valid name"));
  LoadOptions options = f.options;
  CHECK_THROWS_WITH(load_campaign(f.write(minimal(), "bad name.json"), options),
                    Contains(": name: the file's stem (the default campaign name) 'bad name' is not a valid name"));
}

TEST_CASE("harness paths: bare names in the harness dirs then PATH, others beside the file") {
  Fixture f;
  json missing = minimal();
  missing["targets"][0]["harness"] = "no-such-harness";
  const std::string message = f.error(missing);
  CHECK_THAT(message, Contains(": targets[0] (q).harness: no executable 'no-such-harness'") &&
                          Contains((f.dir / "bin/no-such-harness").string()) && Contains("PATH"));

  write_file(f.dir / "bin/not-executable", "data");
  json not_executable = minimal();
  not_executable["targets"][0]["harness"] = "not-executable";
  CHECK_THAT(f.error(not_executable), Contains("no executable 'not-executable'"));

  const auto sh = find_on_path("sh");
  REQUIRE(sh);
  json on_path = minimal();
  on_path["targets"][0]["harness"] = "sh";
  CHECK(f.load(on_path).targets[0].harness == *sh);

  make_executable(f.dir / "tools/my-harness");
  json relative = minimal();
  relative["targets"][0]["harness"] = "./tools/../tools/my-harness";
  CHECK(f.load(relative).targets[0].harness == f.dir / "tools/my-harness");  // absolute and normal
  relative["targets"][0]["harness"] = "tools/missing";
  CHECK_THAT(f.error(relative), Contains(".harness: 'tools/missing': " + (f.dir / "tools/missing").string() + " does not exist"));
  relative["targets"][0]["harness"] = "./tools";
  CHECK_THAT(f.error(relative), Contains("is not a regular file"));
}

TEST_CASE("spec paths: beside the file first, then the spec dirs for bare names") {
  Fixture f;
  json missing = minimal();
  missing["targets"][0]["spec"] = "Nope.tla";
  CHECK_THAT(f.error(missing), Contains(": targets[0] (q).spec: 'Nope.tla' not found") &&
                                   Contains((f.dir / "Nope.tla").string()) && Contains((kSpecsDir / "Nope.tla").string()));
  json not_tla = minimal();
  not_tla["targets"][0]["spec"] = "LinearizableQueue";
  CHECK_THAT(f.error(not_tla), Contains(".spec: 'LinearizableQueue' must name a .tla file"));
  json mc = minimal();
  mc["targets"][0]["mc"] = "sub/MCMissing.tla";  // has a '/': only beside the file
  const std::string mc_message = f.error(mc);
  CHECK_THAT(mc_message, Contains(".mc: 'sub/MCMissing.tla' not found"));
  CHECK_THAT(mc_message, !Contains(kSpecsDir.string()));

  write_file(f.dir / "LinearizableQueue.tla", "---- MODULE LinearizableQueue ----\n====\n");
  write_file(f.dir / "sub/MCQueue.tla", "---- MODULE MCQueue ----\n====\n");
  json local = minimal();
  local["targets"][0]["mc"] = "sub/MCQueue.tla";
  local["targets"][0]["view"] = "View";
  const CampaignConfig c = f.load(local);
  CHECK(c.targets[0].spec == f.dir / "LinearizableQueue.tla");  // beside the file wins
  CHECK(c.targets[0].mc == f.dir / "sub/MCQueue.tla");
  CHECK(c.targets[0].view == "View");
}

TEST_CASE("format must be 1 and targets must not be empty") {
  Fixture f;
  json two = minimal();
  two["format"] = 2;
  two["new_field"] = true;  // the format is reported, not the field a newer format added
  CHECK_THAT(f.error(two), Contains("c.json: format: format 2 is not supported; this omnilink reads format 1"));
  json none = minimal();
  none.erase("format");
  CHECK_THAT(f.error(none), Contains(": format: required"));
  json empty = minimal();
  empty["targets"] = json::array();
  CHECK_THAT(f.error(empty), Contains(": targets: must not be empty"));
  CHECK_THAT(f.error(json::array()), Contains("c.json: must be a JSON object"));
}

TEST_CASE("a JSON syntax error reports its line and column, and a repeated key is an error") {
  Fixture f;
  const fs::path file = f.dir / "broken.json";
  write_file(file, "{\n  \"format\": 1,\n  \"targets\": [,]\n}\n");
  CHECK_THROWS_WITH(load_campaign(file, f.options), Contains(file.string() + ": line 3, column 15: ") && !Contains("json.exception"));
  write_file(file, "{\n  \"format\": 1\n");
  CHECK_THROWS_WITH(load_campaign(file, f.options), Contains(": line 3, column 1: "));
  write_file(file, "{\"format\": 1, \"name\": tru}");
  CHECK_THROWS_WITH(load_campaign(file, f.options), Contains(": line 1, column 26: "));
  write_file(file, "{\"format\": 1, \"tlc\": {\"heap\": \"1g\", \"heap\": \"4g\"}, \"targets\": []}");
  CHECK_THROWS_WITH(load_campaign(file, f.options), Contains(file.string() + ": the key \"heap\" appears twice in one object"));
}

TEST_CASE("an unreadable campaign file is an error") {
  Fixture f;
  CHECK_THROWS_WITH(load_campaign(f.dir / "absent.json", f.options),
                    Contains((f.dir / "absent.json").string() + ": cannot read: No such file or directory"));
  CHECK_THROWS_WITH(load_campaign(f.dir.path(), f.options), Contains(": cannot read: a directory, not a file to read"));
}

TEST_CASE("overrides change fields before they are checked") {
  Fixture f;
  json d = minimal();
  d["targets"].push_back(target("racy-queue", "racy-queue"));
  d["tlc"] = {{"jobs", 2}};
  CHECK(f.load(d, {"validation.checker=\"tlc\""}).validation.checker == checkers::Checker::tlc);
  const CampaignConfig c = f.load(d, {"jobs=1", "rr=off", "tlc.heap=1g", "tlc.jobs=null", "run_timeout_s=7", "targets.*.runs=3",
                                      "targets.racy-queue.runs=5", "targets.q.args=[\"--x\", \"1\"]", "name=renamed"});
  CHECK(c.jobs == 1);
  CHECK(c.rr == RrMode::off);
  CHECK(c.validation.tlc.heap == "1g");
  CHECK_FALSE(c.validation.jobs);  // null: back to the default
  CHECK(c.run_timeout == std::chrono::seconds(7));
  CHECK(c.targets[0].runs == 3);
  CHECK(c.targets[1].runs == 5);  // later overrides win
  CHECK(c.targets[0].args == std::vector<std::string>{"--x", "1"});
  CHECK(c.name == "renamed");

  json dotted = minimal();
  dotted["targets"][0]["name"] = "queue.v2";
  CHECK(f.load(dotted, {"targets.queue.v2.runs=4"}).targets[0].runs == 4);
}

TEST_CASE("only-targets keep the file order and extra harness args go after every kept target's own") {
  Fixture f;
  json d = minimal();
  d["targets"][0]["args"] = {"--param", "keys=4"};
  d["targets"].push_back(target("racy-queue", "racy-queue"));
  d["targets"].push_back(target("third"));
  d["targets"][2]["description"] = "a third target";
  LoadOptions with = f.options;
  with.only_targets = {"third", "q"};
  with.extra_harness_args = {"--perturb", "none"};
  const CampaignConfig c = load_campaign(f.write(d), with);
  REQUIRE(c.targets.size() == 2);
  CHECK(c.targets[0].name == "q");
  CHECK(c.targets[1].name == "third");
  CHECK(c.targets[0].args == std::vector<std::string>{"--param", "keys=4", "--perturb", "none"});
  CHECK(c.targets[1].args == std::vector<std::string>{"--perturb", "none"});
  // What runs is what is stored: the description survives the round trip, --only's choice too.
  const CampaignConfig stored = stored_campaign(c.to_json(), "stored");
  REQUIRE(stored.targets.size() == 2);
  CHECK(stored.targets[1].description == "a third target");
  CHECK(stored.targets[0].args == c.targets[0].args);

  with.only_targets = {"q", "nope"};
  try {
    load_campaign(f.write(d), with);
    FAIL("--only nope loaded");
  } catch (const CampaignFileError& e) {
    CHECK_THAT(e.what(), Contains("--only nope: no such target (the file has: q, racy-queue, third)"));
  }
}

TEST_CASE("bad overrides are errors naming the override or the field") {
  Fixture f;
  CHECK_THAT(f.error(minimal(), {"targets.nope.runs=3"}), Contains("override 'targets.nope.runs=3': no target named 'nope'"));
  CHECK_THAT(f.error(minimal(), {"jobs=0"}), Contains("c.json: jobs: must be an integer from 1 to 1024 (got 0) (set by override 'jobs=0')"));
  CHECK_THAT(f.error(minimal(), {"targets.*.threads=[1, 0]"}),
             Contains(": targets[0] (q).threads[1]: must be an integer from 1 to 1024 (got 0) (set by override 'targets.*.threads=[1, 0]')"));
  CHECK_THAT(f.error(minimal(), {"jbos=2"}), Contains(": jbos: unknown field") && Contains("(set by override 'jbos=2')"));
  CHECK_THAT(f.error(minimal(), {"rr=never"}), Contains(": rr: must be auto, off, record or chaos (got 'never')"));
  CHECK_THAT(f.error(minimal(), {"jobs"}), Contains("override 'jobs': expected FIELD=VALUE"));
  CHECK_THAT(f.error(minimal(), {"=3"}), Contains("override '=3': the field before '=' is empty"));
  CHECK_THAT(f.error(minimal(), {"tlc..heap=1g"}), Contains("override 'tlc..heap=1g': empty component"));
  CHECK_THAT(f.error(minimal(), {"targets.runs=3"}), Contains("override 'targets.runs=3': expected targets.NAME.FIELD"));
  CHECK_THAT(f.error(minimal(), {"format.x=1"}), Contains("override 'format.x=1': format is not an object"));
}

TEST_CASE("the store is chosen from --store, the file, OMNILINK_STORE, then the current directory") {
  Fixture f;
  json with_store = minimal();
  with_store["store"] = "stores/../here";
  const ScopedEnv env("OMNILINK_STORE", "env-store");

  LoadOptions options = f.options;
  options.store = "flag-store/";
  CHECK(load_campaign(f.write(with_store), options).store == fs::current_path() / "flag-store");
  CHECK(f.load(with_store).store == f.dir / "here");
  CHECK(f.load(minimal()).store == fs::current_path() / "env-store");
  {
    const ScopedEnv unset("OMNILINK_STORE", nullptr);
    CHECK(f.load(minimal()).store == fs::current_path() / "omnilink-store");
  }
  json empty = minimal();
  empty["store"] = "";
  CHECK_THAT(f.error(empty), Contains(": store: must not be empty"));
}

TEST_CASE("to_json is stable, complete, reflects overrides and reads back as the same campaign") {
  Fixture f;
  const json first = load_campaign(kDemo, f.options).to_json();
  CHECK(first == load_campaign(kDemo, f.options).to_json());
  CHECK(first.dump() == load_campaign(kDemo, f.options).to_json().dump());
  CHECK(first["format"] == 1);
  CHECK(first["tlc"] == json({{"heap", "1g"}}));
  CHECK(first["targets"][0]["harness"] == (f.dir / "bin/locked-queue").string());
  CHECK(first["targets"][0]["init"] == "Init");
  CHECK(first["targets"][0]["mc"].is_null());
  CHECK(first["targets"][1]["threads"] == json::array({3}));
  CHECK(first["rr_timeslice_ticks"] == kDefaultRrTimesliceTicks);

  LoadOptions overridden = f.options;
  overridden.overrides = {"jobs=3", "targets.*.runs=7"};
  const json changed = load_campaign(kDemo, overridden).to_json();
  CHECK(changed["jobs"] == 3);
  CHECK(changed["targets"][0]["runs"] == 7);
  CHECK(changed["targets"][1]["runs"] == 7);
  CHECK(changed != first);

  // Every path in it is absolute, so it loads as it is, from anywhere, with no search dirs.
  testing::ScratchDir elsewhere;
  const fs::path copy = elsewhere / "copy.json";
  write_file(copy, first.dump());
  CHECK(load_campaign(copy, {}).to_json() == first);

  // A store written before rr_timeslice_ticks existed recorded with rr's own timeslice.
  json older = first;
  older.erase("rr_timeslice_ticks");
  CHECK(stored_campaign(older, "store").rr_timeslice_ticks == kRrOwnTimesliceTicks);
  CHECK(stored_campaign(first, "store").rr_timeslice_ticks == kDefaultRrTimesliceTicks);
  CHECK(first["validation"] == json({{"checker", "auto"}, {"confirm_failures", 3}, {"jobs", nullptr}, {"timeout_s", 300},
                                     {"interleavings", 3}, {"interleavings_budget_s", 600}}));
  // One written before campaigns read interleavings gets the defaults.
  json before_interleavings = first;
  before_interleavings["validation"].erase("interleavings");
  before_interleavings["validation"].erase("interleavings_budget_s");
  CHECK(stored_campaign(before_interleavings, "store").validation.interleavings == 3);
  // One written before the validation section existed was validated by TLC, and had the
  // validation's time limit and jobs in its tlc section.
  older.erase("validation");
  older["tlc"] = {{"heap", "1g"}, {"timeout_s", 77}, {"jobs", 2}};
  const CampaignConfig old = stored_campaign(older, "store");
  CHECK(old.validation.checker == checkers::Checker::tlc);
  CHECK(old.validation.timeout == std::chrono::seconds(77));
  CHECK(old.validation.jobs == 2u);
  CHECK(stored_campaign(first, "store").validation.checker == checkers::Checker::automatic);
}

TEST_CASE("plan_runs: round-robin over run numbers, ids, seeds, uniqueness") {
  Fixture f;
  const CampaignConfig demo = load_campaign(kDemo, f.options);
  const std::vector<PlannedRun> plan = plan_runs(demo);
  // locked-queue: 2 configurations x 2 runs; racy-queue: 1 x 8.
  REQUIRE(plan.size() == 12);
  std::vector<std::string> ids;
  for (const auto& run : plan) ids.push_back(run.id);
  CHECK(ids == std::vector<std::string>{"locked-queue.t2.o300.r001", "locked-queue.t3.o300.r001", "racy-queue.t3.o2000.r001",
                                        "locked-queue.t2.o300.r002", "locked-queue.t3.o300.r002", "racy-queue.t3.o2000.r002",
                                        "racy-queue.t3.o2000.r003", "racy-queue.t3.o2000.r004", "racy-queue.t3.o2000.r005",
                                        "racy-queue.t3.o2000.r006", "racy-queue.t3.o2000.r007", "racy-queue.t3.o2000.r008"});
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());

  const PlannedRun& fourth = plan[3];
  CHECK(fourth.target == 0);
  CHECK(fourth.threads == 2);
  CHECK(fourth.ops == 300);
  CHECK(fourth.number == 2);
  // Seeds count each target's runs in plan order from its seed_base.
  std::vector<std::uint64_t> seeds;
  for (const auto& run : plan) seeds.push_back(run.seed);
  CHECK(seeds == std::vector<std::uint64_t>{1, 2, 100, 3, 4, 101, 102, 103, 104, 105, 106, 107});
}

TEST_CASE("plan_runs: the cross product of threads and ops, wide run numbers, wrapping seeds") {
  Fixture f;
  json d = minimal();
  d["targets"][0]["threads"] = {4, 1};
  d["targets"][0]["ops"] = {10, 20, 30};
  d["targets"][0]["runs"] = 1000;
  d["targets"][0]["seed_base"] = std::numeric_limits<std::uint64_t>::max();
  const std::vector<PlannedRun> plan = plan_runs(f.load(d));
  REQUIRE(plan.size() == 6000);
  CHECK(plan[0].id == "q.t4.o10.r0001");  // four digits: there are 1000 runs
  CHECK(plan[1].id == "q.t4.o20.r0001");
  CHECK(plan[3].id == "q.t1.o10.r0001");
  CHECK(plan[5].id == "q.t1.o30.r0001");
  CHECK(plan[6].id == "q.t4.o10.r0002");
  CHECK(plan.back().id == "q.t1.o30.r1000");
  CHECK(plan.back().number == 1000);
  CHECK(plan[0].seed == std::numeric_limits<std::uint64_t>::max());
  CHECK(plan[1].seed == 0);  // wraps
  std::set<std::string> ids;
  for (const auto& run : plan) ids.insert(run.id);
  CHECK(ids.size() == plan.size());
}

TEST_CASE("a target's args may not set what omnilink sets for each run") {
  Fixture f;
  auto with_args = [](json args) {
    json d = minimal();
    d["targets"][0]["args"] = std::move(args);
    return d;
  };
  CHECK_THAT(f.error(with_args({"--threads", "1"})),
             Contains(": targets[0] (q).args: '--threads' is omnilink's to set for each run (use the target's \"threads\")"));
  CHECK_THAT(f.error(with_args({"--perturb", "sleep", "--seed", "7"})), Contains("'--seed' is omnilink's to set for each run (use \"seed_base\")"));
  CHECK_THAT(f.error(with_args({"--out", "/elsewhere"})), Contains("'--out' is omnilink's to set"));
  CHECK_THAT(f.error(with_args({"--ops=5"})), Contains("'--ops=5' is omnilink's to set"));
  LoadOptions extra = f.options;
  extra.extra_harness_args = {"--seed", "3"};
  CHECK_THROWS_WITH(load_campaign(f.write(minimal()), extra), Contains("--harness-arg: '--seed' is omnilink's to set for each run"));
  CHECK_THAT(f.error(with_args({"--clock", "rdtsc"})), Contains("'--clock' is omnilink's to set for each run (use the target's \"clock\")"));
  CHECK_THAT(f.error(with_args({"--clock=counter"})), Contains("'--clock=counter' is omnilink's to set"));
  // The target's own choices stay its own: a workload parameter, a perturbation.
  CHECK(f.load(with_args({"--perturb", "sleep", "--param", "keys=4"})).targets[0].args.size() == 4);
}

TEST_CASE("a target's clock is a checked field, given to native runs and overridden by rr's counter", "[campaign_file]") {
  Fixture f;
  auto with_clock = [](const json& clock) {
    json d = minimal();
    d["targets"][0]["clock"] = clock;
    return d;
  };
  CHECK_THAT(f.error(with_clock("tsc")), Contains(": targets[0] (q).clock: 'tsc' is not a clock: counter, monotonic or rdtsc"));
  CHECK_THAT(f.error(with_clock(3)), Contains("targets[0] (q).clock"));
  const CampaignConfig config = f.load(with_clock("monotonic"));
  REQUIRE(config.targets[0].clock == std::optional<std::string>("monotonic"));
  CHECK_FALSE(f.load(minimal()).targets[0].clock.has_value());

  const TargetConfig& target = config.targets[0];
  auto clock_arguments = [&](const RunCommand& command) {
    std::vector<std::string> clocks;
    for (std::size_t i = 0; i + 1 < command.args.size(); ++i)
      if (command.args[i] == "--clock") clocks.push_back(command.args[i + 1]);
    return clocks;
  };
  Recording native;
  native.mode = store::RecordingMode::off;
  CHECK(clock_arguments(run_command(native, target, 2, 10, 1, f.dir / "run")) == std::vector<std::string>{"monotonic"});
  Recording recorded;
  recorded.mode = store::RecordingMode::chaos;
  recorded.rr = "/usr/bin/rr";
  CHECK(clock_arguments(run_command(recorded, target, 2, 10, 1, f.dir / "run")) == std::vector<std::string>{"counter"});

  // The stored configuration keeps it (what --resume compares and runs), and leaves it out when not given.
  const json stored = config.to_json();
  CHECK(stored.at("targets")[0].at("clock") == "monotonic");
  CHECK(stored_campaign(stored, "test").targets[0].clock == std::optional<std::string>("monotonic"));
  CHECK_FALSE(f.load(minimal()).to_json().at("targets")[0].contains("clock"));
}
