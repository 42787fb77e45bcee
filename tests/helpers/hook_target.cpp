// A minimal workload compiled at -O3 for the replay-hook test: its operation is trivially
// inlinable, so the test shows the hook call survives aggressive optimisation.
#include <cstdint>

#include <omnilink/harness.hpp>

namespace {

struct Bump {
  static constexpr std::string_view omnilink_name = "Bump";
  std::int64_t value = 0;
  template <class V>
  void omnilink_fields(V&& f) const { f("value", value); }
};

}  // namespace

int main(int argc, char** argv) {
  omnilink::Harness<std::int64_t> harness(argc, argv);
  harness.op<Bump>([](std::int64_t& x, omnilink::Context&, Bump& op) { op.value = ++x; });
  std::int64_t x = 0;
  return harness.run(x);
}
