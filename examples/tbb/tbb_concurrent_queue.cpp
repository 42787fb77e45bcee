// Workload: tbb::concurrent_queue (oneTBB 2021, unmodified, the distribution's libtbb), push and
// try_pop. Validated against tla/specs/LinearizableQueue.tla.
//
// What TBB promises: the API reference calls concurrent_queue "an unbounded first-in-first-out
// data structure" whose try_pop fails only when the queue is empty; the Developer Guide ("Concurrent
// Queue Classes") is more careful: with concurrent pushers and poppers "the definition of first is
// uncertain", and it guarantees only that two values pushed by one thread and popped by one thread
// come out in push order. A linearizable FIFO queue satisfies that weaker guarantee, so a trace
// that passes LinearizableQueue also passes it; a trace that fails must be checked against the
// weaker guarantee (per-producer order, tla/specs/PerProducerQueue.tla's semantics) before it is
// called a TBB bug. No spurious try_pop failure is documented, so the spec allows an empty pop only
// on an empty queue.
#include <cstdint>

#include <oneapi/tbb/concurrent_queue.h>

#include "common/queue_workload.hpp"

namespace {

class TbbConcurrentQueue {
 public:
  void enqueue(std::int64_t v, omnilink::Context&) { queue_.push(v); }
  bool try_dequeue(std::int64_t& out, omnilink::Context&) { return queue_.try_pop(out); }

 private:
  oneapi::tbb::concurrent_queue<std::int64_t> queue_;
};

}  // namespace

int main(int argc, char** argv) { return examples::run_queue_workload<TbbConcurrentQueue>(argc, argv); }
