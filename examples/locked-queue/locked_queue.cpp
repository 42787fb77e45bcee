// Workload: a FIFO queue guarded by one mutex (std::deque). Correct: every trace is linearizable.
#include <cstdint>
#include <deque>
#include <mutex>

#include "common/queue_workload.hpp"

namespace {

class LockedQueue {
 public:
  void enqueue(std::int64_t v, omnilink::Context& ctx) {
    std::lock_guard lock(mutex_);
    ctx.refine_start();
    items_.push_back(v);
    ctx.refine_end();
  }
  bool try_dequeue(std::int64_t& out, omnilink::Context& ctx) {
    std::lock_guard lock(mutex_);
    ctx.refine_start();
    const bool ok = !items_.empty();
    if (ok) {
      out = items_.front();
      items_.pop_front();
    }
    ctx.refine_end();
    return ok;
  }

 private:
  std::mutex mutex_;
  std::deque<std::int64_t> items_;
};

}  // namespace

int main(int argc, char** argv) { return examples::run_queue_workload<LockedQueue>(argc, argv); }
