// The native checker on hard histories (issue 42): its verdict against a brute-force reference on
// hundreds of random small histories (a register with compare-and-swap, whole; a key-value store of
// strings, key by key); a key-value history of 50 clients on one key decided in a test's ordinary
// time, and with a second search raced on a spare core, the same verdicts and the same failure
// report; the first failing part deciding a partitioned history however hard its other parts are,
// stopping the parts after it at once, and --all-parts deciding every one; and the memory limit
// held as measured from outside the process.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <numeric>
#include <random>

#include <nlohmann/json.hpp>

#include "platform/subprocess.hpp"
#include "support/test_support.hpp"
#include "checkers/native_search.hpp"
#include "checkers/validate.hpp"

using omnilink::results::Verdict;

namespace {

using namespace omnilink;
namespace fs = std::filesystem;
using Json = nlohmann::json;

/// One completed operation of a history file, and what the reference needs of it.
struct Op {
  int process = 0;
  std::string name;  // Read/Write/CAS, or Get/Put/Append
  Json fields;
  std::uint64_t start = 0, end = 0;
};

void write_history(const fs::path& file, const std::vector<Op>& ops, const Json& header_extra = Json::object()) {
  std::ofstream out(file);
  Json header{{"format", "omnilink-history"}, {"version", 1}};
  header.update(header_extra);
  out << header.dump() << "\n";
  for (const Op& op : ops)
    out << Json{{"process", op.process}, {"op", op.name}, {"fields", op.fields}, {"start", op.start}, {"end", op.end}, {"outcome", "ok"}}.dump()
        << "\n";
}

// The sequential objects, as the reference runs them: the register of Register.tla (from 0) and one
// key of KV.tla (from the empty string). False where the operation's logged results are refused.
bool step_register(std::int64_t& reg, const Op& op) {
  if (op.name == "Read") return op.fields["value"].get<std::int64_t>() == reg;
  if (op.name == "Write") return reg = op.fields["value"].get<std::int64_t>(), true;
  const bool swapped = op.fields["expected"].get<std::int64_t>() == reg;
  if (op.fields["ok"].get<bool>() != swapped) return false;
  if (swapped) reg = op.fields["new"].get<std::int64_t>();
  return true;
}

bool step_key(std::string& value, const Op& op) {
  if (op.name == "Get") return op.fields["value"].get<std::string>() == value;
  if (op.name == "Put") return value = op.fields["value"].get<std::string>(), true;
  return value += op.fields["value"].get<std::string>(), true;
}

/// Brute force: some permutation of `ops` that respects real time (a before b when a ended before b
/// began) is accepted by `step` from `initial`.
template <typename State, typename Step>
bool linearizable_by_brute_force(const std::vector<Op>& ops, State initial, Step step) {
  std::vector<std::size_t> order(ops.size());
  std::iota(order.begin(), order.end(), 0);
  do {
    bool ok = true;
    for (std::size_t i = 0; i < order.size() && ok; ++i)
      for (std::size_t j = i + 1; j < order.size() && ok; ++j) ok = !(ops[order[j]].end < ops[order[i]].start);
    State s = initial;
    for (std::size_t i = 0; i < order.size() && ok; ++i) ok = step(s, ops[order[i]]);
    if (ok) return true;
  } while (std::next_permutation(order.begin(), order.end()));
  return false;
}

/// A random small history: `processes` clients call `count` operations in all, back to back, each
/// taking effect at a point inside its timebox in the order of those points, so the history is
/// linearizable; then, half the time, one result is changed (which most often makes it not).
template <typename State, typename Call, typename Step>
std::vector<Op> random_history(std::mt19937_64& rng, int processes, int count, State state, Call call, Step step) {
  std::uniform_int_distribution<int> length(1, 6), process(0, processes - 1);
  std::vector<std::uint64_t> clock(static_cast<std::size_t>(processes), 0);
  std::vector<Op> ops;
  std::vector<std::pair<double, std::size_t>> points;
  for (int k = 0; k < count; ++k) {
    const int p = process(rng);
    Op op;
    op.process = p;
    op.start = clock[static_cast<std::size_t>(p)] + static_cast<std::uint64_t>(length(rng) / 3);
    op.end = op.start + static_cast<std::uint64_t>(length(rng));
    clock[static_cast<std::size_t>(p)] = op.end + 1;
    points.emplace_back(static_cast<double>(op.start) + std::uniform_real_distribution<double>(0, 1)(rng) * static_cast<double>(op.end - op.start), ops.size());
    ops.push_back(std::move(op));
  }
  std::sort(points.begin(), points.end());
  for (const auto& [point, k] : points) {
    call(rng, state, ops[k]);  // names the operation and logs what the object returns
    REQUIRE(step(state, ops[k]));
  }
  if (std::uniform_int_distribution<int>(0, 1)(rng) == 1) call.mutate(rng, ops[std::uniform_int_distribution<std::size_t>(0, ops.size() - 1)(rng)]);
  return ops;
}

struct RegisterCalls {
  void operator()(std::mt19937_64& rng, std::int64_t reg, Op& op) const {
    const int kind = std::uniform_int_distribution<int>(0, 2)(rng);
    const std::int64_t v = std::uniform_int_distribution<std::int64_t>(0, 2)(rng), w = std::uniform_int_distribution<std::int64_t>(0, 2)(rng);
    if (kind == 0) op.name = "Read", op.fields = {{"value", reg}};
    if (kind == 1) op.name = "Write", op.fields = {{"value", v}};
    if (kind == 2) op.name = "CAS", op.fields = {{"expected", v}, {"new", w}, {"ok", v == reg}};
  }
  void mutate(std::mt19937_64& rng, Op& op) const {
    if (op.name == "CAS") op.fields["ok"] = !op.fields["ok"].get<bool>();
    else op.fields["value"] = (op.fields["value"].get<std::int64_t>() + std::uniform_int_distribution<std::int64_t>(1, 2)(rng)) % 3;
  }
};

struct KeyCalls {
  std::string key;
  void operator()(std::mt19937_64& rng, const std::string& value, Op& op) const {
    const int kind = std::uniform_int_distribution<int>(0, 2)(rng);
    const std::string v(1, static_cast<char>('x' + std::uniform_int_distribution<int>(0, 2)(rng)));
    op.name = kind == 0 ? "Get" : kind == 1 ? "Put" : "Append";
    op.fields = {{"key", key}, {"value", kind == 0 ? value : v}};
  }
  void mutate(std::mt19937_64& rng, Op& op) const { op.fields["value"] = op.fields["value"].get<std::string>() + (rng() % 2 == 0 ? "x" : "y"); }
};

/// The native checker on `history` against `spec` (and `mc`) of tla/specs, failures not confirmed.
checkers::ValidateOptions native_options(const fs::path& history, const std::string& spec, const std::string& mc = "") {
  checkers::ValidateOptions o;
  o.run_dir = history;
  o.spec = fs::path(OMNILINK_SPECS_DIR) / spec;
  if (!mc.empty()) o.mc = fs::path(OMNILINK_SPECS_DIR) / mc;
  o.checker = checkers::Checker::native;
  o.confirm_failures = false;
  return o;
}

results::ValidationResult validate(const fs::path& history, const std::string& spec, const std::string& mc = "") {
  checkers::ValidateOptions o = native_options(history, spec, mc);
  o.timeout = std::chrono::seconds(60);
  return checkers::validate_run(o);
}

const Json kKvHeader{{"rename", {{"Append", "AppendValue"}}}};

// Porcupine's kv histories have this shape per key (test_data/kv c50-ok, key 4: 170 operations of
// 47 clients, each overlapping 10 others on average): each client puts, appends and gets in turn,
// with pauses (its calls on other keys) in between. Written as dir/ok.jsonl, and as dir/bad.jsonl
// with the last get reading what no put or append ever made, which no order can accept.
void write_fifty_clients(const fs::path& dir) {
  std::mt19937_64 rng(50);
  const int clients = 50;
  std::vector<Op> ops;
  std::vector<std::pair<double, std::size_t>> points;
  for (int c = 0; c < clients; ++c) {
    std::uint64_t clock = static_cast<std::uint64_t>(std::uniform_int_distribution<int>(0, 300)(rng));
    for (int k = 0; k < 4; ++k) {
      Op op;
      op.process = c;
      op.start = clock;
      op.end = clock + static_cast<std::uint64_t>(std::uniform_int_distribution<int>(5, 60)(rng));
      clock = op.end + static_cast<std::uint64_t>(std::uniform_int_distribution<int>(100, 400)(rng));
      points.emplace_back(static_cast<double>(op.start) + std::uniform_real_distribution<double>(0, 1)(rng) * static_cast<double>(op.end - op.start), ops.size());
      ops.push_back(op);
    }
  }
  std::sort(points.begin(), points.end());
  std::string value;
  int serial = 0;
  for (const auto& [point, k] : points) {
    Op& op = ops[k];
    const int kind = std::uniform_int_distribution<int>(0, 9)(rng);
    const std::string written = "x " + std::to_string(op.process) + " " + std::to_string(serial++) + " y";
    if (kind < 5) op.name = "Get", op.fields = {{"key", "0"}, {"value", value}};
    else if (kind < 8) op.name = "Put", op.fields = {{"key", "0"}, {"value", written}}, value = written;
    else op.name = "Append", op.fields = {{"key", "0"}, {"value", written}}, value += written;
  }
  write_history(dir / "ok.jsonl", ops, kKvHeader);
  Op* last_get = nullptr;
  for (Op& op : ops)
    if (op.name == "Get" && (last_get == nullptr || op.start > last_get->start)) last_get = &op;
  last_get->fields["value"] = "never written";
  write_history(dir / "bad.jsonl", ops, kKvHeader);
}

results::ValidationResult validate_kv(const fs::path& history, unsigned jobs, std::uint64_t max_states = 20'000'000) {
  checkers::ValidateOptions o = native_options(history, "KV.tla", "MCKV.tla");
  o.jobs = jobs;
  o.max_states = max_states;
  return checkers::validate_run(o);
}

}  // namespace

