// The reader on damaged input: truncation at every byte, corrupt bytes, wrong versions, schema
// violations. Each yields an error naming the file and the byte offset of the first bad record,
// after every complete record before it.
#include <catch2/catch.hpp>

#include <fstream>

#include <msgpack.hpp>

#include "support/test_support.hpp"

namespace {

using namespace omnilink;

struct Put {
  static constexpr std::string_view omnilink_name = "Put";
  std::int64_t key = 0;
  std::string value;
  template <class V>
  void omnilink_fields(V&& f) const {
    f("key", key);
    f("value", value);
  }
};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void write_file(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

// Byte offsets where each record starts, found by decoding the intact file.
std::vector<std::size_t> record_offsets(const std::string& bytes) {
  std::vector<std::size_t> offsets;
  std::size_t off = 0;
  while (off < bytes.size()) {
    offsets.push_back(off);
    msgpack::unpack(bytes.data(), bytes.size(), off);
  }
  return offsets;
}

// A one-thread run of `ops` operations; returns the thread file.
std::filesystem::path make_run(const testing::ScratchDir& dir, std::uint64_t ops) {
  Harness<int> h(testing::quiet_options(dir.path(), 1, ops));
  h.op<Put>([](int&, Context& ctx, Put& op) {
    op.key = static_cast<std::int64_t>(ctx.index());
    op.value = std::string(static_cast<std::size_t>(ctx.index() % 7), 'v');
  });
  int sut = 0;
  REQUIRE(h.run(sut) == 0);
  return dir.path() / "trace" / "thread-0000.msgpack";
}

}  // namespace

TEST_CASE("a trace truncated at any byte keeps every complete record and names the offset", "[reader]") {
  testing::ScratchDir dir;
  const auto file = make_run(dir, 30);
  const std::string bytes = read_file(file);
  const auto offsets = record_offsets(bytes);
  REQUIRE(offsets.size() == 32);  // header, 30 ops, end
  const auto cut_file = dir.path() / "cut.msgpack";
  for (std::size_t cut = 1; cut < bytes.size(); ++cut) {
    write_file(cut_file, bytes.substr(0, cut));
    trace::ThreadTrace t = trace::read_thread_trace(cut_file);
    REQUIRE(t.error.has_value());
    // The record the cut falls into (or the missing end record when the cut is on a boundary).
    std::size_t complete = 0;
    while (complete + 1 < offsets.size() && offsets[complete + 1] <= cut) ++complete;
    const bool on_boundary = std::find(offsets.begin(), offsets.end(), cut) != offsets.end();
    INFO("cut at " << cut << ": " << t.error->describe());
    REQUIRE(t.error->file == cut_file);
    if (on_boundary) {
      REQUIRE(t.error->offset == cut);
      REQUIRE(t.error->message.find("no end record") != std::string::npos);
    } else {
      REQUIRE(t.error->offset == offsets[complete]);
      REQUIRE(t.error->message.find("truncated") != std::string::npos);
    }
    // Records fully before the cut are all returned (the header is not an operation).
    const std::size_t complete_ops = complete == 0 ? 0 : std::min<std::size_t>(complete - 1, 30);
    REQUIRE(t.ops.size() == complete_ops);
    for (std::size_t k = 0; k < t.ops.size(); ++k) REQUIRE(t.ops[k].field("key")->as<std::int64_t>() == static_cast<std::int64_t>(k));
  }
  // The intact file reads cleanly.
  trace::ThreadTrace whole = trace::read_thread_trace(file);
  CHECK_FALSE(whole.error.has_value());
  CHECK(whole.ops.size() == 30);
}

TEST_CASE("a corrupt byte stops the reader at that record", "[reader]") {
  testing::ScratchDir dir;
  const auto file = make_run(dir, 10);
  std::string bytes = read_file(file);
  const auto offsets = record_offsets(bytes);
  SECTION("a byte that is never valid msgpack") {
    bytes[offsets[5]] = static_cast<char>(0xc1);
    write_file(file, bytes);
    auto t = trace::read_thread_trace(file);
    REQUIRE(t.error.has_value());
    CHECK(t.error->offset == offsets[5]);
    CHECK(t.error->message.find("corrupt") != std::string::npos);
    CHECK(t.ops.size() == 4);  // ops 0..3 (record 0 is the header)
  }
  SECTION("a huge length prefix is refused, not allocated") {
    // array32 with 2^32-1 elements in place of record 3
    const std::string bomb = "\xdd\xff\xff\xff\xff";
    bytes.replace(offsets[3], bomb.size(), bomb);
    write_file(file, bytes);
    auto t = trace::read_thread_trace(file);
    REQUIRE(t.error.has_value());
    CHECK(t.error->offset == offsets[3]);
    CHECK(t.ops.size() == 2);
  }
}

TEST_CASE("schema violations are errors with offsets", "[reader]") {
  testing::ScratchDir dir;
  const auto file = dir.path() / "t.msgpack";
  auto pack_records = [&](auto&& fill) {
    msgpack::sbuffer buf;
    msgpack::packer<msgpack::sbuffer> pk(buf);
    fill(pk);
    write_file(file, std::string(buf.data(), buf.size()));
  };
  auto header = [](auto& pk, std::uint32_t version) {
    pk.pack_map(5);
    pk.pack("k"), pk.pack("header"), pk.pack("format"), pk.pack("omnilink-trace");
    pk.pack("version"), pk.pack(version), pk.pack("thread"), pk.pack(0), pk.pack("clock"), pk.pack("counter");
  };
  auto op = [](auto& pk, std::uint64_t index, std::uint64_t start, std::uint64_t end) {
    pk.pack_map(6);
    pk.pack("k"), pk.pack("op"), pk.pack("i"), pk.pack(index), pk.pack("op"), pk.pack("X");
    pk.pack("f"), pk.pack_map(0), pk.pack("s"), pk.pack(start), pk.pack("e"), pk.pack(end);
  };

  SECTION("unsupported version") {
    pack_records([&](auto& pk) { header(pk, 99); });
    auto t = trace::read_thread_trace(file);
    REQUIRE(t.error.has_value());
    CHECK(t.error->offset == 0);
    CHECK(t.error->message.find("version 99") != std::string::npos);
  }
  SECTION("an index gap") {
    pack_records([&](auto& pk) { header(pk, 1), op(pk, 0, 1, 2), op(pk, 2, 3, 4); });
    auto t = trace::read_thread_trace(file);
    REQUIRE(t.error.has_value());
    CHECK(t.error->message.find("index 2 where 1 was expected") != std::string::npos);
    CHECK(t.ops.size() == 1);
  }
  SECTION("an operation that ends before it starts") {
    pack_records([&](auto& pk) { header(pk, 1), op(pk, 0, 5, 4); });
    auto t = trace::read_thread_trace(file);
    REQUIRE(t.error.has_value());
    CHECK(t.error->message.find("ends (4) before it starts (5)") != std::string::npos);
  }
  SECTION("a float value") {
    pack_records([&](auto& pk) {
      header(pk, 1);
      pk.pack_map(6);
      pk.pack("k"), pk.pack("op"), pk.pack("i"), pk.pack(0), pk.pack("op"), pk.pack("X");
      pk.pack("f"), pk.pack_map(1), pk.pack("x"), pk.pack(1.5), pk.pack("s"), pk.pack(1), pk.pack("e"), pk.pack(2);
    });
    auto t = trace::read_thread_trace(file);
    REQUIRE(t.error.has_value());
    CHECK(t.error->message.find("field 'x'") != std::string::npos);
    CHECK(t.error->message.find("floating-point") != std::string::npos);
  }
  SECTION("no header") {
    pack_records([&](auto& pk) { op(pk, 0, 1, 2); });
    auto t = trace::read_thread_trace(file);
    REQUIRE(t.error.has_value());
    CHECK(t.error->message.find("expected a header") != std::string::npos);
  }
  SECTION("a string that is not UTF-8") {
    pack_records([&](auto& pk) {
      header(pk, 1);
      pk.pack_map(6);
      pk.pack("k"), pk.pack("op"), pk.pack("i"), pk.pack(0), pk.pack("op"), pk.pack("X");
      pk.pack("f"), pk.pack_map(1), pk.pack("s"), pk.pack(std::string("a\xc1" "b")), pk.pack("s"), pk.pack(1), pk.pack("e"), pk.pack(2);
    });
    auto t = trace::read_thread_trace(file);
    REQUIRE(t.error.has_value());
    CHECK(t.error->message.find("field 's': a string value is not valid UTF-8") != std::string::npos);
  }
  SECTION("a missing file") {
    auto t = trace::read_thread_trace(dir.path() / "nope.msgpack");
    REQUIRE(t.error.has_value());
    CHECK(t.error->describe().find("nope.msgpack: byte 0: cannot open") != std::string::npos);
  }
}

TEST_CASE("records larger than the log buffer are written whole", "[reader][driver]") {
  testing::ScratchDir dir;
  Harness<int> h(testing::quiet_options(dir.path(), 1, 6));
  h.op<Put>([](int&, Context& ctx, Put& op) {
    op.key = static_cast<std::int64_t>(ctx.index());
    op.value = std::string(ctx.index() % 2 == 0 ? 300'000 : 10, 'x');  // > ThreadLog::kCapacity
  });
  int sut = 0;
  REQUIRE(h.run(sut) == 0);
  auto t = testing::read_run(dir.path()).at(0);
  REQUIRE_FALSE(t.error.has_value());
  REQUIRE(t.ops.size() == 6);
  for (const auto& op : t.ops) CHECK(op.field("value")->as<std::string>().size() == (op.index % 2 == 0 ? 300'000u : 10u));
}
