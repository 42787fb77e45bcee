// A harness that dies on purpose, for the crash and campaign tests. Its one operation, Step(n),
// declares n as its input, so the operation in flight at a crash is logged pending with it. Thread
// 0 dies at its operation
// --param crash_at=K (default 50) in the way --param how=segv|abort|fpe|hang selects; the other
// threads keep working meanwhile (or finish early with --param others_ops=N; --param wait_ms=T
// delays the death so they can). --param how=corrupt instead finishes normally, then overwrites a
// byte in the middle of thread 0's trace with 0xc1, a byte msgpack never uses. --param sleep_us=N
// makes every operation take N microseconds (runs of a predictable length, for interrupting them);
// --param crash_at=-1 never dies.
#include <array>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <omnilink/harness.hpp>

namespace {

struct Step {
  static constexpr std::string_view omnilink_name = "Step";
  static constexpr std::array<std::string_view, 1> omnilink_inputs{"n"};
  std::int64_t n = 0;
  template <class V>
  void omnilink_fields(V&& f) const { f("n", n); }
};

struct Config {
  std::int64_t crash_at = 50;
  std::int64_t how = 0;  // 0 segv, 1 abort, 2 fpe, 3 hang, 4 corrupt
  std::int64_t others_ops = -1;
  std::int64_t wait_ms = 0;  // thread 0 sleeps this long before dying
  std::int64_t sleep_us = 0;  // every operation's duration
};

volatile int* volatile null_pointer = nullptr;
volatile int zero = 0;
volatile int seven = 7;  // GCC rewrites 1 / x without a division; an opaque numerator keeps it

}  // namespace

int main(int argc, char** argv) {
  omnilink::Harness<Config> harness(
      argc, argv,
      {omnilink::Param::integer("crash_at", 50, -1, INT64_MAX, "thread 0 crashes at this operation (-1: never)"),
       omnilink::Param::integer("others_ops", -1, -1, INT64_MAX, "the other threads stop after N operations (-1: never)"),
       omnilink::Param::integer("wait_ms", 0, 0, 3'600'000, "thread 0 waits this long before crashing"),
       omnilink::Param::integer("sleep_us", 0, 0, 60'000'000, "every operation sleeps this long"),
       omnilink::Param::word("how", {"segv", "abort", "fpe", "hang", "corrupt"}, "how thread 0 crashes")});
  Config config;
  const omnilink::Options& options = harness.options();
  config.crash_at = options.param_int("crash_at");
  config.others_ops = options.param_int("others_ops");
  config.wait_ms = options.param_int("wait_ms");
  config.sleep_us = options.param_int("sleep_us");
  const std::string how = options.param_word("how");
  config.how = how == "abort" ? 1 : how == "fpe" ? 2 : how == "hang" ? 3 : how == "corrupt" ? 4 : 0;
  harness.op<Step>([](Config& c, omnilink::Context& ctx, Step& op) {
    op.n = static_cast<std::int64_t>(ctx.index());
    ctx.inputs_ready();
    if (c.sleep_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(c.sleep_us));
    if (ctx.thread() != 0) {
      if (c.others_ops >= 0 && op.n >= c.others_ops) return ctx.unsupported();
      std::this_thread::yield();
      return;
    }
    if (op.n != c.crash_at || c.how == 4) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(c.wait_ms));
    switch (c.how) {
      case 0: *null_pointer = 1; break;
      case 1: std::abort();
      case 2: op.n = seven / zero; break;
      default:
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
  });
  const int status = harness.run(config);
  if (config.how == 4) {
    const std::filesystem::path file = std::filesystem::path(harness.options().out) / "trace" / "thread-0000.msgpack";
    std::fstream trace(file, std::ios::in | std::ios::out | std::ios::binary);
    trace.seekp(static_cast<std::streamoff>(std::filesystem::file_size(file) / 2));
    trace.put(static_cast<char>(0xc1));
  }
  return status;
}
