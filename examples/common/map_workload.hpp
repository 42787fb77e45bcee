// The workload of the map examples, over the operation types `omnilink gen-hpp` generates from
// tla/specs/Map.tla at build time (map_ops.hpp; tla/specs/MCMap.tla computes Keys from the trace):
// Insert(key, value, inserted) inserts if the key is absent, Erase(key, erased), Find(key, value,
// found) with value 0 when not found.
#pragma once

#include <cstdint>

#include <omnilink/harness.hpp>

#include "common/queue_workload.hpp"  // unique_elem
#include "map_ops.hpp"

namespace examples {

using map_ops::Erase;
using map_ops::Find;
using map_ops::Insert;

// The map workload, for any map with bool insert(k, v, ctx) (insert if absent), bool erase(k, ctx)
// and bool find(k, v&, ctx). Keys are drawn from 1..keys (--param keys=N, default 8): few keys make
// threads meet on the same key and keep TLC's state space small (one entry per key). Values are
// unique across the run (unique_elem), so a find that returns a stale or torn value is visible.
template <class Map>
int run_map_workload(int argc, char** argv, Map& map) {
  omnilink::Harness<Map> harness(argc, argv, {omnilink::Param::integer("keys", 8, 1, 1'000'000, "keys are drawn from 1..N")});
  const std::int64_t keys = harness.options().param_int("keys");
  harness.template op<Insert>([keys](Map& m, omnilink::Context& ctx, Insert& op) {
    op.key = ctx.uniform(1, keys);
    op.value = unique_elem(ctx.thread(), ctx.index());
    ctx.inputs_ready();
    op.inserted = m.insert(op.key, op.value, ctx);
  });
  harness.template op<Erase>([keys](Map& m, omnilink::Context& ctx, Erase& op) {
    op.key = ctx.uniform(1, keys);
    ctx.inputs_ready();
    op.erased = m.erase(op.key, ctx);
  });
  harness.template op<Find>([keys](Map& m, omnilink::Context& ctx, Find& op) {
    op.key = ctx.uniform(1, keys);
    ctx.inputs_ready();
    op.found = m.find(op.key, op.value, ctx);
  }, /*weight=*/2);
  return harness.run(map);
}

}  // namespace examples
