// The data file TLC reads (OmniLinkTrace.tla describes its layout): a run's history (read and cut
// by validation/history.hpp) checked against the spec's operations, with arguments in parameter
// order, timestamps compressed to dense ranks, every integer checked to fit TLC's 32-bit range,
// and the domains of pending operations' unknown arguments (validation/pending_domains.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "tla/spec.hpp"
#include "trace/reader.hpp"
#include "validation/history.hpp"
#include "validation/pending_domains.hpp"

namespace omnilink::tla {

// The run cannot be validated against this spec (a corrupt trace, an operation the spec lacks, a
// value TLC cannot represent). The message names the operation or the file and offset.
class ValidationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What was written: the history (thread position t, 0-based, is TLA+ thread t + 1) and its
// caveats with the domain rule's additions.
struct ValidationInput {
  validation::History history;
  std::uint64_t operations = 0;  // completed operations: every one must be linearized
  std::uint64_t pending = 0;     // pending operations: each may be linearized or left out
  // Some pending operation's unknown argument ranges over the values logged in the run (the domain
  // rule's third case), which need not include its real result: a FAIL must be certified.
  bool logged_value_domains = false;
  std::vector<std::string> caveats;
};

// The spec's parameters of each operation, for the pending-domain rule: Bool-typed ones from the
// @type annotations, and those whose domain the MC module defines (OmniLinkDomain_<Op>_<param>).
std::map<std::string, validation::OperationParams> operation_params(const Spec& spec, const Spec* mc);

// Checks `history` against `spec` and writes `data_file`.
ValidationInput write_validation_input(validation::History history, const Spec& spec, const Spec* mc,
                                       const std::filesystem::path& data_file);

}  // namespace omnilink::tla
