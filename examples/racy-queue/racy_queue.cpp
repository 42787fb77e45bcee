// Workload: a FIFO queue with a deliberate check-then-act race. try_dequeue reads the front in one
// critical section and pops it in another, so two consumers can both return the same element
// while another element is silently dropped. No undefined behaviour, just a non-linearizable queue:
// validation must reject some of its traces.
#include <cstdint>
#include <deque>
#include <mutex>

#include "common/queue_workload.hpp"

namespace {

class RacyQueue {
 public:
  void enqueue(std::int64_t v, omnilink::Context& ctx) {
    std::lock_guard lock(mutex_);
    ctx.refine_start();
    items_.push_back(v);
    ctx.refine_end();
  }
  // The timebox spans both critical sections: the operation is not atomic, and the window between
  // them is where the race lives.
  bool try_dequeue(std::int64_t& out, omnilink::Context& ctx) {
    {
      std::lock_guard lock(mutex_);
      ctx.refine_start();
      if (items_.empty()) {
        ctx.refine_end();
        return false;
      }
      out = items_.front();
    }
    // BUG: the element read above may already have been taken by another consumer.
    std::lock_guard lock(mutex_);
    if (!items_.empty()) items_.pop_front();
    ctx.refine_end();
    return true;
  }

 private:
  std::mutex mutex_;
  std::deque<std::int64_t> items_;
};

}  // namespace

int main(int argc, char** argv) { return examples::run_queue_workload<RacyQueue>(argc, argv); }
