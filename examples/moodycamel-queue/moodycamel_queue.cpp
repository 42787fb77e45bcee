// Workload: moodycamel::ConcurrentQueue (Debian's libconcurrentqueue-dev, unmodified, header-only),
// validated against tla/specs/PerProducerQueue.tla: items from one producer come out in that
// producer's order, with no order across producers (OmniLink paper, Sections 7.1.3 and 7.2.3).
//
// Producers, as the trace names them: thread t's implicit producer (token-less enqueues) is t; its
// explicit producer (its own ProducerToken, created before the run and used for enqueues by t
// only) is 1000 + t. The value an enqueue inserts is producer * 1'000'000 + 4 * index + k + 1 (k-th
// item of the operation): unique in the run, and its producer readable at a glance.
//
// Every call of the API is exercised: enqueue and enqueue_bulk with and without a producer token,
// try_dequeue and try_dequeue_bulk with and without the thread's ConsumerToken (the trace does not
// tell them apart: the spec's semantics is the same), try_dequeue_from_producer on a random
// thread's explicit producer, and size_approx. Weights keep dequeue capacity above the enqueue
// rate, so the producers' streams stay short and validation tractable (paper, Section 7.3.3).
// Timeboxes are narrowed to the library call itself.
//
// Native runs need a fenced clock: an enqueue publishes its items with a plain release store,
// which can still sit in the core's store buffer when an unfenced end stamp is read; a size_approx
// starting 10-50 ns later on another core then misses the items, and validation rejects a correct
// run (measured: 4 of 15 native 8-thread runs of 2000 operations per thread with the monotonic
// clock before it was fenced). Every clock is fenced now (harness/include/omnilink/clock.hpp);
// examples/campaigns/moodycamel-queue.json passes --clock rdtsc, the cheapest one natively.
#include <array>
#include <cstdint>
#include <iostream>
#include <string_view>
#include <vector>

#if __has_include(<concurrentqueue/concurrentqueue.h>)
#include <concurrentqueue/concurrentqueue.h>  // Debian's layout
#else
#include <moodycamel/concurrentqueue.h>  // upstream's install (include/concurrentqueue/ on the path)
#endif

#include "common/queue_ops.hpp"

