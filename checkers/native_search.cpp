#include "checkers/native_search.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <thread>

#include "platform/memory.hpp"
#include "checkers/fingerprint_set.hpp"
#include "checkers/refusal_explainer.hpp"
#include "checkers/search_heuristics.hpp"
#include "checkers/search_space.hpp"
#include "history/value_index.hpp"

namespace omnilink::checkers {
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
  std::vector<std::uint32_t> refused_reads;  // threads whose next operation has no step (forced_step)
};

/// Pending operations linearized on a path: thread and candidate.
using TakenPath = std::vector<std::pair<std::uint32_t, std::int32_t>>;

/// What pauses a search besides its room, read before each state (a plain load on x86): its part
/// decided by the other search of it (a racer's acceptance, or the first search's decision), or a
/// part before it in key order rejected in this round, which decides the verdict whatever this one
/// would find (PartsPolicy::until_rejected).
struct PauseWhen {
  const std::atomic<bool>* part_decided = nullptr;
  const std::atomic<std::size_t>* first_rejected = nullptr;
  std::size_t part = 0;
  bool now() const {
    return (part_decided != nullptr && part_decided->load(std::memory_order_relaxed)) ||
           (first_rejected != nullptr && first_rejected->load(std::memory_order_relaxed) < part);
  }
};

/// The search core: depth-first over the space, a visited set, restarts. What to try first and
/// what to learn are the heuristics'; why it got no further, the explainer's.
class Search {
 public:
  Search(const history::Problem& problem, language::LoadedSpec& spec, const NativeSearchOptions& options,
         Urgency urgency = Urgency::ends_first)
      : options_(options), space_(problem, spec, options), values_(problem), explainer_(space_, values_),
        heuristics_(space_, explainer_, values_, urgency) {}

  /// Searches until it decides or a limit stops it (a report), or until it holds `room` distinct
  /// states or `pause` says so: then it pauses (nothing), and the next call goes on from where it
  /// stopped, with the same visited set, stack and learning, so pausing costs nothing
  /// (PartsPolicy::until_rejected).
  std::optional<SearchReport> run(std::uint64_t room = std::numeric_limits<std::uint64_t>::max(), const PauseWhen& pause = {});
  /// The report of a search paused and never resumed: out of room, `why`.
  SearchReport paused(const std::string& why);
  /// From now on, an accepting state is put into `out` and the search goes on past it
  /// (search_end_states): it ends rejected when every reachable state is visited.
  void collect_end_states(std::vector<language::State>& out) { end_states_ = &out; }

 private:
  /// A new depth-first pass from the initial states.
  void begin_attempt();
  /// Goes on with the pass under way: a report; or nothing if it stalled and learned (a new pass
  /// is due), or if it holds `room` states or `pause` says so (paused_ set).
  std::optional<SearchReport> attempt(std::uint64_t room, const PauseWhen& pause);
  /// Takes out of the visited set what an abandoned attempt had not finished exploring.
  void forget_unfinished(const std::vector<Frame>& stack);
  void remember_deepest(const Node& n, std::int64_t p) {
    deepest_progress_ = p;
    deepest_optional_ = space_.optional_passed(n);
    deepest_ = n;
    deepest_taken_ = taken_path_;
  }
  SearchReport report(SearchReport::Outcome outcome, const Node& at, const TakenPath& taken, bool explain = true);

  const NativeSearchOptions& options_;
  SearchSpace space_;
  history::ValueIndex values_;  // one, built on first use, for the heuristics and the explainer
  RefusalExplainer explainer_;
  SearchHeuristics heuristics_;
  std::vector<Node> initial_;
  bool begun_ = false;  // run() has found the initial states
  bool paused_ = false;
  // The pass under way: its stack, its restart budget (doubled while learning adds nothing), the
  // deepest it got and since when it has not got deeper.
  std::vector<Frame> stack_;
  std::uint64_t budget_ = 0, attempt_budget_ = 0, stalled_since_ = 0;
  std::int64_t attempt_best_ = -1, best_at_last_restart_ = -1;
  std::chrono::steady_clock::time_point started_at_;
  std::vector<Fingerprint> unsettled_;  // visited states inside a multi-step operation
  FingerprintSet visited_;
  std::uint64_t generated_ = 0;
  TakenPath taken_path_;  // pending operations linearized on the current path
  std::int64_t deepest_progress_ = -1;
  std::int64_t deepest_optional_ = -1;
  Node deepest_;
  TakenPath deepest_taken_;
  std::vector<language::State>* end_states_ = nullptr;  // collect_end_states
};

