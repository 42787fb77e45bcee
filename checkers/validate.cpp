#include "checkers/validate.hpp"

#include <algorithm>
#include <fstream>
#include <map>

#include "language/modules.hpp"
#include "language/syntax.hpp"
#include "language/interface.hpp"
#include "platform/special_file.hpp"
#include "trace/run_dir.hpp"
#include "history/history.hpp"
#include "history/history_file.hpp"
#include "checkers/native_check.hpp"
#include "history/problem.hpp"
#include "checkers/spec_cache.hpp"
#include "checkers/tlc_check.hpp"
#include "trace/run_layout.hpp"

namespace omnilink::checkers {
namespace fs = std::filesystem;

namespace {

/// Runs the checker the options choose on one Problem, against the spec loaded once for both
/// checkers (its interface names TLC's actions; the native checker evaluates it).
class Decider {
 public:
  Decider(const ValidateOptions& options, const language::SpecInterface& spec, language::LoadedSpec& loaded)
      : options_(options), spec_(spec), loaded_(loaded) {}

  /// Checks `problem`, writing what the checkers write under `dir`.
  void decide(results::ValidationResult& result, const history::Problem& problem, const fs::path& dir) {
    switch (options_.checker) {
      case Checker::tlc:
        return check_with_tlc(result, problem, spec_, loaded_, dir, options_);
      case Checker::native:
        if (native(result, problem)) return;
        result.verdict = results::Verdict::error;
        result.reason = "the native checker cannot evaluate this spec: " + native_unavailable_ + " (validate it with --checker tlc)";
        return;
      case Checker::automatic:
        if (native(result, problem)) return;
        check_with_tlc(result, problem, spec_, loaded_, dir, options_);
        result.caveats.push_back("decided by TLC: the native checker cannot evaluate this spec: " + native_unavailable_);
        return;
      case Checker::both: {
        if (!native(result, problem)) {
          result.verdict = results::Verdict::error;
          result.reason = "--checker both: the native checker cannot evaluate this spec: " + native_unavailable_;
          return;
        }
        return cross_check(result, problem, dir, "TLC agrees (" + to_string(result.verdict) + ")", "--checker both: TLC gave no verdict: ");
      }
    }
  }

  /// A native FAIL checked again by TLC, where TLC is present.
  void confirm(results::ValidationResult& result, const history::Problem& problem, const fs::path& dir) {
    if (result.checker != results::DecidedBy::native || result.verdict != results::Verdict::fail || !options_.confirm_failures || options_.checker == Checker::both) return;
    std::string why_not;
    if (!locate_tlc(options_, why_not)) {
      // Not where it was looked for: `omnilink doctor` and a campaign's header say that, once.
      result.caveats.push_back("the failure was not confirmed by TLC (" + why_not.substr(0, why_not.find(": ")) +
                               "; `omnilink doctor` says where omnilink looks)");
      return;
    }
    // A failure a projection proved: TLC checks that projection, which is what proves it.
    cross_check(result, proof_ ? *proof_ : problem, dir,
                "TLC confirms the failure" + std::string(proof_ ? " of the projection" : "") + " (" + dir.filename().string() + "/)",
                "TLC could not confirm the failure: ");
  }

 private:
  // Runs the native checker if it can evaluate the spec; false (with native_unavailable_ set) if not.
  bool native(results::ValidationResult& result, const history::Problem& problem) {
    if (!native_unavailable_.empty()) return false;
    try {
      proof_.reset();
      check_natively(result, problem, loaded_, options_, &proof_);
      return true;
    } catch (const language::FragmentError& e) {
      native_unavailable_ = e.what();
      return false;
    }
  }

  // TLC on the same problem beside the native result: agreement and TLC's failing to decide are
  // caveats (`agreed`, `undecided` + TLC's reason), a disagreement makes the verdict an error.
  void cross_check(results::ValidationResult& result, const history::Problem& problem, const fs::path& dir, const std::string& agreed,
                   const std::string& undecided) {
    results::ValidationResult tlc;
    check_with_tlc(tlc, problem, spec_, loaded_, dir, options_);
    if (tlc.verdict == results::Verdict::unknown) {
      result.caveats.push_back(undecided + tlc.reason);
    } else if (tlc.verdict != result.verdict || !same_depth(result, tlc)) {
      disagree(result, tlc);
    } else {
      result.caveats.push_back(agreed);
    }
  }

  // TLC searches the whole history; a partitioned native search's depth is its failing part's.
  static bool same_depth(const results::ValidationResult& native, const results::ValidationResult& tlc) {
    return native.verdict != results::Verdict::fail || native.partitions || native.linearized == tlc.linearized;
  }

  static void disagree(results::ValidationResult& result, const results::ValidationResult& tlc) {
    const std::string native = to_string(result.verdict) + (result.linearized ? " at depth " + std::to_string(*result.linearized) : "");
    const std::string other = to_string(tlc.verdict) + (tlc.linearized ? " at depth " + std::to_string(*tlc.linearized) : "");
    result.reason = "the checkers disagree: native " + native + ", TLC " + other + " (a bug in omnilink: please report it)";
    result.verdict = results::Verdict::error;
    result.frontier.clear();
  }

