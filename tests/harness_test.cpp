// The driver: completeness and ordering under load for every clock, unsupported(), refinement,
// failed-without-effect, seeds, perturbation, option parsing.
#include <catch2/catch.hpp>

#include <atomic>
#include <fstream>
#include <set>
#include <thread>

#include "support/test_support.hpp"

namespace {

using namespace omnilink;

// Each operation draws a globally unique id, so the test can check that every performed operation
// is logged exactly once.
struct Tick {
  static constexpr std::string_view omnilink_name = "Tick";
  std::int64_t id = 0;
  std::int64_t seq = 0;  // the thread's own count of performed ticks
  template <class V>
  void omnilink_fields(V&& f) const {
    f("id", id);
    f("seq", seq);
  }
};

struct Work {
  std::atomic<std::int64_t> next_id{0};
};

struct Named {
  static constexpr std::string_view omnilink_name = "Named";
  std::int64_t arg = 0;
  template <class V>
  void omnilink_fields(V&& f) const { f("arg", arg); }
};
struct Other {
  static constexpr std::string_view omnilink_name = "Other";
  template <class V>
  void omnilink_fields(V&&) const {}
};

std::vector<std::string> op_sequence(const trace::ThreadTrace& t) {
  std::vector<std::string> seq;
  for (const auto& op : t.ops) seq.push_back(op.name + trace::to_tla(op.fields.empty() ? trace::Value(false) : op.fields[0].second));
  return seq;
}

}  // namespace

TEST_CASE("16 threads x 100k ops: every record once, in order, with sane timeboxes, for each clock", "[driver][stress]") {
  const auto clock = GENERATE(ClockKind::counter, ClockKind::monotonic, ClockKind::rdtsc);
  constexpr std::uint32_t kThreads = 16;
  constexpr std::uint64_t kOps = 100'000;
  testing::ScratchDir dir;
  Harness<Work> h(testing::quiet_options(dir.path(), kThreads, kOps, 99, clock));
  thread_local std::int64_t seq = 0;
  h.op<Tick>([](Work& w, Context&, Tick& op) {
    op.id = w.next_id.fetch_add(1);
    op.seq = seq++;
  });
  Work work;
  REQUIRE(h.run(work) == 0);
  INFO("clock " << clock_name(clock));

  auto threads = testing::read_run(dir.path());
  REQUIRE(threads.size() == kThreads);
  std::vector<bool> seen(kThreads * kOps, false);
  for (std::uint32_t t = 0; t < kThreads; ++t) {
    const auto& tt = threads[t];
    REQUIRE_FALSE(tt.error.has_value());
    REQUIRE(tt.header->thread == t);
    REQUIRE(tt.header->clock == clock_name(clock));
    REQUIRE(tt.end.has_value());
    REQUIRE(tt.end->reason == "done");
    REQUIRE(tt.ops.size() == kOps);
    std::uint64_t prev_end = 0;
    for (std::uint64_t k = 0; k < kOps; ++k) {
      const auto& op = tt.ops[k];
      REQUIRE(op.index == k);
      REQUIRE(op.field("seq")->as<std::int64_t>() == static_cast<std::int64_t>(k));  // per-thread order kept
      REQUIRE(op.start <= op.end);
      REQUIRE(op.start >= prev_end);  // per-thread timestamps non-decreasing
      prev_end = op.end;
      const auto id = op.field("id")->as<std::int64_t>();
      REQUIRE(id >= 0);
      REQUIRE(id < static_cast<std::int64_t>(seen.size()));
      REQUIRE_FALSE(seen[id]);  // exactly once
      seen[id] = true;
    }
  }
  CHECK(std::count(seen.begin(), seen.end(), true) == static_cast<long>(seen.size()));
}

TEST_CASE("the counter clock: start <= end, and every end is unique", "[clock]") {
  Clock c(ClockKind::counter);
  std::uint64_t a = c.before();
  std::uint64_t b = c.after();
  CHECK(a <= b);
  CHECK(c.after() > b);
  CHECK(c.before() > b);  // a start after an end is strictly later
  CHECK(parse_clock("counter") == ClockKind::counter);
  CHECK_FALSE(parse_clock("sundial").has_value());
}

