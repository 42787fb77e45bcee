// The TLA+ front-end and `gen-hpp`: module structure, Next's shape down to action references,
// X_Step/X_Done grouping, type annotations, and located errors for everything else.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>

#include "platform/subprocess.hpp"
#include "support/test_support.hpp"
#include "tla/hpp_generator.hpp"
#include "tla/spec.hpp"

namespace {

using namespace omnilink;
using tla::parse_spec;

std::string module(const std::string& body) {
  return "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nA == x' = x + 1\nB(v) == x' = v\nC(v, w) == x' = v + w\n" + body +
         "\n====\n";
}

std::vector<std::string> action_names(const tla::Spec& s) {
  std::vector<std::string> names;
  for (const auto& a : s.actions) names.push_back(a.name);
  return names;
}

// The error message of parsing `text`, or "" if it parses.
std::string parse_error(const std::string& text) {
  try {
    parse_spec("M.tla", text);
  } catch (const tla::SpecError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the test Queue spec: interface, actions, operations, annotations", "[spec]") {
  const auto spec = tla::parse_spec_file(std::string(OMNILINK_TEST_SPECS) + "/Queue.tla");
  CHECK(spec.module == "Queue");
  CHECK(spec.extends == std::vector<std::string>{"Sequences", "Naturals"});
  CHECK(spec.constants == std::vector<std::string>{"Values"});
  CHECK(spec.variables == std::vector<std::string>{"queue", "pending"});
  REQUIRE(spec.find_operator("Dequeue") != nullptr);
  CHECK(spec.find_operator("Dequeue")->params == std::vector<std::string>{"elem", "ok"});
  CHECK(spec.find_operator("Init") != nullptr);
  CHECK(action_names(spec) == std::vector<std::string>{"Enqueue", "Dequeue", "Bulk_Step", "Bulk_Done"});
  REQUIRE(spec.operations.size() == 3);
  CHECK(spec.operations[2].name == "Bulk");
  CHECK(spec.operations[2].multi_step);
  CHECK(spec.operations[2].params == std::vector<std::string>{"elems"});
  REQUIRE(spec.operations[1].type.has_value());
  CHECK(spec.operations[1].type->text.find("(Int, Bool) => Bool") != std::string::npos);
  CHECK(spec.actions[0].def_pos.line == 8);
  CHECK(spec.actions[0].ref_pos.line == 27);
}

TEST_CASE("Next: infix, bulleted, nested, quantified, LET and parenthesised forms", "[spec]") {
  CHECK(action_names(parse_spec("M.tla", module("Next == A \\/ B(1) \\/ C(1, 2)"))) ==
        std::vector<std::string>{"A", "B", "C"});
  CHECK(action_names(parse_spec("M.tla", module("Next ==\n  \\/ A\n  \\/ \\E v \\in {1, 2} : B(v)\n  \\/ C(1, 2)"))) ==
        std::vector<std::string>{"A", "B", "C"});
  // A bulleted list inside a quantifier inside a bulleted list; an item continued on the next line.
  CHECK(action_names(parse_spec("M.tla", module("Next ==\n  \\/ \\E v \\in 1..3, w \\in {x : x \\in 1..2} :\n"
                                                "        \\/ B(v)\n        \\/ C(v,\n              w)\n  \\/ A"))) ==
        std::vector<std::string>{"B", "C", "A"});
  CHECK(action_names(parse_spec("M.tla", module("Next == \\A v \\in {} : (B(v) \\/ (A))"))) ==
        std::vector<std::string>{"B", "A"});
  CHECK(action_names(parse_spec("M.tla", module("Next == LET S == {1} IN LET T == S IN \\E v \\in T : B(v)"))) ==
        std::vector<std::string>{"B"});
  // Comments anywhere, a (* nested (* comment *) *), operators defined after Next.
  CHECK(action_names(parse_spec("M.tla", "---- MODULE M ----\nVARIABLE x\n(* a (* nested *) comment *)\nNext == \\* actions\n"
                                         "  \\/ D\n  \\/ E(1)\nD == x' = 1\nE(v) == x' = v\n====")) ==
        std::vector<std::string>{"D", "E"});
  // The same action referenced twice is one action.
  CHECK(action_names(parse_spec("M.tla", module("Next == B(1) \\/ B(2)"))) == std::vector<std::string>{"B"});
  // Another relation than Next.
  CHECK(action_names(parse_spec("M.tla", module("Next == A\nNext2 == C(1, 1)"), "Next2")) == std::vector<std::string>{"C"});
}

TEST_CASE("anything else in Next is an error with file:line:col and what was expected", "[spec]") {
  CHECK_THAT(parse_error(module("Next == A /\\ B(1)")), Catch::StartsWith("M.tla:7:11: in Next: expected a disjunction"));
  CHECK_THAT(parse_error(module("Next == IF TRUE THEN A ELSE A")),
             Catch::StartsWith("M.tla:7:9: in Next: expected an action, '\\/', '\\E', '\\A', LET or '(', found 'IF'"));
  CHECK_THAT(parse_error(module("Next == A \\/ UNCHANGED x")), Catch::StartsWith("M.tla:7:14: in Next: expected an action"));
  CHECK_THAT(parse_error(module("Next == A \\/ Missing")),
             Catch::StartsWith("M.tla:7:14: in Next: 'Missing' is not an operator defined in module M"));
  CHECK_THAT(parse_error(module("Next == B(1, 2)")),
             Catch::StartsWith("M.tla:7:9: in Next: B is applied to 2 arguments but defined with 1"));
  CHECK_THAT(parse_error(module("Next == (A \\/ B(1)")), Catch::Contains("expected ')'"));
  CHECK_THAT(parse_error(module("Next == \\E v \\in S B(v)")), Catch::Contains("expected ':' after the quantifier's bounds"));
  CHECK_THAT(parse_error(module("Next == A B(1)")), Catch::StartsWith("M.tla:7:11: in Next: expected '\\/' or the end of Next, found 'B'"));
  CHECK_THAT(parse_error(module("Other == A")), Catch::Contains("no definition of Next"));
  CHECK_THAT(parse_error(module("Next(p) == A")), Catch::Contains("Next must not take parameters"));
  CHECK_THAT(parse_error(module("Next ==")), Catch::Contains("expected an action, found the end of Next"));
  CHECK_THAT(parse_error(module("X_Step(v) == A\nNext == X_Step(1)")), Catch::Contains("X_Step has no matching X_Done"));
  CHECK_THAT(parse_error(module("X_Done(v) == A\nNext == X_Done(1)")), Catch::Contains("X_Done has no matching X_Step"));
  CHECK_THAT(parse_error(module("X_Step(v) == A\nX_Done(w, z) == A\nNext == X_Step(1) \\/ X_Done(1, 2)")),
             Catch::Contains("X_Done must have the same parameters as X_Step"));
  CHECK_THAT(parse_error("no module here"), Catch::Contains("expected a module header"));
  CHECK_THAT(parse_error("---- MODULE M ----\n(* unterminated\n===="), Catch::StartsWith("M.tla:2:1: unterminated comment"));
  CHECK_THAT(parse_error("---- MODULE M ----\nVARIABLE x\n) junk\n===="), Catch::StartsWith("M.tla:3:1: expected a definition"));
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
  const auto spec = parse_spec("K.tla", "---- MODULE K ----\nVARIABLE x\n\\* @type: (Str, Set(Int)) => Bool;\n"
                                        "Put(new, keys) == x' = 1\nNoop == UNCHANGED x\nNext == Put(\"a\", {}) \\/ Noop\n====");
  const std::string hpp = tla::generate_hpp(spec);
  CHECK_THAT(hpp, Catch::Contains("namespace k {"));
  CHECK_THAT(hpp, Catch::Contains("struct Put {"));
  CHECK_THAT(hpp, Catch::Contains("static constexpr std::string_view omnilink_name = \"Put\";"));
  CHECK_THAT(hpp, Catch::Contains("std::string new_{};"));  // C++ keyword: field renamed, logged name kept
  CHECK_THAT(hpp, Catch::Contains("field(\"new\", new_);"));
  CHECK_THAT(hpp, Catch::Contains("std::set<std::int64_t> keys{};"));
  CHECK_THAT(hpp, Catch::Contains("struct Noop {"));
  CHECK_THAT(hpp, Catch::Contains("using Operations = omnilink::OperationList<Put, Noop>;"));
  CHECK_THAT(tla::generate_hpp(spec, {"my_ns"}), Catch::Contains("namespace my_ns {"));

  const auto bad = parse_spec("K.tla", "---- MODULE K ----\nVARIABLE x\n\\* @type: (Int) => Bool;\nP(a, b) == x' = a\nNext == P(1, 2)\n====");
  CHECK_THROWS_WITH(tla::generate_hpp(bad), Catch::StartsWith("K.tla:3:1: the @type annotation of P lists 1 parameter types, the action has 2"));
}

TEST_CASE("omnilink gen-hpp on the command line", "[spec][gen-hpp][cli]") {
  testing::ScratchDir dir;
  const auto out = dir.path() / "ops.hpp";
  auto r = run_process(OMNILINK_CLI, {"gen-hpp", std::string(OMNILINK_TEST_SPECS) + "/Queue.tla", "-o", out.string()});
  REQUIRE(r.exit_code == 0);
  REQUIRE(std::filesystem::exists(out));
  std::ofstream(dir.path() / "Bad.tla") << "---- MODULE Bad ----\nVARIABLE x\nNext == x' = 1\n====\n";
  auto bad = run_process(OMNILINK_CLI, {"gen-hpp", (dir.path() / "Bad.tla").string()});
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.err, Catch::Contains("Bad.tla:3:9: in Next: 'x' is not an operator defined in module Bad"));
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
