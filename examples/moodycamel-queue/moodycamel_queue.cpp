// Workload: moodycamel::ConcurrentQueue (Debian's libconcurrentqueue-dev, unmodified, header-only),
// validated against tla/specs/PerProducerQueue.tla: items from one producer come out in that
// producer's order, with no order across producers (OmniLink paper, Sections 7.1.3 and 7.2.3).
//
// Two binaries from this file: moodycamel-queue uses the library's default traits (blocks of 32
// items); moodycamel-queue-small (OMNILINK_CQ_SMALL_TRAITS) the traits the OmniLink authors ran
// (blocks of 4, an initial implicit-producer hash of 8), so that bulks cross block boundaries and
// blocks are emptied and reused, and the producers' block indexes wrap, within a short run.
//
// Producers, as the trace names them: thread t's implicit producer (token-less enqueues) is t; its
// explicit producer (its own ProducerToken, created before the run and used for enqueues by t
// only) is 1000 + t. The value an enqueue inserts is producer * 1'000'000 + max_bulk * index + k +
// 1 (k-th item of the operation): unique in the run, and its producer readable at a glance.
//
// Every call of the API can be exercised: enqueue and enqueue_bulk with and without a producer
// token, try_dequeue and try_dequeue_bulk with and without the thread's ConsumerToken (the trace
// tells them apart only for try_dequeue_bulk, whose semantics differ), try_dequeue_from_producer on a
// random thread's explicit producer, and size_approx. Which ones and how often, the bulk sizes and
// a cap on queued items are --params (struct Workload below; `--param mix=paper` is the authors'
// workload). The default weights keep dequeue capacity above the enqueue rate, so the producers'
// streams stay short and validation tractable (paper, Section 7.3.3). Timeboxes are narrowed to
// the library call itself.
//
// A crash this harness finds in the library (Debian's 1.0.3; upstream's code is the same): a
// try_dequeue_bulk asked for 0 items (the paper's bulk sizes start at 0) can crash or corrupt the
// queue when it races consumers that empty an implicit producer's block. The producer's
// dequeue_bulk claims min(max, available) = 0 items and still visits the block at the head index
// with a count of 0: if that block was emptied and released meanwhile, its index entry is null and
// set_many_empty writes through it (SIGSEGV, concurrentqueue.h:1609 from :2842); if it is still
// there but fully dequeued, set_many_empty(0) reports it empty again and it goes onto the free list
// a second time. The 2-hour sweep of examples/sweeps/concurrentqueue-paper.json crashed 5 of its
// 11,534 cq-all-small runs there (implicit producers); `omnilink replay RUN --crash` shows max=0,
// the null block and a head index at a block boundary equal to the tail. A stress of 4 threads
// (enqueue, try_dequeue_bulk of 2, try_dequeue_bulk of 0, blocks of 4) crashes within
// milliseconds; the same with 1 instead of 0 ran 20,000 rounds without one. The workload keeps the
// 0: it is the API's contract (no minimum is documented) and the paper's workload.
//
// Native runs need a fenced clock: an enqueue publishes its items with a plain release store,
// which can still sit in the core's store buffer when an unfenced end stamp is read; a size_approx
// starting 10-50 ns later on another core then misses the items, and validation rejects a correct
// run (measured: 4 of 15 native 8-thread runs of 2000 operations per thread with the monotonic
// clock before it was fenced). Every clock is fenced now (harness/include/omnilink/clock.hpp);
// examples/campaigns/moodycamel-queue.json passes --clock rdtsc, the cheapest one natively.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#if __has_include(<concurrentqueue/concurrentqueue.h>)
#include <concurrentqueue/concurrentqueue.h>  // Debian's layout
#else
#include <moodycamel/concurrentqueue.h>  // upstream's install (include/concurrentqueue/ on the path)
#endif

#include "common/queue_workload.hpp"  // unique_elem
#include "perproducerqueue_ops.hpp"

