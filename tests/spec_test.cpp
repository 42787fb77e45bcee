// A spec's interface as language/ reads it (constants, variables, the operations Next can take
// through \/, \E, LET, IF, CASE, definitions and instances, X_Step/X_Done grouping, type
// annotations, located errors for anything else), and `gen-hpp` on it.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "language/interface.hpp"
#include "language/rules.hpp"
#include "platform/subprocess.hpp"
#include "support/test_support.hpp"
#include "tla/hpp_generator.hpp"

namespace {

using namespace omnilink;
namespace fs = std::filesystem;

std::string module(const std::string& body) {
  return "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nA == x' = x + 1\nB(v) == x' = v\nC(v, w) == x' = v + w\n" + body +
         "\n====\n";
}

// The interface of `text`, written as M.tla in a scratch directory.
struct Loaded {
  testing::ScratchDir dir;
  std::unique_ptr<language::LoadedSpec> spec;
  language::SpecInterface interface;
};
std::unique_ptr<Loaded> read(const std::string& text, const std::string& next = "Next") {
  auto l = std::make_unique<Loaded>();
  const fs::path file = l->dir.path() / "M.tla";
  std::ofstream(file) << text;
  l->spec = language::LoadedSpec::load(file, std::nullopt);
  l->interface = language::spec_interface(*l->spec, next);
  return l;
}

std::vector<std::string> operation_names(const std::string& text, const std::string& next = "Next") {
  std::vector<std::string> names;
  const auto loaded = read(text, next);
  for (const auto& op : loaded->interface.operations) names.push_back(op.name);
  return names;
}

// The error message of reading `text`'s interface, or "" if it reads.
std::string read_error(const std::string& text) {
  try {
    read(text);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the test Queue spec: interface, operations, annotations", "[spec]") {
  auto spec = language::LoadedSpec::load(fs::path(OMNILINK_TEST_SPECS) / "Queue.tla", std::nullopt);
  const auto i = language::spec_interface(*spec);
  CHECK(i.module == "Queue");
  CHECK(i.constants == std::vector<std::string>{"Values"});
  CHECK(i.variables == std::vector<std::string>{"queue", "pending"});
  REQUIRE(i.operations.size() == 3);
  CHECK(i.operations[0].name == "Enqueue");
  CHECK(i.operations[1].name == "Dequeue");
  CHECK(i.operations[1].params == std::vector<std::string>{"elem", "ok"});
  CHECK(i.operations[2].name == "Bulk");
  CHECK(i.operations[2].multi_step);
  CHECK(i.operations[2].params == std::vector<std::string>{"elems"});
  CHECK(i.operations[2].reference == "Bulk");
  REQUIRE(i.operations[1].type.has_value());
  CHECK(*i.operations[1].type == "(Int, Bool) => Bool");
  CHECK(i.operations[0].pos.line == 9);
  CHECK(i.operations[0].inputs == std::optional<std::vector<std::string>>(std::vector<std::string>{"elem"}));  // its @inputs
  CHECK_FALSE(i.operations[1].inputs);
}

TEST_CASE("Next: infix, bulleted, nested, quantified, LET, IF, CASE, definitions and instances", "[spec]") {
  using V = std::vector<std::string>;
  CHECK(operation_names(module("Next == A \\/ B(1) \\/ C(1, 2)")) == V{"A", "B", "C"});
  CHECK(operation_names(module("Next ==\n  \\/ A\n  \\/ \\E v \\in {1, 2} : B(v)\n  \\/ C(1, 2)")) == V{"A", "B", "C"});
  // A bulleted list inside a quantifier inside a bulleted list; an item continued on the next line.
  CHECK(operation_names(module("Next ==\n  \\/ \\E v \\in 1..3, w \\in {y : y \\in 1..2} :\n"
                               "        \\/ B(v)\n        \\/ C(v,\n              w)\n  \\/ A")) == V{"B", "C", "A"});
  CHECK(operation_names(module("Next == \\A v \\in {} : (B(v) \\/ (A))")) == V{"B", "A"});
  CHECK(operation_names(module("Next == LET S == {1} IN LET T == S IN \\E v \\in T : B(v)")) == V{"B"});
  CHECK(operation_names(module("Next == IF x > 1 THEN A ELSE B(2)")) == V{"A", "B"});
  CHECK(operation_names(module("Next == CASE x = 1 -> A [] x = 2 -> B(1) [] OTHER -> C(1, 1)")) == V{"A", "B", "C"});
  // A definition without parameters that only chooses among actions is looked through; one that
  // does something itself is an action.
  CHECK(operation_names(module("Produce == \\E v \\in 1..2 : B(v)\nTick == x' = 0\nNext == Produce \\/ Tick")) == V{"B", "Tick"});
  // Comments anywhere, a (* nested (* comment *) *), operators defined after Next.
  CHECK(operation_names("---- MODULE M ----\nVARIABLE x\n(* a (* nested *) comment *)\nNext == \\* actions\n"
                        "  \\/ D\n  \\/ E(1)\nD == x' = 1\nE(v) == x' = v\n====") == V{"D", "E"});
  CHECK(operation_names(module("Next == B(1) \\/ B(2)")) == V{"B"});  // the same action twice is one
  CHECK(operation_names(module("Next == A\nNext2 == C(1, 1)"), "Next2") == V{"C"});
  // A Next written inline is itself the operation; an inline step beside named actions is none.
  CHECK(operation_names(module("Next == A /\\ B(1)")) == V{"Next"});
  CHECK(operation_names(module("Next == \\E v \\in 1..2 : x' = v")) == V{"Next"});
  const auto mixed = read(module("Next == A \\/ UNCHANGED x"));
  REQUIRE(mixed->interface.operations.size() == 1);
  CHECK(mixed->interface.operations[0].name == "A");
  REQUIRE(mixed->interface.inline_steps.size() == 1);
  CHECK_THAT(mixed->interface.inline_steps[0], Catch::Contains("M.tla:7:14: UNCHANGED x"));
}

TEST_CASE("actions of an instance are operations, named for TLC through the instance", "[spec]") {
  auto l = std::make_unique<Loaded>();
  std::ofstream(l->dir.path() / "Reg.tla") << "---- MODULE Reg ----\nVARIABLE r\n\\* @type: (Int) => Bool;\nWrite(v) == r' = v\n"
                                              "Read(v) == v = r /\\ UNCHANGED r\n====\n";
  std::ofstream(l->dir.path() / "M.tla") << "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nR == INSTANCE Reg WITH r <- x\n"
                                            "Next == \\E v \\in 1..3 : R!Write(v) \\/ R!Read(v)\n====\n";
  l->spec = language::LoadedSpec::load(l->dir.path() / "M.tla", std::nullopt);
  const auto i = language::spec_interface(*l->spec);
  REQUIRE(i.operations.size() == 2);
  CHECK(i.operations[0].name == "Write");
  CHECK(i.operations[0].reference == "R!Write");
  CHECK(i.operations[0].params == std::vector<std::string>{"v"});
  CHECK(i.operations[0].type == std::optional<std::string>("(Int) => Bool"));
  CHECK(i.operations[1].reference == "R!Read");
}

TEST_CASE("anything else in Next is an error with file:line:col and what was expected", "[spec]") {
  CHECK_THAT(read_error(module("Next == A \\/ Missing")), Catch::Contains("M.tla:7:14: unknown name Missing"));
  CHECK_THAT(read_error(module("Next == B(1, 2)")), Catch::Contains("M.tla:7:9: B takes 1 argument(s), given 2"));
  CHECK_THAT(read_error(module("Next == (A \\/ B(1)")), Catch::Contains("syntax error"));
  CHECK_THAT(read_error(module("Other == A")), Catch::Contains("no definition of Next"));
  CHECK_THAT(read_error(module("Next(p) == A")), Catch::Contains("Next must not take parameters"));
  CHECK_THAT(read_error(module("X_Step(v) == A\nNext == X_Step(1)")), Catch::Contains("X_Step has no matching X_Done"));
  CHECK_THAT(read_error(module("X_Done(v) == A\nNext == X_Done(1)")), Catch::Contains("X_Done has no matching X_Step"));
  CHECK_THAT(read_error(module("X_Step(v) == A\nX_Done(w, z) == A\nNext == X_Step(1) \\/ X_Done(1, 2)")),
             Catch::Contains("X_Done must have the same parameters as X_Step"));
  CHECK_THAT(read_error("no module here"), Catch::Contains("M.tla:1:") && Catch::Contains("syntax error"));
  CHECK_THAT(read_error("---- MODULE M ----\n(* unterminated\n===="), Catch::Contains("M.tla:") && Catch::Contains("syntax error"));
  CHECK_THAT(read_error("---- MODULE M ----\nVARIABLE x\n) junk\n===="), Catch::Contains("M.tla:") && Catch::Contains("syntax error"));
}

TEST_CASE("annotation types map to C++ types", "[spec][gen-hpp]") {
  CHECK(tla::cpp_type_of("Int") == "std::int64_t");
  CHECK(tla::cpp_type_of("Bool") == "bool");
  CHECK(tla::cpp_type_of(" Str ") == "std::string");
  CHECK(tla::cpp_type_of("Seq(Set(Int))") == "std::vector<std::set<std::int64_t>>");
  CHECK(tla::cpp_type_of("Str -> Seq(Int)") == "std::map<std::string, std::vector<std::int64_t>>");
  CHECK(tla::cpp_type_of("<<Int, Str>>") == "std::pair<std::int64_t, std::string>");
  CHECK_THROWS_WITH(tla::cpp_type_of("Real"), Catch::Contains("unsupported type 'Real'"));
  CHECK_THROWS_WITH(tla::cpp_type_of("Seq(Int"), Catch::Contains("expected ')'"));
}

TEST_CASE("gen-hpp: structs, fields, keywords, coverage list, annotation errors", "[spec][gen-hpp]") {
  const auto l = read("---- MODULE M ----\nVARIABLE x\n\\* @type: (Str, Set(Int)) => Bool;\n"
                      "Put(new, keys) == x' = 1\nNoop == UNCHANGED x\nNext == Put(\"a\", {}) \\/ Noop\n====");
  const std::string hpp = tla::generate_hpp(l->interface);
  CHECK_THAT(hpp, Catch::Contains("namespace m {"));
  CHECK_THAT(hpp, Catch::Contains("struct Put {"));
  CHECK_THAT(hpp, Catch::Contains("static constexpr std::string_view omnilink_name = \"Put\";"));
  CHECK_THAT(hpp, Catch::Contains("std::string new_{};"));  // C++ keyword: field renamed, logged name kept
  CHECK_THAT(hpp, Catch::Contains("field(\"new\", new_);"));
  CHECK_THAT(hpp, Catch::Contains("std::set<std::int64_t> keys{};"));
  CHECK_THAT(hpp, Catch::Contains("struct Noop {"));
  CHECK_THAT(hpp, Catch::Contains("using Operations = omnilink::OperationList<Put, Noop>;"));
  CHECK_THAT(tla::generate_hpp(l->interface, {"my_ns"}), Catch::Contains("namespace my_ns {"));

  const auto bad = read("---- MODULE M ----\nVARIABLE x\n\\* @type: (Int) => Bool;\nP(a, b) == x' = a\nNext == P(1, 2)\n====");
  CHECK_THROWS_WITH(tla::generate_hpp(bad->interface), Catch::Contains("M.tla:4:1: the @type annotation of P lists 1 parameter types, the action has 2"));
}

TEST_CASE("an action's parameter types are read from its @type annotation, nested types whole", "[spec]") {
  const auto types_of = [](const std::string& annotation, const std::string& params) {
    const auto l = read("---- MODULE M ----\nVARIABLE x\n\\* @type: " + annotation + ";\nP(" + params + ") == x' = 1\nNext == \\E " + params + " \\in {1} : P(" +
                        params + ")\n====");
    return language::param_types(l->interface.operations.at(0));
  };
  CHECK(types_of("(Seq(<<Int, Str>>), Int -> Bool, Bool) => Bool", "a, b, c") ==
        std::vector<std::string>{"Seq(<<Int, Str>>)", "Int -> Bool", "Bool"});
  CHECK(types_of("( Set(Int) ) =>Bool", "a") == std::vector<std::string>{"Set(Int)"});
  for (const char* bad : {"Int => Bool", "(Int, ) => Bool", "(Int) Bool", "(Int => Bool", "(Int) =>"}) {
    INFO(bad);
    CHECK_THROWS_WITH(types_of(bad, "a"), Catch::Contains("M.tla:4:1: in the @type annotation of P: ") && Catch::Contains(bad));
  }
  const auto untyped = read("---- MODULE M ----\nVARIABLE x\nP(a, b) == x' = a\nNext == P(1, 2)\n====");
  CHECK(language::param_types(untyped->interface.operations.at(0)) == std::vector<std::string>{"Int", "Int"});
}

TEST_CASE("Next's @groups annotation names the parameter that groups operations, and must name one", "[spec]") {
  const auto grouped = read("---- MODULE M ----\nVARIABLE x\nBegin(txn) == x' = txn\nPut(txn, v) == x' = v\nInit == x = 0\n"
                            "\\* @groups: txn;\nNext == \\E t, v \\in {1} : Begin(t) \\/ Put(t, v)\n====");
  CHECK(grouped->interface.group_field == std::optional<std::string>("txn"));
  CHECK_FALSE(read("---- MODULE M ----\nVARIABLE x\nA(v) == x' = v\nNext == \\E v \\in {1} : A(v)\n====")->interface.group_field);
  CHECK_THROWS_WITH(read("---- MODULE M ----\nVARIABLE x\nA(v) == x' = v\n\\* @groups: txn;\nNext == \\E v \\in {1} : A(v)\n===="),
                    Catch::Contains("M.tla:5:1: the @groups annotation of Next names 'txn', which is a parameter of none of its actions"));
  const auto wiredtiger = language::LoadedSpec::load(fs::path(OMNILINK_SPECS_DIR) / "WiredTigerKV.tla", fs::path(OMNILINK_SPECS_DIR) / "MCWiredTigerSnapshot.tla");
  CHECK(language::spec_interface(*wiredtiger).group_field == std::optional<std::string>("txn"));
}

TEST_CASE("gen-hpp declares an action's @inputs as its operation's omnilink_inputs", "[spec][gen-hpp]") {
  const auto l = read("---- MODULE M ----\nVARIABLE x\n\\* @type: (Int, Bool) => Bool;\n\\* @inputs: key;\nPut(key, ok) == x' = key\n"
                      "\\* @inputs: ;\nGet(v) == x = v /\\ UNCHANGED x\nNoop == UNCHANGED x\nNext == Put(1, TRUE) \\/ Get(1) \\/ Noop\n====");
  const std::string hpp = tla::generate_hpp(l->interface);
  const auto put = hpp.find("struct Put {"), get = hpp.find("struct Get {"), noop = hpp.find("struct Noop {");
  REQUIRE(put != std::string::npos);
  REQUIRE(get != std::string::npos);
  REQUIRE(noop != std::string::npos);
  CHECK(hpp.find("static constexpr std::array<std::string_view, 1> omnilink_inputs{\"key\"};", put) < get);
  CHECK(hpp.find("static constexpr std::array<std::string_view, 0> omnilink_inputs{};", get) < noop);  // every field a result
  CHECK(hpp.find("omnilink_inputs", noop) == std::string::npos);  // not annotated: nothing declared
  CHECK_THAT(hpp, Catch::Contains("#include <array>"));

  CHECK_THAT(read_error("---- MODULE M ----\nVARIABLE x\n\\* @inputs: val;\nP(a) == x' = a\nNext == P(1)\n===="),
             Catch::Contains("M.tla:4:1: the @inputs annotation of P names 'val', which is not one of its parameters"));
}

TEST_CASE("an annotation after a junction list belongs to the definition that follows it", "[spec][gen-hpp]") {
  // The grammar puts a comment that ends a bulleted list inside the list (the previous definition).
  const auto l = read("---- MODULE M ----\nVARIABLE x\nA(v) ==\n  /\\ x' = v\n  /\\ v = 1\n\n\\* @type: (Str, Bool) => Bool;\n"
                      "\\* @inputs: s;\nB(s, ok) ==\n  /\\ x' = s\n  /\\ ok\n\\* @type: (Int) => Bool;\nC(n) == x' = n\n"
                      "Next == A(1) \\/ B(\"a\", TRUE) \\/ C(2)\n====");
  const std::string hpp = tla::generate_hpp(l->interface);
  CHECK_THAT(hpp, Catch::Contains("std::string s{};"));
  CHECK_THAT(hpp, Catch::Contains("bool ok{};"));
  CHECK_THAT(hpp, Catch::Contains("omnilink_inputs{\"s\"};"));
  CHECK_THAT(hpp, Catch::Contains("std::int64_t n{};"));
  CHECK_THAT(hpp, Catch::Contains("std::int64_t v{};"));  // A is not annotated: Int

  // A comment inside parentheses does not end its definition: it annotates nothing after it.
  const auto inner = read("---- MODULE M ----\nVARIABLE x\nA(v) == x' = (v \\* @type: (Str) => Bool;\n)\n"
                          "B(s) == x' = s\nNext == A(1) \\/ B(2)\n====");
  CHECK_THAT(tla::generate_hpp(inner->interface), Catch::Contains("std::int64_t s{};"));
}

TEST_CASE("gen-hpp on a spec whose Next uses exists, nested disjunctions, LET and a definition that only chooses", "[spec][gen-hpp]") {
  const auto l = read(module("\\* @type: (Int, Bool) => Bool;\nD(v, ok) == x' = v\nChoices == \\E v \\in 1..2 : \\/ B(v)\n"
                             "                                 \\/ \\E ok \\in BOOLEAN : D(v, ok)\n"
                             "Next == \\/ LET S == 1..2 IN \\E v \\in S : \\/ C(v, v) \\/ Choices\n       \\/ A"));
  const std::string hpp = tla::generate_hpp(l->interface);
  CHECK_THAT(hpp, Catch::Contains("using Operations = omnilink::OperationList<C, B, D, A>;"));
  CHECK_THAT(hpp, Catch::Contains("bool ok{};"));
}

TEST_CASE("omnilink gen-hpp on the command line", "[spec][gen-hpp][cli]") {
  testing::ScratchDir dir;
  const auto out = dir.path() / "ops.hpp";
  auto r = run_process(OMNILINK_CLI, {"gen-hpp", std::string(OMNILINK_TEST_SPECS) + "/Queue.tla", "-o", out.string()});
  REQUIRE(r.exit_code == 0);
  REQUIRE(std::filesystem::exists(out));
  std::ofstream(dir.path() / "Bad.tla") << "---- MODULE Bad ----\nVARIABLE x\nNext == x' = Missing\n====\n";
  auto bad = run_process(OMNILINK_CLI, {"gen-hpp", (dir.path() / "Bad.tla").string()});
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.err, Catch::Contains("Bad.tla:3:14: unknown name Missing"));
}

TEST_CASE("a workload on a generated header runs and logs the spec's operations", "[spec][gen-hpp]") {
  testing::ScratchDir dir;
  auto r = run_process(OMNILINK_SPEC_WORKLOAD, {"--threads", "2", "--ops", "300", "--seed", "4", "--quiet", "--out", dir.path().string()});
  INFO(r.describe() << r.err);
  REQUIRE(r.ok());
  std::set<std::string> names;
  for (const auto& t : testing::read_run(dir.path())) {
    REQUIRE_FALSE(t.error.has_value());
    for (const auto& op : t.ops) names.insert(op.name);
  }
  CHECK(names == std::set<std::string>{"Enqueue", "Dequeue"});  // Bulk was declared unsupported
}

TEST_CASE("omnilink spec says what it reads, and whether the embedded checker evaluates it", "[spec][cli]") {
  testing::ScratchDir dir;
  auto ok = run_process(OMNILINK_CLI, {"spec", std::string(OMNILINK_TEST_SPECS) + "/Queue.tla"});
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.out, Catch::Contains("Dequeue(elem, ok)") && Catch::Contains("(Int, Bool) => Bool") &&
                         Catch::Contains("Bulk(elems) in steps") && Catch::Contains("evaluates Init and every action"));
  auto tlc_only = run_process(OMNILINK_CLI, {"spec", std::string(OMNILINK_TEST_SPECS) + "/JsonRegister.tla", "--json"});
  CHECK(tlc_only.exit_code == 2);
  const auto found = nlohmann::json::parse(tlc_only.out);
  CHECK(found["operations"].size() == 2);
  CHECK_THAT(found["evaluated"].dump(), Catch::Contains("unknown name ToJson"));
  std::ofstream(dir.path() / "Bad.tla") << "---- MODULE Bad ----\nVARIABLE x\nInit == x = 0\nNext == x' = Nope\n====\n";
  auto bad = run_process(OMNILINK_CLI, {"spec", (dir.path() / "Bad.tla").string()});
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.err, Catch::Contains("Bad.tla:4:14: unknown name Nope"));
}

