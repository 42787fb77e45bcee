// The workload of the queue examples, over the operation types `omnilink gen-hpp` generates from
// tla/specs/LinearizableQueue.tla at build time (linearizablequeue_ops.hpp, examples/CMakeLists.txt):
// Enqueue(elem) and Dequeue(elem, ok). A dequeue that finds the queue empty is an observation too,
// so it is logged as Dequeue with ok = FALSE (and elem 0) rather than dropped.
#pragma once

#include <atomic>
#include <cstdint>

#include <omnilink/harness.hpp>

#include "linearizablequeue_ops.hpp"

namespace examples {

using linearizablequeue_ops::Dequeue;
using linearizablequeue_ops::Enqueue;

// Values unique across the run, so a duplicated or lost element is visible in the trace:
// thread t's n-th enqueue inserts t * 1'000'000 + n + 1.
inline std::int64_t unique_elem(std::uint32_t thread, std::uint64_t index) {
  return static_cast<std::int64_t>(thread) * 1'000'000 + static_cast<std::int64_t>(index) + 1;
}

// The queue workload, for any queue with enqueue(v, ctx) and bool try_dequeue(v&, ctx). The
// queues take the harness context to narrow each timebox to their critical sections
// (refine_start() once the lock is held, refine_end() before it is released): time spent waiting
// for the lock is not part of the operation, and wide, overlapping timeboxes make validation
// search many more orders (paper, Section 4.4.1).
//
// --param max_len=N (default 0: unbounded) keeps the queue short, as the paper advises (Section
// 7.3.3): an Enqueue is skipped (unsupported) while the workload's count of elements in the queue
// (enqueues done minus successful dequeues) is N or more. Two overlapping enqueues whose order
// only a later dequeue reveals double the states validation must keep for as long as both elements
// stay queued; unbounded, the queue's random walk keeps hundreds of them, and under rr chaos with a
// short timeslice (many overlapping timeboxes) a correct 9000-operation trace did not validate in
// 300 s.
//
// --param bad_last=1 makes thread 0's last operation report dequeuing an element nobody enqueued:
// a trace that validation must reject, only once everything before that operation is linearized
// (used by the benchmarks).
template <class Queue>
int run_queue_workload(int argc, char** argv) {
  omnilink::Harness<Queue> harness(
      argc, argv,
      {omnilink::Param::integer("max_len", 0, 0, 1'000'000'000, "skip an Enqueue while N elements are queued (0: unbounded)"),
       omnilink::Param::integer("bad_last", 0, 0, 1, "1: thread 0's last operation dequeues an element nobody enqueued")});
  const bool bad_last = harness.options().param_int("bad_last") != 0;
  const std::int64_t max_len = harness.options().param_int("max_len");
  const std::uint64_t last = harness.options().ops - 1;
  std::atomic<std::int64_t> queued{0};  // only kept with max_len: a shared line every operation touches
  harness.template op<Enqueue>([&, bad_last, last](Queue& q, omnilink::Context& ctx, Enqueue& op) {
    if (bad_last && ctx.thread() == 0 && ctx.index() == last) return ctx.unsupported();  // a Dequeue it must be
    if (max_len > 0 && queued.load(std::memory_order_relaxed) >= max_len) return ctx.unsupported();
    op.elem = unique_elem(ctx.thread(), ctx.index());
    ctx.inputs_ready();
    q.enqueue(op.elem, ctx);
    if (max_len > 0) queued.fetch_add(1, std::memory_order_relaxed);
  });
  harness.template op<Dequeue>([&, bad_last, last](Queue& q, omnilink::Context& ctx, Dequeue& op) {
    if (bad_last && ctx.thread() == 0 && ctx.index() == last) {
      op.elem = -1;  // never enqueued
      op.ok = true;
      return;
    }
    op.ok = q.try_dequeue(op.elem, ctx);
    if (max_len > 0 && op.ok) queued.fetch_sub(1, std::memory_order_relaxed);
  });
  Queue queue;
  return harness.run(queue);
}

}  // namespace examples
