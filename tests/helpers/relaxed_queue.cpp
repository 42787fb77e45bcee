// A correct k-relaxed FIFO queue (k = 4): elements go into segments of k slots in order, and a
// dequeue takes any element of the oldest segment, chosen at random. A relaxed structure that
// does what it promises, checked against the strict FIFO spec by tests/explain_test.cpp: its runs
// fail, and the failing core must show the relaxation in a few operations.
#include <cstdint>
#include <deque>
#include <mutex>
#include <random>
#include <vector>

#include "common/queue_workload.hpp"

namespace {

constexpr std::size_t kSegment = 4;

class RelaxedQueue {
 public:
  void enqueue(std::int64_t v, omnilink::Context& ctx) {
    std::lock_guard lock(mutex_);
    ctx.refine_start();
    if (segments_.empty() || segments_.back().filled == kSegment) segments_.emplace_back();
    Segment& tail = segments_.back();
    tail.items.push_back(v);
    ++tail.filled;
    ctx.refine_end();
  }

  bool try_dequeue(std::int64_t& out, omnilink::Context& ctx) {
    std::lock_guard lock(mutex_);
    ctx.refine_start();
    while (!segments_.empty() && segments_.front().items.empty() && segments_.front().filled == kSegment) segments_.pop_front();
    if (segments_.empty() || segments_.front().items.empty()) {
      ctx.refine_end();
      return false;
    }
    std::vector<std::int64_t>& items = segments_.front().items;
    const std::size_t k = std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(rng_);
    out = items[k];
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(k));
    ctx.refine_end();
    return true;
  }

 private:
  struct Segment {
    std::vector<std::int64_t> items;
    std::size_t filled = 0;  // slots ever used: a segment is retired once full and empty
  };
  std::mutex mutex_;
  std::deque<Segment> segments_;
  std::mt19937_64 rng_{7};
};

}  // namespace

int main(int argc, char** argv) { return examples::run_queue_workload<RelaxedQueue>(argc, argv); }
