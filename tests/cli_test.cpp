// The omnilink CLI, run as a real process: --version, the one error path every verb takes, trace
// show/stats on good and damaged runs, doctor's report and its environment variables.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "platform/subprocess.hpp"
#include "platform/toolchain.hpp"
#include "support/test_support.hpp"

namespace {

using namespace omnilink;

ProcessResult omnilink_cli(const std::vector<std::string>& args, std::map<std::string, std::string> env = {}) {
  ProcessOptions options;
  options.timeout = std::chrono::seconds(120);
  options.env_overrides = std::move(env);
  return run_process(OMNILINK_CLI, args, options);
}

struct Op {
  static constexpr std::string_view omnilink_name = "Op";
  std::int64_t x = 0;
  template <class V>
  void omnilink_fields(V&& f) const { f("x", x); }
};

void make_run(const std::filesystem::path& out, std::uint32_t threads, std::uint64_t ops) {
  Harness<int> h(testing::quiet_options(out, threads, ops));
  h.op<Op>([](int&, Context& ctx, Op& op) { op.x = static_cast<std::int64_t>(ctx.index()) * 10; });
  int sut = 0;
  REQUIRE(h.run(sut) == 0);
}

}  // namespace

TEST_CASE("omnilink --version", "[cli]") {
  auto r = omnilink_cli({"--version"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("omnilink 0.") != std::string::npos);
}

TEST_CASE("usage errors exit 3", "[cli]") {
  CHECK(omnilink_cli({}).exit_code == 3);
  CHECK(omnilink_cli({"no-such-verb"}).exit_code == 3);
  CHECK(omnilink_cli({"trace", "show"}).exit_code == 3);
}

TEST_CASE("a verb that stops says why on one line naming it, with the exit code of the error's kind", "[cli]") {
  testing::ScratchDir dir;
  const auto one_line = [](const ProcessResult& r, const std::string& prefix) {
    INFO(r.err);
    CHECK(r.err.rfind(prefix, 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  };
  // Input wrong as given: 3.
  const auto ls = omnilink_cli({"ls", "--store", (dir.path() / "none").string()});
  CHECK(ls.exit_code == 3);
  one_line(ls, "omnilink ls: no store at ");
  const auto stats = omnilink_cli({"trace", "stats", dir.path().string()});
  CHECK(stats.exit_code == 3);
  one_line(stats, "omnilink trace stats: ");
  std::ofstream(dir.path() / "broken.json") << "{\n  \"name\": 1,";
  const auto campaign = omnilink_cli({"campaign", (dir.path() / "broken.json").string(), "--store", (dir.path() / "store").string()});
  CHECK(campaign.exit_code == 3);
  one_line(campaign, "omnilink campaign: " + (dir.path() / "broken.json").string() + ": line ");
  CHECK_FALSE(std::filesystem::exists(dir.path() / "store"));  // nothing was started
  const auto gc = omnilink_cli({"gc", dir.path().string(), "--quota", "lots"});
  CHECK(gc.exit_code == 3);
  one_line(gc, "omnilink gc: --quota lots: not a size");
  // A spec that does not load is a problem found: 1.
  std::ofstream(dir.path() / "Bad.tla") << "---- MODULE Bad ----\nInit == x = \n====\n";
  const auto gen = omnilink_cli({"gen-hpp", (dir.path() / "Bad.tla").string()});
  CHECK(gen.exit_code == 1);
  one_line(gen, "omnilink gen-hpp: ");
  CHECK_THAT(gen.err, Catch::Contains("Bad.tla"));
}

// A device is read forever and a FIFO blocks: every file a user names is refused as what it is,
// before it is read and before anything is written beside it.
TEST_CASE("a device or FIFO named as a history, spec, campaign or TLC configuration is named as such, exit 3", "[cli][bounds]") {
  testing::ScratchDir dir;
  const std::filesystem::path zero = dir.path() / "z.jsonl", fifo = dir.path() / "f.jsonl", config = dir.path() / "c.json",
                              cfg = dir.path() / "M.cfg";
  std::filesystem::create_symlink("/dev/zero", zero);
  std::filesystem::create_symlink("/dev/zero", config);
  std::filesystem::create_symlink("/dev/zero", cfg);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string spec = std::string(OMNILINK_SPECS_DIR) + "/KV.tla";
  for (const auto& [history, kind] : {std::pair{zero, "a character device"}, std::pair{fifo, "a FIFO"}}) {
    for (const std::string verb : {"validate", "explain"}) {
      const auto r = omnilink_cli({verb, history.string(), "--spec", spec});
      INFO(verb << " " << history << ": " << r.describe() << "\n" << r.out << r.err);
      CHECK(r.exit_code == 3);
      CHECK_THAT(r.out + r.err, Catch::Contains(history.string() + ": " + kind + ", not a run directory or history file"));
    }
  }
  CHECK_FALSE(std::filesystem::exists(dir.path() / "z.jsonl.validation"));
  CHECK_FALSE(std::filesystem::exists(dir.path() / "f.jsonl.explain"));
  const auto campaign = omnilink_cli({"campaign", config.string(), "--store", (dir.path() / "store").string()});
  CHECK(campaign.exit_code == 3);
  CHECK_THAT(campaign.err, Catch::Contains("c.json: cannot read: a character device, not a file to read (the symbolic link points there)"));
  const auto explore = omnilink_cli({"spec", spec, "--cfg", cfg.string(), "--explore", "1"});
  CHECK(explore.exit_code != 0);
  CHECK_THAT(explore.out + explore.err, Catch::Contains("M.cfg: a character device, not a TLC configuration"));

  // A spec that is a device, named by revalidate, explain or a campaign's target: not "not found".
  const std::filesystem::path device_spec = dir.path() / "Z.tla";
  std::filesystem::create_symlink("/dev/zero", device_spec);
  const std::string says = "Z.tla: a character device, not a spec (the symbolic link points there)";
  const auto revalidate = omnilink_cli({"revalidate", "c-1", "--store", (dir.path() / "store").string(), "--spec", device_spec.string()});
  CHECK(revalidate.exit_code == 3);
  CHECK_THAT(revalidate.err, Catch::Contains(says));
  const auto explain = omnilink_cli({"explain", "c-1/r", "--spec", device_spec.string()});
  CHECK(explain.exit_code == 3);
  CHECK_THAT(explain.err, Catch::Contains(says));
  const auto mc = omnilink_cli({"explain", "c-1/r", "--spec", spec, "--mc", device_spec.string()});
  CHECK(mc.exit_code == 3);
  CHECK_THAT(mc.err, Catch::Contains(says));
  std::ofstream(dir.path() / "t.json") << nlohmann::json{{"format", 1}, {"name", "t"}, {"rr", "off"},
                                                         {"targets", {{{"name", "q"}, {"harness", "/bin/true"}, {"spec", "Z.tla"},
                                                                       {"threads", {1}}, {"ops", {1}}}}}}.dump();
  const auto target = omnilink_cli({"campaign", (dir.path() / "t.json").string(), "--store", (dir.path() / "store").string()});
  CHECK(target.exit_code == 3);
  CHECK_THAT(target.err, Catch::Contains("targets[0] (q).spec") && Catch::Contains(says));
  CHECK_FALSE(std::filesystem::exists(dir.path() / "store"));
}

// docs/campaign.md, exit codes: a history that cannot be read is input wrong as given (3), said
// once under the verb's name.
TEST_CASE("explain of a history that does not read exits 3 on one line", "[cli]") {
  testing::ScratchDir dir;
  const std::filesystem::path history = dir.path() / "bad.jsonl";
  std::ofstream(history) << "{\"format\": \"omnilink-history\", \"version\": 1}\n"
                         << R"({"process": 1, "op": "Put", "fields": {"key": {"$map": [[1, 2], [1, 3]]}, "value": "v"}, "start": 1, "end": 2, "outcome": "ok"})" << "\n";
  const auto r = omnilink_cli({"explain", history.string(), "--spec", std::string(OMNILINK_SPECS_DIR) + "/KV.tla"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("bad.jsonl:2: fields.key.$map: the key 1 is given twice"));
  CHECK(r.err.find("omnilink explain: omnilink explain:") == std::string::npos);
}

TEST_CASE("trace export writes the run's history as a history file", "[cli]") {
  testing::ScratchDir dir;
  make_run(dir.path() / "run", 2, 4);
  const auto exported = omnilink_cli({"trace", "export", (dir.path() / "run").string(), (dir.path() / "h.jsonl").string()});
  INFO(exported.out << exported.err);
  REQUIRE(exported.exit_code == 0);
  CHECK_THAT(exported.out, Catch::Contains("8 operations of 2 threads"));
  std::ifstream in(dir.path() / "h.jsonl");
  std::string line;
  std::vector<nlohmann::json> lines;
  while (std::getline(in, line)) lines.push_back(nlohmann::json::parse(line));
  REQUIRE(lines.size() == 9);  // the header, then one line an operation
  CHECK(lines[0]["format"] == "omnilink-history");
  std::map<int, int> per_process;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    CHECK(lines[k]["op"] == "Op");
    CHECK(lines[k]["fields"].contains("x"));
    CHECK(lines[k]["outcome"] == "ok");
    ++per_process[lines[k]["process"].get<int>()];
  }
  CHECK(per_process == std::map<int, int>{{0, 4}, {1, 4}});
  // A run that is not there: exit 3, nothing written.
  const auto missing = omnilink_cli({"trace", "export", (dir.path() / "none").string(), (dir.path() / "x.jsonl").string()});
  CHECK(missing.exit_code == 3);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "x.jsonl"));
}

TEST_CASE("trace show and stats on a good run", "[cli]") {
  testing::ScratchDir dir;
  make_run(dir.path(), 2, 4);
  auto show = omnilink_cli({"trace", "show", dir.path().string()});
  REQUIRE(show.exit_code == 0);
  CHECK(show.out.find("T0.0  [") != std::string::npos);
  CHECK(show.out.find("Op(x = 30)") != std::string::npos);
  CHECK(show.out.find("T1.3") != std::string::npos);
  auto limited = omnilink_cli({"trace", "show", dir.path().string(), "--limit", "1"});
  CHECK(limited.out.find("T0.1") == std::string::npos);

  auto stats = omnilink_cli({"trace", "stats", "--json", dir.path().string()});
  REQUIRE(stats.exit_code == 0);
  auto j = nlohmann::json::parse(stats.out);
  CHECK(j["operations"] == 8);
  CHECK(j["by_name"]["Op"] == 8);
  CHECK(j["threads"].size() == 2);
  CHECK(j["threads"][1]["end"] == "done");
  CHECK(j["errors"].empty());
  CHECK(j["meta"]["seed"] == 1);
}

TEST_CASE("trace commands report a damaged run with file and offset, after what is readable", "[cli]") {
  testing::ScratchDir dir;
  make_run(dir.path(), 1, 20);
  const auto file = dir.path() / "trace" / "thread-0000.msgpack";
  const auto size = std::filesystem::file_size(file);
  std::filesystem::resize_file(file, size - 3);  // cut into the end record
  auto show = omnilink_cli({"trace", "show", dir.path().string()});
  CHECK(show.exit_code == 1);
  CHECK(show.out.find("T0.19") != std::string::npos);  // every complete op still shown
  CHECK(show.err.find("thread-0000.msgpack: byte ") != std::string::npos);
  CHECK(show.err.find("truncated") != std::string::npos);
  auto stats = omnilink_cli({"trace", "stats", dir.path().string()});
  CHECK(stats.exit_code == 1);
  CHECK(stats.out.find("error: ") != std::string::npos);
}

TEST_CASE("trace commands name a path that is not a run directory", "[cli]") {
  testing::ScratchDir dir;
  auto r = omnilink_cli({"trace", "stats", dir.path().string()});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("not a run directory") != std::string::npos);
  std::ofstream(dir.path() / "meta.json") << "{ broken";
  std::filesystem::create_directories(dir.path() / "trace");
  auto broken = omnilink_cli({"trace", "stats", dir.path().string()});
  CHECK(broken.exit_code == 0);  // no thread files, so nothing wrong with the traces...
  CHECK(broken.out.find("meta.json unreadable") != std::string::npos);  // ...but meta.json is reported
}

