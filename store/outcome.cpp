#include "store/outcome.hpp"

#include <ostream>

#include <nlohmann/json.hpp>

namespace omnilink::store {

std::string to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::pass: return "pass";
    case Outcome::fail: return "fail";
    case Outcome::unknown: return "unknown";
    case Outcome::crashed: return "crashed";
    case Outcome::timeout: return "timeout";
    case Outcome::bad_trace: return "bad-trace";
    case Outcome::error: return "error";
    case Outcome::interrupted: return "interrupted";
  }
  return "unknown";
}

std::ostream& operator<<(std::ostream& out, Outcome outcome) { return out << to_string(outcome); }

void to_json(nlohmann::json& j, Outcome outcome) { j = to_string(outcome); }

Outcome outcome(const RunRecord& run) {
  if (run.validation && run.validation->verdict == "fail") return Outcome::fail;
  if (run.status == RunStatus::ok) {
    if (!run.validation) return Outcome::interrupted;
    if (run.validation->verdict == "pass") return Outcome::pass;
    if (run.validation->verdict == "error") return Outcome::error;
    return Outcome::unknown;
  }
  if (run.status == RunStatus::crashed) return Outcome::crashed;
  if (run.status == RunStatus::timeout) return Outcome::timeout;
  if (run.status == RunStatus::bad_trace) return Outcome::bad_trace;
  if (run.status == RunStatus::error) return Outcome::error;
  return Outcome::interrupted;  // pending, running, interrupted
}

int exit_code_for(const std::vector<RunRecord>& runs) {
  int code = 0;
  for (const auto& run : runs) {
    const Outcome o = outcome(run);
    if (o == Outcome::fail) return 1;
    if (o != Outcome::pass) code = 2;
  }
  return code;
}

}  // namespace omnilink::store
