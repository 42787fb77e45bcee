// Flushes every thread's trace when the process dies by a signal, so nothing already recorded is
// lost: SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT (a crash) and SIGINT, SIGTERM (an interrupt, e.g.
// Ctrl-C or a campaign stopping the run). For each thread the handler writes the committed
// records, then a pending record for the operation in flight, if any (it may or may not have taken
// effect; its inputs are included when the workload had set them), then an end record with reason "signal" unless the thread had closed its trace already.
// meta.json is rewritten with the signal and, for a crash, where it struck: the faulting
// instruction and its callers, as addresses in the executable file (so `addr2line` names them
// after the run: campaigns turn the innermost frame in the code under test into the crash's
// signature). Then the signal is re-raised with its default action, so the exit status the parent
// sees is the real one.
//
// The frames come from glibc's backtrace(), called once at install so that nothing is loaded or
// allocated when it is called in the handler; unwinding a corrupted stack may stop early or fail,
// so they are best effort: the handler writes the traces first.
//
// Worker threads get an alternate signal stack, so a stack overflow is handled too.
#pragma once

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string_view>

#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <msgpack.hpp>

#include "omnilink/run_meta.hpp"
#include "omnilink/thread_log.hpp"
#include "omnilink/trace_schema.hpp"

namespace omnilink {

class CrashGuard {
 public:
  static constexpr std::uint32_t kMaxThreads = 1024;

  // Installs the handlers. `meta` must outlive the run.
  static void install(const MetaFile* meta) {
    state().meta.store(meta, std::memory_order_release);
    state().load_bias = executable_load_bias();
    void* warm[1];
    backtrace(warm, 1);  // loads and initialises the unwinder now, not in the handler
    struct sigaction sa {};
    sa.sa_sigaction = &handle;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int sig : kSignals) sigaddset(&sa.sa_mask, sig);  // no nesting between our signals
    for (int sig : kSignals) sigaction(sig, &sa, nullptr);
  }

  // Restores default actions (end of run).
  static void uninstall() {
    for (int sig : kSignals) std::signal(sig, SIG_DFL);
    state().meta.store(nullptr, std::memory_order_release);
  }

  // Makes a log known to the handler (before its thread starts, so even a thread that never got
  // to run is closed properly), and forgets it once its thread has finished.
  static void register_log(ThreadLog* log) { state().logs[log->thread()].store(log, std::memory_order_release); }
  static void unregister_log(ThreadLog* log) { state().logs[log->thread()].store(nullptr, std::memory_order_release); }

  // Held by each worker thread while it runs: tells the handler which log is the thread's own and
  // gives the thread an alternate signal stack.
  class ThreadScope {
   public:
    explicit ThreadScope(ThreadLog* log) : stack_(new char[kAltStackSize]) {
      stack_t ss{};
      ss.ss_sp = stack_.get();
      ss.ss_size = kAltStackSize;
      sigaltstack(&ss, nullptr);
      current_log() = log;
    }
    ~ThreadScope() {
      current_log() = nullptr;
      stack_t ss{};
      ss.ss_flags = SS_DISABLE;
      sigaltstack(&ss, nullptr);
    }
    ThreadScope(const ThreadScope&) = delete;
    ThreadScope& operator=(const ThreadScope&) = delete;

   private:
    static constexpr std::size_t kAltStackSize = 64 * 1024;
    std::unique_ptr<char[]> stack_;
  };

  // True once a fatal signal is being handled; workers stop starting operations.
  static bool crashing() { return state().crashing.load(std::memory_order_relaxed) != 0; }

