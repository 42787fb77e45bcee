// Workload: a FIFO queue guarded by one mutex (std::deque). Correct: every trace is linearizable.
#include <cstdint>
#include <deque>
#include <mutex>

#include <omnilink/harness.hpp>

#include "common/queue_ops.hpp"

namespace {

class LockedQueue {
 public:
  void enqueue(std::int64_t v) {
    std::lock_guard lock(mutex_);
    items_.push_back(v);
  }
  bool try_dequeue(std::int64_t& out) {
    std::lock_guard lock(mutex_);
    if (items_.empty()) return false;
    out = items_.front();
    items_.pop_front();
    return true;
  }

 private:
  std::mutex mutex_;
  std::deque<std::int64_t> items_;
};

}  // namespace

int main(int argc, char** argv) {
  using examples::Dequeue;
  using examples::Enqueue;
  omnilink::Harness<LockedQueue> harness(argc, argv);
  harness.op<Enqueue>([](LockedQueue& q, omnilink::Context& ctx, Enqueue& op) {
    op.elem = examples::unique_elem(ctx.thread(), ctx.index());
    q.enqueue(op.elem);
  });
  harness.op<Dequeue>([](LockedQueue& q, omnilink::Context&, Dequeue& op) { op.ok = q.try_dequeue(op.elem); });
  LockedQueue queue;
  return harness.run(queue);
}