SearchReport Search::report(SearchReport::Outcome outcome, const Node& at, const TakenPath& taken, bool explain) {
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
  if (explain && (outcome == SearchReport::Outcome::rejected || outcome == SearchReport::Outcome::limit))
    r.refused = explainer_.explain(at, heuristics_.order(at));
  r.states_generated = generated_;
  r.states_distinct = visited_.size();
  r.data_independence_unused = space_.data_independence_unused();
  return r;
}


std::optional<SearchReport> Search::run(std::uint64_t room, const PauseWhen& pause) {
  if (!begun_) {
    begun_ = true;
    started_at_ = options_.since.value_or(std::chrono::steady_clock::now());
    // A linearizable history visits about one state per operation: room for those up front, since
    // growing by doubling rehashes everything. No more: a part of a small history (a key of ten
    // operations) would zero and fault in a table hundreds of times its size, once per part.
    visited_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(space_.total()) + 16, options_.max_states)));
    initial_ = space_.initial_nodes();
    if (initial_.empty()) {
      SearchReport r;
      r.outcome = SearchReport::Outcome::no_initial_state;
      r.linearized = -1;
      return r;
    }
    budget_ = std::max<std::uint64_t>(1, options_.restart_budget);
    begin_attempt();
  }
  for (;;) {
    if (std::optional<SearchReport> r = attempt(room, pause)) return r;
    if (paused_) {
      paused_ = false;
      return std::nullopt;
    }
    // A restart that got further than the one before starts a new stretch of trouble: it gets the
    // first budget again. Otherwise the budget doubles, so the search stays complete: progress is
    // bounded, and an attempt whose budget exceeds every state left finishes.
    if (deepest_progress_ > best_at_last_restart_) {
      best_at_last_restart_ = deepest_progress_;
      budget_ = std::max<std::uint64_t>(1, options_.restart_budget);
    } else {
      budget_ *= 2;
    }
    begin_attempt();
  }
}

SearchReport Search::paused(const std::string& why) {
  SearchReport r = begun_ && !initial_.empty() ? report(SearchReport::Outcome::limit, deepest_, deepest_taken_, false) : SearchReport{};
  r.outcome = SearchReport::Outcome::limit;
  r.limit = why;
  return r;
}

void Search::begin_attempt() {
  // The root frame's successors are the initial states.
  stack_.assign(1, Frame{});
  for (const Node& n : initial_) stack_[0].successors.push_back({n, -1, -1});
  taken_path_.clear();
  heuristics_.new_attempt();
  attempt_best_ = -1;
  attempt_budget_ = budget_;
  stalled_since_ = generated_;
}

