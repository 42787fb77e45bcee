// Workload: a std::atomic counter (fetch_add and load). Correct by construction; the smallest
// example of a workload and its trace.
#include <array>
#include <atomic>
#include <cstdint>

#include <omnilink/harness.hpp>

namespace {

struct Increment {
  static constexpr std::string_view omnilink_name = "Increment";
  static constexpr std::array<std::string_view, 1> omnilink_inputs{"by"};  // old is the result
  std::int64_t by = 0;
  std::int64_t old = 0;  // the value fetch_add returned
  template <class V>
  void omnilink_fields(V&& field) const {
    field("by", by);
    field("old", old);
  }
};

struct Read {
  static constexpr std::string_view omnilink_name = "Read";
  static constexpr std::array<std::string_view, 0> omnilink_inputs{};
  std::int64_t value = 0;
  template <class V>
  void omnilink_fields(V&& field) const { field("value", value); }
};

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
