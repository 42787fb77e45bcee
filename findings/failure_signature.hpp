// Failure signatures (docs/campaign.md, "Failure signatures"): what groups the failing runs of one
// bug and separates different bugs, computed from what the validation found, never from the run's
// seed, timing or operation indices (which differ in every run of the same bug). A run whose
// explanation found the rules it breaks (explain/broken_rules.hpp) is signed by them, the core's
// refusal being its symptom. Otherwise a validation
// failure decided by the native checker is signed by the target and the operation the spec refused
// (its name and the action that refused it): in the run's failing core where one was found and
// proven one-minimal (explain/, as a campaign does for each native FAIL), whose few operations are the failure and
// fail alike in every run of one bug; else at the whole run's deepest state, where a run may
// first break another rule on the way (a lock held, a transaction not begun). How that run showed the bug is
// its symptom: the conjunct that refused it and how the operation is tied to the others by the
// values it logged (those tied operations' names and whether they were linearized there; which of
// its fields no other operation logged), counting only the values the refusing conjunct mentions,
// or the value the state held that no operation is left to take out (a lost element). One bug
// shows several symptoms under chaos (an unlocked reader sees a stale flag, a stale value, a torn
// one), so runs are grouped by signature and the symptoms are listed under it. Without a refusal
// (TLC decided, or no operation is refused as a whole there) it is the target and the names of the
// frontier's viable operations: coarser, and said. A crash (a run that died of a signal and whose
// trace prefix passed) is signed by where it struck.
#pragma once

#include <optional>
#include <string>

#include "explain/explanation.hpp"
#include "findings/crash_site.hpp"
#include "store/store.hpp"
#include "results/result_file.hpp"

namespace omnilink::findings {

/// How one failing run showed its bug, in more detail than its signature.
struct FailureSymptom {
  std::string id;     // 12 hex digits of a 64-bit FNV-1a hash of `key`
  std::string key;    // what it is computed from, readable, '|'-separated
  std::string title;  // one line for people: how the spec refused the operation
};

struct FailureSignature {
  std::string id;     // 12 hex digits of a 64-bit FNV-1a hash of `key`: how reports name it
  std::string key;    // what it is computed from, readable, '|'-separated
  std::string title;  // one line for people: what the spec refused (or where a crash struck)
  FailureSymptom symptom;  // the refusal in detail; a crash's and a stuck search's is the signature itself
  bool crash = false;      // crash_signature's (a run that died of a signal), not a validation failure's
};

/// The signature of a validation failure from its result.json (results/result_file.hpp);
/// nothing if the result holds no frontier.
std::optional<FailureSignature> failure_signature(const std::string& target, const results::StoredResult& result);

/// The signature of a crash from its crash site: the target, the signal, and the innermost frame in
/// the code under test (its function without template arguments or parameters, and its file; not
/// the line, which an unrelated edit moves; but the line where the function is a standard library
/// wrapper that a lambda was inlined into); without such a frame, the target and the signal.
FailureSignature crash_signature(const std::string& target, const CrashSite& site);

/// The signature of a failed run (outcome fail), from its failing core (RUN/explain/, for the spec
/// of its newest validation) or else RUN/validation/result.json, or of a crashed one (outcome
/// crashed), from RUN/crash.json; nothing for other runs or without those files.
std::optional<FailureSignature> failure_signature(const store::RunRecord& run);
/// The same for a caller that has read the run's explanation (nothing: none that reads, or not of
/// the run's newest validation) and its result.json (nothing: none that reads) already, so that
/// each is read once.
std::optional<FailureSignature> failure_signature(const store::RunRecord& run, const std::optional<explain::Explanation>& kept,
                                                  const std::optional<results::StoredResult>& result);

}  // namespace omnilink::findings
