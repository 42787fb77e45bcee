// The workload of the stack examples, over the operation types `omnilink gen-hpp` generates from
// tla/specs/Stack.tla at build time (stack_ops.hpp): Push(elem), and Pop(elem, ok) where a pop that
// finds the stack empty is an observation too (ok = FALSE).
#pragma once

#include <cstdint>

#include <omnilink/harness.hpp>

#include "common/queue_workload.hpp"  // unique_elem
#include "stack_ops.hpp"

namespace examples {

using stack_ops::Pop;
using stack_ops::Push;

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