TEST_CASE("unsupported operations are not logged and consume no index", "[driver]") {
  testing::ScratchDir dir;
  Harness<int> h(testing::quiet_options(dir.path(), 2, 500));
  h.op<Named>([](int&, Context& ctx, Named& op) {
    if (ctx.chance(0.5)) return ctx.unsupported();
    op.arg = 1;
  });
  h.op<Other>([](int&, Context&, Other&) {});
  int sut = 0;
  REQUIRE(h.run(sut) == 0);
  for (const auto& t : testing::read_run(dir.path())) {
    REQUIRE_FALSE(t.error.has_value());
    REQUIRE(t.ops.size() == 500);
    for (const auto& op : t.ops)
      if (op.name == "Named") CHECK(op.field("arg")->as<std::int64_t>() == 1);
  }
}

TEST_CASE("a thread stops cleanly after too many consecutive unsupported operations", "[driver]") {
  testing::ScratchDir dir;
  auto options = testing::quiet_options(dir.path(), 2, 100);
  options.max_unsupported = 50;
  Harness<int> h(options);
  h.op<Named>([](int&, Context& ctx, Named&) {
    if (ctx.index() >= 10) ctx.unsupported();  // possible only 10 times
  });
  int sut = 0;
  CHECK(h.run(sut) == kExitStopped);
  auto meta = trace::read_run_meta(dir.path() / "meta.json");
  CHECK(meta.exit_status == trace::ExitStatus::stopped);
  CHECK(meta.json["exit"]["message"].get<std::string>().find("50 consecutive unsupported") != std::string::npos);
  for (const auto& t : testing::read_run(dir.path())) {
    REQUIRE_FALSE(t.error.has_value());
    CHECK(t.ops.size() == 10);
    CHECK(t.end->reason == "unsupported-limit");
  }
}

TEST_CASE("refine_start/refine_end narrow the timebox and keep the hook's start", "[driver]") {
  // Monotonic clock (nanoseconds) and 2 ms of work on each side of the refined part: the refined
  // timebox must exclude both.
  testing::ScratchDir dir;
  Harness<int> h(testing::quiet_options(dir.path(), 1, 10, 1, ClockKind::monotonic));
  h.op<Named>([](int&, Context& ctx, Named& op) {
    op.arg = static_cast<std::int64_t>(ctx.index());
    const bool refine = ctx.index() % 2 == 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (refine) ctx.refine_start();
    if (refine) ctx.refine_end();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  });
  int sut = 0;
  REQUIRE(h.run(sut) == 0);
  auto t = testing::read_run(dir.path()).at(0);
  REQUIRE(t.ops.size() == 10);
  constexpr std::uint64_t kMs = 1'000'000;
  for (const auto& op : t.ops) {
    if (op.index % 2 == 0) {
      REQUIRE(op.hook_start.has_value());
      CHECK(op.start - *op.hook_start >= 2 * kMs);  // the first sleep is outside the timebox
      CHECK(op.end - op.start < kMs);                // so is the second
      CHECK(op.replay_start() == *op.hook_start);
    } else {
      CHECK_FALSE(op.hook_start.has_value());
      CHECK(op.end - op.start >= 4 * kMs);
      CHECK(op.replay_start() == op.start);
    }
    // A refined end excludes the second sleep: the next operation starts at least 2 ms later.
    if (op.index % 2 == 0 && op.index + 1 < t.ops.size()) CHECK(t.ops[op.index + 1].replay_start() >= op.end + 2 * kMs);
  }
}

TEST_CASE("failed_without_effect is logged as a flag", "[driver]") {
  testing::ScratchDir dir;
  Harness<int> h(testing::quiet_options(dir.path(), 1, 10));
  h.op<Named>([](int&, Context& ctx, Named&) {
    if (ctx.index() == 3) ctx.failed_without_effect();
  });
  int sut = 0;
  REQUIRE(h.run(sut) == 0);
  auto t = testing::read_run(dir.path()).at(0);
  for (const auto& op : t.ops) CHECK(op.failed == (op.index == 3));
}

