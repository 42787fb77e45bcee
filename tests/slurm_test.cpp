// `omnilink campaign --executor slurm` and `omnilink sweep --executor slurm` on a real one-node
// Slurm cluster (support/slurm_cluster.hpp): the campaign through Slurm is the campaign run locally
// (the same runs and seeds, every run once, the deterministic target's verdicts alike, recorded
// the same way); Ctrl-C cancels the array and --resume finishes it without redoing a merged run; a
// task Slurm cancels is submitted again, and one cancelled on every attempt leaves its runs as
// errors naming Slurm's state, never a verdict. A sweep's tasks sweep as shards until its deadline
// and merge into one sweep; a task never started by then is cancelled and reported missing. The
// parsing of Slurm's output and the task spec are checked without a cluster.
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include <sys/wait.h>

#include "store/outcome.hpp"
#include "store/store.hpp"
#include "slurm/slurm_client.hpp"
#include "slurm/slurm_task.hpp"
#include "slurm/task_spec.hpp"
#include "support/campaign_support.hpp"
#include "support/slurm_cluster.hpp"

namespace {

using namespace omnilink;
using Catch::Matchers::Contains;
using nlohmann::json;
using testing::ScratchDir;
namespace fs = std::filesystem;

const fs::path kDemo = testing::example_campaign("demo.json");

std::vector<std::string> demo_args(const fs::path& store, const std::vector<std::string>& extra) {
  std::vector<std::string> argv{"campaign", kDemo.string(), "--checker", "native", "--store", store.string(), "--plain"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

json read_json(const fs::path& file) {
  std::ifstream in(file);
  return in ? json::parse(in, nullptr, false) : json();
}

// The Slurm job of task `index` once the coordinator has submitted it (state.json), else "".
std::string job_of(const fs::path& store, const std::string& campaign_id, std::uint32_t index) {
  const json state = read_json(store / campaign_id / "slurm" / "state.json");
  if (!state.is_object()) return "";
  const json& tasks = state.value("tasks", json::object());
  const auto it = tasks.find(std::to_string(index));
  return it == tasks.end() ? "" : it->value("job", "");
}

template <class Predicate>
bool wait_for(Predicate done, std::chrono::seconds limit = std::chrono::seconds(120)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// The exit code of the coordinator `pid`; -1 (and the coordinator killed) when it runs past `limit`.
int wait_exit(pid_t pid, std::chrono::seconds limit = std::chrono::seconds(300)) {
  int status = 0;
  if (!wait_for([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, limit)) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("Slurm's answers are read: array ranges, squeue and sacct lines") {
  CHECK(slurm::array_ranges({0, 1, 2, 3, 5, 9, 10}) == "0-3,5,9-10");
  CHECK(slurm::array_ranges({7}) == "7");
  const auto q = slurm::parse_squeue("2|RUNNING|None\n3|PENDING|JobArrayTaskLimit\n4-6%2|PENDING|JobArrayTaskLimit\n0|COMPLETED|None\n",
                                     {0, 2, 3, 4, 5, 6});
  REQUIRE(q.size() == 6);
  CHECK(q.at(2).state == "RUNNING");
  CHECK(q.at(2).reason.empty());
  CHECK(q.at(5).reason == "JobArrayTaskLimit");
  CHECK_FALSE(q.at(6).ended());
  CHECK(q.at(0).ended());
  // What is left of an array whose pending task was cancelled: the job's own record, no task id.
  const auto gone = slurm::parse_squeue("N/A|CANCELLED|JobHeldUser\n", {0});
  REQUIRE(gone.size() == 1);
  CHECK(gone.at(0).state == "CANCELLED");
  const auto a = slurm::parse_sacct("41_0|COMPLETED\n41_0.batch|COMPLETED\n41_1|CANCELLED by 0\n41_2|TIMEOUT\n42_3|FAILED\n", "41");
  REQUIRE(a.size() == 3);
  CHECK(a.at(1).state == "CANCELLED");
  CHECK(a.at(2).state == "TIMEOUT");
  CHECK(a.at(2).ended());
}

TEST_CASE("a task spec that is not one is refused naming the file and the field") {
  ScratchDir dir;
  const fs::path spec = dir / "task.json";
  slurm::write_task_spec(spec, {store::CampaignKind::campaign, "demo-1", "/usr/bin/omnilink", {"/x/demo.json", "--rr", "off"}, 4, "/store/demo-1/slurm/delivered", std::nullopt});
  const slurm::TaskSpec read = slurm::read_task_spec(spec);
  CHECK(read.campaign == "demo-1");
  CHECK(read.shard_count == 4);
  CHECK(read.arguments.size() == 3);
  CHECK_FALSE(read.sweep());
  json broken = read_json(spec);
  broken["shard_count"] = "four";
  std::ofstream(spec) << broken.dump();
  CHECK_THROWS_WITH(slurm::read_task_spec(spec), Contains(spec.string()) && Contains("shard_count"));
  broken["shard_count"] = 4;
  broken["verb"] = "sweep";  // a sweep's tasks need the time its budget ends
  std::ofstream(spec) << broken.dump();
  CHECK_THROWS_WITH(slurm::read_task_spec(spec), Contains("deadline_ms"));
  broken["deadline_ms"] = 1'790'000'000'000;
  std::ofstream(spec) << broken.dump();
  CHECK(slurm::read_task_spec(spec).deadline_ms == 1'790'000'000'000);
  CHECK(slurm::read_task_spec(spec).sweep());
  broken["verb"] = "validate";
  std::ofstream(spec) << broken.dump();
  CHECK_THROWS_WITH(slurm::read_task_spec(spec), Contains(spec.string()) && Contains("\"verb\" is neither"));
  broken["verb"] = "sweep";
  broken["version"] = 1;
  std::ofstream(spec) << broken.dump();
  CHECK_THROWS_WITH(slurm::read_task_spec(spec), Contains("version 1, this omnilink reads version 2"));
}

TEST_CASE("doctor says whether Slurm's commands reach a cluster") {
  testing::SlurmCluster cluster;
  ProcessOptions options;
  options.timeout = std::chrono::seconds(60);
  const json here = json::parse(run_process(OMNILINK_CLI, {"doctor", "--json"}, options).out);
  CHECK(here.at("tools").at("slurm").at("configured") == true);
  CHECK_THAT(here.at("tools").at("slurm").at("version").get<std::string>(), Contains("22.") || Contains("23.") || Contains("slurm"));
  ScratchDir dir;
  options.env_overrides["SLURM_CONF"] = (dir / "no-such-slurm.conf").string();
  const json nowhere = json::parse(run_process(OMNILINK_CLI, {"doctor", "--json"}, options).out);
  CHECK(nowhere.at("tools").at("slurm").at("found") == true);
  CHECK(nowhere.at("tools").at("slurm").at("configured") == false);
  CHECK(nowhere.at("tools").at("slurm").contains("problem"));
}

TEST_CASE("a campaign through Slurm is the campaign run locally: same runs, seeds and deterministic verdicts") {
  testing::SlurmCluster cluster;
  ScratchDir dir;
  const ProcessResult local = testing::omnilink_cli(demo_args(dir / "local", {}));
  INFO(local.out << local.err);
  REQUIRE((local.exit_code == 0 || local.exit_code == 1));
  const ProcessResult slurm = testing::omnilink_cli(
      demo_args(dir / "slurm", {"--executor", "slurm", "--slurm-batch", "3", "--slurm-tasks", "2", "--json", (dir / "summary.json").string()}));
  INFO(slurm.out << slurm.err);
  REQUIRE((slurm.exit_code == 0 || slurm.exit_code == 1));
  CHECK_THAT(slurm.out, Contains("4 task(s) of 4 (12 runs)"));

  const auto here = testing::runs_by_id(dir / "local", "demo-1");
  const auto there = testing::runs_by_id(dir / "slurm", "demo-1");
  REQUIRE(there.size() == here.size());
  for (const auto& [id, run] : here) {
    INFO(id);
    REQUIRE(there.contains(id));
    const auto& other = there.at(id);
    CHECK(other.seed == run.seed);
    CHECK(other.rr_mode == run.rr_mode);  // recorded on the node as it is here
    CHECK(other.dir == (dir / "slurm" / "demo-1" / id).string());
    CHECK(fs::is_regular_file(fs::path(other.dir) / "meta.json"));
    CHECK(fs::is_regular_file(fs::path(other.dir) / "validation" / "result.json"));
    const store::Outcome outcome = store::outcome(other);
    if (run.target == "locked-queue") CHECK(outcome == store::outcome(run));  // deterministic: always pass
    else CHECK((outcome == store::Outcome::pass || outcome == store::Outcome::fail));                          // a verdict, either way
  }
  const json summary = read_json(dir / "summary.json");
  REQUIRE(summary.is_object());
  CHECK(summary.at("runs").size() == 12);
  // Every shard merged and gone: the store holds the runs once, in their run directories.
  CHECK(fs::is_empty(dir / "slurm" / "demo-1" / "slurm" / "delivered"));
  CHECK(read_json(dir / "slurm" / "demo-1" / "merged-shards.json").at("merged").size() == 4);
  auto store = store::Store::open_read_only(dir / "slurm");
  CHECK(store.campaign("demo-1")->status == store::CampaignStatus::finished);
}

TEST_CASE("Ctrl-C cancels the Slurm array, and --resume finishes the campaign without redoing a merged run") {
  testing::SlurmCluster cluster;
  ScratchDir dir;
  const fs::path store = dir / "store";
  // 12 runs of the correct queue, 2 per task, one task at a time.
  const std::vector<std::string> options{"--only", "locked-queue", "--runs", "6", "--rr", "off", "--executor", "slurm", "--slurm-batch", "2",
                                         "--slurm-tasks", "1"};
  std::vector<std::string> argv{OMNILINK_CLI};
  for (const auto& a : demo_args(store, options)) argv.push_back(a);
  const pid_t coordinator = testing::spawn_silenced(argv);
  const bool merged_one = wait_for([&] {
    if (!fs::exists(store / "omnilink.db")) return false;
    try {
      for (const auto& [id, run] : testing::runs_by_id(store, "demo-1"))
        if (store::outcome(run) != store::Outcome::interrupted) return true;
    } catch (const store::StoreError&) {
      // omnilink.db is made before its schema is: read between the two, it is "empty", not yet a store.
    }
    return false;
  });
  ::kill(coordinator, SIGINT);
  CHECK(wait_exit(coordinator) == 2);
  REQUIRE(merged_one);

  std::map<std::string, std::int64_t> done_before;
  for (const auto& [id, run] : testing::runs_by_id(store, "demo-1"))
    if (store::outcome(run) != store::Outcome::interrupted) done_before[id] = run.started_ms;
  CHECK(done_before.size() < 12);
  // Nothing of the array is left queued or running.
  const json state = read_json(store / "demo-1" / "slurm" / "state.json");
  REQUIRE(state.is_object());
  CHECK(state.at("tasks").empty());  // none in flight: cancelled tasks are not counted as attempts
  const ProcessResult queue = cluster.command("squeue", {"--noheader", "--states=PENDING,RUNNING", "--name=omnilink-demo-1"});
  CHECK(summarize_output(queue.out).empty());

  const ProcessResult resumed = testing::omnilink_cli(demo_args(store, [&] {
    auto a = options;
    a.push_back("--resume");
    return a;
  }()));
  INFO(resumed.out << resumed.err);
  CHECK(resumed.exit_code == 0);
  const auto runs = testing::runs_by_id(store, "demo-1");
  CHECK(runs.size() == 12);
  for (const auto& [id, run] : runs) {
    INFO(id);
    CHECK(store::outcome(run) == store::Outcome::pass);
    if (done_before.contains(id)) CHECK(run.started_ms == done_before.at(id));  // merged once, not done again
  }
}

TEST_CASE("a task that fails on its node is submitted again, and failing on every attempt its runs are errors naming Slurm's state") {
  testing::SlurmCluster cluster;
  ScratchDir dir;
  const fs::path store = dir / "store";
  // The tasks' node-local scratch (TMPDIR reaches them through sbatch's exported environment).
  const fs::path node_tmp = dir / "node-tmp";
  fs::create_directories(node_tmp);
  ::setenv("TMPDIR", node_tmp.c_str(), 1);
  // 4 runs, 2 tasks of 2, submitted held: before letting a job go, the test puts a file where task
  // 0 keeps its shard store, so task 0 fails on the node (Slurm: FAILED) on every attempt.
  std::vector<std::string> argv{OMNILINK_CLI};
  for (const auto& a : demo_args(store, {"--only", "locked-queue", "--rr", "off", "--executor", "slurm", "--slurm-batch", "2",
                                         "--slurm-attempts", "2", "--slurm-arg=--hold"}))
    argv.push_back(a);
  const pid_t coordinator = testing::spawn_silenced(argv);
  std::string job;
  for (int attempt = 1; attempt <= 2; ++attempt) {
    const std::string previous = job;
    REQUIRE(wait_for([&] {
      job = job_of(store, "demo-1", 0);
      return !job.empty() && job != previous;
    }));
    std::ofstream(slurm::scratch_store(slurm::read_task_spec(store / "demo-1" / "slurm" / "task.json"), std::stoull(job), 0)) << "in the way\n";
    CHECK(cluster.command("scontrol", {"release", job}).ok());
  }
  const int code = wait_exit(coordinator);
  ::unsetenv("TMPDIR");
  CHECK(code == 2);

  std::size_t errors = 0, passes = 0;
  for (const auto& [id, run] : testing::runs_by_id(store, "demo-1")) {
    INFO(id << ": " << run.status << " " << run.detail);
    const store::Outcome outcome = store::outcome(run);
    CHECK((outcome == store::Outcome::error || outcome == store::Outcome::pass));
    if (outcome == store::Outcome::error) {
      ++errors;
      CHECK_FALSE(run.validation.has_value());  // never a verdict
      CHECK_THAT(run.detail, Contains("task 0/2") && Contains("2 attempt(s)") && Contains("FAILED"));
    }
    passes += outcome == store::Outcome::pass;
  }
  CHECK(errors == 2);
  CHECK(passes == 2);
  // The task's own log says why, for the person reading the error.
  std::ifstream log(store / "demo-1" / "slurm" / "logs" / ("task-0.job-" + job + ".log"));
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Contains("nothing delivered"));
}

TEST_CASE("a coordinator killed outright leaves its tasks running, and --resume watches them instead of submitting again") {
  testing::SlurmCluster cluster;
  ScratchDir dir;
  const fs::path store = dir / "store";
  // Held, so the tasks are still in Slurm's queue when the coordinator dies.
  const std::vector<std::string> options{"--only", "locked-queue", "--rr", "off", "--executor", "slurm", "--slurm-batch", "2", "--slurm-arg=--hold"};
  std::vector<std::string> argv{OMNILINK_CLI};
  for (const auto& a : demo_args(store, options)) argv.push_back(a);
  const pid_t first = testing::spawn_silenced(argv);
  std::string job;
  REQUIRE(wait_for([&] { return !(job = job_of(store, "demo-1", 1)).empty(); }));
  ::kill(first, SIGKILL);
  wait_exit(first);

  argv.push_back("--resume");
  const pid_t resumed = testing::spawn_silenced(argv);
  // The resumed coordinator has its tasks: they are Slurm's job still, none submitted again.
  std::this_thread::sleep_for(std::chrono::seconds(3));
  CHECK(job_of(store, "demo-1", 0) == job);
  CHECK(job_of(store, "demo-1", 1) == job);
  CHECK(cluster.command("scontrol", {"release", job}).ok());
  CHECK(wait_exit(resumed) == 0);
  for (const auto& [id, run] : testing::runs_by_id(store, "demo-1")) {
    INFO(id);
    CHECK(store::outcome(run) == store::Outcome::pass);
  }
  // One job in all: Slurm never saw another submission.
  const ProcessResult jobs = cluster.command("squeue", {"--noheader", "--states=all", "--format=%F"});
  std::set<std::string> arrays;
  for (std::size_t at = 0, end; at < jobs.out.size(); at = end + 1) {
    end = jobs.out.find('\n', at);
    if (end == std::string::npos) end = jobs.out.size();
    if (end > at) arrays.insert(jobs.out.substr(at, end - at));
  }
  CHECK(arrays == std::set<std::string>{job});
}


TEST_CASE("a sweep through Slurm: its tasks sweep as shards until the deadline, and the merged sweep reports as a local one") {
  testing::SlurmCluster cluster;
  ScratchDir dir;
  std::ofstream(dir / "sweep.json") << testing::stack_sweep("10m").dump(2);
  const fs::path store = dir / "store";
  const ProcessResult swept = testing::omnilink_cli({"sweep", (dir / "sweep.json").string(), "--store", store.string(), "--plain", "--for",
                                                     "15s", "--json", (dir / "report.json").string(), "--executor", "slurm", "--slurm-tasks", "2"});
  INFO(swept.out << swept.err);
  CHECK((swept.exit_code == 0 || swept.exit_code == 1));  // 1: the planted bug showed, as it nearly always does
  const json report = read_json(dir / "report.json");
  REQUIRE(report.is_object());
  CHECK(report.at("stop_reason") == "budget");
  CHECK(report.at("missing_tasks").empty());

  // Both tasks delivered; their runs are the sweep's, each once, numbered apart (shard 0 the odd
  // numbers, shard 1 the even), with seeds of their own and a verdict each.
  CHECK(read_json(store / "nightly-1" / "merged-shards.json").at("merged") == json::array({0, 1}));
  const auto runs = testing::runs_by_id(store, "nightly-1");
  REQUIRE(runs.size() >= 2);
  CHECK(report.at("runs") == runs.size());
  std::set<std::uint64_t> seeds;
  std::set<std::uint32_t> parities;
  for (const auto& [id, run] : runs) {
    INFO(id);
    seeds.insert(run.seed);
    parities.insert(run.number % 2);
    const store::Outcome outcome = store::outcome(run);
    CHECK((outcome == store::Outcome::pass || outcome == store::Outcome::fail));
    CHECK(run.dir == (store / "nightly-1" / id).string());
    CHECK(fs::is_regular_file(fs::path(run.dir) / "validation" / "result.json"));
  }
  CHECK(seeds.size() == runs.size());
  CHECK(parities == std::set<std::uint32_t>{0, 1});
  std::uint64_t allocated = 0;
  for (const json& c : report.at("configurations")) allocated += c.at("runs").get<std::uint64_t>();
  CHECK(allocated == runs.size());
  auto opened = store::Store::open_read_only(store);
  CHECK(opened.campaign("nightly-1")->status == store::CampaignStatus::finished);
  CHECK(json::parse(opened.campaign("nightly-1")->config_json).contains("sweep"));
}

TEST_CASE("a sweep's task that the cluster does not start before the deadline is cancelled and reported missing") {
  testing::SlurmCluster cluster;
  ScratchDir dir;
  std::ofstream(dir / "sweep.json") << testing::stack_sweep("10m").dump(2);
  // Held: Slurm never starts them, as a cluster too busy until morning would not.
  const ProcessResult swept =
      testing::omnilink_cli({"sweep", (dir / "sweep.json").string(), "--store", (dir / "store").string(), "--plain", "--for", "4s", "--json",
                             (dir / "report.json").string(), "--executor", "slurm", "--slurm-tasks", "2", "--slurm-arg=--hold"});
  INFO(swept.out << swept.err);
  CHECK(swept.exit_code == 2);  // the sweep could not run what it should
  const json report = read_json(dir / "report.json");
  REQUIRE(report.is_object());
  CHECK(report.at("runs") == 0);
  REQUIRE(report.at("missing_tasks").size() == 2);
  for (const json& missing : report.at("missing_tasks")) {
    CHECK_THAT(missing.get<std::string>(), Contains("still pending (JobHeldUser) when the budget ended; cancelled"));
    CHECK_THAT(missing.get<std::string>(), Contains("no log: it never started"));
  }
  CHECK_THAT(swept.out, Contains("- missing: task 0/2"));
  const ProcessResult queue = cluster.command("squeue", {"--noheader", "--states=PENDING,RUNNING", "--name=omnilink-nightly-1"});
  CHECK(summarize_output(queue.out).empty());
}

TEST_CASE("Ctrl-C stops a sweep on Slurm, its tasks deliver what they finished, and --resume merges and reports it") {
  testing::SlurmCluster cluster;
  ScratchDir dir;
  std::ofstream(dir / "sweep.json") << testing::stack_sweep("10m").dump(2);
  const fs::path store = dir / "store";
  const std::vector<std::string> sweep{OMNILINK_CLI, "sweep", (dir / "sweep.json").string(), "--store", store.string(), "--plain",
                                       "--executor", "slurm", "--slurm-tasks", "2"};
  std::vector<std::string> argv = sweep;
  argv.insert(argv.end(), {"--for", "5m"});
  const pid_t coordinator = testing::spawn_silenced(argv);
  // Both tasks sweeping for a few seconds.
  const bool running = wait_for([&] {
    const ProcessResult queue = cluster.command("squeue", {"--noheader", "--states=RUNNING", "--name=omnilink-nightly-1"});
    return std::count(queue.out.begin(), queue.out.end(), '\n') == 2;
  });
  std::this_thread::sleep_for(std::chrono::seconds(5));
  ::kill(coordinator, SIGINT);
  CHECK(wait_exit(coordinator) == 2);
  REQUIRE(running);
  // Cancelled, each task's sweep stops and delivers the runs it finished.
  const fs::path delivered = store / "nightly-1" / "slurm" / "delivered";
  CHECK(wait_for([&] { return fs::exists(delivered / "shard-0") && fs::exists(delivered / "shard-1"); }));
  CHECK(wait_for([&] {
    return summarize_output(cluster.command("squeue", {"--noheader", "--name=omnilink-nightly-1"}).out).empty();
  }));

  std::vector<std::string> resume(sweep.begin() + 1, sweep.end());
  resume.insert(resume.end(), {"--resume", "--json", (dir / "report.json").string()});
  const ProcessResult resumed = testing::omnilink_cli(resume);
  INFO(resumed.out << resumed.err);
  CHECK((resumed.exit_code == 0 || resumed.exit_code == 1));
  const json report = read_json(dir / "report.json");
  REQUIRE(report.is_object());
  CHECK(report.at("missing_tasks").empty());
  CHECK(report.at("stop_reason") == "tasks");  // each task ended (was stopped) before the budget did
  CHECK(read_json(store / "nightly-1" / "merged-shards.json").at("merged") == json::array({0, 1}));
  const auto runs = testing::runs_by_id(store, "nightly-1");
  CHECK(report.at("runs") == runs.size());
  std::set<std::uint32_t> parities;
  for (const auto& [id, run] : runs) {
    INFO(id);
    parities.insert(run.number % 2);
    CHECK(store::has_outcome(run));  // the stopped tasks' unfinished runs were left out, not merged as verdicts
  }
  CHECK(parities == std::set<std::uint32_t>{0, 1});
  auto opened = store::Store::open_read_only(store);
  CHECK(opened.campaign("nightly-1")->status == store::CampaignStatus::finished);
}
