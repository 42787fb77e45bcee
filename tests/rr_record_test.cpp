// The harness under a real `rr record --chaos` (with -W when only software counters work here):
// the recorded run exits cleanly and its trace is complete. SKIPPED (exit 77) when no rr can
// record on this machine; `omnilink doctor` says why.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "platform/rr_probe.hpp"
#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"
#include "support/test_support.hpp"

namespace {

omnilink::RrCapability capability;
std::filesystem::path rr_path;

}  // namespace

TEST_CASE("a harness recorded under rr chaos mode writes a complete trace", "[rr]") {
  using namespace omnilink;
  testing::ScratchDir dir;
  std::vector<std::string> args{"record"};
  if (capability.needs_soft_counters()) args.push_back("-W");
  args.insert(args.end(), {"--chaos", "-o", (dir.path() / "rr").string(), "--", OMNILINK_EXAMPLE_LOCKED_QUEUE, "--threads",
                           "3", "--ops", "300", "--clock", "counter", "--seed", "8", "--quiet", "--out",
                           (dir.path() / "run").string()});
  ProcessOptions options;
  options.timeout = std::chrono::seconds(300);
  ProcessResult r = run_process(rr_path, args, options);
  INFO(r.describe() << "\n" << r.err);
  REQUIRE(r.ok());
  CHECK(std::filesystem::exists(dir.path() / "rr"));
  auto traces = testing::read_run(dir.path() / "run");
  REQUIRE(traces.size() == 3);
  for (const auto& t : traces) {
    REQUIRE_FALSE(t.error.has_value());
    CHECK(t.ops.size() == 300);
    CHECK(t.header->clock == "counter");
  }
  auto meta = trace::read_run_meta(dir.path() / "run" / "meta.json");
  CHECK(meta.exit_status == trace::ExitStatus::ok);
}

int main(int argc, char** argv) {
#if defined(OMNILINK_TSAN_BUILD)
  // TSan's shadow memory layout collides with the fixed mapping rr gives every recorded process
  // ("FATAL: ThreadSanitizer: unexpected memory mapping 0x8000001000-..."): they cannot be combined.
  std::cout << "SKIPPED: a ThreadSanitizer build cannot be recorded by rr\n";
  return 77;
#endif
  const auto rr = omnilink::find_rr();
  if (!rr.found()) {
    std::cout << "SKIPPED: rr not found (" << rr.explain_missing() << ")\n";
    return 77;
  }
  rr_path = *rr.path;
  capability = omnilink::probe_rr(rr_path);
  if (!capability.can_record()) {
    std::cout << "SKIPPED: rr cannot record here: " << capability.record_error << " / -W: " << capability.soft_error << "\n";
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
