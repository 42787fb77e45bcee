// Workload: a std::atomic counter (fetch_add and load). Correct by construction; the smallest
// example of a workload and its trace. Its operation types, Increment(by, old) and Read(value), are
// generated from tla/specs/AtomicCounter.tla by `omnilink gen-hpp` at build time.
#include <atomic>
#include <cstdint>

#include <omnilink/harness.hpp>

#include "atomiccounter_ops.hpp"

namespace {

using examples::atomiccounter_ops::Increment;
using examples::atomiccounter_ops::Read;
using Counter = std::atomic<std::int64_t>;

}  // namespace

int main(int argc, char** argv) {
  omnilink::Harness<Counter> harness(argc, argv);
  harness.op<Increment>([](Counter& c, omnilink::Context& ctx, Increment& op) {
    op.by = ctx.uniform(1, 3);
    ctx.inputs_ready();  // if the run dies now, Increment(by) is logged pending with this input
    op.old = c.fetch_add(op.by);
  });
  harness.op<Read>([](Counter& c, omnilink::Context&, Read& op) { op.value = c.load(); });
  Counter counter{0};
  return harness.run(counter);
}