TEST_CASE("random small register histories: the native verdict is the brute-force one", "[hard][reference]") {
  testing::ScratchDir dir;
  std::mt19937_64 rng(42);
  int pass = 0, fail = 0;
  for (int h = 0; h < 300; ++h) {
    const int processes = std::uniform_int_distribution<int>(1, 4)(rng), count = std::uniform_int_distribution<int>(2, 8)(rng);
    const auto ops = random_history(rng, processes, count, std::int64_t{0}, RegisterCalls{}, step_register);
    const fs::path file = dir / ("register-" + std::to_string(h) + ".jsonl");
    write_history(file, ops);
    const bool expected = linearizable_by_brute_force(ops, std::int64_t{0}, step_register);
    const auto r = validate(file, "Register.tla");
    INFO("history " << file.filename().string() << ": " << r.summary());
    REQUIRE(r.verdict == (expected ? Verdict::pass : Verdict::fail));
    ++(expected ? pass : fail);
  }
  // Both verdicts, many times each.
  CHECK(pass >= 60);
  CHECK(fail >= 60);
}

TEST_CASE("random small key-value histories, checked key by key: the native verdict is the brute-force one", "[hard][reference]") {
  testing::ScratchDir dir;
  std::mt19937_64 rng(7);
  int pass = 0, fail = 0;
  for (int h = 0; h < 300; ++h) {
    // Two keys, each its own sequential object; the history is linearizable when each key's is.
    std::vector<Op> all, per_key[2];
    bool expected = true;
    for (int k = 0; k < 2; ++k) {
      const int processes = std::uniform_int_distribution<int>(1, 3)(rng), count = std::uniform_int_distribution<int>(1, 5)(rng);
      per_key[k] = random_history(rng, processes, count, std::string(), KeyCalls{k == 0 ? "a" : "b"}, step_key);
      for (Op& op : per_key[k]) op.process += 10 * k;  // each key's clients are its own
      expected = expected && linearizable_by_brute_force(per_key[k], std::string(), step_key);
      all.insert(all.end(), per_key[k].begin(), per_key[k].end());
    }
    const fs::path file = dir / ("kv-" + std::to_string(h) + ".jsonl");
    write_history(file, all, kKvHeader);
    const auto r = validate(file, "KV.tla", "MCKV.tla");
    INFO("history " << file.filename().string() << ": " << r.summary());
    REQUIRE(r.verdict == (expected ? Verdict::pass : Verdict::fail));
    REQUIRE(r.partitions);
    ++(expected ? pass : fail);
  }
  CHECK(pass >= 60);
  CHECK(fail >= 60);
}

