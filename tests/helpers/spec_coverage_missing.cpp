// Must NOT compile: Bulk is neither implemented nor declared unsupported. The test
// `spec_coverage_is_enforced` builds this and expects the coverage error naming Bulk.
#include "queue_ops.hpp"

int main(int argc, char** argv) {
  omnilink::Harness<int> base(argc, argv);
  auto harness = omnilink::spec_harness<queue::Operations>(base)
                     .op<queue::Enqueue>([](int&, omnilink::Context&, queue::Enqueue&) {})
                     .op<queue::Dequeue>([](int&, omnilink::Context&, queue::Dequeue&) {});
  int sut = 0;
  return harness.run(sut);
}
