#include "validation/native_search.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <optional>
#include <thread>

#include "platform/memory.hpp"
#include "validation/fingerprint_set.hpp"
#include "validation/refusal_explainer.hpp"
#include "validation/search_heuristics.hpp"
#include "validation/search_space.hpp"
#include "validation/value_index.hpp"

namespace omnilink::validation {
namespace {

using language::Fingerprint;
using language::Value;

struct Frame {
  Node node;
  std::vector<std::uint32_t> order;  // threads to try (SearchHeuristics::order)
  std::size_t next_thread = 0;
  std::vector<Successor> successors;  // of the thread being tried
  std::size_t next_successor = 0;
  // Entries of `taken_path` to drop when this frame is: pending operations linearized on the way
  // here (its own step's, and those of exhausted parents it replaced).
  std::uint32_t taken = 0;
  Fingerprint id;                    // of `node`, in the visited set
  std::vector<Fingerprint> replaced;  // the exhausted parents this frame replaced: settled when it is
};

/// Pending operations linearized on a path: thread and candidate.
using TakenPath = std::vector<std::pair<std::uint32_t, std::int32_t>>;

/// The search core: depth-first over the space, a visited set, restarts. What to try first and
/// what to learn are the heuristics'; why it got no further, the explainer's.
class Search {
 public:
  Search(const Problem& problem, language::LoadedSpec& spec, const NativeSearchOptions& options)
      : options_(options), space_(problem, spec, options), values_(problem), explainer_(space_, values_),
        heuristics_(space_, explainer_, values_) {}

  SearchReport run();

 private:
  /// One depth-first pass from the initial states: a report, or nothing if it stalled and learned.
  std::optional<SearchReport> attempt(std::uint64_t budget);
  /// Takes out of the visited set what an abandoned attempt had not finished exploring.
  void forget_unfinished(const std::vector<Frame>& stack);
  void remember_deepest(const Node& n, std::int64_t p) {
    deepest_progress_ = p;
    deepest_optional_ = space_.optional_passed(n);
    deepest_ = n;
    deepest_taken_ = taken_path_;
  }
  SearchReport report(SearchReport::Outcome outcome, const Node& at, const TakenPath& taken);

  const NativeSearchOptions& options_;
  SearchSpace space_;
  ValueIndex values_;  // one, built on first use, for the heuristics and the explainer
  RefusalExplainer explainer_;
  SearchHeuristics heuristics_;
  std::vector<Node> initial_;
  std::chrono::steady_clock::time_point started_at_;
  std::vector<Fingerprint> unsettled_;  // visited states inside a multi-step operation
  FingerprintSet visited_;
  std::uint64_t generated_ = 0;
  TakenPath taken_path_;  // pending operations linearized on the current path
  std::int64_t deepest_progress_ = -1;
  std::int64_t deepest_optional_ = -1;
  Node deepest_;
  TakenPath deepest_taken_;
};

SearchReport Search::report(SearchReport::Outcome outcome, const Node& at, const TakenPath& taken) {
  SearchReport r;
  r.outcome = outcome;
  r.linearized = space_.progress(at);
  for (std::uint32_t pc : at.pc) r.next.push_back(pc);
  r.spec_state = Value::seq(at.spec).text();
  for (const Value& v : at.spec) r.spec_values.push_back(v.text());
  std::vector<std::pair<std::uint32_t, std::int32_t>> seen;
  for (const auto& [t, c] : taken) {
    const std::size_t position = space_.problem().threads[t].size() - 1;  // pending operations are last
    if (std::find(seen.begin(), seen.end(), std::make_pair(t, c)) != seen.end()) continue;
    seen.emplace_back(t, c);
    SearchReport::Taken entry{t, position, {}};
    for (const Value& v : space_.op({t, static_cast<std::uint32_t>(position)}).candidates[static_cast<std::size_t>(c)]) entry.arguments.push_back(v.text());
    r.pending_taken.push_back(std::move(entry));
  }
  // A search out of room names its deepest refusal too: what a smaller proof may start from.
  if (outcome == SearchReport::Outcome::rejected || (outcome == SearchReport::Outcome::limit && options_.explain_limit))
    r.refused = explainer_.explain(at, heuristics_.order(at));
  r.states_generated = generated_;
  r.states_distinct = visited_.size();
  return r;
}


SearchReport Search::run() {
  started_at_ = options_.since.value_or(std::chrono::steady_clock::now());
  // A linearizable history visits about one state per operation, a small rejected one a few
  // thousand: room for those up front (256 KiB), since growing by doubling rehashes everything.
  visited_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(std::max<std::uint64_t>(static_cast<std::uint64_t>(space_.total()) + 16, 8192), options_.max_states)));
  initial_ = space_.initial_nodes();
  if (initial_.empty()) {
    SearchReport r;
    r.outcome = SearchReport::Outcome::no_initial_state;
    r.linearized = -1;
    return r;
  }
  std::uint64_t budget = std::max<std::uint64_t>(1, options_.restart_budget);
  std::int64_t best_at_last_restart = -1;
  for (;;) {
    if (std::optional<SearchReport> r = attempt(budget)) return std::move(*r);
    // A restart that got further than the one before starts a new stretch of trouble: it gets the
    // first budget again. Otherwise the budget doubles, so the search stays complete: progress is
    // bounded, and an attempt whose budget exceeds every state left finishes.
    if (deepest_progress_ > best_at_last_restart) {
      best_at_last_restart = deepest_progress_;
      budget = std::max<std::uint64_t>(1, options_.restart_budget);
    } else {
      budget *= 2;
    }
  }
}