TEST_CASE("50 clients on one key of a key-value store: decided in seconds, both ways", "[hard][kv]") {
  testing::ScratchDir dir;
  write_fifty_clients(dir.path());
  const auto accepted = validate(dir / "ok.jsonl", "KV.tla", "MCKV.tla");
  INFO(accepted.summary());
  CHECK(accepted.verdict == Verdict::pass);
  const auto rejected = validate(dir / "bad.jsonl", "KV.tla", "MCKV.tla");
  INFO(rejected.summary());
  CHECK(rejected.verdict == Verdict::fail);
}

TEST_CASE("a spare core races a second search on a hard part: its acceptance decides, a failure is explained as without it",
          "[hard][kv][race]") {
  // One key, so after the first round there is one part and a core to spare: with two jobs a
  // search trying operations in the order they began races the first.
  testing::ScratchDir dir;
  // An append that began first and ends last, then 400 short appends one after another, and a get
  // showing the long one went first. Earliest end first places it after the short ones and backs
  // off one at a time (tens of thousands of states); in the order they began it is one pass.
  std::vector<Op> ops;
  constexpr int kShort = 400;
  std::string read = "A";
  ops.push_back({0, "Append", {{"key", "k"}, {"value", "A"}}, 0, 10 * kShort + 50});
  for (int i = 0; i < kShort; ++i) {
    const std::string v = "b" + std::to_string(i) + ".";
    ops.push_back({1, "Append", {{"key", "k"}, {"value", v}}, static_cast<std::uint64_t>(10 * i + 1), static_cast<std::uint64_t>(10 * i + 5)});
    read += v;
  }
  ops.push_back({2, "Get", {{"key", "k"}, {"value", read}}, 10 * kShort + 60, 10 * kShort + 61});
  write_history(dir / "long-append.jsonl", ops, kKvHeader);
  const auto alone = validate_kv(dir / "long-append.jsonl", 1), raced = validate_kv(dir / "long-append.jsonl", 2);
  INFO("alone: " << alone.summary() << "\nraced: " << raced.summary());
  CHECK(alone.verdict == Verdict::pass);
  CHECK(raced.verdict == Verdict::pass);
  // The racer's report counts: its states, a few hundred, against the first search's many. It
  // starts in the second round (room for 4 x kFirstRoundStates), which the first search alone
  // cannot accept in, so which accepts first does not depend on timing.
  CHECK(alone.states_distinct.value_or(0) > 4 * checkers::kFirstRoundStates);
  CHECK(raced.states_generated.value_or(0) < alone.states_generated.value_or(0) / 10);

  // A rejection is always the first search's report, so what explains the failure does not
  // depend on which search finished first.
  write_fifty_clients(dir.path());
  const auto rejected_alone = validate_kv(dir / "bad.jsonl", 1), rejected_raced = validate_kv(dir / "bad.jsonl", 2);
  INFO("alone: " << rejected_alone.summary() << "\nraced: " << rejected_raced.summary());
  CHECK(rejected_alone.verdict == Verdict::fail);
  CHECK(rejected_raced.verdict == Verdict::fail);
  CHECK(rejected_alone.states_distinct.value_or(0) > checkers::kFirstRoundStates);  // the racer had its round
  CHECK(rejected_raced.linearized == rejected_alone.linearized);
  CHECK(rejected_raced.spec_state == rejected_alone.spec_state);
  CHECK(rejected_raced.states_generated == rejected_alone.states_generated);
  REQUIRE(rejected_alone.refused);
  REQUIRE(rejected_raced.refused);
  CHECK(rejected_raced.refused->at == rejected_alone.refused->at);
  CHECK(rejected_raced.refused->op.thread == rejected_alone.refused->op.thread);
  CHECK(rejected_raced.refused->op.index == rejected_alone.refused->op.index);
}

