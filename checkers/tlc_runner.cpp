#include "checkers/tlc_runner.hpp"

#include <regex>
#include <sstream>

#include "platform/subprocess.hpp"

namespace omnilink::checkers {
namespace {

// TLC message codes (tlc2.output.EC) this runner reads.
constexpr int kFinalStats = 2199;         // "N states generated, M distinct states found, ..."

}  // namespace

std::vector<TlcMessage> parse_tool_messages(const std::string& output) {
  std::vector<TlcMessage> messages;
  std::istringstream in(output);
  std::optional<TlcMessage> current;
  static const std::regex start(R"(^@!@!@STARTMSG (\d+):(\d+) @!@!@$)");
  static const std::regex end(R"(^@!@!@ENDMSG (\d+) @!@!@$)");
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, m, start)) {
      current = TlcMessage{std::stoi(m[1]), std::stoi(m[2]), ""};
    } else if (std::regex_match(line, m, end)) {
      if (current) messages.push_back(std::move(*current));
      current.reset();
    } else if (current) {
      current->text += (current->text.empty() ? "" : "\n") + line;
    }
  }
  return messages;
}

std::string TlcOutcome::error_text() const {
  // SANY reports parse and semantic errors as plain text, outside the tagged messages.
  for (const char* marker : {"***Parse Error***", "Semantic errors:", "*** Errors:"}) {
    if (auto at = raw_output.find(marker); at != std::string::npos) {
      std::string text;
      std::istringstream in(raw_output.substr(at));
      for (std::string line; std::getline(in, line) && text.size() < 2000;)
        if (!line.starts_with("@!@!@")) text += line + "\n";
      return text;
    }
  }
  std::string text;
  for (const auto& m : messages)
    if (m.severity == 1 || m.severity == 2) text += (text.empty() ? "" : "\n") + m.text;
  if (!text.empty()) return text;
  // No error message (a crash before TLC's reporting started): the end of what it printed.
  return raw_output.size() > 2000 ? raw_output.substr(raw_output.size() - 2000) : raw_output;
}

TlcOutcome run_tlc(const TlcRun& run) {
  TlcOutcome outcome;
  std::string library;
  for (const auto& dir : run.library) library += (library.empty() ? "" : ":") + dir.string();
  outcome.command = {run.java.string(),
                     "-XX:+UseParallelGC",
                     "-Xmx" + run.heap,
                     "-XX:+ExitOnOutOfMemoryError",  // die at once rather than limp on in GC
                     // A LIFO state queue: the search runs deep first, so an accepted trace is
                     // found without first enumerating every interleaving level by level.
                     "-Dtlc2.tool.queue.IStateQueue=StateDeque",
                     "-DTLA-Library=" + library,
                     // TLC makes a temporary directory per run and leaves it behind: in the work
                     // directory it goes away with the rest (it was one /tmp/tlc-* per validation).
                     "-Djava.io.tmpdir=" + (run.work_dir / "tlc-tmp").string(),
                     "-cp",
                     run.jar.string(),
                     "tlc2.TLC",
                     "-tool",
                     "-workers",
                     "1",  // the frontier registers are per worker
                     "-deadlock",
                     "-noGenerateSpecTE",
                     "-metadir",
                     (run.work_dir / "tlc-states").string(),
                     "-config",
                     (run.work_dir / (run.module + ".cfg")).string(),
                     (run.work_dir / (run.module + ".tla")).string()};
  std::error_code ec;
  std::filesystem::create_directories(run.work_dir / "tlc-tmp", ec);
  ProcessOptions options;
  options.timeout = run.timeout;
  options.cwd = run.work_dir;
  options.cancel = run.cancel;
  options.own_process_group = run.cancel != nullptr;
  const std::vector<std::string> args(outcome.command.begin() + 1, outcome.command.end());
  ProcessResult r = run_process(run.java, args, options);
  outcome.started = r.started;
  outcome.start_error = r.start_error;
  outcome.exit_code = r.exit_code;
  outcome.signal = r.signal;
  outcome.timed_out = r.timed_out;
  outcome.cancelled = r.cancelled;
  outcome.peak_rss_kb = r.peak_rss_kb;
  outcome.duration = r.duration;
  outcome.raw_output = r.out + (r.err.empty() ? "" : "\n" + r.err);
  outcome.out_of_memory = outcome.raw_output.find("OutOfMemoryError") != std::string::npos;
  outcome.messages = parse_tool_messages(r.out);
  static const std::regex stats(R"((\d+) states generated, (\d+) distinct states found)");
  std::smatch m;
  for (const auto& msg : outcome.messages) {
    if (msg.code == kFinalStats && std::regex_search(msg.text, m, stats)) {
      outcome.states_generated = std::stoull(m[1]);
      outcome.states_distinct = std::stoull(m[2]);
    }
  }
  return outcome;
}

}  // namespace omnilink::checkers