std::optional<SearchReport> Search::attempt(std::uint64_t budget) {
  // The root frame's successors are the initial states.
  std::vector<Frame> stack(1);
  for (const Node& n : initial_) stack[0].successors.push_back({n, -1, -1});
  taken_path_.clear();
  heuristics_.new_attempt();
  std::int64_t best = -1;
  std::uint64_t stalled_since = generated_;

  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next_successor < f.successors.size()) {
      Successor s = std::move(f.successors[f.next_successor++]);
      ++generated_;
      if ((generated_ & 255) == 0) {
        if (options_.cancel != nullptr && options_.cancel->load()) {
          SearchReport r = report(SearchReport::Outcome::cancelled, deepest_, deepest_taken_);
          r.limit = "the validation was cancelled";
          return r;
        }
        if (std::chrono::steady_clock::now() - started_at_ > options_.time_limit) {
          SearchReport r = report(SearchReport::Outcome::limit, deepest_, deepest_taken_);
          r.limit = "the native search did not finish within " + std::to_string(options_.time_limit.count() / 1000) + " s";
          return r;
        }
      }
      // Memory: the process's resident memory, read every 4096 states (a system call: about a
      // microsecond, against the milliseconds those states take), and before the visited set
      // doubles, counting the table it would allocate. Between two reads the stack's frames and
      // the evaluator's values grow by far less than a doubling of the set.
      if (options_.max_memory_mb != 0 && ((generated_ & 4095) == 0 || visited_.growth_bytes() != 0)) {
        const std::uint64_t limit = options_.max_memory_mb * 1024 * 1024;
        if (platform::resident_memory_bytes() + visited_.growth_bytes() > limit) {
          SearchReport r = report(SearchReport::Outcome::limit, deepest_, deepest_taken_);
          r.limit = "the native search reached its memory limit of " + std::to_string(options_.max_memory_mb) + " MiB (" +
                    std::to_string(visited_.size()) + " distinct states)";
          return r;
        }
      }
      if (generated_ - stalled_since > budget) {
        if (heuristics_.learn()) {
          forget_unfinished(stack);
          return std::nullopt;
        }
        stalled_since = generated_;  // nothing new to learn: go on, and look again after as long once more
        budget *= 2;
      }
      const Fingerprint id = space_.fingerprint(s.node);
      if (!visited_.insert(id)) continue;
      if (visited_.size() > options_.max_states) {
        SearchReport r = report(SearchReport::Outcome::limit, deepest_, deepest_taken_);
        r.limit = "the native search reached its limit of " + std::to_string(options_.max_states) + " distinct states";
        return r;
      }
      Frame next;
      next.id = id;
      if (SearchSpace::begun(s.node)) unsettled_.push_back(id);
      next.taken = s.taken_thread >= 0 ? 1 : 0;
      if (next.taken) taken_path_.emplace_back(static_cast<std::uint32_t>(s.taken_thread), s.taken_candidate);
      // A frame with nothing left to try is never returned to: the child replaces it, so a long
      // stretch where one operation at a time is viable keeps one frame, not one per operation.
      if (f.next_successor == f.successors.size() && f.next_thread == f.order.size() && stack.size() > 1) {
        next.taken += f.taken;
        next.replaced = std::move(f.replaced);
        next.replaced.push_back(f.id);
        stack.pop_back();
      }
      const std::int64_t p = space_.progress(s.node);
      if (p > deepest_progress_ || (p == deepest_progress_ && space_.optional_passed(s.node) > deepest_optional_)) remember_deepest(s.node, p);
      if (p > best) best = p, stalled_since = generated_;
      if (p == space_.total()) return report(SearchReport::Outcome::accepted, s.node, taken_path_);
      // A read the state accepts goes first, alone (SearchSpace::forced_step): the frame has that
      // one successor and no thread left to try.
      if (!space_.forced_step(s.node, next.successors)) next.order = heuristics_.order(s.node);
      next.node = std::move(s.node);
      stack.push_back(std::move(next));
      continue;
    }
    if (f.next_thread < f.order.size()) {
      f.next_successor = 0;
      space_.successors(f.node, f.order[f.next_thread++], f.successors);
      // The most urgent operation cannot go (the root frame has no threads to try).
      if (f.successors.empty() && f.next_thread == 1) heuristics_.stuck(f.node, space_.progress(f.node), f.order);
      continue;
    }
    taken_path_.resize(taken_path_.size() - f.taken);
    stack.pop_back();
  }
  return report(SearchReport::Outcome::rejected, deepest_, deepest_taken_);
}