TEST_CASE("a partitioned history: the first failing part decides however hard the others are, and all_parts decides every one",
          "[hard][parts]") {
  // Key "a": 16 appends at once, then a get of what none of them made: every subset and order of
  // the appends is a state of its own (millions), all searched to reject it. Key "b": a get of a
  // value never put, refused at once.
  testing::ScratchDir dir;
  std::vector<Op> ops;
  for (int p = 0; p < 16; ++p) ops.push_back({p, "Append", {{"key", "a"}, {"value", std::string(1, static_cast<char>('a' + p))}}, 1, 100});
  ops.push_back({20, "Get", {{"key", "a"}, {"value", "nothing"}}, 200, 201});
  ops.push_back({21, "Get", {{"key", "b"}, {"value", "never put"}}, 1, 2});
  write_history(dir / "h.jsonl", ops, kKvHeader);
  checkers::ValidateOptions o = native_options(dir / "h.jsonl", "KV.tla", "MCKV.tla");
  o.max_states = 300'000;
  const auto first = checkers::validate_run(o);
  INFO(first.summary());
  CHECK(first.verdict == Verdict::fail);
  REQUIRE(first.partitions);
  CHECK(first.partitions->failed == "key = \"b\"");
  CHECK(first.states_distinct.value_or(0) < 2 * checkers::kFirstRoundStates + 100);  // one round: both parts' first room
  CHECK(std::any_of(first.caveats.begin(), first.caveats.end(), [](const std::string& c) { return c.find("1 of the 2 parts were left undecided") != std::string::npos; }));

  o.all_parts = true;  // part "a" is searched to its limit too
  const auto every = checkers::validate_run(o);
  INFO(every.summary());
  CHECK(every.verdict == Verdict::fail);
  CHECK(every.partitions->failed == "key = \"b\"");
  CHECK(every.states_distinct.value_or(0) > o.max_states);
}