  const ValidateOptions& options_;
  const language::SpecInterface& spec_;
  language::LoadedSpec& loaded_;
  std::string native_unavailable_;  // a construct the embedded checker does not evaluate: TLC may
  std::optional<history::Problem> proof_;    // the projection that proved the native checker's failure
};

// A FAIL whose search gave pending operations results from the values logged in the run (the
// domain rule's third case) may be false: the real results need not have been logged anywhere.
// It stands only if the longest prefix of the run that every linearization must begin with, the
// operations that all ended before anything else (pending operations included) started, fails on
// its own; otherwise the verdict is unknown.
void certify_failure(results::ValidationResult& result, const history::Problem& problem, const language::SpecInterface& spec,
                     const language::LoadedSpec& loaded, Decider& decider, const fs::path& dir) {
  const std::string hint = "define OmniLinkDomain_<Op>_<field> in an MC module with every result a pending operation could have "
                           "returned for a decisive verdict";
  history::History prefix = history::prefix_before_pending(problem.history);
  const std::uint64_t kept = prefix.operations();
  results::ValidationResult certified;
  if (kept > 0) decider.decide(certified, history::make_problem(std::move(prefix), spec, loaded), dir);
  if (certified.verdict == results::Verdict::fail) {
    // TLC's files for the check are in certify/; the native checker writes none.
    result.caveats.push_back("the failure stands without the pending operations: the " + std::to_string(kept) +
                             " operations that ended before any later one started fail on their own" +
                             (certified.checker == results::DecidedBy::tlc ? " (validation/certify/)" : "") + "; the frontier is theirs");
    result.linearized = certified.linearized;
    result.frontier = certified.frontier;
    result.spec_state = certified.spec_state;
    result.spec_variables = certified.spec_variables;
    result.refused = certified.refused;
    return;
  }
  result.verdict = results::Verdict::unknown;
  result.reason = "no order is accepted when the pending operations' unknown results are taken from the values logged in the run, "
                  "which may miss the real ones, and the " + std::to_string(kept) +
                  " operations before them " + (kept == 0 ? "decide nothing" : "are accepted (" + to_string(certified.verdict) + ")") + ": " + hint;
  result.frontier.clear();
  result.refused.reset();
}

}  // namespace

results::ValidationResult validate_run(const ValidateOptions& options) {
  results::ValidationResult result;
  // Nothing there: nothing to write results into either (creating PATH/validation/ would make a
  // directory of a mistyped file name).
  if (std::error_code ec; !fs::exists(options.run_dir, ec)) {
    result.verdict = results::Verdict::error;
    result.reason = options.run_dir.string() + ": no such run directory or history file";
    return result;
  }
  if (std::error_code ec; !fs::is_directory(options.run_dir, ec)) {
    if (const auto special = platform::not_a_regular_file(options.run_dir, "a run directory or history file")) {
      result.verdict = results::Verdict::error;
      result.reason = options.run_dir.string() + ": " + *special;
      return result;
    }
  }
  // A history file's results go beside it (FILE.validation/), a run's into the run directory.
  const bool history_file = history::is_history_file(options.run_dir);
  result.directory = history_file ? fs::path(options.run_dir.string() + ".validation") : trace::RunLayout(options.run_dir).validation();
  auto write_result = [&] {
    std::error_code ec;
    fs::create_directories(result.directory, ec);
    // replace: a message quoting a damaged byte must not stop the result from being written.
    std::ofstream(result.directory / "result.json", std::ios::trunc)
        << result.to_json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  };
  auto fail_with = [&](const std::string& why) {
    result.verdict = results::Verdict::error;
    result.reason = why;
  };
  try {
    ReadSpec& read = read_spec(options);
    language::LoadedSpec* loaded = read.loaded.get();
    const language::SpecInterface& spec = read.interface;

    // A fresh directory each time: nothing from an earlier validation can be mistaken for this one's.
    fs::remove_all(result.directory);
    const fs::path dir = fs::absolute(result.directory);
    fs::create_directories(dir);
    history::History history = history::read_run_or_history_file(options.run_dir);
    result.cut = history.cut;
    result.clock = history.clock;
    result.dropped_failed = history.dropped_failed;
    if (history.cut && history.operations() == history.pending_operations()) {
      // Nothing completed survived the cut: a pass would claim a run was checked that was not.
      result.verdict = results::Verdict::unknown;
      result.reason = "the run was killed and its consistent cut keeps no completed operation to validate";
      result.caveats = history.caveats;
      write_result();
      return result;
    }
    const history::Problem problem = history::make_problem(std::move(history), spec, *loaded);
    result.operations = problem.operations;
    result.pending = problem.pending;
    Decider decider(options, spec, *loaded);
    decider.decide(result, problem, dir);
    result.caveats.insert(result.caveats.begin(), problem.caveats.begin(), problem.caveats.end());
    if (result.verdict == results::Verdict::fail && problem.logged_value_domains) certify_failure(result, problem, spec, *loaded, decider, dir / "certify");
    decider.confirm(result, problem, dir / "confirm");
  } catch (const language::SpecError& e) {  // found while binding what a checker evaluates
    fail_with(std::string("the spec is not valid TLA+: ") + e.what());
  } catch (const history::HistoryError& e) {
    fail_with(e.what());
    result.corrupt_trace = true;
  } catch (const history::ValidationError& e) {
    fail_with(e.what());
  } catch (const trace::RunDirError& e) {
    fail_with(e.what());
  } catch (const fs::filesystem_error& e) {
    fail_with(e.what());
  } catch (const std::exception& e) {
    // A bug of omnilink's, not of the input: this run's verdict says so, and a batch goes on.
    fail_with(std::string("internal error of omnilink (please report it): ") + e.what());
  }
  write_result();
  return result;
}

}  // namespace omnilink::checkers