void Search::forget_unfinished(const std::vector<Frame>& stack) {
  for (std::size_t k = 1; k < stack.size(); ++k) {
    visited_.erase(stack[k].id);
    for (const Fingerprint& f : stack[k].replaced) visited_.erase(f);
  }
  for (const Fingerprint& f : unsettled_) visited_.erase(f);
  unsettled_.clear();
}

}  // namespace

SearchReport search_linearization(const Problem& problem, language::LoadedSpec& spec, const NativeSearchOptions& options) {
  Search search(problem, spec, options);
  return search.run();
}

namespace {

/// Searches `problems[k]` for each k in `which`, up to `jobs` at once, into `reports[k]`.
void search_each(const std::vector<Problem>& problems, const std::vector<std::size_t>& which, language::LoadedSpec& spec,
                 const NativeSearchOptions& options, unsigned jobs, std::vector<SearchReport>& reports) {
  std::vector<std::unique_ptr<Search>> searches;
  for (std::size_t k : which) searches.push_back(std::make_unique<Search>(problems[k], spec, options));  // binds
  std::vector<std::exception_ptr> errors(searches.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k = next++; k < searches.size(); k = next++) {
      try {
        reports[which[k]] = searches[k]->run();
      } catch (...) {
        errors[k] = std::current_exception();
      }
      searches[k].reset();  // its memory back as soon as it is done
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < std::max(1u, jobs) && j < searches.size(); ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace

std::vector<SearchReport> search_linearizations(const std::vector<Problem>& problems, language::LoadedSpec& spec,
                                                const NativeSearchOptions& options, unsigned jobs, PartsPolicy policy) {
  std::vector<SearchReport> reports(problems.size());
  std::vector<std::size_t> undecided(problems.size());
  for (std::size_t k = 0; k < problems.size(); ++k) undecided[k] = k;
  if (policy == PartsPolicy::every_part) {
    search_each(problems, undecided, spec, options, jobs, reports);
    return reports;
  }
  NativeSearchOptions shared = options;
  shared.since = options.since.value_or(std::chrono::steady_clock::now());
  for (std::uint64_t room = std::min(kFirstRoundStates, options.max_states);; room = std::min(room * 4, options.max_states)) {
    NativeSearchOptions round = shared;
    const bool last = room == options.max_states;
    round.max_states = room;
    round.explain_limit = last;
    search_each(problems, undecided, spec, round, jobs, reports);
    using Outcome = SearchReport::Outcome;
    std::vector<std::size_t> again;
    bool rejected = false;
    for (std::size_t k : undecided) {
      const SearchReport& r = reports[k];
      rejected |= r.outcome == Outcome::rejected || r.outcome == Outcome::no_initial_state;
      // Out of this round's room (not out of time or memory): the next round gives it more.
      if (r.outcome == Outcome::limit && r.states_distinct > room) again.push_back(k);
    }
    if (rejected || again.empty() || last) return reports;
    undecided = std::move(again);
  }
}

}  // namespace omnilink::validation