namespace {

#ifdef OMNILINK_CQ_SMALL_TRAITS
// "Deliberately small numbers to help reach edge cases" (the OmniLink authors' workload).
struct Traits : moodycamel::ConcurrentQueueDefaultTraits {
  static const std::size_t BLOCK_SIZE = 4;
  static const std::size_t INITIAL_IMPLICIT_PRODUCER_HASH_SIZE = 8;
};
#else
using Traits = moodycamel::ConcurrentQueueDefaultTraits;
#endif
using Queue = moodycamel::ConcurrentQueue<std::int64_t, Traits>;

// The operations of PerProducerQueue.tla, generated from it at build time (perproducerqueue_ops.hpp).
using examples::perproducerqueue_ops::Dequeue;
using examples::perproducerqueue_ops::DequeueBulk;
using examples::perproducerqueue_ops::DequeueFromProducer;
using examples::perproducerqueue_ops::Enqueue;
using examples::perproducerqueue_ops::EnqueueBulk;
using examples::perproducerqueue_ops::SizeApprox;

constexpr std::int64_t kExplicitBase = 1000;
constexpr std::int64_t kPerProducer = 1'000'000;
constexpr std::int64_t kBulkLimit = 64;  // the largest max_bulk: a bulk dequeue's buffer

/// The workload's shape, from --param: which calls and how often, bulk sizes, the element cap.
/// `mix` names a set of defaults (the others' defaults), each of which a parameter overrides:
///   all    every call, bulks of 1 to 4, no cap: the API's coverage (the shipped campaign)
///   paper  the OmniLink authors' ConcurrentQueue workload (paper, Section 7.2.3): a third each of
///          enqueue_bulk through the thread's ProducerToken, token-less try_dequeue_bulk and
///          size_approx; bulks of 0 to 10; an enqueue that would take the workload's count of
///          queued items past 16 is skipped
struct Workload {
  static constexpr std::array<std::string_view, 10> kCalls{
      "enqueue", "enqueue_token", "enqueue_bulk", "enqueue_bulk_token", "dequeue",
      "dequeue_token", "dequeue_bulk", "dequeue_bulk_token", "dequeue_from_producer", "size_approx"};
  std::array<std::uint32_t, kCalls.size()> weights{};  // --param weight.<call>=N, in kCalls' order
  std::int64_t min_bulk = 1;  // --param min_bulk=N: a bulk call's size (enqueued, or asked for) ...
  std::int64_t max_bulk = 4;  // --param max_bulk=N: ... is uniform in [min_bulk, max_bulk]
  std::int64_t elem_cap = 0;  // --param elem_cap=N: at most N items queued (0: no cap)

  std::uint32_t weight(std::string_view call) const {
    for (std::size_t i = 0; i < kCalls.size(); ++i)
      if (kCalls[i] == call) return weights[i];
    return 0;
  }

  static constexpr std::array<std::uint32_t, kCalls.size()> kAllWeights{2, 2, 1, 1, 3, 3, 1, 1, 2, 1};