 private:
  static constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGINT, SIGTERM};
  static constexpr int kMaxFrames = 32;

  struct State {
    std::atomic<ThreadLog*> logs[kMaxThreads] = {};
    std::atomic<int> crashing{0};
    std::atomic<const MetaFile*> meta{nullptr};
    std::uintptr_t load_bias = 0;  // run-time address minus file address, for the executable
  };

  // The executable is the first object dl_iterate_phdr reports; its bias is 0 unless it is
  // position-independent.
  static std::uintptr_t executable_load_bias() {
    std::uintptr_t bias = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* out) {
          *static_cast<std::uintptr_t*>(out) = info->dlpi_addr;
          return 1;  // the first object only
        },
        &bias);
    return bias;
  }

  // The interrupted instruction, from the signal's context (0 where this architecture is not known).
  static std::uintptr_t interrupted_pc(const void* context) {
    const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
    return static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return static_cast<std::uintptr_t>(uc->uc_mcontext.pc);
#else
    (void)uc;
    return 0;
#endif
  }

  // Where the signal struck, then its callers (return addresses), as file addresses. backtrace()
  // starts in this handler and the kernel's signal frame: what comes before the interrupted
  // instruction is dropped.
  static std::size_t crash_frames(const void* context, std::uint64_t (&frames)[kMaxFrames]) {
    void* raw[kMaxFrames + 8];
    const int n = backtrace(raw, kMaxFrames + 8);
    const std::uintptr_t pc = interrupted_pc(context), bias = state().load_bias;
    int from = 0;
    if (pc != 0) {
      for (int k = 0; k < n; ++k)
        if (reinterpret_cast<std::uintptr_t>(raw[k]) == pc) {
          from = k;
          break;
        }
      if (from == 0) {  // the unwinder did not get through the signal frame: the instruction alone
        frames[0] = pc - bias;
        return 1;
      }
    }
    std::size_t count = 0;
    for (int k = from; k < n && count < kMaxFrames; ++k) frames[count++] = reinterpret_cast<std::uintptr_t>(raw[k]) - bias;
    return count;
  }
  static State& state() {
    static State s;
    return s;
  }
  static ThreadLog*& current_log() {
    static thread_local ThreadLog* log = nullptr;
    return log;
  }

  static void pack_str(msgpack::packer<FixedBuffer>& pk, std::string_view s) {
    pk.pack_str(static_cast<std::uint32_t>(s.size()));
    pk.pack_str_body(s.data(), static_cast<std::uint32_t>(s.size()));
  }

  // Packs the crash-path records without allocating: a pending record for the operation in flight
  // (with its inputs when they were all known), then the end record.
  static void write_final_records(ThreadLog& log, ThreadLog::CrashSnapshot snap, int sig) {
    FixedBuffer buf;
    msgpack::packer<FixedBuffer> pk(buf);
    std::optional<std::string_view> inputs;
    if (snap.inflight) {
      std::string_view name = log.inflight_name();
      if (name.size() > 256) name = name.substr(0, 256);
      inputs = log.crash_inputs();
      pk.pack_map(inputs ? 6 : 5);
      pack_str(pk, schema::kKind), pack_str(pk, schema::kKindPending);
      pack_str(pk, schema::kIndex), pk.pack_uint64(log.inflight_index());
      pack_str(pk, schema::kOp), pack_str(pk, name);
      pack_str(pk, schema::kStart), pk.pack_uint64(log.inflight_start());
      pack_str(pk, schema::kSignal), pk.pack_uint32(static_cast<std::uint32_t>(sig));
      if (inputs) {
        pack_str(pk, schema::kFields);
        if (inputs->empty()) pk.pack_map(0);
      }
    }
    if (buf.overflow()) return;
    // The inputs map is already packed: its bytes follow the buffer as they are.
    write_all(log.fd(), buf.data(), buf.size());
    if (inputs && !inputs->empty()) write_all(log.fd(), inputs->data(), inputs->size());
    if (!snap.closed) {
      FixedBuffer end;
      msgpack::packer<FixedBuffer> epk(end);
      epk.pack_map(3);
      pack_str(epk, schema::kKind), pack_str(epk, schema::kKindEnd);
      pack_str(epk, schema::kReason), pack_str(epk, schema::kReasonSignal);
      pack_str(epk, schema::kSignal), epk.pack_uint32(static_cast<std::uint32_t>(sig));
      write_all(log.fd(), end.data(), end.size());
    }
  }

  static void handle(int sig, siginfo_t*, void* context) {
    State& st = state();
    ThreadLog* mine = current_log();
    int expected = 0;
    if (!st.crashing.compare_exchange_strong(expected, 1)) {
      // Another thread is already handling a signal: let it finish and end the process.
      park_forever();
    }
    for (auto& slot : st.logs) {
      ThreadLog* log = slot.load(std::memory_order_acquire);
      if (log == nullptr || !log->claim_for_crash(log == mine)) continue;
      write_final_records(*log, log->crash_write_committed(), sig);
    }
    if (const MetaFile* meta = st.meta.load(std::memory_order_acquire)) {
      std::uint64_t frames[kMaxFrames];
      const bool crash = sig != SIGINT && sig != SIGTERM;  // an interrupt strikes anywhere: no place to report
      const std::size_t count = crash ? crash_frames(context, frames) : 0;
      meta->write_signal(sig, mine ? static_cast<int>(mine->thread()) : -1, frames, count);
    }
    std::signal(sig, SIG_DFL);
    raise(sig);  // delivered when the handler returns (the signal is blocked until then)
  }
};

}  // namespace omnilink
