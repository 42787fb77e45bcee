// Operation types and the workload for the stack examples, matching tla/specs/Stack.tla: Push(elem),
// and Pop(elem, ok) where a pop that finds the stack empty is an observation too (ok = FALSE).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <omnilink/harness.hpp>

#include "common/queue_ops.hpp"  // unique_elem

namespace examples {

struct Push {
  static constexpr std::string_view omnilink_name = "Push";
  static constexpr std::array<std::string_view, 1> omnilink_inputs{"elem"};
  std::int64_t elem = 0;
  template <class V>
  void omnilink_fields(V&& field) const { field("elem", elem); }
};

struct Pop {
  static constexpr std::string_view omnilink_name = "Pop";
  static constexpr std::array<std::string_view, 0> omnilink_inputs{};  // elem and ok are results
  std::int64_t elem = 0;  // 0 when !ok
  bool ok = false;
  template <class V>
  void omnilink_fields(V&& field) const {
    field("elem", elem);
    field("ok", ok);
  }
};

// The stack workload, for any stack with push(v, ctx) and bool try_pop(v&, ctx). Elements are
// unique across the run (unique_elem), so a lost, duplicated or invented element is visible.
// A push the structure refuses (a bounded stack that is full) is logged as failed without effect.
template <class Stack>
int run_stack_workload(int argc, char** argv, Stack& stack) {
  omnilink::Harness<Stack> harness(argc, argv);
  harness.template op<Push>([](Stack& s, omnilink::Context& ctx, Push& op) {
    op.elem = unique_elem(ctx.thread(), ctx.index());
    ctx.inputs_ready();
    if (!s.push(op.elem, ctx)) ctx.failed_without_effect();
  });
  harness.template op<Pop>([](Stack& s, omnilink::Context& ctx, Pop& op) { op.ok = s.try_pop(op.elem, ctx); });
  return harness.run(stack);
}

}  // namespace examples
