#include "trace/reader.hpp"

#include <algorithm>
#include <limits>

#include <msgpack.hpp>

#include "omnilink/trace_schema.hpp"

namespace omnilink::trace {
namespace schema = omnilink::schema;
namespace {

constexpr std::size_t kChunk = 64 * 1024;
constexpr int kMaxDepth = 64;

// Limits against corrupt length prefixes: without them a flipped byte can ask for gigabytes.
msgpack::unpack_limit limits() {
  return msgpack::unpack_limit(/*array=*/1u << 24, /*map=*/1u << 24, /*str=*/1u << 26, /*bin=*/1u << 26,
                               /*ext=*/1u << 26, /*depth=*/kMaxDepth);
}

// Strings are UTF-8 in the trace format: checked here, so nothing downstream (JSON for TLC,
// result files) meets invalid bytes.
bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    if (extra < 0 || (extra == 1 && c < 0xC2) || i + static_cast<std::size_t>(extra) >= s.size()) return false;
    for (int k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    i += static_cast<std::size_t>(extra) + 1;
  }
  return true;
}

std::string checked_string(const msgpack::object& o, const char* what) {
  std::string s(o.via.str.ptr, o.via.str.size);
  if (!valid_utf8(s)) throw std::runtime_error(std::string(what) + " is not valid UTF-8");
  return s;
}

// Converts a msgpack object to a Value; throws std::runtime_error naming what is wrong.
Value to_value(const msgpack::object& o, int depth = 0) {
  if (depth > kMaxDepth) throw std::runtime_error("value nested deeper than 64 levels");
  switch (o.type) {
    case msgpack::type::BOOLEAN: return o.via.boolean;
    case msgpack::type::POSITIVE_INTEGER:
      if (o.via.u64 > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        throw std::runtime_error("integer " + std::to_string(o.via.u64) + " exceeds the 64-bit signed range");
      return static_cast<std::int64_t>(o.via.u64);
    case msgpack::type::NEGATIVE_INTEGER: return o.via.i64;
    case msgpack::type::STR: return checked_string(o, "a string value");
    case msgpack::type::ARRAY: {
      Tuple t;
      t.items.reserve(o.via.array.size);
      for (std::uint32_t i = 0; i < o.via.array.size; ++i) t.items.push_back(to_value(o.via.array.ptr[i], depth + 1));
      return t;
    }
    case msgpack::type::MAP: {
      std::vector<MapEntry> entries;
      entries.reserve(o.via.map.size);
      for (std::uint32_t i = 0; i < o.via.map.size; ++i)
        entries.push_back({to_value(o.via.map.ptr[i].key, depth + 1), to_value(o.via.map.ptr[i].val, depth + 1)});
      return make_map(std::move(entries));
    }
    case msgpack::type::EXT: {
      if (o.via.ext.type() != schema::kSetExtType)
        throw std::runtime_error("unknown extension type " + std::to_string(o.via.ext.type()));
      msgpack::object_handle inner = msgpack::unpack(o.via.ext.data(), o.via.ext.size, nullptr, nullptr, limits());
      if (inner.get().type != msgpack::type::ARRAY) throw std::runtime_error("set payload is not an array");
      Value items = to_value(inner.get(), depth + 1);
      return make_set(std::move(std::get<Tuple>(items.data).items));
    }
    case msgpack::type::NIL: throw std::runtime_error("nil is not a trace value");
    case msgpack::type::FLOAT32:
    case msgpack::type::FLOAT64: throw std::runtime_error("floating-point numbers are not trace values");
    case msgpack::type::BIN: throw std::runtime_error("binary blobs are not trace values");
  }
  throw std::runtime_error("unknown msgpack type");
}

// Field access on a record (a msgpack map with string keys).
class RecordView {
 public:
  explicit RecordView(const msgpack::object& o) : o_(o) {
    if (o.type != msgpack::type::MAP) throw std::runtime_error("record is not a map");
  }
  const msgpack::object* find(std::string_view key) const {
    for (std::uint32_t i = 0; i < o_.via.map.size; ++i) {
      const auto& k = o_.via.map.ptr[i].key;
      if (k.type == msgpack::type::STR && std::string_view(k.via.str.ptr, k.via.str.size) == key) return &o_.via.map.ptr[i].val;
    }
    return nullptr;
  }
  const msgpack::object& get(std::string_view key) const {
    if (const auto* v = find(key)) return *v;
    throw std::runtime_error("record has no '" + std::string(key) + "' field");
  }
  std::string str(std::string_view key) const {
    const auto& v = get(key);
    if (v.type != msgpack::type::STR) throw std::runtime_error("field '" + std::string(key) + "' is not a string");
    return checked_string(v, ("field '" + std::string(key) + "'").c_str());
  }
  std::uint64_t uint(std::string_view key) const {
    const auto& v = get(key);
    if (v.type != msgpack::type::POSITIVE_INTEGER)
      throw std::runtime_error("field '" + std::string(key) + "' is not a non-negative integer");
    return v.via.u64;
  }
  // A 32-bit field: a larger value is an error, never truncated.
  std::uint32_t uint32(std::string_view key) const {
    const std::uint64_t v = uint(key);
    if (v > std::numeric_limits<std::uint32_t>::max())
      throw std::runtime_error("field '" + std::string(key) + "' is " + std::to_string(v) + ", above the 32-bit range");
    return static_cast<std::uint32_t>(v);
  }

 private:
  const msgpack::object& o_;
};

// The header's input declarations: a map from operation name to an array of field names.
InputDeclarations read_inputs(const msgpack::object& o) {
  if (o.type != msgpack::type::MAP) throw std::runtime_error("field '" + std::string(schema::kInputs) + "' is not a map");
  InputDeclarations inputs;
  for (std::uint32_t i = 0; i < o.via.map.size; ++i) {
    const auto& k = o.via.map.ptr[i].key;
    const auto& v = o.via.map.ptr[i].val;
    if (k.type != msgpack::type::STR || v.type != msgpack::type::ARRAY)
      throw std::runtime_error("input declarations must map operation names to arrays of field names");
    std::vector<std::string> names;
    for (std::uint32_t j = 0; j < v.via.array.size; ++j) {
      if (v.via.array.ptr[j].type != msgpack::type::STR) throw std::runtime_error("an input field name is not a string");
      std::string name = checked_string(v.via.array.ptr[j], "an input field name");
      if (std::find(names.begin(), names.end(), name) != names.end()) throw std::runtime_error("input '" + name + "' is declared twice");
      names.push_back(std::move(name));
    }
    if (!inputs.emplace(checked_string(k, "an operation name"), std::move(names)).second)
      throw std::runtime_error("an operation's inputs are declared twice");
  }
  return inputs;
}

// An op's field map ('f') into op.fields; the problem, if any.
std::optional<std::string> read_fields(const msgpack::object& fields, Operation& op) {
  if (fields.type != msgpack::type::MAP) return "fields ('f') are not a map";
  for (std::uint32_t i = 0; i < fields.via.map.size; ++i) {
    const auto& k = fields.via.map.ptr[i].key;
    if (k.type != msgpack::type::STR) return "a field name is not a string";
    std::string name;
    try {
      name = checked_string(k, "a field name");
      op.fields.emplace_back(name, to_value(fields.via.map.ptr[i].val));
    } catch (const std::exception& e) {
      return "field '" + name + "': " + e.what();
    }
  }
  return std::nullopt;
}

}  // namespace

std::string TraceError::describe() const {
  return file.string() + ": byte " + std::to_string(offset) + ": " + message;
}

const Value* Operation::field(const std::string& wanted) const {
  for (const auto& [field_name, value] : fields)
    if (field_name == wanted) return &value;
  return nullptr;
}

std::string operation_id(std::uint32_t thread, std::uint64_t index) {
  return "T" + std::to_string(thread) + "." + std::to_string(index);
}

std::string Operation::id() const { return operation_id(thread, index); }

std::string Operation::call() const {
  std::string args;
  for (const auto& [field_name, value] : fields) args += (args.empty() ? "" : ", ") + field_name + " = " + to_tla(value);
  return name + "(" + args + ")";
}

struct ThreadTraceReader::Unpacker {
  // Never reference the input buffer: decoded values are copied out before it is reused.
  static bool copy_always(msgpack::type::object_type, std::size_t, void*) { return false; }
  msgpack::unpacker unpacker{&copy_always, nullptr, 2 * kChunk, limits()};
};

ThreadTraceReader::ThreadTraceReader(std::filesystem::path file)
    : file_(std::move(file)), in_(file_, std::ios::binary), unpacker_(std::make_unique<Unpacker>()) {
  if (!in_) {
    error_ = TraceError{file_, 0, "cannot open file"};
    done_ = true;
  }
}

ThreadTraceReader::~ThreadTraceReader() = default;

std::optional<Operation> ThreadTraceReader::fail(std::uint64_t offset, std::string message, bool cut_short) {
  error_ = TraceError{file_, offset, std::move(message), cut_short};
  done_ = true;
  return std::nullopt;
}

std::optional<Operation> ThreadTraceReader::next() {
  msgpack::unpacker& unp = unpacker_->unpacker;
  while (!done_) {
    msgpack::object_handle handle;
    bool got = false;
    try {
      got = unp.next(handle);
    } catch (const std::exception& e) {
      return fail(record_start_, std::string("corrupt record: ") + e.what());
    }
    if (!got) {
      unp.reserve_buffer(kChunk);
      in_.read(unp.buffer(), static_cast<std::streamsize>(kChunk));
      const auto n = static_cast<std::size_t>(in_.gcount());
      if (n > 0) {
        unp.buffer_consumed(n);
        fed_ += n;
        continue;
      }
      // A file cut before its header was whole is cut short too: it was created, then the run was killed.
      if (!header_) return fail(0, fed_ > 0 ? "truncated header record" : "empty file: no header record", /*cut_short=*/true);
      if (fed_ > record_start_)
        return fail(record_start_, "truncated record: the file ends " + std::to_string(fed_ - record_start_) +
                                       " bytes into it (cut short while it was written?)", /*cut_short=*/!end_);
      if (!end_) return fail(fed_, "no end record: the harness stopped without closing this thread (killed?)", /*cut_short=*/true);
      done_ = true;
      return std::nullopt;
    }
    const std::uint64_t offset = record_start_;
    record_start_ = fed_ - unp.nonparsed_size();
    if (end_) return fail(offset, "record after the thread's end record");
    try {
      RecordView rec(handle.get());
      const std::string kind = rec.str(schema::kKind);
      if (!header_) {
        if (kind != schema::kKindHeader) return fail(offset, "first record is '" + kind + "', expected a header");
        if (rec.str(schema::kFormat) != schema::kTraceFormat) return fail(offset, "not an omnilink trace (format field)");
        ThreadHeader h;
        h.version = rec.uint32(schema::kVersion);
        if (h.version < schema::kOldestTraceVersion || h.version > schema::kTraceVersion)
          return fail(offset, "trace format version " + std::to_string(h.version) + ", this omnilink reads versions " +
                                  std::to_string(schema::kOldestTraceVersion) + " to " + std::to_string(schema::kTraceVersion));
        h.thread = rec.uint32(schema::kThread);
        h.clock = rec.str(schema::kClock);
        if (h.version >= 2) h.inputs = read_inputs(rec.get(schema::kInputs));
        header_ = std::move(h);
        continue;
      }
      if (kind == schema::kKindEnd) {
        ThreadEnd e{next_index_, rec.str(schema::kReason), 0};
        if (e.reason == schema::kReasonSignal) {
          e.signal = static_cast<int>(rec.uint32(schema::kSignal));
        } else {  // the crash handler cannot count; others must match
          e.count = rec.uint(schema::kCount);
          if (e.count != next_index_)
            return fail(offset, "end record counts " + std::to_string(e.count) + " operations, the file has " +
                                    std::to_string(next_index_));
        }
        end_ = std::move(e);
        continue;
      }
      // Version 1 wrote "abort" where version 2 writes "pending".
      const std::string_view pending_kind = header_->version >= 2 ? schema::kKindPending : schema::kKindAbort;
      if (kind != schema::kKindOp && kind != pending_kind) return fail(offset, "unknown record kind '" + kind + "'");
      if (pending_) return fail(offset, "record after the thread's pending record");
      Operation op;
      op.kind = kind == schema::kKindOp ? RecordKind::op : RecordKind::pending;
      op.thread = header_->thread;
      op.offset = offset;
      op.index = rec.uint(schema::kIndex);
      if (op.index != next_index_)
        return fail(offset, "operation index " + std::to_string(op.index) + " where " + std::to_string(next_index_) +
                                " was expected");
      op.name = rec.str(schema::kOp);
      op.start = rec.uint(schema::kStart);
      if (op.start < last_end_)
        return fail(offset, "operation starts (" + std::to_string(op.start) + ") before the thread's previous operation ended (" +
                                std::to_string(last_end_) + ")");
      if (op.pending()) {
        if (rec.find(schema::kSignal)) op.signal = static_cast<int>(rec.uint32(schema::kSignal));
        if (const auto* fields = rec.find(schema::kFields)) {
          if (auto bad = read_fields(*fields, op)) return fail(offset, *bad);
          op.inputs_known = true;
        }
        pending_ = true;
        return op;
      }
      op.end = rec.uint(schema::kEnd);
      if (op.end < op.start)
        return fail(offset, "operation ends (" + std::to_string(op.end) + ") before it starts (" + std::to_string(op.start) + ")");
      if (auto bad = read_fields(rec.get(schema::kFields), op)) return fail(offset, *bad);
      if (const auto* f = rec.find(schema::kFailed)) op.failed = f->type == msgpack::type::BOOLEAN && f->via.boolean;
      if (rec.find(schema::kHookStart)) op.hook_start = rec.uint(schema::kHookStart);
      ++next_index_;
      last_end_ = op.end;
      return op;
    } catch (const std::exception& e) {
      return fail(offset, e.what());
    }
  }
  return std::nullopt;
}

ThreadTrace read_thread_trace(const std::filesystem::path& file) {
  ThreadTraceReader reader(file);
  ThreadTrace t;
  t.file = file;
  while (auto op = reader.next()) t.ops.push_back(std::move(*op));
  t.header = reader.header();
  t.end = reader.end();
  t.error = reader.error();
  t.has_pending = reader.has_pending();
  return t;
}

}  // namespace omnilink::trace
