// What the store throws: an index that cannot be opened, read or written, a run or campaign
// directory it cannot write, a store it refuses (newer schema, lost index beside campaigns).
#pragma once

#include <stdexcept>

namespace omnilink::store {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace omnilink::store
