#include "slurm/slurm_client.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "platform/subprocess.hpp"

namespace omnilink::slurm {
namespace fs = std::filesystem;

namespace {

// Slurm answers in well under a second; a controller that does not is reported, not waited on.
constexpr std::chrono::milliseconds kCommandTimeout{60'000};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

std::optional<std::uint32_t> task_index(const std::string& text) {
  if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return static_cast<std::uint32_t>(std::stoul(text));
}

ProcessOptions command_options() {
  ProcessOptions options;
  options.timeout = kCommandTimeout;
  return options;
}

std::string first_word(const std::string& text) { return text.substr(0, text.find(' ')); }

}  // namespace

bool TaskState::ended() const {
  static const std::set<std::string> ends{"COMPLETED", "FAILED",     "TIMEOUT",  "NODE_FAIL", "PREEMPTED",
                                          "CANCELLED", "BOOT_FAIL",  "DEADLINE", "OUT_OF_MEMORY", "SPECIAL_EXIT"};
  return ends.contains(state);
}

std::string array_ranges(const std::vector<std::uint32_t>& indices) {
  std::string out;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(indices[i]) + (j > i ? "-" + std::to_string(indices[j]) : "");
    i = j + 1;
  }
  return out;
}

std::map<std::uint32_t, TaskState> parse_squeue(const std::string& output, const std::vector<std::uint32_t>& indices) {
  std::map<std::uint32_t, TaskState> tasks;
  std::optional<TaskState> whole_job;
  for (const std::string& line : split(output, '\n')) {
    const auto fields = split(line, '|');
    if (fields.size() < 3) continue;
    if (fields[0] == "N/A") {
      whole_job = TaskState{fields[1], fields[2] == "None" ? "" : fields[2]};
      continue;
    }
    // A pending array's tasks not started yet are one line ("4-7%2") even with --array on some
    // versions: each index in it is pending.
    std::string ids = fields[0].substr(0, fields[0].find('%'));
    for (const std::string& range : split(ids, ',')) {
      const auto dash = range.find('-');
      const auto first = task_index(range.substr(0, dash));
      const auto last = dash == std::string::npos ? first : task_index(range.substr(dash + 1));
      if (!first || !last) continue;
      for (std::uint32_t i = *first; i <= *last; ++i) tasks[i] = {fields[1], fields[2] == "None" ? "" : fields[2]};
    }
  }
  if (whole_job)
    for (const auto i : indices) tasks.try_emplace(i, *whole_job);
  return tasks;
}

std::map<std::uint32_t, TaskState> parse_sacct(const std::string& output, const std::string& job_id) {
  std::map<std::uint32_t, TaskState> tasks;
  const std::string prefix = job_id + "_";
  for (const std::string& line : split(output, '\n')) {
    const auto fields = split(line, '|');
    if (fields.size() < 2 || !fields[0].starts_with(prefix)) continue;
    if (const auto index = task_index(fields[0].substr(prefix.size()))) tasks[*index] = {first_word(fields[1]), ""};
  }
  return tasks;
}

std::optional<SlurmClient> SlurmClient::find(std::string& why) {
  SlurmClient client;
  for (auto [name, where] : {std::pair{"sbatch", &client.sbatch_}, {"squeue", &client.squeue_}, {"scancel", &client.scancel_}}) {
    const auto found = find_on_path(name);
    if (!found) {
      why = std::string(name) + " is not on PATH (Slurm's client commands: Debian's slurm-client)";
      return std::nullopt;
    }
    *where = *found;
  }
  client.sacct_ = find_on_path("sacct");
  return client;
}

std::string SlurmClient::submit(const ArraySubmission& s) const {
  std::string array = array_ranges(s.indices);
  if (s.concurrency > 0) array += "%" + std::to_string(s.concurrency);
  std::vector<std::string> args{"--parsable", "--array=" + array, "--job-name=" + s.job_name, "--output=" + s.output.string()};
  args.insert(args.end(), s.extra_args.begin(), s.extra_args.end());
  args.push_back(s.script.string());
  const ProcessResult r = run_process(sbatch_, args, command_options());
  if (!r.ok()) throw SlurmError("sbatch " + r.describe() + ": " + summarize_output(r.err + r.out, 3));
  // --parsable prints "JOBID" or "JOBID;CLUSTER".
  const std::string line = summarize_output(r.out);
  const std::string id = line.substr(0, line.find(';'));
  if (!task_index(id)) throw SlurmError("sbatch printed no job id: " + summarize_output(r.out + r.err, 3));
  return id;
}

std::map<std::uint32_t, TaskState> SlurmClient::tasks(const std::string& job_id, const std::vector<std::uint32_t>& indices) const {
  const ProcessResult q = run_process(squeue_, {"--noheader", "--array", "--states=all", "--jobs=" + job_id, "--format=%K|%T|%r"},
                                      command_options());
  if (q.ok()) {
    auto known = parse_squeue(q.out, indices);
    if (!known.empty()) return known;
  }
  // squeue forgets a job MinJobAge seconds after it ends; sacct remembers, where accounting is kept.
  if (sacct_) {
    const ProcessResult a = run_process(*sacct_, {"--noheader", "--parsable2", "--jobs=" + job_id, "--format=JobID,State"},
                                        command_options());
    if (a.ok()) return parse_sacct(a.out, job_id);
  }
  return {};
}

void SlurmClient::cancel(const std::vector<std::string>& job_ids) const {
  if (job_ids.empty()) return;
  std::vector<std::string> args(job_ids);
  const ProcessResult r = run_process(scancel_, args, command_options());
  (void)r;  // a job that ended meanwhile is not an error worth stopping for
}

}  // namespace omnilink::slurm
