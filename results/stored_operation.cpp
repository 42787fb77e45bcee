#include "results/stored_operation.hpp"

#include "trace/reader.hpp"

namespace omnilink::results {

std::string StoredOperation::id() const { return trace::operation_id(thread, index); }

std::string StoredOperation::call() const {
  std::string args;
  for (const auto& [field, value] : fields) args += (args.empty() ? "" : ", ") + field + " = " + value;
  return name + "(" + args + ")";
}

}  // namespace omnilink::results