  // The parameters the harness declares; the defaults shown are mix=all's.
  static std::vector<omnilink::Param> params() {
    std::vector<omnilink::Param> out{omnilink::Param::word("mix", {"all", "paper"}, "a set of defaults for the others (see the source)"),
                                     omnilink::Param::integer("min_bulk", 1, 0, kBulkLimit, "a bulk call's smallest size"),
                                     omnilink::Param::integer("max_bulk", 4, 1, kBulkLimit, "a bulk call's largest size"),
                                     omnilink::Param::integer("elem_cap", 0, 0, 1'000'000'000, "at most N items queued (0: no cap)")};
    for (std::size_t i = 0; i < kCalls.size(); ++i)
      out.push_back(omnilink::Param::integer("weight." + std::string(kCalls[i]), kAllWeights[i], 0, 1000,
                                             "how often " + std::string(kCalls[i]) + " is called, relative to the others"));
    return out;
  }

  // The workload the options ask for, or an error message naming the parameter.
  static std::variant<Workload, std::string> from(const omnilink::Options& options) {
    Workload w;
    w.weights = kAllWeights;
    if (options.param_word("mix") == "paper") {
      w.weights = {0, 0, 0, 1, 0, 0, 1, 0, 0, 1};
      w.min_bulk = 0;
      w.max_bulk = 10;
      w.elem_cap = 16;
    }
    // Each given parameter overrides the mix's default.
    auto given = [&](const std::string& name, auto& field) {
      if (options.param_given(name)) field = static_cast<std::remove_reference_t<decltype(field)>>(options.param_int(name));
    };
    for (std::size_t i = 0; i < kCalls.size(); ++i) given("weight." + std::string(kCalls[i]), w.weights[i]);
    given("min_bulk", w.min_bulk);
    given("max_bulk", w.max_bulk);
    given("elem_cap", w.elem_cap);
    if (w.min_bulk > w.max_bulk)
      return "--param min_bulk=" + std::to_string(w.min_bulk) + ": must be 0 to max_bulk (" + std::to_string(w.max_bulk) + ")";
    if (std::all_of(w.weights.begin(), w.weights.end(), [](std::uint32_t x) { return x == 0; }))
      return "every weight.<call> is 0: no operation to run";
    // Values are unique per producer below kPerProducer: max_bulk * index + k + 1 < kPerProducer.
    const auto max_ops = static_cast<std::uint64_t>(kPerProducer / w.max_bulk - 1);
    if (options.ops > max_ops)
      return "--ops " + std::to_string(options.ops) + ": at most " + std::to_string(max_ops) + " with max_bulk " +
             std::to_string(w.max_bulk) + " (values are unique per producer below " + std::to_string(kPerProducer) + ")";
    return w;
  }
};

std::int64_t implicit_producer(const omnilink::Context& ctx) { return ctx.thread(); }
std::int64_t explicit_producer(std::uint32_t thread) { return kExplicitBase + thread; }

struct System {
  System(std::uint32_t threads, Workload shape) : workload(shape) {
    producers.reserve(threads);
    consumers.reserve(threads);
    for (std::uint32_t t = 0; t < threads; ++t) {
      producers.emplace_back(queue);
      consumers.emplace_back(queue);
    }
  }
  Queue queue;
  std::vector<moodycamel::ProducerToken> producers;  // [t]: thread t's explicit producer
  std::vector<moodycamel::ConsumerToken> consumers;  // [t]: thread t's consumer token
  const Workload workload;
  // The workload's count of queued items, kept only with a cap: items are counted in before an
  // enqueue and out after a dequeue, so it never falls below the queue's length (and the cap is
  // never passed), at the cost of a shared cache line every operation touches.
  std::atomic<std::int64_t> queued{0};

  std::int64_t value(std::int64_t producer, const omnilink::Context& ctx, std::int64_t k) const {
    return producer * kPerProducer + workload.max_bulk * static_cast<std::int64_t>(ctx.index()) + k + 1;
  }
  std::int64_t bulk_size(omnilink::Context& ctx) const { return ctx.uniform(workload.min_bulk, workload.max_bulk); }
  // Counts n items in, or returns false (and counts nothing) if the cap does not allow them.
  bool reserve(std::int64_t n) {
    if (workload.elem_cap == 0) return true;
    if (queued.fetch_add(n, std::memory_order_relaxed) + n <= workload.elem_cap) return true;
    queued.fetch_sub(n, std::memory_order_relaxed);
    return false;
  }
  void release(std::int64_t n) {
    if (workload.elem_cap != 0 && n != 0) queued.fetch_sub(n, std::memory_order_relaxed);
  }
};

// enqueue and enqueue_bulk fail only when memory cannot be allocated; then nothing was queued.
// An enqueue the cap does not allow is skipped before it touches the queue (not logged).
template <class Call>
void enqueue_one(System& s, omnilink::Context& ctx, Enqueue& op, std::int64_t producer, Call call) {
  if (!s.reserve(1)) return ctx.unsupported();
  op.producer = producer;
  op.elem = s.value(producer, ctx, 0);
  ctx.refine_start();
  const bool ok = call(op.elem);
  ctx.refine_end();
  if (!ok) {
    s.release(1);
    ctx.failed_without_effect();
  }
}

template <class Call>
void enqueue_bulk(System& s, omnilink::Context& ctx, EnqueueBulk& op, std::int64_t producer, Call call) {
  const std::int64_t n = s.bulk_size(ctx);
  if (!s.reserve(n)) return ctx.unsupported();
  op.producer = producer;
  for (std::int64_t k = 0; k < n; ++k) op.elems.push_back(s.value(producer, ctx, k));
  ctx.refine_start();
  const bool ok = call(op.elems);
  ctx.refine_end();
  if (!ok) {
    s.release(n);
    ctx.failed_without_effect();
  }
}

template <class Call>
void dequeue_one(System& s, omnilink::Context& ctx, Dequeue& op, Call call) {
  ctx.refine_start();
  op.ok = call(op.elem);
  ctx.refine_end();
  if (op.ok) s.release(1);
}

template <class Call>
void dequeue_bulk(System& s, omnilink::Context& ctx, DequeueBulk& op, bool token, Call call) {
  op.token = token;
  std::array<std::int64_t, kBulkLimit> items;
  const auto max = static_cast<std::size_t>(s.bulk_size(ctx));
  ctx.refine_start();
  const std::size_t n = call(items.data(), max);
  ctx.refine_end();
  op.elems.assign(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(n));
  s.release(static_cast<std::int64_t>(n));
}

}  // namespace

int main(int argc, char** argv) {
  omnilink::Harness<System> harness(argc, argv, Workload::params());
  const std::uint32_t threads = harness.options().threads;
  const auto workload = Workload::from(harness.options());
  if (const auto* error = std::get_if<std::string>(&workload)) {
    std::cerr << argv[0] << ": " << *error << "\n";
    return omnilink::kExitUsage;
  }
  const Workload& w = std::get<Workload>(workload);
  using Ctx = omnilink::Context;

  harness.op<Enqueue>([](System& s, Ctx& ctx, Enqueue& op) {
    enqueue_one(s, ctx, op, implicit_producer(ctx), [&](std::int64_t v) { return s.queue.enqueue(v); });
  }, w.weight("enqueue"));
  harness.op<Enqueue>([](System& s, Ctx& ctx, Enqueue& op) {
    auto& token = s.producers[ctx.thread()];
    enqueue_one(s, ctx, op, explicit_producer(ctx.thread()), [&](std::int64_t v) { return s.queue.enqueue(token, v); });
  }, w.weight("enqueue_token"));
  harness.op<EnqueueBulk>([](System& s, Ctx& ctx, EnqueueBulk& op) {
    enqueue_bulk(s, ctx, op, implicit_producer(ctx),
                 [&](const std::vector<std::int64_t>& v) { return s.queue.enqueue_bulk(v.begin(), v.size()); });
  }, w.weight("enqueue_bulk"));
  harness.op<EnqueueBulk>([](System& s, Ctx& ctx, EnqueueBulk& op) {
    auto& token = s.producers[ctx.thread()];
    enqueue_bulk(s, ctx, op, explicit_producer(ctx.thread()),
                 [&](const std::vector<std::int64_t>& v) { return s.queue.enqueue_bulk(token, v.begin(), v.size()); });
  }, w.weight("enqueue_bulk_token"));

  harness.op<Dequeue>([](System& s, Ctx& ctx, Dequeue& op) {
    dequeue_one(s, ctx, op, [&](std::int64_t& v) { return s.queue.try_dequeue(v); });
  }, w.weight("dequeue"));
  harness.op<Dequeue>([](System& s, Ctx& ctx, Dequeue& op) {
    auto& token = s.consumers[ctx.thread()];
    dequeue_one(s, ctx, op, [&](std::int64_t& v) { return s.queue.try_dequeue(token, v); });
  }, w.weight("dequeue_token"));
  harness.op<DequeueBulk>([](System& s, Ctx& ctx, DequeueBulk& op) {
    dequeue_bulk(s, ctx, op, false, [&](std::int64_t* out, std::size_t max) { return s.queue.try_dequeue_bulk(out, max); });
  }, w.weight("dequeue_bulk"));
  harness.op<DequeueBulk>([](System& s, Ctx& ctx, DequeueBulk& op) {
    auto& token = s.consumers[ctx.thread()];
    dequeue_bulk(s, ctx, op, true, [&](std::int64_t* out, std::size_t max) { return s.queue.try_dequeue_bulk(token, out, max); });
  }, w.weight("dequeue_bulk_token"));
  // Any thread's explicit producer: a consumer-side call, safe from every thread.
  harness.op<DequeueFromProducer>([threads](System& s, Ctx& ctx, DequeueFromProducer& op) {
    const auto from = static_cast<std::uint32_t>(ctx.uniform(0, threads - 1));
    op.producer = explicit_producer(from);
    ctx.refine_start();
    op.ok = s.queue.try_dequeue_from_producer(s.producers[from], op.elem);
    ctx.refine_end();
    if (op.ok) s.release(1);
  }, w.weight("dequeue_from_producer"));
  harness.op<SizeApprox>([](System& s, Ctx& ctx, SizeApprox& op) {
    op.call = examples::unique_elem(ctx.thread(), ctx.index());
    ctx.refine_start();
    op.size = static_cast<std::int64_t>(s.queue.size_approx());
    ctx.refine_end();
  }, w.weight("size_approx"));

  System system(threads, w);
  return harness.run(system);
}
