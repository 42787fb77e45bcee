// The replay hooks under a real gdb: breakpoints on omnilink_op_start and omnilink_op_end in an -O3
// build each fire once per logged operation, start before end, and the header they receive
// (thread, index, start) matches the trace. This is the contract replay/ and explain/ build their
// breakpoints on. SKIPPED (exit 77) without gdb.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"
#include "support/test_support.hpp"

namespace {

using namespace omnilink;

struct Hit {
  std::uint64_t start;
  std::optional<std::uint64_t> end_hook_start;  // the start omnilink_op_end received
};

// Runs the -O3 target under gdb with a breakpoint on each hook; returns (thread, index) -> hits.
std::map<std::pair<std::uint32_t, std::uint64_t>, Hit> hook_hits(const std::filesystem::path& out, const std::string& threads,
                                                                const std::string& ops) {
  const auto script = out.parent_path() / (out.filename().string() + ".gdb");
  std::ofstream(script) << "set pagination off\n"
                           "set confirm off\n"
                           "break omnilink_op_start\n"
                           "commands\n"
                           "silent\n"
                           "printf \"HOOK %u %lu %lu\\n\", header->thread, header->index, header->start\n"
                           "continue\n"
                           "end\n"
                           "break omnilink_op_end\n"
                           "commands\n"
                           "silent\n"
                           "printf \"END %u %lu %lu\\n\", header->thread, header->index, header->start\n"
                           "continue\n"
                           "end\n"
                           "run\n";
  ProcessOptions options;
  options.timeout = std::chrono::seconds(300);
  ProcessResult r = run_process(*find_gdb().path,
                                {"-batch", "-nx", "-x", script.string(), "--args", OMNILINK_HOOK_TARGET, "--threads", threads,
                                 "--ops", ops, "--clock", "counter", "--seed", "5", "--quiet", "--out", out.string()},
                                options);
  INFO(r.describe() << "\n" << r.err);
  REQUIRE(r.ok());
  std::map<std::pair<std::uint32_t, std::uint64_t>, Hit> hits;
  std::istringstream lines(r.out);
  std::string word;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::uint32_t thread = 0;
    std::uint64_t index = 0, start = 0;
    if (in >> word && word == "HOOK" && in >> thread >> index >> start) {
      INFO(line);
      REQUIRE(hits.emplace(std::pair{thread, index}, Hit{start, std::nullopt}).second);  // each op hits once
    } else if (word == "END" && in >> thread >> index >> start) {
      INFO(line);
      const auto hit = hits.find({thread, index});
      REQUIRE(hit != hits.end());  // after its start
      REQUIRE_FALSE(hit->second.end_hook_start.has_value());  // once
      hit->second.end_hook_start = start;
    }
  }
  return hits;
}

}  // namespace

TEST_CASE("the replay hooks fire once per operation with the logged identity, at -O3", "[hook][gdb]") {
  testing::ScratchDir dir;
  const auto out = dir.path() / "run";
  auto hits = hook_hits(out, "2", "200");
  auto traces = testing::read_run(out);
  REQUIRE(traces.size() == 2);
  std::size_t ops = 0;
  for (const auto& t : traces) {
    REQUIRE_FALSE(t.error.has_value());
    for (const auto& op : t.ops) {
      auto it = hits.find({op.thread, op.index});
      REQUIRE(it != hits.end());
      CHECK(it->second.start == op.replay_start());
      CHECK(it->second.end_hook_start == op.replay_start());
      ++ops;
    }
  }
  CHECK(ops == 400);
  CHECK(hits.size() == ops);
}

int main(int argc, char** argv) {
  if (!find_gdb().found()) {
    std::cout << "SKIPPED: gdb not found (" << find_gdb().explain_missing() << ")\n";
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