TEST_CASE("doctor reports each tool with its source and honours the env vars", "[cli][doctor]") {
  testing::ScratchDir dir;
  auto r = omnilink_cli({"doctor", "--json"}, {{"OMNILINK_TLC_JAR", (dir.path() / "missing.jar").string()},
                                               {"OMNILINK_TOOLS_DIR", dir.path().string()}});
  CHECK(r.exit_code == 1);  // TLC is missing, so not everything is usable
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["ok"] == false);
  CHECK(j["tools_dir"] == dir.path().string());
  CHECK(j["tools"]["tlc"]["found"] == false);
  CHECK(j["tools"]["tlc"]["problem"].get<std::string>().find("$OMNILINK_TLC_JAR is set to") != std::string::npos);
  for (const char* tool : {"gdb", "java", "tlc", "rr", "addr2line"}) CHECK(j["tools"].contains(tool));
  // OMNILINK_ADDR2LINE naming nothing usable: reported as such, and not ok.
  auto no_addr2line = omnilink_cli({"doctor", "--json"}, {{"OMNILINK_ADDR2LINE", (dir.path() / "no-addr2line").string()}});
  const auto j_a = nlohmann::json::parse(no_addr2line.out);
  CHECK(j_a["tools"]["addr2line"]["found"] == false);
  CHECK(j_a["ok"] == false);

  const ToolLocation gdb = find_gdb();
  CHECK(j["tools"]["gdb"]["found"] == gdb.found());
  if (gdb.found()) {
    CHECK(j["tools"]["gdb"]["path"] == gdb.path->string());
    CHECK(j["tools"]["gdb"]["version"].get<std::string>().find("GNU gdb") != std::string::npos);
  }

  // A fake jar in the tools dir is found there (conventional location) when the env var is unset.
  std::ofstream(dir.path() / "tla2tools.jar") << "not really a jar";
  auto located = omnilink_cli({"doctor", "--json"}, {{"OMNILINK_TLC_JAR", ""}, {"OMNILINK_TOOLS_DIR", dir.path().string()}});
  auto j2 = nlohmann::json::parse(located.out);
  CHECK(j2["tools"]["tlc"]["found"] == true);
  CHECK(j2["tools"]["tlc"]["path"] == (dir.path() / "tla2tools.jar").string());
  CHECK(j2["tools"]["tlc"]["source"] == dir.path().string());

  // A `tlc` launcher on PATH: its package's jar is used.
  testing::ScratchDir pkg;
  std::filesystem::create_directories(pkg / "bin");
  std::filesystem::create_directories(pkg / "share" / "java");
  std::ofstream(pkg / "share" / "java" / "tla2tools.jar") << "not really a jar";
  std::ofstream(pkg / "bin" / "tlc") << "#!/bin/sh\n";
  std::filesystem::permissions(pkg / "bin" / "tlc", std::filesystem::perms::owner_all);
  auto on_path = omnilink_cli({"doctor", "--json"}, {{"OMNILINK_TLC_JAR", ""},
                                                     {"OMNILINK_TOOLS_DIR", (dir.path() / "empty").string()},
                                                     {"PATH", (pkg / "bin").string() + ":" + std::getenv("PATH")}});
  auto j3 = nlohmann::json::parse(on_path.out);
  CHECK(j3["tools"]["tlc"]["path"] == (pkg / "share" / "java" / "tla2tools.jar").string());
  CHECK_THAT(j3["tools"]["tlc"]["source"].get<std::string>(), Catch::StartsWith("tlc on PATH"));

  auto text = omnilink_cli({"doctor"}, {{"OMNILINK_TLC_JAR", (dir.path() / "missing.jar").string()}});
  CHECK(text.out.find("MISSING") != std::string::npos);
  CHECK(text.out.find("OMNILINK_TLC_JAR") != std::string::npos);
}

