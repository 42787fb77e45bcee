// A workload written against a header generated at build time from tests/specs/Queue.tla: it
// implements Enqueue and Dequeue and declares Bulk unsupported. That it compiles shows the
// generated types work with the harness and that full coverage is accepted.
#include <deque>
#include <mutex>

#include "queue_ops.hpp"

namespace {
struct LockedQueue {
  std::mutex m;
  std::deque<std::int64_t> items;
};
}  // namespace

int main(int argc, char** argv) {
  omnilink::Harness<LockedQueue> base(argc, argv);
  auto harness = omnilink::spec_harness<queue::Operations>(base)
                     .op<queue::Enqueue>([](LockedQueue& q, omnilink::Context& ctx, queue::Enqueue& op) {
                       op.elem = ctx.uniform(1, 9);
                       std::lock_guard lock(q.m);
                       q.items.push_back(op.elem);
                     })
                     .op<queue::Dequeue>([](LockedQueue& q, omnilink::Context&, queue::Dequeue& op) {
                       std::lock_guard lock(q.m);
                       op.ok = !q.items.empty();
                       if (op.ok) {
                         op.elem = q.items.front();
                         q.items.pop_front();
                       }
                     })
                     .unsupported<queue::Bulk>();
  LockedQueue queue;
  return harness.run(queue);
}
