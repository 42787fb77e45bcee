#include "slurm/slurm_executor.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include "platform/join.hpp"
#include "platform/json_file.hpp"
#include "maintenance/merge.hpp"
#include "platform/stop_request.hpp"
#include "store/outcome.hpp"
#include "campaign/run_plan.hpp"
#include "campaign/session.hpp"
#include "platform/subprocess.hpp"

namespace omnilink::slurm {
namespace fs = std::filesystem;
using store::RunRecord;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// Everything the coordinator tracks of one task (one shard of the plan).
struct Task {
  std::vector<std::string> run_ids;  // its share of the plan (none for a sweep's: they are drawn as it goes)
  bool settled = false;              // merged, or its runs recorded as errors
  std::string job;                   // the Slurm job of its current attempt ("" before the first)
  unsigned attempts = 0;
  std::string seen;                                 // the state last shown
  std::optional<Clock::time_point> ended_unseen;    // since when Slurm says it ended with no delivery seen
};

}  // namespace

struct SlurmExecutor::State {
  const campaign::CampaignConfig& config;
  store::Store& store;
  std::string id;
  const store::CampaignLock& lock;
  campaign::RunSource& source;
  std::optional<SlurmClient> client;  // found when the executor runs
  TaskSpec spec;
  SlurmSettings settings;
  campaign::Progress& progress;
  fs::path store_dir, dir;  // the store, and STORE/<id>/slurm
  std::vector<Task> tasks;
  std::vector<std::string> lost;  // a sweep's tasks that ended without delivering, and why
  // Where the coordinator's time goes, over all its sessions (state.json "coordinator"): what
  // bench/slurm_overhead projects a cluster's coordinator from.
  struct Spent {
    std::size_t merged_runs = 0;
    double merge_s = 0;  // merging deliveries into the store
    std::size_t polls = 0;
    double poll_s = 0;  // asking Slurm (squeue, sacct)
  } spent;

  fs::path script() const { return dir / "task.sh"; }
  fs::path state_file() const { return dir / "state.json"; }

  std::string task_name(std::uint32_t i) const { return "task " + std::to_string(i) + "/" + std::to_string(tasks.size()); }

  // --- set-up -------------------------------------------------------------------------------

  /// The split: fixed when the campaign starts (merged-shards.json), refused for a campaign that
  /// ran without Slurm (its finished runs belong to no shard).
  std::uint32_t shard_count() {
    if (const auto merged = maintenance::merged_shards(store_dir, id)) return merged->count;
    const auto runs = store.runs(id);
    if (std::any_of(runs.begin(), runs.end(), store::has_outcome))
      throw std::runtime_error("campaign " + id + " has runs done without --executor slurm; continue it without it");
    // A sweep runs as many tasks as may run at once, each until the deadline.
    const auto count = spec.sweep() ? settings.concurrency
                                    : static_cast<std::uint32_t>(std::max<std::size_t>(1, (runs.size() + settings.batch - 1) / settings.batch));
    maintenance::start_merged_campaign(store_dir, id, count);
    return count;
  }

  void plan_tasks(std::uint32_t count) {
    tasks.assign(count, Task{});
    campaign::CampaignConfig share = config;
    if (!spec.sweep())  // a sweep's runs are drawn as its tasks go
      for (std::uint32_t i = 0; i < count; ++i) {
        share.shard = campaign::Shard{i, count};
        for (const auto& run : campaign::planned_records(share, id, store_dir)) tasks[i].run_ids.push_back(run.id);
      }
    const auto merged = maintenance::merged_shards(store_dir, id);
    std::map<std::string, RunRecord> runs;
    for (auto& run : store.runs(id)) runs.emplace(run.id, std::move(run));
    for (std::uint32_t i = 0; i < count; ++i) {
      Task& t = tasks[i];
      // A sweep's task is settled only by its delivery: it has no planned runs to look at.
      t.settled = merged->merged.contains(i) ||
                  (!spec.sweep() &&
                   std::all_of(t.run_ids.begin(), t.run_ids.end(), [&](const std::string& r) { return store::has_outcome(runs.at(r)); }));
    }
  }