TEST_CASE("the CLI keeps parsed specs where OMNILINK_CACHE_DIR says, reads them back, and keeps none when it is empty",
          "[cli][parse_cache]") {
  testing::ScratchDir dir;
  const std::string spec = std::string(OMNILINK_SPECS_DIR) + "/KV.tla";
  const auto entries = [&] {
    std::size_t n = 0;
    if (std::filesystem::exists(dir / "cache" / "parse"))
      for (const auto& e : std::filesystem::directory_iterator(dir / "cache" / "parse")) n += e.path().extension() == ".ast";
    return n;
  };
  const std::map<std::string, std::string> on{{"OMNILINK_CACHE_DIR", (dir / "cache").string()}};
  const auto first = omnilink_cli({"spec", spec, "--json"}, on);
  REQUIRE(first.exit_code == 0);
  CHECK(entries() == 1);
  CHECK((std::filesystem::status(dir / "cache" / "parse").permissions() & std::filesystem::perms::group_all) ==
        std::filesystem::perms::none);
  const auto second = omnilink_cli({"spec", spec, "--json"}, on);
  CHECK(second.exit_code == 0);
  CHECK(second.out == first.out);

  const auto doctor = nlohmann::json::parse(omnilink_cli({"doctor", "--json"}, on).out);
  CHECK(doctor["native_checker"]["parse_cache"] == (dir / "cache" / "parse").string());
  const auto off = nlohmann::json::parse(omnilink_cli({"doctor", "--json"}, {{"OMNILINK_CACHE_DIR", ""}}).out);
  CHECK(off["native_checker"]["parse_cache"].is_null());

  std::filesystem::remove_all(dir / "cache");
  CHECK(omnilink_cli({"spec", spec, "--json"}, {{"OMNILINK_CACHE_DIR", ""}}).out == first.out);
  CHECK(entries() == 0);
}
