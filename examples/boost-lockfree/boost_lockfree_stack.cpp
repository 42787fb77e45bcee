// Workload: boost::lockfree::stack (Boost 1.74, unmodified, header-only), a Treiber stack.
// Validated against tla/specs/Stack.tla: Boost documents pop as returning false only when the
// stack is empty.
//
// Policy: a compile-time capacity (which implies fixed_sized): its nodes live in one array and
// the freelist links them by 16-bit tagged indices, the other freelist Boost has (the queue
// harness uses the node-based one). The capacity is small enough that the workload fills the
// stack now and then: push then returns false and changes nothing, which the stack workload logs
// as failed without effect, so refusals are checked too (a refused element must never be popped).
#include <cstdint>

#include <boost/lockfree/stack.hpp>

#include "common/stack_workload.hpp"

namespace {

class BoostLockfreeStack {
 public:
  bool push(std::int64_t v, omnilink::Context&) { return stack_.push(v); }
  bool try_pop(std::int64_t& out, omnilink::Context&) { return stack_.pop(out); }

 private:
  static constexpr std::size_t capacity = 16;
  boost::lockfree::stack<std::int64_t, boost::lockfree::capacity<capacity>> stack_;
};

}  // namespace

int main(int argc, char** argv) {
  BoostLockfreeStack stack;
  return examples::run_stack_workload(argc, argv, stack);
}
