#include "store/outcome.hpp"

#include <ostream>

#include <nlohmann/json.hpp>

#include "platform/enum_names.hpp"

namespace omnilink::store {

namespace {
constexpr platform::EnumNames<Outcome, 8> kOutcomeNames{{{
    {Outcome::pass, "pass"},
    {Outcome::fail, "fail"},
    {Outcome::unknown, "unknown"},
    {Outcome::crashed, "crashed"},
    {Outcome::timeout, "timeout"},
    {Outcome::bad_trace, "bad-trace"},
    {Outcome::error, "error"},
    {Outcome::interrupted, "interrupted"},
}}};
static_assert(kOutcomeNames.names.size() == kOutcomes.size());
}  // namespace

std::string to_string(Outcome outcome) { return kOutcomeNames.name(outcome); }

std::ostream& operator<<(std::ostream& out, Outcome outcome) { return out << to_string(outcome); }

void to_json(nlohmann::json& j, Outcome outcome) { j = to_string(outcome); }

Outcome outcome(const RunRecord& run) {
  if (run.validation && run.validation->verdict == results::Verdict::fail) return Outcome::fail;
  if (run.status == RunStatus::ok) {
    if (!run.validation) return Outcome::interrupted;
    if (run.validation->verdict == results::Verdict::pass) return Outcome::pass;
    if (run.validation->verdict == results::Verdict::error) return Outcome::error;
    return Outcome::unknown;
  }
  if (run.status == RunStatus::crashed) return Outcome::crashed;
  if (run.status == RunStatus::timeout) return Outcome::timeout;
  if (run.status == RunStatus::bad_trace) return Outcome::bad_trace;
  if (run.status == RunStatus::error) return Outcome::error;
  return Outcome::interrupted;  // pending, running, interrupted
}

int exit_code_of(const std::vector<Outcome>& outcomes) {
  int code = 0;
  for (const Outcome o : outcomes) {
    if (o == Outcome::fail) return 1;
    if (o != Outcome::pass) code = 2;
  }
  return code;
}

int exit_code_for(const std::vector<RunRecord>& runs) {
  std::vector<Outcome> outcomes;
  for (const auto& run : runs) outcomes.push_back(outcome(run));
  return exit_code_of(outcomes);
}

}  // namespace omnilink::store
