// Writes run directories with chosen operations and timestamps (e.g. the paper's Figure 2, Herlihy
// and Wing's Figure 1), in the trace format, using the schema constants the harness uses: completed
// and pending operations, declared inputs, thread files cut short, and version 1 files for the
// compatibility tests.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
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

  explicit TraceBuilder(std::uint32_t threads) : threads_(threads) {
    for (std::uint32_t t = 0; t < threads; ++t) records_[t];
  }

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
  // An operation in flight when the run died: with its inputs (a field map), or none known. In a
  // version 1 file it is an "abort" record, which never has inputs.
  TraceBuilder& pending(std::uint32_t t, const std::string& name, std::uint64_t start, std::optional<FieldWriter> inputs = std::nullopt) {
    records_.at(t).push_back([=, this](Packer& pk, std::uint64_t index) {
      const bool with_inputs = inputs && version_ >= 2;
      pk.pack_map(with_inputs ? 6 : 5);
      str(pk, schema::kKind), str(pk, version_ >= 2 ? schema::kKindPending : schema::kKindAbort);
      str(pk, schema::kIndex), pk.pack_uint64(index), str(pk, schema::kOp), str(pk, name);
      str(pk, schema::kStart), pk.pack_uint64(start), str(pk, schema::kSignal), pk.pack(11);
      if (with_inputs) str(pk, schema::kFields), (*inputs)(pk);
    });
    ended_by_signal_.insert(t);
    return *this;
  }
  // The header's declaration of an operation's input fields (version 2).
  TraceBuilder& inputs(const std::string& name, std::vector<std::string> fields) {
    inputs_[name] = std::move(fields);
    return *this;
  }
  // Thread t's file stops without an end record, as after SIGKILL.
  TraceBuilder& cut_short(std::uint32_t t) {
    cut_short_.insert(t);
    return *this;
  }
  // meta.json's exit status (default "ok"; a run with pending records says "crashed").
  TraceBuilder& status(std::string s) {
    status_ = std::move(s);
    return *this;
  }
  TraceBuilder& version(std::uint32_t v) {
    version_ = v;
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
      pk.pack_map(version_ >= 2 ? 6 : 5);
      str(pk, schema::kKind), str(pk, schema::kKindHeader), str(pk, schema::kFormat), str(pk, schema::kTraceFormat);
      str(pk, schema::kVersion), pk.pack(version_), str(pk, schema::kThread), pk.pack(t);
      str(pk, schema::kClock), str(pk, "counter");
      if (version_ >= 2) {
        str(pk, schema::kInputs), pk.pack_map(static_cast<std::uint32_t>(inputs_.size()));
        for (const auto& [name, names] : inputs_) {
          str(pk, name), pk.pack_array(static_cast<std::uint32_t>(names.size()));
          for (const auto& n : names) str(pk, n);
        }
      }
      std::uint64_t index = 0;
      for (const auto& rec : records_.at(t)) rec(pk, index++);
      if (!cut_short_.contains(t)) {
        pk.pack_map(3);
        str(pk, schema::kKind), str(pk, schema::kKindEnd), str(pk, schema::kReason);
        if (ended_by_signal_.contains(t)) {
          str(pk, schema::kReasonSignal), str(pk, schema::kSignal), pk.pack(11);
        } else {
          str(pk, schema::kReasonDone), str(pk, schema::kCount), pk.pack_uint64(records_.at(t).size());
        }
      }
      std::ofstream(dir / "trace" / thread_file(t), std::ios::binary) << std::string(buf.data(), buf.size());
    }
    std::string status = status_;
    if (status.empty()) status = !cut_short_.empty() ? "running" : !ended_by_signal_.empty() ? "crashed" : "ok";
    std::ofstream(dir / "meta.json") << "{\"format\": \"omnilink-run\", \"version\": 1, \"trace_version\": " << version_
                                     << ", \"seed\": 0, \"threads\": " << threads_
                                     << ", \"ops_per_thread\": 0, \"clock\": \"counter\", \"exit\": {\"status\": \"" << status << "\"}}\n";
  }

  static std::string thread_file(std::uint32_t t) {
    char name[32];
    std::snprintf(name, sizeof name, "thread-%04u.msgpack", t);
    return name;
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
  std::uint32_t version_ = schema::kTraceVersion;
  std::map<std::uint32_t, std::vector<std::function<void(Packer&, std::uint64_t)>>> records_;
  std::map<std::string, std::vector<std::string>> inputs_;
  std::set<std::uint32_t> ended_by_signal_, cut_short_;
  std::string status_;
};

}  // namespace omnilink::testing