  void write_task_files() {
    fs::create_directories(dir / "logs");
    write_task_spec(dir / "task.json", spec);
    // Slurm runs a script; this one only starts omnilink on the spec, every word quoted.
    const fs::path aside = script().string() + ".tmp";
    {
      std::ofstream out(aside, std::ios::trunc);
      out << "#!/bin/sh\n# Written by `omnilink campaign --executor slurm` for campaign " << id << ": one task of its array.\n"
          << "exec " << shell_command_line({spec.omnilink.string(), "slurm-task", (dir / "task.json").string()}) << "\n";
      if (!out.flush()) throw std::runtime_error("cannot write " + aside.string());
    }
    fs::permissions(aside, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
    fs::rename(aside, script());
  }

  // STORE/<id>/slurm/state.json: each task in flight, its job and attempts, for a resumed coordinator.
  void load_state() {
    const json saved = platform::read_json_leniently(state_file());
    if (!saved.is_object() || !saved.contains("tasks") || !saved["tasks"].is_object()) return;
    if (const json c = saved.value("coordinator", json::object()); c.is_object())
      spent = {c.value("merged_runs", std::size_t{0}), c.value("merge_s", 0.0), c.value("polls", std::size_t{0}), c.value("poll_s", 0.0)};
    for (const auto& [key, value] : saved["tasks"].items()) {
      const std::uint32_t i = static_cast<std::uint32_t>(std::stoul(key));
      if (i >= tasks.size() || !value.is_object()) continue;
      tasks[i].job = value.value("job", "");
      tasks[i].attempts = value.value("attempts", 0u);
    }
  }

  void save_state() const {
    json saved{{"format", "omnilink-slurm-state"},
               {"version", 1},
               {"tasks", json::object()},
               {"coordinator", {{"merged_runs", spent.merged_runs}, {"merge_s", spent.merge_s}, {"polls", spent.polls}, {"poll_s", spent.poll_s}}}};
    for (std::size_t i = 0; i < tasks.size(); ++i)
      if (!tasks[i].settled && !tasks[i].job.empty()) saved["tasks"][std::to_string(i)] = {{"job", tasks[i].job}, {"attempts", tasks[i].attempts}};
    const fs::path aside = state_file().string() + ".tmp";
    {
      std::ofstream out(aside, std::ios::trunc);
      out << saved.dump(2) << "\n";
      if (!out.flush()) throw std::runtime_error("cannot write " + aside.string());
    }
    fs::rename(aside, state_file());
  }

  // --- the array ----------------------------------------------------------------------------

  void submit(const std::vector<std::uint32_t>& indices) {
    if (indices.empty()) return;
    std::size_t runs = 0;
    for (auto i : indices) runs += tasks[i].run_ids.size();
    const std::string job = client->submit({.script = script(),
                                           .indices = indices,
                                           .concurrency = settings.concurrency,
                                           .job_name = "omnilink-" + id,
                                           .output = dir / "logs" / "task-%a.job-%A.log",
                                           .extra_args = settings.sbatch_args});
    for (auto i : indices) {
      Task& t = tasks[i];
      t.job = job;
      ++t.attempts;
      t.seen.clear();
      t.ended_unseen.reset();
    }
    save_state();
    progress.note("Slurm job " + job + ": " + std::to_string(indices.size()) + " task(s) of " + std::to_string(tasks.size()) + " (" +
                  (spec.sweep() ? std::string("each sweeping until the deadline") : std::to_string(runs) + " runs") + "), tasks " +
                  array_ranges(indices) +
                  (settings.concurrency ? ", at most " + std::to_string(settings.concurrency) + " at once" : ""));
  }

  /// Merges every delivered shard of a task not settled yet: all of them in one merge (one
  /// transaction, however many tasks finished since the last look), or, when that is refused, one
  /// by one, so that one bad delivery does not hold back the others.
  void merge_deliveries(std::vector<std::uint32_t>& again) {
    std::vector<std::uint32_t> ready;
    for (std::uint32_t i = 0; i < tasks.size(); ++i)
      if (!tasks[i].settled && fs::exists(delivered_shard(spec.delivery_dir, i))) ready.push_back(i);
    if (ready.empty()) return;
    if (ready.size() > 1) {
      try {
        merge(ready);
        return;
      } catch (const maintenance::MergeError&) {
        // Every check comes before anything moves, and a merge cut short is finished by merging again.
      }
    }
    for (const std::uint32_t i : ready) {
      try {
        merge({i});
      } catch (const maintenance::MergeError& e) {
        // Kept aside for a person to look at; the task is run again.
        const fs::path delivery = delivered_shard(spec.delivery_dir, i);
        const fs::path refused = delivery.string() + ".refused-" + std::to_string(tasks[i].attempts);
        fs::remove_all(refused);
        fs::rename(delivery, refused);
        failed(i, std::string("its shard could not be merged (") + e.what() + "; kept in " + refused.string() + ")", again);
      }
    }
  }

  /// Merges the deliveries of tasks `indices` into the campaign and settles them. Throws MergeError.
  void merge(const std::vector<std::uint32_t>& indices) {
    std::vector<fs::path> deliveries;
    for (const auto i : indices) deliveries.push_back(delivered_shard(spec.delivery_dir, i));
    const auto started = Clock::now();
    const maintenance::MergeReport report = maintenance::merge_shards(store_dir, deliveries, id, &lock);
    spent.merged_runs += report.runs.size();
    spent.merge_s += std::chrono::duration<double>(Clock::now() - started).count();
    for (const RunRecord& run : report.runs) progress.finished(run);
    for (const auto i : indices) {
      tasks[i].settled = true;
      progress.clear(task_name(i));
      fs::remove_all(delivered_shard(spec.delivery_dir, i));
    }
  }

  /// What Slurm says of each task in flight; a task that ended without a delivery has failed.
  void watch(std::vector<std::uint32_t>& again) {
    std::map<std::string, std::vector<std::uint32_t>> in_flight;
    for (std::uint32_t i = 0; i < tasks.size(); ++i)
      if (!tasks[i].settled && !tasks[i].job.empty()) in_flight[tasks[i].job].push_back(i);
    std::map<std::string, std::map<std::uint32_t, TaskState>> by_job;
    const auto started = Clock::now();
    for (const auto& [job, indices] : in_flight) by_job[job] = client->tasks(job, indices);
    spent.poll_s += std::chrono::duration<double>(Clock::now() - started).count();
    ++spent.polls;
    for (std::uint32_t i = 0; i < tasks.size(); ++i) {
      Task& t = tasks[i];
      if (t.settled || t.job.empty()) continue;
      const auto known = by_job.find(t.job);
      const auto found = known->second.find(i);
      if (found != known->second.end() && !found->second.ended()) {
        if (found->second.state == "PENDING" && budget_over()) {
          // A sweep's task that a busy cluster did not start before the deadline has nothing to do.
          client->cancel({t.job + "_" + std::to_string(i)});
          failed(i, "Slurm job " + t.job + ": still pending" + (found->second.reason.empty() ? "" : " (" + found->second.reason + ")") +
                        " when the budget ended; cancelled", again);
          continue;
        }
        const std::string shown = lower(found->second.state) + (found->second.reason.empty() ? "" : " (" + found->second.reason + ")");
        if (shown != t.seen) progress.phase(task_name(i), "Slurm job " + t.job + ": " + shown);
        t.seen = shown;
        t.ended_unseen.reset();
        continue;
      }
      // A task that completed delivered before it ended; its delivery may take the shared file
      // system's cache a moment to show. Any other end (or no record at all) is a failure now.
      const bool completed = found != known->second.end() && found->second.state == "COMPLETED";
      if (!t.ended_unseen) t.ended_unseen = Clock::now();
      if ((completed || found == known->second.end()) && Clock::now() - *t.ended_unseen < settings.delivery_grace) continue;
      std::string why = found == known->second.end()
                            ? "no longer known to Slurm (cancelled before it started, or ended longer ago than squeue remembers, "
                              "with no sacct accounting to ask)"
                            : found->second.state;
      if (found != known->second.end() && !found->second.reason.empty()) why += " (" + found->second.reason + ")";
      if (completed) why += " without delivering its shard";
      failed(i, "Slurm job " + t.job + ": " + why, again);
    }
  }

  /// Whether a sweep's deadline has passed (a campaign has none).
  bool budget_over() const {
    return spec.deadline_ms && store::now_ms() >= *spec.deadline_ms;
  }

  /// Task `i`'s attempt failed for `why`: run again (a sweep's only while its budget lasts), or its
  /// runs recorded as errors (a sweep's reported missing).
  void failed(std::uint32_t i, const std::string& why, std::vector<std::uint32_t>& again) {
    Task& t = tasks[i];
    const fs::path log_file = dir / "logs" / ("task-" + std::to_string(i) + ".job-" + t.job + ".log");
    const std::string log = fs::exists(log_file) ? "log: " + log_file.string() : "no log: it never started";
    if (t.attempts < settings.attempts && !budget_over()) {
      progress.note(task_name(i) + ": " + why + "; submitting it again (attempt " + std::to_string(t.attempts + 1) + " of " +
                    std::to_string(settings.attempts) + "; " + log + ")");
      again.push_back(i);
      t.job.clear();  // not watched until submitted again
      return;
    }
    t.settled = true;
    progress.clear(task_name(i));
    if (spec.sweep()) {
      // Its runs were never delivered; the sweep's report says so.
      lost.push_back(task_name(i) + ": " + why + (budget_over() ? "" : " (on each of its " + std::to_string(t.attempts) + " attempts)") +
                     "; " + log);
      progress.note(lost.back());
      return;
    }
    for (const std::string& run_id : t.run_ids) {
      auto run = store.run(id + "/" + run_id);
      if (!run || store::has_outcome(*run)) continue;
      run->status = store::RunStatus::error;
      run->detail = task_name(i) + " failed on each of its " + std::to_string(t.attempts) + " attempt(s), the last: " + why +
                    " (" + log + ")";
      store.update_run(*run);
      progress.finished(*run);
    }
  }

  void cancel_all() {
    std::vector<std::string> jobs;
    for (const Task& t : tasks)
      if (!t.settled && !t.job.empty() && std::find(jobs.begin(), jobs.end(), t.job) == jobs.end()) jobs.push_back(t.job);
    client->cancel(jobs);
    // Cancelled, not failed: `--resume` submits these tasks afresh, with all their attempts.
    for (Task& t : tasks)
      if (!t.settled) {
        t.job.clear();
        t.attempts = 0;
      }
    progress.note("cancelled Slurm job(s) " + (jobs.empty() ? std::string("(none running)") : join(jobs, ", ")));
  }

  bool all_settled() const {
    return std::all_of(tasks.begin(), tasks.end(), [](const Task& t) { return t.settled; });
  }
};

SlurmExecutor::SlurmExecutor(campaign::Session& session, campaign::RunSource& source, TaskSpec task, SlurmSettings settings,
                             campaign::Progress& progress)
    : state_(new State{session.config(), session.store(), session.id(), session.lock(), source, std::nullopt, std::move(task),
                       std::move(settings), progress, fs::absolute(session.config().store),
                       slurm_dir(fs::absolute(session.config().store), session.id()), {}, {}, {}}) {
  State& s = *state_;
  s.spec.campaign = s.id;
  s.spec.delivery_dir = s.dir / "delivered";
}

SlurmExecutor::~SlurmExecutor() = default;

std::vector<std::string> SlurmExecutor::missing() const { return state_->lost; }

bool SlurmExecutor::run() {
  State& s = *state_;
  std::string why;
  s.client = SlurmClient::find(why);
  if (!s.client) throw SlurmError(why);
  if (s.spec.omnilink.empty()) {
    // Every node runs the coordinator's own executable, at the same path on the shared file system.
    std::error_code ec;
    s.spec.omnilink = fs::read_symlink("/proc/self/exe", ec);
    if (ec) throw SlurmError("cannot tell where omnilink itself is (/proc/self/exe: " + ec.message() + ")");
  }
  // A campaign's plan is in the store before it is split into tasks; a sweep's runs are drawn by
  // its tasks as they go.
  if (!s.spec.sweep()) s.source.prepare(s.store);
  const StopRequest stop;
  s.spec.shard_count = s.shard_count();
  s.plan_tasks(s.spec.shard_count);
  s.write_task_files();
  s.load_state();

  std::vector<RunRecord> already;
  std::size_t total = 0;
  for (const auto& run : s.store.runs(s.id)) {
    ++total;
    if (store::has_outcome(run)) already.push_back(run);
  }
  s.progress.begin(total, already);

  // Deliveries first (a coordinator that stopped left them); then the tasks with no job in flight.
  std::vector<std::uint32_t> to_submit;
  s.merge_deliveries(to_submit);
  for (std::uint32_t i = 0; i < s.tasks.size(); ++i)
    if (!s.tasks[i].settled && s.tasks[i].job.empty()) to_submit.push_back(i);
  s.submit(to_submit);

  auto next_watch = Clock::now();
  while (!s.all_settled()) {
    if (stop.requested()) {
      s.progress.note(std::string(stop.signal_name()) + ": cancelling the Slurm array");
      s.cancel_all();
      s.save_state();
      s.progress.end();
      return false;
    }
    std::vector<std::uint32_t> again;
    s.merge_deliveries(again);
    if (Clock::now() >= next_watch) {
      s.watch(again);
      s.source.tick();  // a sweep saves its clock: a coordinator killed outright loses at most a few seconds
      next_watch = Clock::now() + s.settings.poll;
    }
    s.submit(again);
    s.progress.tick();
    if (!s.all_settled()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  s.save_state();
  s.progress.end();
  return true;
}

}  // namespace omnilink::slurm
