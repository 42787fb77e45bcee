// Workload: boost::lockfree::queue (Boost 1.74, unmodified, header-only), a Michael-Scott queue
// whose nodes are recycled through a lock-free freelist guarded by tagged pointers. Validated
// against tla/specs/LinearizableQueue.tla: Boost documents it as a multi-producer multi-consumer
// FIFO queue whose pop returns false only when the queue is empty.
//
// Policy: the default (node-based, not fixed_sized) queue with a small initial node pool. Its push
// allocates a node when the pool is empty, so it never refuses an element and every Enqueue has its
// effect; with the workload's queue length wandering around a few dozen, the pool's nodes are
// recycled constantly, which is the ABA-prone path the tagged pointers protect. (The fixed_sized
// array-index freelist is exercised by the stack harness, boost_lockfree_stack.cpp.)
#include <cstdint>

#include <boost/lockfree/queue.hpp>

#include "common/queue_workload.hpp"

namespace {

class BoostLockfreeQueue {
 public:
  void enqueue(std::int64_t v, omnilink::Context& ctx) {
    // push() only fails when a node cannot be allocated; then nothing was queued.
    if (!queue_.push(v)) ctx.failed_without_effect();
  }
  bool try_dequeue(std::int64_t& out, omnilink::Context&) { return queue_.pop(out); }

 private:
  static constexpr std::size_t initial_nodes = 64;
  boost::lockfree::queue<std::int64_t> queue_{initial_nodes};
};

}  // namespace

int main(int argc, char** argv) { return examples::run_queue_workload<BoostLockfreeQueue>(argc, argv); }
