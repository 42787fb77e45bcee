#include "store/outcome.hpp"

namespace omnilink::store {

std::string outcome(const RunRecord& run) {
  if (run.validation && run.validation->verdict == "fail") return "fail";
  if (run.status == "ok") {
    if (!run.validation) return "interrupted";
    return run.validation->verdict;  // pass | unknown | error
  }
  if (run.status == "pending" || run.status == "running") return "interrupted";
  return run.status;
}

int exit_code_for(const std::vector<RunRecord>& runs) {
  int code = 0;
  for (const auto& run : runs) {
    const std::string o = outcome(run);
    if (o == "fail") return 1;
    if (o != "pass") code = 2;
  }
  return code;
}

}  // namespace omnilink::store