TEST_CASE("the seed determines each thread's operations, and perturbation does not change them", "[driver][seed]") {
  auto run = [](std::uint64_t seed, PerturbMode perturb) {
    testing::ScratchDir dir;
    auto options = testing::quiet_options(dir.path(), 3, 200, seed);
    options.perturb = perturb;
    options.perturb_rate = 0.5;
    options.sleep_max_us = 5;
    Harness<int> h(options);
    h.op<Named>([](int&, Context& ctx, Named& op) { op.arg = ctx.uniform(-1000, 1000); }, 3);
    h.op<Other>([](int&, Context&, Other&) {});
    int sut = 0;
    REQUIRE(h.run(sut) == 0);
    std::vector<std::vector<std::string>> per_thread;
    for (const auto& t : testing::read_run(dir.path())) per_thread.push_back(op_sequence(t));
    return per_thread;
  };
  const auto a = run(1234, PerturbMode::none);
  CHECK(a == run(1234, PerturbMode::none));
  CHECK(a == run(1234, PerturbMode::mixed));
  CHECK(a != run(1235, PerturbMode::none));
  CHECK(a[0] != a[1]);  // threads draw from different streams
}

TEST_CASE("option parsing names the bad flag", "[options]") {
  auto parse = [](std::vector<const char*> args) {
    args.insert(args.begin(), "harness");
    return parse_options(static_cast<int>(args.size()), args.data());
  };
  auto o = parse({"--threads", "4", "--ops", "10", "--seed", "5", "--clock", "counter", "--perturb", "yield",
                  "--pin-cpu", "0", "--param", "range=9"});
  REQUIRE(o.has_value());
  CHECK(o->threads == 4);
  CHECK(o->ops == 10);
  CHECK(o->seed == 5);
  CHECK(o->clock == ClockKind::counter);
  CHECK(o->perturb == PerturbMode::yield);
  o->check_params({Param::integer("range", 3, 1, 10, "a range"), Param::integer("absent", 17, 0, 20, "not given"),
                   Param::word("mode", {"fast", "slow"}, "a mode")});
  CHECK(o->param_int("range") == 9);
  CHECK(o->param_int("absent") == 17);
  CHECK(o->param_word("mode") == "fast");
  CHECK(o->param_given("range"));
  CHECK_FALSE(o->param_given("absent"));
  CHECK_THROWS_AS(o->param_int("undeclared"), std::logic_error);  // the harness's own bug
  CHECK_THROWS_AS(o->param_int("mode"), std::logic_error);
  CHECK_FALSE(parse({"--help"}).has_value());
  CHECK_THROWS_WITH(parse({"--threads", "0"}), Catch::Contains("--threads"));
  CHECK_THROWS_WITH(parse({"--threads", "2000"}), Catch::Contains("--threads"));
  CHECK_THROWS_WITH(parse({"--clock", "sundial"}), Catch::Contains("--clock"));
  CHECK_THROWS_WITH(parse({"--bogus", "1"}), Catch::Contains("--bogus"));
  CHECK_THROWS_WITH(parse({"--ops"}), Catch::Contains("--ops"));
  CHECK_THROWS_WITH(parse({"--perturb-rate", "1.5"}), Catch::Contains("--perturb-rate"));
  CHECK_THROWS_WITH(parse({"--param", "novalue"}), Catch::Contains("--param"));
}