TEST_CASE("a spec file is read within bounds: special files named, and a size limit the environment may raise", "[spec][cli][bounds]") {
  testing::ScratchDir dir;
  const fs::path zero = dir / "Zero.tla";
  fs::create_symlink("/dev/zero", zero);  // read as a file, it never ends
  const auto device = run_process(OMNILINK_CLI, {"spec", zero.string()});
  CHECK(device.exit_code == 1);
  CHECK_THAT(device.err, Catch::Contains("Zero.tla: a character device, not a spec file (the symbolic link points there)"));
  fs::create_directory(dir / "Dir.tla");
  CHECK_THAT(run_process(OMNILINK_CLI, {"spec", (dir / "Dir.tla").string()}).err, Catch::Contains("Dir.tla: a directory, not a spec file"));

  // 5 MB of junk: refused for its size before the parser sees it.
  std::ofstream(dir / "Junk.tla") << std::string(5'000'000, '(');
  const auto junk = run_process(OMNILINK_CLI, {"spec", (dir / "Junk.tla").string()});
  CHECK(junk.exit_code == 1);
  CHECK_THAT(junk.err, Catch::Contains("Junk.tla: larger than 4194304 bytes, the most a spec file may be (OMNILINK_MAX_SPEC_BYTES raises it)"));

  const std::string queue = std::string(OMNILINK_TEST_SPECS) + "/Queue.tla";
  ProcessOptions small;
  small.env_overrides["OMNILINK_MAX_SPEC_BYTES"] = "100";
  CHECK_THAT(run_process(OMNILINK_CLI, {"spec", queue}, small).err, Catch::Contains("larger than 100 bytes"));
  ProcessOptions large;
  large.env_overrides["OMNILINK_MAX_SPEC_BYTES"] = std::to_string(fs::file_size(queue));  // exactly its size
  CHECK(run_process(OMNILINK_CLI, {"spec", queue}, large).exit_code == 0);
  ProcessOptions bad;
  bad.env_overrides["OMNILINK_MAX_SPEC_BYTES"] = "lots";
  CHECK_THAT(run_process(OMNILINK_CLI, {"spec", queue}, bad).err, Catch::Contains("OMNILINK_MAX_SPEC_BYTES=lots: not a positive number of bytes"));
}

