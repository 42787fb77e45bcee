// The trace reader every component uses (docs/trace-format.md). Streams one thread's file record
// by record; validates the header and version, the record schema, index continuity and timeboxes.
// On a truncated or corrupt file it stops at the first bad record, reports the file and the byte
// offset where that record starts, and every complete record before it has been returned.
#pragma once

#include <cstdint>
#include <filesystem>
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
  // "FILE: byte OFFSET: MESSAGE"
  std::string describe() const;
};

struct ThreadHeader {
  std::uint32_t version = 0;
  std::uint32_t thread = 0;
  std::string clock;
};

enum class RecordKind { op, abort };

// An operation record, or an abort record for an operation in flight when the run died.
struct Operation {
  RecordKind kind = RecordKind::op;
  std::uint32_t thread = 0;
  std::uint64_t index = 0;  // per-thread, contiguous from 0
  std::string name;
  std::vector<std::pair<std::string, Value>> fields;  // in logged order; empty for abort
  std::uint64_t start = 0;
  std::uint64_t end = 0;     // abort: 0 (the operation never finished)
  bool failed = false;       // failed without effect
  std::optional<std::uint64_t> hook_start;  // the replay hook's start, when the op refined its start
  int signal = 0;            // abort: the signal that ended the run
  std::uint64_t offset = 0;  // byte offset of the record in its file

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

  // The next operation or abort record; nullopt at the end of the file or at the first error
  // (then error() says what and where).
  std::optional<Operation> next();

  const std::filesystem::path& file() const { return file_; }
  const std::optional<ThreadHeader>& header() const { return header_; }
  const std::optional<ThreadEnd>& end() const { return end_; }
  const std::optional<TraceError>& error() const { return error_; }
  // True if an abort record was read: the run died while this thread had an operation in flight.
  bool aborted() const { return aborted_; }

 private:
  struct Unpacker;
  std::optional<Operation> fail(std::uint64_t offset, std::string message);

  std::filesystem::path file_;
  std::ifstream in_;
  std::unique_ptr<Unpacker> unpacker_;
  std::uint64_t fed_ = 0;            // bytes given to the unpacker
  std::uint64_t record_start_ = 0;   // offset of the next record
  std::uint64_t next_index_ = 0;
  bool done_ = false;
  bool aborted_ = false;
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
  bool aborted = false;
};

ThreadTrace read_thread_trace(const std::filesystem::path& file);

}  // namespace omnilink::trace
