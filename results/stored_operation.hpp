// An operation as the files after a validation name it, values as TLA+ text: result.json's frontier,
// refusal and pending operations (result_file), and an explanation's core and context
// (explain/explanation.hpp). One type for both, so a report shows an operation of either the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace omnilink::results {

/// Always thread, index and name; the rest where the place it appears in gives it (a frontier
/// operation has fields, times and viability; an explanation's have fields and both times).
struct StoredOperation {
  std::uint32_t thread = 0;
  std::uint64_t index = 0;
  std::string name;
  std::vector<std::pair<std::string, std::string>> fields;  // logged order: name -> TLA+ text
  std::optional<std::uint64_t> start, end;                  // end: none while pending
  bool pending = false;
  bool viable = false;

  std::string id() const;    // "T1.4"
  std::string call() const;  // "Dequeue(elem = 7, ok = TRUE)"
};

}  // namespace omnilink::results