// Each case here took minutes or most of a gigabyte before (tree-sitter 0.20 reads a line again
// for every column its scanner asks, and recovers from a syntax error to the end of the file): a
// child's time limit and its peak resident memory, measured from outside, bound them.
TEST_CASE("hostile spec text is read in linear time and bounded memory, and non-UTF-8 is named", "[spec][cli][bounds]") {
  testing::ScratchDir dir;
  ProcessOptions bounded;
  bounded.timeout = std::chrono::seconds(60);
  const auto spec = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / (name + ".tla"), std::ios::binary) << text;
    auto r = run_process(OMNILINK_CLI, {"spec", (dir / (name + ".tla")).string()}, bounded);
    INFO(name << ": " << r.describe() << "\n" << r.err);
    CHECK_FALSE(r.timed_out);
    CHECK(r.exit_code == 1);
    return r;
  };
  const std::string head = "---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = ";
  // 200,000 parentheses on one line (339 s before), and 2,000 nested IFs on one line (8 s).
  CHECK_THAT(spec("Parens", head + std::string(200'000, '(') + "1" + std::string(200'000, ')') + "\n====\n").err,
             Catch::Contains("Parens.tla:4:") && Catch::Contains("nested more than 1000 deep"));
  std::string ifs;
  for (int k = 0; k < 2000; ++k) ifs += "IF x = " + std::to_string(k) + " THEN 1 ELSE ";
  CHECK_THAT(spec("Ifs", head + ifs + "0\n====\n").err, Catch::Contains("nested more than 1000 deep"));

  // 3 MB of printable junk after a module header: the first junk line is the error, and the
  // parser's recovery (820 MB to the end of the file before) is stopped.
  std::string junk;
  std::uint32_t seed = 1;
  while (junk.size() < 3'000'000) {
    seed = seed * 1103515245 + 12345;
    const char c = static_cast<char>(32 + (seed >> 16) % 95);
    junk += (seed >> 8) % 40 == 0 ? '\n' : c;
  }
  const auto recovered = spec("Junk", head + "x + 1\nJunk == " + junk + "\n====\n");
  CHECK_THAT(recovered.err, Catch::Contains("Junk.tla:5:") && Catch::Contains("syntax error"));
  CHECK(recovered.peak_rss_kb < 100 * 1024);

  // Bytes that are not UTF-8 are named where they are, before any parsing.
  CHECK_THAT(spec("Latin1", head + "x\nName == \"caf\xe9\"\n====\n").err, Catch::Contains("Latin1.tla:5:13: not UTF-8 text (byte \\xe9)"));
  std::ifstream binary(OMNILINK_CLI, std::ios::binary);
  std::string executable(1'000'000, '\0');
  binary.read(executable.data(), static_cast<std::streamsize>(executable.size()));
  CHECK_THAT(spec("Binary", executable).err, Catch::Contains("Binary.tla:") && Catch::Contains(": not UTF-8 text (byte \\x"));
}

