// Every value kind of the trace grammar survives harness encoding and reader decoding.
#include <catch2/catch.hpp>

#include <array>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "support/test_support.hpp"

namespace {

using namespace omnilink;
using trace::Value;

struct AllKinds {
  static constexpr std::string_view omnilink_name = "AllKinds";
  bool flag = true;
  std::int64_t negative = -42;
  std::uint32_t small = 7;
  std::int64_t big = INT64_MAX;
  std::int64_t smallest = INT64_MIN;
  std::string text = "a \"quoted\" string\n";
  std::string empty;
  std::vector<std::int64_t> tuple{3, 1, 2};
  std::array<bool, 2> pair_of_bools{true, false};
  std::set<std::int64_t> set{5, 1, 3};
  std::unordered_set<std::string> uset{"x", "y"};
  std::map<std::string, std::int64_t> map{{"b", 2}, {"a", 1}};
  std::unordered_map<std::int64_t, std::vector<std::string>> nested{{1, {"one"}}, {2, {}}};
  std::vector<std::set<std::int64_t>> tuple_of_sets{{}, {1}};
  std::pair<std::string, bool> pair{"p", false};

  template <class V>
  void omnilink_fields(V&& f) const {
    f("flag", flag), f("negative", negative), f("small", small), f("big", big), f("smallest", smallest);
    f("text", text), f("empty", empty), f("tuple", tuple), f("pair_of_bools", pair_of_bools), f("set", set);
    f("uset", uset), f("map", map), f("nested", nested), f("tuple_of_sets", tuple_of_sets), f("pair", pair);
  }
};

Value tuple(std::vector<Value> v) { return trace::Tuple{std::move(v)}; }
Value set(std::vector<Value> v) { return trace::make_set(std::move(v)); }
Value map(std::vector<trace::MapEntry> e) { return trace::make_map(std::move(e)); }
Value i(std::int64_t v) { return v; }
Value s(const char* v) { return std::string(v); }

}  // namespace

TEST_CASE("every value kind round-trips through a trace file", "[value]") {
  testing::ScratchDir dir;
  Harness<int> h(testing::quiet_options(dir.path(), 1, 3));
  h.op<AllKinds>([](int&, Context&, AllKinds&) {});
  int sut = 0;
  REQUIRE(h.run(sut) == 0);

  auto threads = testing::read_run(dir.path());
  REQUIRE(threads.size() == 1);
  REQUIRE_FALSE(threads[0].error.has_value());
  REQUIRE(threads[0].ops.size() == 3);
  const trace::Operation& op = threads[0].ops[0];
  CHECK(op.name == "AllKinds");
  REQUIRE(op.fields.size() == 15);
  CHECK(op.fields[0].first == "flag");  // logged order is kept

  CHECK(*op.field("flag") == Value(true));
  CHECK(*op.field("negative") == i(-42));
  CHECK(*op.field("small") == i(7));
  CHECK(*op.field("big") == i(INT64_MAX));
  CHECK(*op.field("smallest") == i(INT64_MIN));
  CHECK(*op.field("text") == s("a \"quoted\" string\n"));
  CHECK(*op.field("empty") == s(""));
  CHECK(*op.field("tuple") == tuple({i(3), i(1), i(2)}));
  CHECK(*op.field("pair_of_bools") == tuple({Value(true), Value(false)}));
  CHECK(*op.field("set") == set({i(1), i(3), i(5)}));
  CHECK(*op.field("uset") == set({s("y"), s("x")}));
  CHECK(*op.field("map") == map({{s("a"), i(1)}, {s("b"), i(2)}}));
  CHECK(*op.field("nested") == map({{i(2), tuple({})}, {i(1), tuple({s("one")})}}));
  CHECK(*op.field("tuple_of_sets") == tuple({set({}), set({i(1)})}));
  CHECK(*op.field("pair") == tuple({s("p"), Value(false)}));
  CHECK(op.field("missing") == nullptr);
}

TEST_CASE("values order and print canonically", "[value]") {
  CHECK(set({i(3), i(1), i(3)}) == set({i(1), i(3)}));
  CHECK_FALSE(set({i(1)}) == tuple({i(1)}));  // a set is not a tuple
  CHECK(Value(true) < i(0));                  // kinds order: bool < int < string < ...
  CHECK(i(5) < s(""));
  CHECK(trace::to_tla(tuple({i(1), s("a"), Value(false)})) == "<<1, \"a\", FALSE>>");
  CHECK(trace::to_tla(set({i(2), i(1)})) == "{1, 2}");
  CHECK(trace::to_tla(map({{s("k"), i(1)}, {s("j"), set({})}})) == "(\"j\" :> {} @@ \"k\" :> 1)");
  CHECK(trace::to_tla(map({})) == "<<>>");
  // Strings as TLA+ literals, the same as the embedded checker prints them (trace::tla_quote).
  CHECK(trace::to_tla(s("a\tb\"c\\\n")) == "\"a\\tb\\\"c\\\\\\n\"");
  // A logged string may hold anything: what could drive the terminal showing a report (ESC, BEL,
  // DEL) and bytes that are not UTF-8 are written \xNN; well-formed UTF-8 stays as it is.
  CHECK(trace::to_tla(s("\x1b[2J\x07\x7f")) == "\"\\x1b[2J\\x07\\x7f\"");
  CHECK(trace::to_tla(s("caf\xc3\xa9 \xe9 \xc3")) == "\"caf\xc3\xa9 \\xe9 \\xc3\"");
  CHECK(trace::to_tla(s("\\x1b")) == "\"\\\\x1b\"");  // a written backslash stays apart from an escape
  // A duplicated map key keeps the last value.
  CHECK(map({{i(1), i(10)}, {i(1), i(20)}}) == map({{i(1), i(20)}}));
}
