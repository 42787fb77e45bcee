// The harness driver: N threads, each performing M randomly chosen operations on a shared system
// under test, logging each one with its timebox (docs/trace-format.md). This is the header a
// workload includes:
//
//   struct Enqueue { static constexpr std::string_view omnilink_name = "Enqueue"; ... };
//   int main(int argc, char** argv) {
//     omnilink::Harness<MyQueue> h(argc, argv);
//     h.op<Enqueue>([](MyQueue& q, omnilink::Context& ctx, Enqueue& op) { ... });
//     MyQueue q;
//     return h.run(q);
//   }
//
// Exit codes of a harness: 0 ok; 2 usage error or set-up failure; 3 a thread stopped because no
// operation was supported for --max-unsupported tries; 4 a trace file could not be written.
// A fatal signal ends the run by that signal, after the crash guard flushed the traces.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <latch>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <msgpack.hpp>

#include "omnilink/clock.hpp"
#include "omnilink/context.hpp"
#include "omnilink/crash_guard.hpp"
#include "omnilink/encode.hpp"
#include "omnilink/options.hpp"
#include "omnilink/perturb.hpp"
#include "omnilink/replay_hook.hpp"
#include "omnilink/rng.hpp"
#include "omnilink/run_meta.hpp"
#include "omnilink/thread_log.hpp"
#include "omnilink/trace_schema.hpp"

namespace omnilink {

using schema::HarnessExit;
using enum schema::HarnessExit;

template <class Sut>
class Harness {
 public:
  // Parses the standard options and the workload parameters this harness declares (`params`);
  // prints usage and exits on --help (0), or on a bad flag or parameter (3), before any thread
  // starts or any file is written.
  Harness(int argc, char** argv, std::vector<Param> params = {}) {
    auto usage = [&] {
      std::string text = options_usage();
      if (!params.empty()) text += "Workload parameters:\n";
      for (const Param& p : params) text += p.usage();
      return text;
    };
    try {
      auto parsed = parse_options(argc, argv);
      if (!parsed) {
        std::cout << "usage: " << argv[0] << " [options]\n" << usage();
        std::exit(kExitOk);
      }
      options_ = std::move(*parsed);
      options_.check_params(params);
    } catch (const std::exception& e) {
      std::cerr << argv[0] << ": " << e.what() << "\n" << usage();
      std::exit(kExitUsage);
    }
    argv_.assign(argv, argv + argc);
  }
  explicit Harness(Options options) : options_(std::move(options)) {}

  const Options& options() const { return options_; }

  // Registers an operation type and the function that performs one random call of it. `weight`
  // sets how often it is chosen relative to the others.
  template <Operation Op, class Fn>
  Harness& op(Fn fn, std::uint32_t weight = 1) {
    static_assert(std::is_invocable_v<Fn&, Sut&, Context&, Op&>,
                  "an operation function takes (Sut&, omnilink::Context&, Op&)");
    if (weight == 0) return *this;
    OpEntry entry{Op::omnilink_name, weight, [fn = std::move(fn)](Worker& w) mutable { w.template perform<Op>(fn); }, {}, false};
    if constexpr (DeclaresInputs<Op>) {
      entry.declares_inputs = true;
      for (std::string_view input : Op::omnilink_inputs) {
        bool is_field = false;
        Op{}.omnilink_fields([&](std::string_view name, const auto&) { is_field |= name == input; });
        if (!is_field || std::find(entry.inputs.begin(), entry.inputs.end(), input) != entry.inputs.end()) {
          std::cerr << "omnilink: operation " << Op::omnilink_name << " declares input '" << input << "' "
                    << (is_field ? "twice" : "which is not one of its fields") << "\n";
          std::exit(kExitSetup);
        }
        entry.inputs.push_back(input);
      }
    }
    for (const OpEntry& other : ops_)
      if (other.name == entry.name && (other.declares_inputs != entry.declares_inputs || other.inputs != entry.inputs)) {
        std::cerr << "omnilink: operation " << entry.name << " is registered twice with different input declarations\n";
        std::exit(kExitSetup);
      }
    ops_.push_back(std::move(entry));
    total_weight_ += weight;
    return *this;
  }

