// The smallest workload a user writes against the installed harness.
#include <atomic>
#include <cstdint>

#include <omnilink/harness.hpp>

struct Add {
  static constexpr std::string_view omnilink_name = "Add";
  std::int64_t old = 0;
  template <class V>
  void omnilink_fields(V&& f) const { f("old", old); }
};

int main(int argc, char** argv) {
  omnilink::Harness<std::atomic<std::int64_t>> harness(argc, argv);
  harness.op<Add>([](std::atomic<std::int64_t>& c, omnilink::Context&, Add& op) { op.old = c.fetch_add(1); });
  std::atomic<std::int64_t> counter{0};
  return harness.run(counter);
}
