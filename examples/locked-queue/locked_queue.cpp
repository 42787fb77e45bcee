// Workload: a FIFO queue guarded by one mutex (std::deque). Correct: every trace is linearizable.
#include <cstdint>
#include <deque>
#include <mutex>

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

int main(int argc, char** argv) { return examples::run_queue_workload<LockedQueue>(argc, argv); }
