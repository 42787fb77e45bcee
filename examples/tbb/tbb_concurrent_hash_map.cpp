// Workload: tbb::concurrent_hash_map (oneTBB 2021, unmodified, the distribution's libtbb):
// insert-if-absent through an accessor, erase, and find through a const_accessor. Validated
// against tla/specs/Map.tla (keys computed from the trace by tla/specs/MCMap.tla): TBB documents
// insert as inserting only when the key is absent (returning whether it did), erase as returning
// whether it removed the key, and find as returning whether the key is present.
#include <cstdint>

#include <oneapi/tbb/concurrent_hash_map.h>

#include "common/map_workload.hpp"

namespace {

class TbbConcurrentHashMap {
 public:
  bool insert(std::int64_t key, std::int64_t value, omnilink::Context&) {
    // The accessor write-locks the element until it goes out of scope: the lock is released
    // inside the operation's timebox, as a caller holding it would release it.
    Table::accessor element;
    return table_.insert(element, {key, value});
  }
  bool erase(std::int64_t key, omnilink::Context&) { return table_.erase(key); }
  bool find(std::int64_t key, std::int64_t& value, omnilink::Context&) {
    Table::const_accessor element;
    if (!table_.find(element, key)) return false;
    value = element->second;
    return true;
  }

 private:
  using Table = oneapi::tbb::concurrent_hash_map<std::int64_t, std::int64_t>;
  Table table_;
};

}  // namespace

int main(int argc, char** argv) {
  TbbConcurrentHashMap map;
  return examples::run_map_workload(argc, argv, map);
}