TEST_CASE("a part rejected stops the parts after it in key order at once, while those before it still get their room", "[hard][parts]") {
  // Keys "a" and "c": 16 appends at once, then a get of what none of them made (millions of states
  // to reject). Key "b": a get of a value never put, refused at once.
  testing::ScratchDir dir;
  std::vector<Op> ops;
  for (const char* key : {"a", "c"}) {
    const int base = key[0] == 'a' ? 0 : 20;
    for (int p = 0; p < 16; ++p)
      ops.push_back({base + p, "Append", {{"key", key}, {"value", std::string(1, static_cast<char>('a' + p))}}, 1, 100});
    ops.push_back({base + 16, "Get", {{"key", key}, {"value", "nothing"}}, 200, 201});
  }
  ops.push_back({40, "Get", {{"key", "b"}, {"value", "never put"}}, 1, 2});
  write_history(dir / "h.jsonl", ops, kKvHeader);
  for (const unsigned jobs : {1u, 2u}) {
    const auto r = validate_kv(dir / "h.jsonl", jobs, 300'000);
    INFO("jobs " << jobs << ": " << r.summary());
    CHECK(r.verdict == Verdict::fail);
    REQUIRE(r.partitions);
    CHECK(r.partitions->failed == "key = \"b\"");
    // "a" came first and had its round's room; "c" is left undecided however far it got.
    CHECK(std::any_of(r.caveats.begin(), r.caveats.end(), [](const std::string& c) { return c.find("2 of the 3 parts were left undecided") != std::string::npos; }));
    if (jobs == 1) {  // one after another: "c" did not begin
      CHECK(r.states_distinct.value_or(0) >= checkers::kFirstRoundStates);
      CHECK(r.states_distinct.value_or(0) < checkers::kFirstRoundStates + 100);
    }
  }
}

TEST_CASE("the memory limit (--memory) bounds the process's resident memory as measured from outside", "[hard][memory]") {
  // 28 writes at once, then a read of a value none wrote: 2^28 subsets of the writes, each with its
  // last value, to search before rejecting. Without a limit this takes gigabytes.
  testing::ScratchDir dir;
  std::vector<Op> ops;
  for (int p = 0; p < 28; ++p) ops.push_back({p, "Write", {{"value", p + 1}}, static_cast<std::uint64_t>(p), static_cast<std::uint64_t>(1000 + p)});
  ops.push_back({99, "Read", {{"value", 777}}, 2000, 2001});
  write_history(dir / "explodes.jsonl", ops);
  for (const std::uint64_t limit_mb : {48, 96}) {
    ProcessOptions po;
    po.timeout = std::chrono::seconds(300);
    const auto r = run_process(OMNILINK_CLI,
                               {"validate", (dir / "explodes.jsonl").string(), "--spec", std::string(OMNILINK_SPECS_DIR) + "/Register.tla",
                                "--checker", "native", "--no-confirm", "--memory", std::to_string(limit_mb) + "m"},
                               po);
    INFO(r.describe() << "\n" << r.out << r.err);
    CHECK(r.exit_code == 2);  // unknown
    const Json result = Json::parse(std::ifstream(dir / "explodes.jsonl.validation" / "result.json"));
    CHECK(result["verdict"] == "unknown");
    CHECK_THAT(result["reason"].get<std::string>(), Catch::Contains("memory limit of " + std::to_string(limit_mb) + " MiB"));
    // docs/validation.md: resident memory stays under the limit plus 8 MiB (what a search grows
    // between two readings), measured from outside (VmHWM, sampled) and by the process itself.
    const std::uint64_t bound_kb = (limit_mb + 8) * 1024;
    CHECK(r.peak_rss_kb > 0);
    CHECK(r.peak_rss_kb < bound_kb);
    CHECK(result["peak_rss_kb"].get<std::uint64_t>() < bound_kb);
    // It did search: the limit, not the start, stopped it.
    CHECK(result["states_distinct"].get<std::uint64_t>() > limit_mb * 1024 * 1024 / 16 / 8);
  }
}
