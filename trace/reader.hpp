// The trace reader every component uses (docs/trace-format.md). Streams one thread's file record
// by record; validates the header and version (1 or 2), the record schema, index continuity,
// timeboxes and the thread's timestamp order. On a truncated or corrupt file it stops at the first
// bad record, reports the file and the byte offset where that record starts, and every complete
// record before it has been returned. A file that merely stops early (no end record, or a last
// record cut off by the end of the file: SIGKILL, power loss) is reported as cut short, which a
// consistent cut can still validate; anything else wrong is corruption.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "trace/value.hpp"

namespace omnilink::trace {

struct TraceError {
  std::filesystem::path file;
  std::uint64_t offset = 0;  // byte offset of the first record that could not be read
  std::string message;
  bool cut_short = false;    // the file just stops (no end record, or a torn last record)
  // "FILE: byte OFFSET: MESSAGE"
  std::string describe() const;
};

// Operation name -> its declared input fields (trace version 2).
using InputDeclarations = std::map<std::string, std::vector<std::string>>;

struct ThreadHeader {
  std::uint32_t version = 0;
  std::uint32_t thread = 0;
  std::string clock;
  InputDeclarations inputs;  // operations that declared their inputs (none in version 1)
};

// op: a completed call with all its fields. pending: a call whose outcome is unknown (in flight
// when the run died: a version 2 "pending" or version 1 "abort" record).
enum class RecordKind { op, pending };

struct Operation {
  RecordKind kind = RecordKind::op;
  std::uint32_t thread = 0;
  std::uint64_t index = 0;  // per-thread, contiguous from 0
  std::string name;
  // op: every field, in logged order. pending: its inputs, when inputs_known; else empty.
  std::vector<std::pair<std::string, Value>> fields;
  bool inputs_known = false;  // pending: `fields` are all of the operation's inputs
  std::uint64_t start = 0;
  std::uint64_t end = 0;     // pending: 0 (the operation never finished)
  bool failed = false;       // failed without effect
  // History files only (outcome "optional"): completed within its timebox if it took effect at
  // all, and it may not have: a failing core's context (explain/), which its failure does not need.
  bool optional = false;
  // Optional operations of one thread, next to each other, with one nonzero group are taken all
  // or none (a transaction of the context: it happened whole or not at all). 0: on its own.
  std::uint64_t optional_group = 0;
  std::optional<std::uint64_t> hook_start;  // the replay hook's start, when the op refined its start
  int signal = 0;            // pending: the signal that ended the run (0 when unknown)
  std::uint64_t offset = 0;  // byte offset of the record in its file

  bool pending() const { return kind == RecordKind::pending; }

  // The timestamp the replay hook was called with (see replay_hook.hpp).
  std::uint64_t replay_start() const { return hook_start.value_or(start); }
  const Value* field(const std::string& name) const;
  // "Name(field = value, ...)", values in TLA+ notation.
  std::string call() const;
  // "T<thread>.<index>": how reports, replay files and `omnilink replay` name an operation.
  std::string id() const;
};

std::string operation_id(std::uint32_t thread, std::uint64_t index);

struct ThreadEnd {
  std::uint64_t count = 0;
  std::string reason;  // done | unsupported-limit | write-error | signal
  int signal = 0;      // reason "signal": which one
};

class ThreadTraceReader {
 public:
  explicit ThreadTraceReader(std::filesystem::path file);
  ~ThreadTraceReader();
  ThreadTraceReader(const ThreadTraceReader&) = delete;
  ThreadTraceReader& operator=(const ThreadTraceReader&) = delete;

  // The next operation or pending record; nullopt at the end of the file or at the first error
  // (then error() says what and where).
  std::optional<Operation> next();

  const std::filesystem::path& file() const { return file_; }
  const std::optional<ThreadHeader>& header() const { return header_; }
  // The end of the thread's last completed operation (failed-without-effect ones included); 0
  // before the first. Where a thread cut short was when it last reached the disk.
  std::uint64_t last_end() const { return last_end_; }
  const std::optional<ThreadEnd>& end() const { return end_; }
  const std::optional<TraceError>& error() const { return error_; }
  // True if a pending record was read: the run died while this thread had an operation in flight.
  bool has_pending() const { return pending_; }

 private:
  struct Unpacker;
  std::optional<Operation> fail(std::uint64_t offset, std::string message, bool cut_short = false);

  std::filesystem::path file_;
  std::ifstream in_;
  std::unique_ptr<Unpacker> unpacker_;
  std::uint64_t fed_ = 0;            // bytes given to the unpacker
  std::uint64_t record_start_ = 0;   // offset of the next record
  std::uint64_t next_index_ = 0;
  std::uint64_t last_end_ = 0;       // end of the thread's previous operation
  bool done_ = false;
  bool pending_ = false;
  std::optional<ThreadHeader> header_;
  std::optional<ThreadEnd> end_;
  std::optional<TraceError> error_;
};

// One thread's file read whole.
struct ThreadTrace {
  std::filesystem::path file;
  std::optional<ThreadHeader> header;
  std::vector<Operation> ops;
  std::optional<ThreadEnd> end;
  std::optional<TraceError> error;
  bool has_pending = false;
};

ThreadTrace read_thread_trace(const std::filesystem::path& file);

}  // namespace omnilink::trace