namespace {

using Queue = moodycamel::ConcurrentQueue<std::int64_t>;

// The operations of PerProducerQueue.tla not shared with the other queues (Dequeue is).
struct Enqueue {
  static constexpr std::string_view omnilink_name = "Enqueue";
  static constexpr std::array<std::string_view, 2> omnilink_inputs{"producer", "elem"};
  std::int64_t producer = 0;
  std::int64_t elem = 0;
  template <class V>
  void omnilink_fields(V&& field) const {
    field("producer", producer);
    field("elem", elem);
  }
};

struct EnqueueBulk {
  static constexpr std::string_view omnilink_name = "EnqueueBulk";
  static constexpr std::array<std::string_view, 2> omnilink_inputs{"producer", "elems"};
  std::int64_t producer = 0;
  std::vector<std::int64_t> elems;
  template <class V>
  void omnilink_fields(V&& field) const {
    field("producer", producer);
    field("elems", elems);
  }
};

struct DequeueFromProducer {
  static constexpr std::string_view omnilink_name = "DequeueFromProducer";
  static constexpr std::array<std::string_view, 1> omnilink_inputs{"producer"};
  std::int64_t producer = 0;
  std::int64_t elem = 0;  // 0 when !ok
  bool ok = false;
  template <class V>
  void omnilink_fields(V&& field) const {
    field("producer", producer);
    field("elem", elem);
    field("ok", ok);
  }
};

// What try_dequeue_bulk returned, possibly nothing (a legal observation: DequeueBulk(<<>>)).
struct DequeueBulk {
  static constexpr std::string_view omnilink_name = "DequeueBulk";
  static constexpr std::array<std::string_view, 0> omnilink_inputs{};  // elems is the result
  std::vector<std::int64_t> elems;
  template <class V>
  void omnilink_fields(V&& field) const { field("elems", elems); }
};

// `call` is unique in the run: the spec keys the call's starting snapshot by it.
struct SizeApprox {
  static constexpr std::string_view omnilink_name = "SizeApprox";
  static constexpr std::array<std::string_view, 1> omnilink_inputs{"call"};
  std::int64_t call = 0;
  std::int64_t size = 0;
  template <class V>
  void omnilink_fields(V&& field) const {
    field("call", call);
    field("size", size);
  }
};

constexpr std::int64_t kExplicitBase = 1000;
constexpr std::int64_t kPerProducer = 1'000'000;
constexpr std::int64_t kMaxBulk = 4;
// Values must stay below kPerProducer per producer: 4 * index + k + 1 < 1'000'000.
constexpr std::uint64_t kMaxOps = kPerProducer / kMaxBulk - 1;

std::int64_t implicit_producer(const omnilink::Context& ctx) { return ctx.thread(); }
std::int64_t explicit_producer(std::uint32_t thread) { return kExplicitBase + thread; }
std::int64_t value(std::int64_t producer, const omnilink::Context& ctx, std::int64_t k) {
  return producer * kPerProducer + kMaxBulk * static_cast<std::int64_t>(ctx.index()) + k + 1;
}

struct System {
  explicit System(std::uint32_t threads) {
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
};

// enqueue and enqueue_bulk fail only when memory cannot be allocated; then nothing was queued.
template <class Call>
void enqueue_one(omnilink::Context& ctx, Enqueue& op, std::int64_t producer, Call call) {
  op.producer = producer;
  op.elem = value(producer, ctx, 0);
  ctx.refine_start();
  const bool ok = call(op.elem);
  ctx.refine_end();
  if (!ok) ctx.failed_without_effect();
}

template <class Call>
void enqueue_bulk(omnilink::Context& ctx, EnqueueBulk& op, std::int64_t producer, Call call) {
  op.producer = producer;
  const std::int64_t n = ctx.uniform(1, kMaxBulk);
  for (std::int64_t k = 0; k < n; ++k) op.elems.push_back(value(producer, ctx, k));
  ctx.refine_start();
  const bool ok = call(op.elems);
  ctx.refine_end();
  if (!ok) ctx.failed_without_effect();
}

template <class Call>
void dequeue_bulk(omnilink::Context& ctx, DequeueBulk& op, Call call) {
  std::int64_t items[kMaxBulk];
  const auto max = static_cast<std::size_t>(ctx.uniform(1, kMaxBulk));
  ctx.refine_start();
  const std::size_t n = call(items, max);
  ctx.refine_end();
  op.elems.assign(items, items + n);
}

}  // namespace

int main(int argc, char** argv) {
  omnilink::Harness<System> harness(argc, argv);
  const std::uint32_t threads = harness.options().threads;
  if (harness.options().ops > kMaxOps) {
    std::cerr << argv[0] << ": --ops " << harness.options().ops << ": at most " << kMaxOps
              << " (values are unique per producer below " << kPerProducer << ")\n";
    return omnilink::kExitUsage;
  }
  using Ctx = omnilink::Context;

  harness.op<Enqueue>([](System& s, Ctx& ctx, Enqueue& op) {
    enqueue_one(ctx, op, implicit_producer(ctx), [&](std::int64_t v) { return s.queue.enqueue(v); });
  }, 2);
  harness.op<Enqueue>([](System& s, Ctx& ctx, Enqueue& op) {
    auto& token = s.producers[ctx.thread()];
    enqueue_one(ctx, op, explicit_producer(ctx.thread()), [&](std::int64_t v) { return s.queue.enqueue(token, v); });
  }, 2);
  harness.op<EnqueueBulk>([](System& s, Ctx& ctx, EnqueueBulk& op) {
    enqueue_bulk(ctx, op, implicit_producer(ctx),
                 [&](const std::vector<std::int64_t>& v) { return s.queue.enqueue_bulk(v.begin(), v.size()); });
  });
  harness.op<EnqueueBulk>([](System& s, Ctx& ctx, EnqueueBulk& op) {
    auto& token = s.producers[ctx.thread()];
    enqueue_bulk(ctx, op, explicit_producer(ctx.thread()),
                 [&](const std::vector<std::int64_t>& v) { return s.queue.enqueue_bulk(token, v.begin(), v.size()); });
  });

  harness.op<examples::Dequeue>([](System& s, Ctx& ctx, examples::Dequeue& op) {
    ctx.refine_start();
    op.ok = s.queue.try_dequeue(op.elem);
    ctx.refine_end();
  }, 3);
  harness.op<examples::Dequeue>([](System& s, Ctx& ctx, examples::Dequeue& op) {
    auto& token = s.consumers[ctx.thread()];
    ctx.refine_start();
    op.ok = s.queue.try_dequeue(token, op.elem);
    ctx.refine_end();
  }, 3);
  harness.op<DequeueBulk>([](System& s, Ctx& ctx, DequeueBulk& op) {
    dequeue_bulk(ctx, op, [&](std::int64_t* out, std::size_t max) { return s.queue.try_dequeue_bulk(out, max); });
  });
  harness.op<DequeueBulk>([](System& s, Ctx& ctx, DequeueBulk& op) {
    auto& token = s.consumers[ctx.thread()];
    dequeue_bulk(ctx, op, [&](std::int64_t* out, std::size_t max) { return s.queue.try_dequeue_bulk(token, out, max); });
  });
  // Any thread's explicit producer: a consumer-side call, safe from every thread.
  harness.op<DequeueFromProducer>([threads](System& s, Ctx& ctx, DequeueFromProducer& op) {
    const auto from = static_cast<std::uint32_t>(ctx.uniform(0, threads - 1));
    op.producer = explicit_producer(from);
    ctx.refine_start();
    op.ok = s.queue.try_dequeue_from_producer(s.producers[from], op.elem);
    ctx.refine_end();
  }, 2);
  harness.op<SizeApprox>([](System& s, Ctx& ctx, SizeApprox& op) {
    op.call = examples::unique_elem(ctx.thread(), ctx.index());
    ctx.refine_start();
    op.size = static_cast<std::int64_t>(s.queue.size_approx());
    ctx.refine_end();
  });

  System system(threads);
  return harness.run(system);
}
