// The data file TLC reads (OmniLinkTrace.tla describes its layout): the run's per-thread
// operations checked against the spec's operations, with arguments in parameter order,
// timestamps compressed to dense ranks, and every integer checked to fit TLC's 32-bit range.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "tla/spec.hpp"
#include "trace/reader.hpp"
#include "trace/run_dir.hpp"

namespace omnilink::tla {

// The run cannot be validated against this spec (a corrupt trace, an operation the spec lacks, a
// value TLC cannot represent). The message names the operation or the file and offset.
class ValidationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The trace itself cannot be read (the reader's error: file, byte offset, what is wrong), as
// opposed to a readable trace this spec cannot take. Campaigns report such runs as `bad-trace`.
class CorruptTraceError : public ValidationError {
 public:
  using ValidationError::ValidationError;
};

struct ValidationInput {
  // Thread position t (0-based) is TLA+ thread t + 1; entries are in the data file's order.
  std::vector<std::vector<trace::Operation>> threads;
  std::uint64_t operations = 0;      // written to the data file (aborted ones included)
  std::uint64_t dropped_failed = 0;  // failed-without-effect: no effect, so not linearized
  std::uint64_t aborted = 0;
  std::vector<std::string> caveats;  // what the verdict must be read with
};

// Reads every thread of `run`, checks it against `spec` and writes `data_file`.
ValidationInput write_validation_input(const trace::RunDir& run, const Spec& spec, const std::filesystem::path& data_file);

}  // namespace omnilink::tla