TEST_CASE("spec --explore that fails is not a pass", "[spec][cli]") {
  testing::ScratchDir dir;
  // Reachable in two steps: x = 2, where 1 \div (x - 2) divides by zero.
  std::ofstream(dir / "Div.tla") << "---- MODULE Div ----\nEXTENDS Integers\nVARIABLE x\n"
                                    "Step == x' = x + 1 /\\ x' = x + 1 + 0 * (1 \\div (2 - x))\nInit == x = 0\nNext == Step\n====\n";
  std::ofstream(dir / "Div.cfg") << "INIT Init\nNEXT Next\n";
  const auto r = run_process(OMNILINK_CLI, {"spec", (dir / "Div.tla").string(), "--cfg", (dir / "Div.cfg").string(), "--explore", "5"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("exploring failed: "));
}

TEST_CASE("a spec's rules are the truth-valued definitions its actions reach, and a relaxed one is TRUE", "[spec][rules]") {
  const fs::path dir(OMNILINK_SPECS_DIR);
  const auto spec = language::LoadedSpec::load(dir / "SerializableKV.tla", dir / "MCSnapshotKV.tla");
  std::set<std::string> rules;
  for (const language::Rule& r : language::spec_rules(*spec, "Next")) rules.insert(r.name.module + "!" + r.name.name);
  CHECK(rules.count("SerializableKV!RunsAtItsCommit"));
  CHECK(rules.count("SnapshotKV!FirstCommitterWins"));   // reached through the instance SI
  CHECK_FALSE(rules.count("SerializableKV!Commit"));      // an action: it reads the next state
  CHECK_FALSE(rules.count("SerializableKV!ReadFromDatabase"));  // a set, not a truth value
  CHECK_FALSE(rules.count("SnapshotKV!Unlocking"));       // a function
  // Relaxed, the definition is TRUE wherever it is used; the others are untouched.
  const auto relaxed = language::LoadedSpec::load(dir / "SerializableKV.tla", dir / "MCSnapshotKV.tla", nullptr,
                                                  {language::DefinitionName{"SerializableKV", "RunsAtItsCommit"}});
  const language::Definition* rule = relaxed->spec_definition("RunsAtItsCommit");
  REQUIRE(rule != nullptr);
  CHECK(rule->body->kind == language::ExprKind::Literal);
  CHECK(rule->body->value == language::Value::boolean(true));
  CHECK(spec->spec_definition("RunsAtItsCommit")->body->kind != language::ExprKind::Literal);

  // Only a definition every occurrence of which is positive (a conjunct of a step, an
  // implication's conclusion, ...): defined TRUE it allows more steps, never fewer.
  const auto wiredtiger = language::LoadedSpec::load(dir / "WiredTigerKV.tla", dir / "MCWiredTigerSnapshot.tla");
  std::set<std::string> wt;
  std::map<std::string, std::string> guarantee;  // a rule's @guarantee annotation
  for (const language::Rule& r : language::spec_rules(*wiredtiger, "Next")) {
    wt.insert(r.name.name);
    guarantee[r.name.name] = r.guarantee;
  }
  CHECK(guarantee["ReadsWhatItMaySee"] == "Visibility");
  CHECK(guarantee["RemovesWhatItMaySee"] == "Visibility");
  CHECK(guarantee["FirstUpdaterWins"].empty());
  CHECK(wt.count("ReadsWhatItMaySee"));
  CHECK(wt.count("FirstUpdaterWins"));    // txns[txn].snapshot => FirstUpdaterWins(...)
  CHECK(wt.count("RemovesWhatItMaySee"));
  CHECK_FALSE(wt.count("Running"));       // ~Running(txn) in Begin: TRUE would refuse every Begin
  CHECK_FALSE(wt.count("WriteConflict"));  // compared (=) with the status, not required
  CHECK_FALSE(wt.count("SeenByAll"));      // a filter's predicate
  CHECK(wt.count("PrepareRefusedAsChecked"));
  // What an action not looked into (one a run never takes) reaches alone is left out.
  const language::Definition* prepare = wiredtiger->spec_definition("Prepare");
  REQUIRE(prepare != nullptr);
  std::set<std::string> without_prepare;
  for (const language::Rule& r : language::spec_rules(*wiredtiger, "Next", {prepare})) without_prepare.insert(r.name.name);
  CHECK_FALSE(without_prepare.count("PrepareRefusedAsChecked"));
  CHECK(without_prepare.count("FirstUpdaterWins"));
}
