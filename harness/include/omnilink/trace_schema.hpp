// The trace format's single owner: every file name, record key, record kind and constant that the
// harness writes and the reader (trace/) accepts. docs/trace-format.md describes the same contract
// in prose; change both together and bump kTraceVersion on any incompatible change.
#pragma once

#include <cstdint>
#include <string_view>

namespace omnilink::schema {

inline constexpr std::string_view kTraceFormat = "omnilink-trace";
inline constexpr std::uint32_t kTraceVersion = 2;
// The oldest trace version readers still accept (version 1: "abort" records, no declared inputs).
inline constexpr std::uint32_t kOldestTraceVersion = 1;
inline constexpr std::string_view kRunFormat = "omnilink-run";
inline constexpr std::uint32_t kRunVersion = 1;

// A harness's exit codes (docs/harness.md), recorded in meta.json and read by campaigns. Usage is
// 3, as for every omnilink command: the arguments as given are wrong, which a campaign reports as
// its own configuration error, apart from a set-up failure (2) of the system under test.
enum HarnessExit : int { kExitOk = 0, kExitSetup = 2, kExitUsage = 3, kExitWriteError = 4, kExitStopped = 5 };

// Run directory layout (relative to the run directory).
inline constexpr std::string_view kTraceDir = "trace";
inline constexpr std::string_view kMetaFile = "meta.json";
inline constexpr std::string_view kThreadFilePrefix = "thread-";
inline constexpr std::string_view kThreadFileSuffix = ".msgpack";

// Record keys. Short on purpose: a 500k-operation trace repeats them in every record.
inline constexpr std::string_view kKind = "k";       // record kind, one of the kinds below
inline constexpr std::string_view kFormat = "format";  // header: kTraceFormat
inline constexpr std::string_view kVersion = "version";  // header: kTraceVersion
inline constexpr std::string_view kThread = "thread";  // header: thread index
inline constexpr std::string_view kClock = "clock";    // header: clock source name
inline constexpr std::string_view kInputs = "in";     // header (v2): operation name -> its input field names
inline constexpr std::string_view kIndex = "i";       // op/pending: per-thread operation index
inline constexpr std::string_view kOp = "op";         // op/pending: operation (TLA+ action) name
inline constexpr std::string_view kFields = "f";      // op: map field name -> value; pending: its inputs, when known
inline constexpr std::string_view kStart = "s";       // op/pending: timestamp before the call
inline constexpr std::string_view kEnd = "e";         // op: timestamp after the call
inline constexpr std::string_view kFailed = "failed";  // op: true when it failed without effect
inline constexpr std::string_view kHookStart = "hs";  // op: start passed to the replay hook, when refined
inline constexpr std::string_view kSignal = "sig";    // pending, end: the signal that ended the run
inline constexpr std::string_view kCount = "n";       // end: operations logged (absent for "signal")
inline constexpr std::string_view kReason = "reason";  // end: why the thread stopped

// Record kinds.
inline constexpr std::string_view kKindHeader = "header";
inline constexpr std::string_view kKindOp = "op";
inline constexpr std::string_view kKindPending = "pending";  // v2: an operation in flight when the run died
inline constexpr std::string_view kKindAbort = "abort";      // v1's pending record (no inputs); read as pending
inline constexpr std::string_view kKindEnd = "end";

// End reasons.
inline constexpr std::string_view kReasonDone = "done";
inline constexpr std::string_view kReasonUnsupported = "unsupported-limit";
inline constexpr std::string_view kReasonWriteError = "write-error";
inline constexpr std::string_view kReasonSignal = "signal";  // written by the crash handler

// msgpack has no set type: a set is an ext value of this type whose payload is a msgpack array.
inline constexpr std::int8_t kSetExtType = 1;

}  // namespace omnilink::schema
