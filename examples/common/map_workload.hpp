// Operation types and the workload for the map examples, matching tla/specs/Map.tla (with
// tla/specs/MCMap.tla computing Keys from the trace): Insert(key, value, inserted) inserts if the
// key is absent, Erase(key, erased), Find(key, value, found).
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include <omnilink/harness.hpp>

#include "common/queue_ops.hpp"  // unique_elem

namespace examples {

struct Insert {
  static constexpr std::string_view omnilink_name = "Insert";
  static constexpr std::array<std::string_view, 2> omnilink_inputs{"key", "value"};
  std::int64_t key = 0;
  std::int64_t value = 0;
  bool inserted = false;
  template <class V>
  void omnilink_fields(V&& field) const {
    field("key", key);
    field("value", value);
    field("inserted", inserted);
  }
};

struct Erase {
  static constexpr std::string_view omnilink_name = "Erase";
  static constexpr std::array<std::string_view, 1> omnilink_inputs{"key"};
  std::int64_t key = 0;
  bool erased = false;
  template <class V>
  void omnilink_fields(V&& field) const {
    field("key", key);
    field("erased", erased);
  }
};

struct Find {
  static constexpr std::string_view omnilink_name = "Find";
  static constexpr std::array<std::string_view, 1> omnilink_inputs{"key"};
  std::int64_t key = 0;
  std::int64_t value = 0;  // 0 when !found
  bool found = false;
  template <class V>
  void omnilink_fields(V&& field) const {
    field("key", key);
    field("value", value);
    field("found", found);
  }
};

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