  // Runs the workload against `sut`; returns the process exit code (see above).
  int run(Sut& sut) {
    if (ops_.empty()) return fail_setup("no operations registered");
    namespace fs = std::filesystem;
    const fs::path out(options_.out);
    const fs::path trace_dir = out / schema::kTraceDir;
    std::error_code ec;
    fs::create_directories(trace_dir, ec);
    if (ec) return fail_setup("cannot create " + trace_dir.string() + ": " + ec.message());
    remove_stale_thread_files(trace_dir);

    Clock clock(options_.clock);
    MetaFile meta(out.string(), render_run_fields());
    if (!meta.write_running()) return fail_setup("cannot write " + (out / schema::kMetaFile).string() + ": " + std::strerror(errno));
    if (!options_.quiet)
      std::cerr << "omnilink: seed " << options_.seed << ", " << options_.threads << " threads x " << options_.ops
                << " ops, clock " << clock_name(options_.clock) << " -> " << out.string() << "\n";

    // Every thread's file is opened and headed before any worker starts: a run directory always
    // holds one complete file per thread, whatever happens next.
    std::vector<std::unique_ptr<Worker>> workers;
    for (std::uint32_t t = 0; t < options_.threads; ++t) {
      workers.push_back(std::make_unique<Worker>(*this, sut, clock, t, trace_dir));
      if (!workers.back()->open()) {
        meta.write_exit("error", kExitSetup, workers.back()->error());
        return fail_setup(workers.back()->error());
      }
    }
    CrashGuard::install(&meta);
    for (auto& w : workers) CrashGuard::register_log(&w->log());
    std::vector<ThreadResult> results(options_.threads);
    {
      // Workers start their first operation together. Without this, a thread created while the
      // others hog the cores may only begin once they are done: on a loaded 2-core machine, the third
      // of three threads of 3000 operations routinely ran after the other two had finished, and such
      // a run tests nothing concurrent.
      std::latch start(options_.threads);
      std::vector<std::jthread> threads;
      threads.reserve(options_.threads);
      for (std::uint32_t t = 0; t < options_.threads; ++t)
        threads.emplace_back([&, t] { workers[t]->run(results[t], start); });
    }
    for (auto& w : workers) CrashGuard::unregister_log(&w->log());
    CrashGuard::uninstall();

    int code = kExitOk;
    std::string message;
    for (std::uint32_t t = 0; t < options_.threads; ++t) {
      const ThreadResult& r = results[t];
      if (!r.error.empty()) {
        code = kExitWriteError;
        message = "thread " + std::to_string(t) + ": " + r.error;
      } else if (r.reason == schema::kReasonUnsupported && code == kExitOk) {
        code = kExitStopped;
        message = "thread " + std::to_string(t) + " stopped after " + std::to_string(options_.max_unsupported) +
                  " consecutive unsupported operations at operation " + std::to_string(r.logged);
      }
    }
    const char* status = code == kExitOk ? "ok" : code == kExitStopped ? "stopped" : "error";
    meta.write_exit(status, code, message);
    if (!message.empty()) std::cerr << "omnilink: " << message << "\n";
    return code;
  }

 private:
  struct ThreadResult {
    std::uint64_t logged = 0;
    std::string_view reason = schema::kReasonDone;
    std::string error;
  };

  // The constant byte runs of an op record, packed once from the schema's keys: packing them key
  // by key on every operation cost more than everything else the harness does.
  struct RecordPrefix {
    std::string kind_op_and_index_key;  // "k": "op", "i":
    std::string start_key, end_key, hook_start_key, failed_entry;

    static const RecordPrefix& get() {
      static const RecordPrefix prefix;
      return prefix;
    }
    // "op": NAME, "f":
    static std::string op_block(std::string_view name) {
      return packed([&](auto& pk) { str(pk, schema::kOp), str(pk, name), str(pk, schema::kFields); });
    }

   private:
    RecordPrefix()
        : kind_op_and_index_key(packed([](auto& pk) { str(pk, schema::kKind), str(pk, schema::kKindOp), str(pk, schema::kIndex); })),
          start_key(packed([](auto& pk) { str(pk, schema::kStart); })),
          end_key(packed([](auto& pk) { str(pk, schema::kEnd); })),
          hook_start_key(packed([](auto& pk) { str(pk, schema::kHookStart); })),
          failed_entry(packed([](auto& pk) { str(pk, schema::kFailed), pk.pack_true(); })) {}
    template <class P>
    static void str(P& pk, std::string_view s) { ValueCodec<std::string_view>::pack(pk, s); }
    template <class Fill>
    static std::string packed(Fill fill) {
      msgpack::sbuffer buf;
      msgpack::packer<msgpack::sbuffer> pk(buf);
      fill(pk);
      return std::string(buf.data(), buf.size());
    }
  };

  class Worker;
  struct OpEntry {
    std::string_view name;
    std::uint32_t weight;
    std::function<void(Worker&)> perform;
    std::vector<std::string_view> inputs;  // its declared input fields
    bool declares_inputs;                  // inputs is the operation's declaration, not just empty
  };