std::optional<SearchReport> Search::attempt(std::uint64_t room, const PauseWhen& pause) {
  std::vector<Frame>& stack = stack_;
  while (!stack.empty()) {
    if (visited_.size() >= room || pause.now()) {
      paused_ = true;
      return std::nullopt;
    }
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
      if (generated_ - stalled_since_ > attempt_budget_) {
        if (heuristics_.learn()) {
          forget_unfinished(stack);
          stack.clear();
          return std::nullopt;
        }
        stalled_since_ = generated_;  // nothing new to learn: go on, and look again after as long once more
        attempt_budget_ *= 2;
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
      if (p > attempt_best_) attempt_best_ = p, stalled_since_ = generated_;
      if (p == space_.total()) {
        if (end_states_ == nullptr) return report(SearchReport::Outcome::accepted, s.node, taken_path_);
        // An end, and nothing follows it: the frames it replaced are settled with it.
        end_states_->push_back(std::move(s.node.spec));
        taken_path_.resize(taken_path_.size() - next.taken);
        continue;
      }
      // A read the state accepts goes first, alone (SearchSpace::forced_step): the frame has that
      // one successor and no thread left to try.
      if (!space_.forced_step(s.node, next.successors, next.refused_reads, next.order)) heuristics_.order(s.node, next.order);
      next.node = std::move(s.node);
      stack.push_back(std::move(next));
      continue;
    }
    if (f.next_thread < f.order.size()) {
      f.next_successor = 0;
      const std::uint32_t t = f.order[f.next_thread++];
      if (std::find(f.refused_reads.begin(), f.refused_reads.end(), t) != f.refused_reads.end()) f.successors.clear();
      else space_.successors(f.node, t, f.successors);
      // The most urgent operation cannot go (the root frame has no threads to try).
      if (f.successors.empty() && f.next_thread == 1) heuristics_.stuck(f.node, space_.progress(f.node), f.order);
      continue;
    }
    taken_path_.resize(taken_path_.size() - f.taken);
    stack.pop_back();
  }
  return report(SearchReport::Outcome::rejected, deepest_, deepest_taken_, end_states_ == nullptr);
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

SearchReport search_linearization(const history::Problem& problem, language::LoadedSpec& spec, const NativeSearchOptions& options) {
  Search search(problem, spec, options);
  return *search.run();
}

EndStates search_end_states(const history::Problem& problem, language::LoadedSpec& spec, const NativeSearchOptions& options) {
  NativeSearchOptions own = options;
  own.data_independent.clear();
  Search search(problem, spec, own);
  EndStates out;
  search.collect_end_states(out.states);
  const SearchReport r = *search.run();
  out.complete = r.outcome == SearchReport::Outcome::rejected || r.outcome == SearchReport::Outcome::no_initial_state;
  out.limit = r.limit;
  return out;
}

namespace {

/// One part's searches: the one whose report counts, and, while a core would otherwise be idle, a
/// racer trying operations in the other order (Urgency::began_first). Whichever decides first sets
/// `decided` and the other pauses; only an acceptance of the racer's counts (a rejection or a limit
/// is the first search's to report, so what explains a failure does not depend on timing). A
/// limit of the first search waits for the end of the round, so that a racer accepting within the
/// round's room decides the part whichever finished first.
struct PartSearch {
  std::unique_ptr<Search> search, racer;
  std::atomic<bool> decided{false};
  bool raced = false;   // a racer was started once: it is not started again once it gave up
  bool racing = false;  // a racer has a task in this round (set before the round's threads start)
  std::optional<SearchReport> held_limit;  // the first search's limit, while the racer may still accept
};

/// The parts of one history and how they are searched (search_linearizations).
class PartsSearch {
 public:
  PartsSearch(const PartsSearch&) = delete;  // the searches hold references to shared_ and racing_
  PartsSearch& operator=(const PartsSearch&) = delete;
  PartsSearch(const std::vector<history::Problem>& problems, language::LoadedSpec& spec, const NativeSearchOptions& options,
              PartsPolicy policy)
      : problems_(problems), spec_(spec), shared_(options), policy_(policy), parts_(problems.size()), reports_(problems.size()) {
    shared_.since = options.since.value_or(std::chrono::steady_clock::now());  // one time limit for all the parts
    // A racer gives up at half the memory limit, so the search whose report counts keeps room.
    racing_ = shared_;
    racing_.max_memory_mb = options.max_memory_mb == 0 ? 0 : std::max<std::uint64_t>(1, options.max_memory_mb / 2);
    for (std::size_t k = 0; k < problems.size(); ++k) parts_[k].search = std::make_unique<Search>(problems[k], spec, shared_);  // binds
  }

  /// Runs the searches of the parts in `which` with `room`, up to `jobs` at once: each report (or
  /// nothing, paused) into reports(). Cores left over when there are fewer parts than jobs race a
  /// second search on the first parts. Under PartsPolicy::until_rejected, a part rejected pauses
  /// the parts after it in key order: the first rejected decides, and the parts after it are left
  /// undecided whatever they reported, so which are is the same whatever the timing. A part
  /// decided is released. The index of the first part rejected, if any.
  std::optional<std::size_t> round(const std::vector<std::size_t>& which, std::uint64_t room, unsigned jobs);
  std::vector<std::optional<SearchReport>>& reports() { return reports_; }
  SearchReport undecided(std::size_t k, const std::string& why) { return parts_[k].search->paused(why); }

 private:
  struct Task {
    std::size_t part;
    bool racer;
  };
  std::vector<Task> tasks(const std::vector<std::size_t>& which, unsigned jobs);
  void run(const Task& task, std::atomic<std::size_t>& first_rejected, std::uint64_t room);

  const std::vector<history::Problem>& problems_;
  language::LoadedSpec& spec_;
  NativeSearchOptions shared_, racing_;
  PartsPolicy policy_;
  std::vector<PartSearch> parts_;
  std::vector<std::optional<SearchReport>> reports_;
};

std::vector<PartsSearch::Task> PartsSearch::tasks(const std::vector<std::size_t>& which, unsigned jobs) {
  std::vector<Task> out;
  for (std::size_t k : which) out.push_back({k, false}), parts_[k].racing = false;
  if (out.size() >= jobs) return out;  // no core to spare (and no /proc read below for the common round)
  // Racers are created here, on the calling thread: binding the spec is not safe beside a search.
  // None where the process already holds half the memory limit, the racer's own.
  if (racing_.max_memory_mb != 0 && platform::resident_memory_bytes() >= racing_.max_memory_mb * 1024 * 1024) return out;
  for (std::size_t k : which) {
    if (out.size() >= jobs) break;
    PartSearch& p = parts_[k];
    if (!p.raced) p.raced = true, p.racer = std::make_unique<Search>(problems_[k], spec_, racing_, Urgency::began_first);
    if (p.racer) out.push_back({k, true}), p.racing = true;
  }
  return out;
}

void PartsSearch::run(const Task& task, std::atomic<std::size_t>& first_rejected, std::uint64_t room) {
  PartSearch& p = parts_[task.part];
  const PauseWhen pause{&p.decided, policy_ == PartsPolicy::until_rejected ? &first_rejected : nullptr, task.part};
  std::optional<SearchReport> r;
  if (!task.racer) {
    r = p.search->run(room, pause);
  } else {
    // A racer gives up on whatever stops it: a rejection, a limit, or an error evaluating a state
    // the first search may never reach (which would then say so itself). Its memory back.
    try {
      r = p.racer->run(room, pause);
    } catch (...) {
      p.racer.reset();
      return;
    }
    if (r && r->outcome != SearchReport::Outcome::accepted) p.racer.reset(), r.reset();
  }
  if (!r) return;
  // A limit of the first search (states, memory, time) waits for the racer's round to end.
  if (!task.racer && p.racing && r->outcome == SearchReport::Outcome::limit) {
    p.held_limit = std::move(r);
    return;
  }
  if (p.decided.exchange(true)) return;
  if (r->outcome == SearchReport::Outcome::rejected || r->outcome == SearchReport::Outcome::no_initial_state) {
    std::size_t first = first_rejected.load();
    while (task.part < first && !first_rejected.compare_exchange_weak(first, task.part)) {
    }
  }
  reports_[task.part] = std::move(r);
}

std::optional<std::size_t> PartsSearch::round(const std::vector<std::size_t>& which, std::uint64_t room, unsigned jobs) {
  jobs = std::max(1u, jobs);
  const std::vector<Task> tasks = this->tasks(which, jobs);
  std::atomic<std::size_t> first_rejected{std::numeric_limits<std::size_t>::max()};
  std::vector<std::exception_ptr> errors(tasks.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < tasks.size(); i = next++) {
      try {
        run(tasks[i], first_rejected, room);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t j = 1; j < jobs && j < tasks.size(); ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  const std::size_t first = first_rejected.load();
  for (std::size_t k : which) {
    PartSearch& p = parts_[k];
    if (p.held_limit && !reports_[k]) reports_[k] = std::move(p.held_limit), p.decided = true;
    p.held_limit.reset();
    // Left undecided, whatever it reported: the first rejected part decides.
    if (policy_ == PartsPolicy::until_rejected && k > first) reports_[k].reset(), p.decided = false;
    if (p.decided.load()) p.search.reset(), p.racer.reset();  // their memory back
  }
  return first == std::numeric_limits<std::size_t>::max() ? std::nullopt : std::optional<std::size_t>(first);
}

}  // namespace

std::vector<SearchReport> search_linearizations(const std::vector<history::Problem>& problems, language::LoadedSpec& spec,
                                                const NativeSearchOptions& options, unsigned jobs, PartsPolicy policy,
                                                unsigned later_jobs) {
  PartsSearch parts(problems, spec, options, policy);
  auto& reports = parts.reports();
  std::vector<std::size_t> undecided(problems.size());
  std::iota(undecided.begin(), undecided.end(), std::size_t{0});
  // Every part to its end; or in rounds of growing room, until a round in which one is rejected.
  // A part paused at the end of a round goes on from there in the next: no work is repeated.
  std::uint64_t room = policy == PartsPolicy::every_part ? std::numeric_limits<std::uint64_t>::max() : kFirstRoundStates;
  for (;; room = room > std::numeric_limits<std::uint64_t>::max() / 4 ? room : room * 4) {
    const bool rejected = parts.round(undecided, room, jobs).has_value();
    std::vector<std::size_t> paused;
    for (std::size_t k : undecided)
      if (!reports[k]) paused.push_back(k);
    if (rejected || paused.empty()) break;
    undecided = std::move(paused);
    jobs = std::max(jobs, later_jobs);
  }
  std::vector<SearchReport> out;
  for (std::size_t k = 0; k < problems.size(); ++k)
    out.push_back(reports[k] ? std::move(*reports[k]) : parts.undecided(k, "left undecided: another part was rejected first"));
  return out;
}

}  // namespace omnilink::checkers
