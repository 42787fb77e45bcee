// The replay hook: at the start of every operation the harness calls omnilink_op_start() with the
// operation's identity. replay/ sets a breakpoint on this symbol, conditional on the logged start
// timestamp, to stop a replay at exactly one operation (docs/trace-format.md, "Replay hook").
//
// The function must exist as a real, called symbol in every optimised build:
//  - extern "C" gives it a stable, unmangled name for gdb;
//  - noinline + noipa (GCC) stop the call from being inlined, cloned or dropped by
//    interprocedural analysis; `used` keeps the definition even if the linker could drop it;
//  - the asm statement with the header as input is an opaque side effect, so the call cannot be
//    treated as pure and deleted;
//  - `inline` (C++ linkage rules) makes the definition in a header legal in many translation
//    units: the linker keeps one copy.
#pragma once

#include <cstdint>

#include <sys/syscall.h>
#include <unistd.h>

extern "C" {

// Layout is a contract with replay/ (it reads these fields from gdb): append only.
struct omnilink_op_header {
  std::uint32_t thread;   // thread index, 0-based
  std::uint32_t reserved;
  std::uint64_t index;    // per-thread operation index, 0-based
  std::uint64_t start;    // the start timestamp, as logged unless the operation refined it
};

#if defined(__clang__)
#define OMNILINK_HOOK_ATTRS __attribute__((noinline, used, visibility("default")))
#else
#define OMNILINK_HOOK_ATTRS __attribute__((noinline, noipa, used, visibility("default")))
#endif

OMNILINK_HOOK_ATTRS inline void omnilink_op_start(const omnilink_op_header* header) {
  asm volatile("" : : "r"(header) : "memory");
}

// At the end of every operation (its end timestamp taken, before it is logged) the harness calls
// omnilink_op_end() with the same header. `omnilink explain` stops there (and at omnilink_op_start)
// for the operations of a failing core, to place their starts and ends among the recording's thread
// switches (docs/explain.md, "Interleaving").
OMNILINK_HOOK_ATTRS inline void omnilink_op_end(const omnilink_op_header* header) {
  asm volatile("" : : "r"(header) : "memory");
}

// Fast seek (docs/replay.md): every kOmnilinkCheckpointInterval-th operation of each thread also
// calls omnilink_checkpoint() (same header, just before omnilink_op_start). It makes one cheap
// system call, because rr numbers its events by system calls and signals: an indexing replay notes
// rr's event number at each checkpoint, and a later replay starts (`rr replay -g EVENT`) at the
// target thread's last checkpoint before the target, so the conditional breakpoint on
// omnilink_op_start is hit for a few hundred operations instead of every operation before it.
// getppid: never buffered by rr's syscallbuf, so it is always an event; about 0.1 us natively, under
// 1 ns per operation at this interval.
#define OMNILINK_CHECKPOINT_INTERVAL 256
OMNILINK_HOOK_ATTRS inline void omnilink_checkpoint(const omnilink_op_header* header) {
  asm volatile("" : : "r"(header) : "memory");
  ::syscall(SYS_getppid);
}

}  // extern "C"
