// Writes run directories with chosen operations and timestamps (e.g. the paper's Figure 2), in
// the trace format, using the schema constants the harness uses.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <msgpack.hpp>
#include <omnilink/encode.hpp>
#include <omnilink/trace_schema.hpp>

namespace omnilink::testing {

class TraceBuilder {
 public:
  using Packer = msgpack::packer<msgpack::sbuffer>;
  using FieldWriter = std::function<void(Packer&)>;  // packs the field map

  explicit TraceBuilder(std::uint32_t threads) : threads_(threads) {}

  // op(thread, "Enqueue", start, end, fields): fields packs a map, e.g. with TraceBuilder::fields.
  TraceBuilder& op(std::uint32_t t, const std::string& name, std::uint64_t start, std::uint64_t end, FieldWriter fields,
                   bool failed = false) {
    records_.at(t).push_back([=](Packer& pk, std::uint64_t index) {
      pk.pack_map(failed ? 7 : 6);
      str(pk, schema::kKind), str(pk, schema::kKindOp), str(pk, schema::kIndex), pk.pack_uint64(index);
      str(pk, schema::kOp), str(pk, name), str(pk, schema::kFields), fields(pk);
      str(pk, schema::kStart), pk.pack_uint64(start), str(pk, schema::kEnd), pk.pack_uint64(end);
      if (failed) str(pk, schema::kFailed), pk.pack_true();
    });
    return *this;
  }
  TraceBuilder& abort(std::uint32_t t, const std::string& name, std::uint64_t start) {
    records_.at(t).push_back([=](Packer& pk, std::uint64_t index) {
      pk.pack_map(5);
      str(pk, schema::kKind), str(pk, schema::kKindAbort), str(pk, schema::kIndex), pk.pack_uint64(index);
      str(pk, schema::kOp), str(pk, name), str(pk, schema::kStart), pk.pack_uint64(start), str(pk, schema::kSignal), pk.pack(11);
    });
    aborted_.push_back(t);
    return *this;
  }

  // A field map from name/value pairs of one C++ type each: fields("elem", 3, "ok", true).
  template <class... Args>
  static FieldWriter fields(Args... args) {
    return [=](Packer& pk) {
      pk.pack_map(sizeof...(Args) / 2);
      pack_pairs(pk, args...);
    };
  }

  void write(const std::filesystem::path& dir) const {
    std::filesystem::create_directories(dir / "trace");
    for (std::uint32_t t = 0; t < threads_; ++t) {
      msgpack::sbuffer buf;
      Packer pk(buf);
      pk.pack_map(5);
      str(pk, schema::kKind), str(pk, schema::kKindHeader), str(pk, schema::kFormat), str(pk, schema::kTraceFormat);
      str(pk, schema::kVersion), pk.pack(schema::kTraceVersion), str(pk, schema::kThread), pk.pack(t);
      str(pk, schema::kClock), str(pk, "counter");
      std::uint64_t index = 0;
      for (const auto& rec : records_.at(t)) rec(pk, index++);
      const bool aborted = std::find(aborted_.begin(), aborted_.end(), t) != aborted_.end();
      pk.pack_map(3);
      str(pk, schema::kKind), str(pk, schema::kKindEnd), str(pk, schema::kReason);
      if (aborted) {
        str(pk, schema::kReasonSignal), str(pk, schema::kSignal), pk.pack(11);
      } else {
        str(pk, schema::kReasonDone), str(pk, schema::kCount), pk.pack_uint64(records_.at(t).size());
      }
      char name[32];
      std::snprintf(name, sizeof name, "thread-%04u.msgpack", t);
      std::ofstream(dir / "trace" / name, std::ios::binary) << std::string(buf.data(), buf.size());
    }
    std::ofstream(dir / "meta.json") << "{\"format\": \"omnilink-run\", \"version\": 1, \"seed\": 0, \"threads\": " << threads_
                                     << ", \"ops_per_thread\": 0, \"clock\": \"counter\", \"exit\": {\"status\": \"ok\", \"code\": 0}}\n";
  }

 private:
  static void str(Packer& pk, std::string_view s) { ValueCodec<std::string_view>::pack(pk, s); }
  static void pack_pairs(Packer&) {}
  template <class V, class... Rest>
  static void pack_pairs(Packer& pk, const char* name, V value, Rest... rest) {
    str(pk, name);
    pack_value(pk, value);
    pack_pairs(pk, rest...);
  }

  std::uint32_t threads_;
  std::map<std::uint32_t, std::vector<std::function<void(Packer&, std::uint64_t)>>> records_ = [this] {
    std::map<std::uint32_t, std::vector<std::function<void(Packer&, std::uint64_t)>>> m;
    for (std::uint32_t t = 0; t < threads_; ++t) m[t];
    return m;
  }();
  std::vector<std::uint32_t> aborted_;
};

}  // namespace omnilink::testing