  // One worker thread: its log, random streams and the operation loop. Cache-line aligned: the
  // fields each worker writes on every operation must not share a line with another worker's.
  class alignas(64) Worker {
   public:
    Worker(Harness& h, Sut& sut, Clock& clock, std::uint32_t thread, const std::filesystem::path& trace_dir)
        : h_(h), sut_(sut), clock_(clock), thread_(thread), path_(trace_dir / thread_file_name(thread)),
          log_(::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), thread),
          open_errno_(errno), pk_(log_), ctx_(thread, h.options_, clock, derive_seed(h.options_.seed, thread, 0)),
          perturb_(h.options_, derive_seed(h.options_.seed, thread, 1)) {}

    // Opens the thread's file and writes its header; false (see error()) if that fails.
    bool open() {
      if (log_.fd() < 0) {
        error_ = "cannot open " + path_.string() + ": " + std::strerror(open_errno_);
        return false;
      }
      write_header();
      // On disk at once: a thread killed outright (SIGKILL) before its first flush still leaves a
      // file that says which thread it was and from which run.
      log_.flush();
      return true;
    }
    const std::string& error() const { return error_; }
    ThreadLog& log() { return log_; }

    void run(ThreadResult& result, std::latch& start) {
      CrashGuard::ThreadScope scope(&log_);
      const Options& o = h_.options_;
      if (o.pin_cpu >= 0 && !Perturber::pin_to(o.pin_cpu))
        std::cerr << "omnilink: thread " << thread_ << ": cannot pin to CPU " << o.pin_cpu << "; running unpinned\n";
      start.arrive_and_wait();

      std::uint32_t unsupported_in_a_row = 0;
      while (index_ < o.ops && !log_.failed()) {
        if (CrashGuard::crashing()) park_forever();
        perturb_.at_boundary();
        h_.pick(ctx_.rng()).perform(*this);
        if (ctx_.unsupported_) {
          if (++unsupported_in_a_row >= o.max_unsupported) {
            result.reason = schema::kReasonUnsupported;
            break;
          }
          continue;
        }
        unsupported_in_a_row = 0;
        ++index_;
        perturb_.at_boundary();
      }
      if (log_.failed()) result.reason = schema::kReasonWriteError;
      write_end(result.reason);
      log_.flush();
      result.logged = index_;
      if (log_.failed()) result.error = "writing " + path_.string() + ": " + std::strerror(log_.error_number());
    }

    template <class Op, class Fn>
    void perform(Fn& fn) {
      Op op{};
      const std::uint64_t start = clock_.before();
      bool no_inputs = false;
      if constexpr (DeclaresInputs<Op>) no_inputs = std::size(Op::omnilink_inputs) == 0;
      log_.begin_op(index_, Op::omnilink_name, start, no_inputs);
      const omnilink_op_header header{thread_, 0, index_, start};
      if (index_ % OMNILINK_CHECKPOINT_INTERVAL == 0) omnilink_checkpoint(&header);
      omnilink_op_start(&header);
      if constexpr (DeclaresInputs<Op>) {
        ctx_.reset(index_, start, no_inputs ? nullptr : &Worker::take_inputs<Op>, this, &op);
      } else {
        ctx_.reset(index_, start, nullptr, nullptr, nullptr);
      }
      fn(sut_, ctx_, op);
      const std::uint64_t end = ctx_.end_refined_ ? ctx_.end_ : clock_.after();
      omnilink_op_end(&header);
      if (ctx_.unsupported_) {
        log_.cancel_op();
        return;
      }
      // The record's constant parts were packed once (see RecordPrefix): one copy each here.
      static const std::string op_block = RecordPrefix::op_block(Op::omnilink_name);
      const RecordPrefix& prefix = RecordPrefix::get();
      pk_.pack_map(6 + (ctx_.failed_ ? 1 : 0) + (ctx_.start_refined_ ? 1 : 0));
      raw(prefix.kind_op_and_index_key);
      pk_.pack_uint64(index_);
      raw(op_block);
      pack_fields(pk_, op);
      raw(prefix.start_key);
      pk_.pack_uint64(ctx_.start_);
      raw(prefix.end_key);
      pk_.pack_uint64(end);
      if (ctx_.failed_) raw(prefix.failed_entry);
      if (ctx_.start_refined_) raw(prefix.hook_start_key), pk_.pack_uint64(start);
      log_.commit();
    }

   private:
    // Context::inputs_ready(): the operation's inputs, packed for the crash handler's pending record.
    template <class Op>
    static void take_inputs(void* self, const void* op) {
      Worker& w = *static_cast<Worker*>(self);
      w.inputs_.clear();
      msgpack::packer<msgpack::sbuffer> pk(w.inputs_);
      pack_inputs(pk, *static_cast<const Op*>(op));
      w.log_.set_inputs(w.inputs_.data(), w.inputs_.size());
    }