TEST_CASE("declared parameters: unknown, repeated and malformed ones are refused, naming them", "[options][params]") {
  auto check = [](std::vector<const char*> args) {
    args.insert(args.begin(), "harness");
    auto o = parse_options(static_cast<int>(args.size()), args.data());
    REQUIRE(o.has_value());
    o->check_params({Param::integer("keys", 8, 1, 1000, "keys 1..N"), Param::word("db", {"pessimistic", "optimistic"}, "which")});
    return *o;
  };
  CHECK(check({"--param", "keys=4", "--param", "db=optimistic"}).param_int("keys") == 4);
  CHECK_THROWS_WITH(check({"--param", "capacityy=4"}),
                    "--param capacityy=4: no such parameter; this harness takes keys, db");
  CHECK_THROWS_WITH(check({"--param", "keys=abc"}), "--param keys=abc: not an integer");
  CHECK_THROWS_WITH(check({"--param", "keys=4.5"}), "--param keys=4.5: not an integer");
  CHECK_THROWS_WITH(check({"--param", "keys="}), "--param keys=: not an integer");
  CHECK_THROWS_WITH(check({"--param", "keys=99999999999999999999"}), Catch::Contains("out of range: must be 1 to 1000"));
  CHECK_THROWS_WITH(check({"--param", "keys=0"}), "--param keys=0: must be 1 to 1000");
  CHECK_THROWS_WITH(check({"--param", "db=fast"}), "--param db=fast: must be pessimistic or optimistic");
  CHECK_THROWS_WITH(check({"--param", "keys=4", "--param", "keys=5"}), "--param keys: given twice");
  Options none;
  none.params = {{"x", "1"}};
  CHECK_THROWS_WITH(none.check_params({}), "--param x=1: no such parameter; this harness takes none");
}

TEST_CASE("a run writes meta.json describing it", "[driver][meta]") {
  testing::ScratchDir dir;
  Harness<int> h(testing::quiet_options(dir.path(), 2, 5, 77));
  h.op<Other>([](int&, Context&, Other&) {});
  int sut = 0;
  REQUIRE(h.run(sut) == 0);
  auto meta = trace::read_run_meta(dir.path() / "meta.json");
  CHECK(meta.seed == 77);
  CHECK(meta.threads == 2);
  CHECK(meta.ops_per_thread == 5);
  CHECK(meta.clock == "counter");
  CHECK(meta.exit_status == trace::ExitStatus::ok);
  CHECK(meta.json["trace_version"] == schema::kTraceVersion);
  CHECK(meta.json["operations"] == nlohmann::json::array({"Other"}));
  CHECK(meta.json["end_time_unix_ns"].get<std::uint64_t>() >= meta.json["start_time_unix_ns"].get<std::uint64_t>());
}

TEST_CASE("meta.json's exit status is read as one of its six names and refused otherwise naming the file", "[driver][meta]") {
  testing::ScratchDir dir;
  Harness<int> h(testing::quiet_options(dir.path(), 1, 2));
  h.op<Other>([](int&, Context&, Other&) {});
  int sut = 0;
  REQUIRE(h.run(sut) == 0);
  const auto file = dir.path() / "meta.json";
  auto json = trace::read_run_meta(file).json;
  for (const char* name : {"running", "ok", "stopped", "error", "crashed", "interrupted"}) {
    json["exit"]["status"] = name;
    std::ofstream(file) << json.dump();
    CHECK(trace::to_string(trace::read_run_meta(file).exit_status) == name);
  }
  json["exit"]["status"] = "sometimes";
  std::ofstream(file) << json.dump();
  CHECK_THROWS_WITH(trace::read_run_meta(file),
                    file.string() + ": exit.status: 'sometimes' is not one of running, ok, stopped, error, crashed, interrupted");
}

TEST_CASE("a trace file that cannot be created fails the run with the path, and meta.json says so", "[driver][meta]") {
  testing::ScratchDir dir;
  std::filesystem::create_directories(dir.path() / "trace" / "thread-0001.msgpack");  // a directory in the way
  Harness<int> h(testing::quiet_options(dir.path(), 2, 5));
  h.op<Other>([](int&, Context&, Other&) {});
  int sut = 0;
  CHECK(h.run(sut) == kExitSetup);
  auto meta = trace::read_run_meta(dir.path() / "meta.json");
  CHECK(meta.exit_status == trace::ExitStatus::error);
  CHECK(meta.json["exit"]["message"].get<std::string>().find("thread-0001.msgpack") != std::string::npos);
}