    static std::string thread_file_name(std::uint32_t thread) {
      char digits[16];
      std::snprintf(digits, sizeof digits, "%04u", thread);
      return std::string(schema::kThreadFilePrefix) + digits + std::string(schema::kThreadFileSuffix);
    }
    void key(std::string_view s) { ValueCodec<std::string_view>::pack(pk_, s); }
    void raw(const std::string& bytes) { log_.write(bytes.data(), bytes.size()); }

    void write_header() {
      pk_.pack_map(6);
      key(schema::kKind), key(schema::kKindHeader);
      key(schema::kFormat), key(schema::kTraceFormat);
      key(schema::kVersion), pk_.pack_uint32(schema::kTraceVersion);
      key(schema::kThread), pk_.pack_uint32(thread_);
      key(schema::kClock), key(clock_name(clock_.kind()));
      // The operations that declare their inputs, and which fields those are (an operation registered
      // with several functions is listed once; registration checked that they agree).
      std::vector<const OpEntry*> declaring;
      for (const OpEntry& e : h_.ops_)
        if (e.declares_inputs && std::none_of(declaring.begin(), declaring.end(), [&](const OpEntry* d) { return d->name == e.name; }))
          declaring.push_back(&e);
      key(schema::kInputs), pk_.pack_map(static_cast<std::uint32_t>(declaring.size()));
      for (const OpEntry* e : declaring) {
        key(e->name), pk_.pack_array(static_cast<std::uint32_t>(e->inputs.size()));
        for (std::string_view input : e->inputs) key(input);
      }
      log_.commit();
    }
    void write_end(std::string_view reason) {
      pk_.pack_map(3);
      key(schema::kKind), key(schema::kKindEnd);
      key(schema::kCount), pk_.pack_uint64(index_);
      key(schema::kReason), key(reason);
      log_.commit(/*closing=*/true);
    }

    Harness& h_;
    Sut& sut_;
    Clock& clock_;
    std::uint32_t thread_;
    std::filesystem::path path_;
    ThreadLog log_;
    int open_errno_;
    std::string error_;
    msgpack::packer<ThreadLog> pk_;
    Context ctx_;
    Perturber perturb_;
    std::uint64_t index_ = 0;
    msgpack::sbuffer inputs_;  // take_inputs' scratch space, reused
  };

  const OpEntry& pick(Rng& rng) const {
    if (ops_.size() == 1) return ops_.front();
    std::uint64_t r = rng.below(total_weight_);
    for (const OpEntry& e : ops_) {
      if (r < e.weight) return e;
      r -= e.weight;
    }
    return ops_.back();
  }

  static void remove_stale_thread_files(const std::filesystem::path& trace_dir) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(trace_dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (entry.is_regular_file(ec) && name.starts_with(schema::kThreadFilePrefix) &&
          name.ends_with(schema::kThreadFileSuffix))
        std::filesystem::remove(entry.path(), ec);
    }
  }

  std::string render_run_fields() const {
    std::string ops;
    for (const OpEntry& e : ops_) ops += (ops.empty() ? "" : ", ") + json_quote(e.name);
    std::string argv;
    for (const std::string& a : argv_) argv += (argv.empty() ? "" : ", ") + json_quote(a);
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    auto line = [](std::string_view key, const std::string& value) {
      return "  " + json_quote(key) + ": " + value;
    };
    return line("trace_version", std::to_string(schema::kTraceVersion)) + ",\n" +
           line("seed", std::to_string(options_.seed)) + ",\n" +
           line("threads", std::to_string(options_.threads)) + ",\n" +
           line("ops_per_thread", std::to_string(options_.ops)) + ",\n" +
           line("clock", json_quote(clock_name(options_.clock))) + ",\n" +
           line("perturb", "{\"mode\": " + json_quote(perturb_name(options_.perturb)) +
                               ", \"rate\": " + std::to_string(options_.perturb_rate) +
                               ", \"sleep_max_us\": " + std::to_string(options_.sleep_max_us) +
                               ", \"pin_cpu\": " + std::to_string(options_.pin_cpu) + "}") + ",\n" +
           line("operations", "[" + ops + "]") + ",\n" +
           line("executable", json_quote(ec ? std::string() : exe.string())) + ",\n" +
           line("argv", "[" + argv + "]") + ",\n" +
           line("pid", std::to_string(::getpid()));
  }

  int fail_setup(const std::string& message) const {
    std::cerr << "omnilink: " << message << "\n";
    return kExitSetup;
  }

  Options options_;
  std::vector<std::string> argv_;
  std::vector<OpEntry> ops_;
  std::uint64_t total_weight_ = 0;
};

}  // namespace omnilink
