#include "explain/failing_core.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "checkers/native_search.hpp"
#include "checkers/projection.hpp"
#include "explain/searched_beginning.hpp"
#include "history/spec_declarations.hpp"

namespace omnilink::explain {
namespace {

using Clock = std::chrono::steady_clock;
using Ops = std::vector<const history::ProblemOp*>;

enum class Answer { rejected, accepted, undecided };

/// Each operation's transaction (transaction_groups), by operation; those of none are absent.
using Groups = std::unordered_map<const history::ProblemOp*, std::uint64_t>;

/// p's transaction, 0 for none.
std::uint64_t group_of(const Groups& groups, const history::ProblemOp* p) {
  const auto it = groups.find(p);
  return it == groups.end() ? 0 : it->second;
}

/// Asks the native search whether a candidate core is rejected with every other operation of
/// `base` optional (failing_core.hpp), within the budget of one question; or, given a
/// presumption, with a smaller budget past which the candidate is presumed rejected.
class CoreQuestions {
 public:
  /// `capped`: every question within Presumption::proof_factor times that presumption's budget for
  /// it (undecided past it), not the question's own budget. `past`: its operations are required,
  /// as the run logged them, instead of optional; the default holds none.
  CoreQuestions(const history::Problem& base, language::LoadedSpec& spec, checkers::NativeSearchOptions search, bool projectable, const Groups& groups,
                Clock::time_point deadline, std::optional<Presumption> presumption = std::nullopt, std::optional<Presumption> capped = std::nullopt,
                GivenPast past = {})
      : base_(base), spec_(spec), search_(std::move(search)), projectable_(projectable), groups_(groups), deadline_(deadline), presumption_(presumption),
        capped_(capped), past_(past) {}

  /// Delta debugging asks some candidates again (a complement in one round is a candidate in the
  /// next, and narrowing on its operations asks what narrowing on its transactions asked): an
  /// answer is remembered, since the same candidate makes the same search here.
  Answer ask(const Ops& core) {
    if (exceeded_cap_) return Answer::undecided;
    Key key = key_of(core);
    if (const auto it = answered_.find(key); it != answered_.end()) return it->second;
    const Answer answer = search(core);
    if (answer != Answer::undecided) answered_.emplace(std::move(key), answer);
    return answer;
  }

  /// `core` is rejected, decided in full: found so by a search that ended within its budget, or
  /// known (the whole of what failed).
  void decided(const Ops& core) {
    if (decided_rejected_.insert(key_of(core)).second && (!smallest_decided_ || core.size() < smallest_decided_->size())) smallest_decided_ = core;
  }
  /// Whether `core` is rejected, decided in full: then asking it in full would find the same.
  bool decided_rejected(const Ops& core) const { return decided_rejected_.count(key_of(core)) > 0; }
  /// The smallest core decided rejected so far, if any.
  const std::optional<Ops>& smallest_decided_rejected() const { return smallest_decided_; }

  /// Whether `p` is required as logged, being of the given past.
  bool given(const history::ProblemOp& p) const { return past_.holds(*p.op); }

  /// Past the deadline, cancelled (ValidateOptions::cancel), or, capped, past a question's cap once: no more questions.
  bool out_of_time() const { return exceeded_cap_ || Clock::now() >= deadline_ || (search_.cancel != nullptr && search_.cancel->load()); }
  /// Searches asked (a question answered from memory is not).
  std::uint64_t asked() const { return asked_; }

 private:
  /// A core by its operations: (thread, index), sorted.
  using Key = std::vector<std::pair<std::uint32_t, std::uint64_t>>;

  Answer search(const Ops& core) {
    ++asked_;
    const std::unordered_set<const history::ProblemOp*> in_core(core.begin(), core.end());
    std::uint64_t last_end = 0;
    std::set<std::string> values;
    std::unordered_set<std::uint64_t> touched;  // transactions with a core operation
    for (const history::ProblemOp* p : core) {
      last_end = std::max(last_end, p->op->end);
      bool unknown = false;
      if (projectable_) for (const std::string& v : checkers::logged_atoms(*p, search_.data_independent, unknown)) values.insert(v);
      touched.insert(group_of(groups_, p));
    }
    // Outside the core: nothing that starts after every core operation ended (it could only come
    // after them all), and, for a spec closed under projection, nothing on other values (the
    // projection of an accepting order is accepting, and keeps the core).
    auto outside_kept = [&](const history::ProblemOp& p) {
      return given(p) || (p.op->start <= last_end && (!projectable_ || checkers::kept_by_projection(p, search_.data_independent, values)));
    };
    // Another transaction happened whole or not at all; the rest of one the core is in may have
    // happened in part (its other operations are what the core may do without).
    std::vector<history::Problem> question = history::split_problem(
        base_, 2, [&](const history::ProblemOp& p) -> std::size_t { return in_core.count(&p) > 0 || outside_kept(p) ? 0 : 1; },
        [&](const history::ProblemOp& p) {
          if (in_core.count(&p) > 0 || given(p)) return history::MadeOptional{};
          const std::uint64_t group = group_of(groups_, &p);
          return history::MadeOptional{true, touched.count(group) > 0 ? 0 : group};
        });
    checkers::NativeSearchOptions options = search_;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
    if (left.count() <= 0) return Answer::undecided;
    options.time_limit = left;
    if (past_.operations > 0) {
      if (!beginning_) beginning_.emplace(base_, past_, spec_, options);
      options.start = beginning_->start();
    }
    std::uint64_t operations = 0;
    for (const auto& thread : question[0].threads) operations += thread.size();
    if (capped_) options.max_states = std::min(options.max_states, capped_->proof_factor * (capped_->base + capped_->per_operation * operations));
    std::uint64_t presumed_after = 0;  // 0: no presumption
    if (presumption_) {
      presumed_after = presumption_->base + presumption_->per_operation * operations;
      if (presumed_after < options.max_states) options.max_states = presumed_after;
      else presumed_after = 0;
    }
    const checkers::SearchReport report = checkers::search_linearization(question[0], spec_, options);
    switch (report.outcome) {
      case checkers::SearchReport::Outcome::rejected:
        decided(core);
        return Answer::rejected;
      case checkers::SearchReport::Outcome::accepted: return Answer::accepted;
      case checkers::SearchReport::Outcome::no_initial_state:
        // From the past's searched beginning: no order of it is accepted, so none of the question.
        if (!options.start) break;
        decided(core);
        return Answer::rejected;
      case checkers::SearchReport::Outcome::limit:
        // Only the states presumed (the search stops one past its limit): out of time, or at the
        // question's own budget, it is undecided.
        if (presumed_after != 0 && report.states_distinct > presumed_after && Clock::now() < deadline_) return Answer::rejected;
        break;
      default: break;
    }
    // Past the cap, narrowing on would ask more such questions, each as costly: it stops here.
    if (capped_) exceeded_cap_ = true;
    return Answer::undecided;
  }

  const history::Problem& base_;
  language::LoadedSpec& spec_;
  const checkers::NativeSearchOptions search_;
  const bool projectable_;
  const Groups& groups_;
  const Clock::time_point deadline_;
  const std::optional<Presumption> presumption_;
  const std::optional<Presumption> capped_;
  const GivenPast past_;
  std::optional<SearchedBeginning> beginning_;  // of past_, searched at the first question
  bool exceeded_cap_ = false;  // a capped question was undecided: ask no more
  std::set<Key> decided_rejected_;
  std::map<Key, Answer> answered_;  // accepted or rejected (presumed or decided): ask's memory
  std::optional<Ops> smallest_decided_;
  std::uint64_t asked_ = 0;

  static Key key_of(const Ops& core) {
    Key key;
    for (const history::ProblemOp* p : core) key.emplace_back(p->op->thread, p->op->index);
    std::sort(key.begin(), key.end());
    return key;
  }
};

/// The problem whose failure the core explains: the failing part of a partitioned history, else
/// `problem` itself.
history::Problem failing_base(const history::Problem& problem, const results::ValidationResult& failed, language::LoadedSpec& spec) {
  if (!failed.partitions || failed.partitions->failed.empty()) return std::move(history::split_problem(problem, 1, [](const history::ProblemOp&) { return 0; })[0]);
  const std::string field = history::partition_field(spec).value_or(failed.partitions->by);
  const auto in_failed_part = [&](const history::ProblemOp& p) {
    const trace::Value* v = p.op->field(field);
    return v != nullptr && field + " = " + trace::to_tla(*v) == failed.partitions->failed;
  };
  return std::move(history::split_problem(problem, 2, [&](const history::ProblemOp& p) -> std::size_t { return in_failed_part(p) ? 0 : 1; })[0]);
}

const history::ProblemOp* find_op(const history::Problem& base, const trace::Operation& op) { return base.find(op.thread, op.index); }

/// `ops` in the order they started.
void sort_by_start(Ops& ops) {
  std::stable_sort(ops.begin(), ops.end(), [](const history::ProblemOp* a, const history::ProblemOp* b) { return a->op->start < b->op->start; });
}

/// The completed operations of `base`, thread by thread.
Ops completed_ops(const history::Problem& base) {
  Ops completed;
  for (const auto& thread : base.threads)
    for (const history::ProblemOp& p : thread)
      if (!p.op->pending()) completed.push_back(&p);
  return completed;
}

/// Candidate starting points, smallest first, each with what it is; the last is every completed
/// operation of `base` (rejected: it is the failure).
std::vector<std::pair<std::string, Ops>> seeds(const history::Problem& base, const results::ValidationResult& failed, bool projectable,
                                               const std::vector<std::string>& fields, const Groups& groups) {
  Ops completed = completed_ops(base);
  sort_by_start(completed);
  std::vector<std::pair<std::string, Ops>> out;
  const history::ProblemOp* refused = failed.refused ? find_op(base, failed.refused->op) : nullptr;
  auto select = [&](const std::function<bool(const history::ProblemOp&)>& keep) {
    Ops ops;
    for (const history::ProblemOp* p : completed)
      if (keep(*p)) ops.push_back(p);
    return ops;
  };
  if (refused != nullptr && projectable) {
    std::set<std::string> values;
    bool unknown = false;
    auto add = [&](const history::ProblemOp* p) {
      if (p == nullptr) return;
      for (const std::string& v : checkers::logged_atoms(*p, fields, unknown)) values.insert(v);
    };
    add(refused);
    for (const auto& r : failed.refused->related) add(find_op(base, r.op));
    if (failed.refused->lost) values.insert(failed.refused->lost->value);
    else if (failed.refused->in_place) values.insert(failed.refused->in_place->value);
    std::string listed;
    for (const std::string& v : values) listed += (listed.empty() ? "" : ", ") + v;
    out.emplace_back("the projection on {" + listed + "}", select([&](const history::ProblemOp& p) { return checkers::kept_by_projection(p, fields, values); }));
  }
  // The refused operation's transaction and those of the operations tied to it: an anomaly of a
  // few transactions (a dirty read, a refused commit) is often all there, wherever in the run.
  if (refused != nullptr && !groups.empty()) {
    std::unordered_set<const history::ProblemOp*> tied{refused};
    for (const auto& r : failed.refused->related) tied.insert(find_op(base, r.op));
    std::unordered_set<std::uint64_t> txns;
    for (const history::ProblemOp* p : tied)
      if (const std::uint64_t g = group_of(groups, p); g != 0) txns.insert(g);
    out.emplace_back("the transactions of " + refused->op->id() + (tied.size() > 1 ? " and of the operations tied to it" : ""),
                     select([&](const history::ProblemOp& p) { return tied.count(&p) > 0 || txns.count(group_of(groups, &p)) > 0; }));
  }
  if (refused != nullptr && !refused->op->pending())
    out.emplace_back("the operations that started before " + refused->op->id() + " ended",
                     select([&](const history::ProblemOp& p) { return p.op->start <= refused->op->end; }));
  out.emplace_back("every completed operation", completed);
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
  // The whole is known to be rejected: it must stay the last resort, whatever the sizes.
  std::stable_partition(out.begin(), out.end(), [&](const auto& s) { return s.second.size() < completed.size(); });
  return out;
}

history::History core_history(const history::Problem& base, const Ops& core) {
  const std::unordered_set<const history::ProblemOp*> in_core(core.begin(), core.end());
  history::History h;
  h.clock = base.history.clock;
  h.inputs = base.history.inputs;
  h.threads.resize(base.history.threads.size());
  for (std::size_t t = 0; t < base.threads.size(); ++t)
    for (const history::ProblemOp& p : base.threads[t])
      if (in_core.count(&p) > 0) h.threads[t].push_back(*p.op);
  return h;
}

/// `ops` as blocks that minimisation keeps or drops whole: each transaction's operations together,
/// in the order of its first; an operation of none on its own.
std::vector<Ops> blocks_of(const Ops& ops, const Groups& groups) {
  std::vector<Ops> blocks;
  std::unordered_map<std::uint64_t, std::size_t> block_of_group;
  for (const history::ProblemOp* p : ops) {
    const std::uint64_t group = group_of(groups, p);
    if (group == 0) {
      blocks.push_back({p});
      continue;
    }
    const auto [it, added] = block_of_group.emplace(group, blocks.size());
    if (added) blocks.emplace_back();
    blocks[it->second].push_back(p);
  }
  return blocks;
}

/// The whole of every transaction `ops` has an operation of, plus `ops`' others, by start.
Ops whole_transactions(const Ops& ops, const history::Problem& base, const Groups& groups) {
  std::unordered_set<std::uint64_t> touched;
  for (const history::ProblemOp* p : ops)
    if (const std::uint64_t g = group_of(groups, p); g != 0) touched.insert(g);
  const std::unordered_set<const history::ProblemOp*> in(ops.begin(), ops.end());
  Ops out;
  for (const auto& thread : base.threads)
    for (const history::ProblemOp& p : thread)
      if (!p.op->pending() && (in.count(&p) > 0 || touched.count(group_of(groups, &p)) > 0)) out.push_back(&p);
  sort_by_start(out);
  return out;
}

Ops flatten(const std::vector<Ops>& blocks) {
  Ops out;
  for (const Ops& b : blocks) out.insert(out.end(), b.begin(), b.end());
  return out;
}

/// `blocks` in the order they ended: by the end of their last operation.
void sort_by_end(std::vector<Ops>& blocks) {
  const auto end_of = [](const Ops& block) {
    std::uint64_t end = 0;
    for (const history::ProblemOp* p : block) end = std::max(end, p->op->end);
    return end;
  };
  std::stable_sort(blocks.begin(), blocks.end(), [&](const Ops& a, const Ops& b) { return end_of(a) < end_of(b); });
}

/// Narrows `blocks` to the fewest that end last, doubling (1, 2, 4, ...), that stay rejected;
/// unchanged when no smaller window is. A failure sits where its seed was cut, at the refused
/// operation, more often than anywhere else, and an accepted question costs a few states where a
/// rejected one searches every order of the context: ddmin halving from the whole seed asks about
/// log2(n) rejected questions to get there, this asks that many accepted ones and one rejected.
void narrow_to_last(std::vector<Ops>& blocks, CoreQuestions& questions) {
  std::vector<Ops> by_end = blocks;
  sort_by_end(by_end);
  for (std::size_t k = 1; k < by_end.size() && !questions.out_of_time(); k *= 2) {
    std::vector<Ops> window(by_end.end() - static_cast<std::ptrdiff_t>(k), by_end.end());
    if (questions.ask(flatten(window)) != Answer::rejected) continue;
    std::stable_sort(window.begin(), window.end(), [](const Ops& a, const Ops& b) { return a.front()->op->start < b.front()->op->start; });
    blocks = std::move(window);
    return;
  }
}

/// The fewest blocks that stay rejected, found from the small end: each block alone, then each
/// two, each three, the latest first, for a window of at most 8 blocks and at most 41 questions
/// (every subset of up to three of six blocks). A rejected question searches every order of its
/// optional context (a few hundred milliseconds where an accepted one takes ten, on 4 x 500
/// write-skew runs), so asking many small candidates costs less than shrinking the window by
/// rejected questions. True when one-minimal: a rejected subset was found after every smaller
/// subset was asked and accepted, or every subset one block smaller than the window was (the
/// window itself is rejected); false leaves `blocks` as they were, for ddmin.
bool smallest_rejected(std::vector<Ops>& blocks, CoreQuestions& questions) {
  constexpr std::size_t kMostBlocks = 8, kMostSize = 3, kMostQuestions = 41;
  if (blocks.size() < 3 || blocks.size() > kMostBlocks) return false;
  std::size_t asked = 0;
  for (std::size_t size = 1; size <= kMostSize && size < blocks.size(); ++size) {
    // Each `size`-subset of the blocks, as indices counted from the last block back.
    std::vector<std::size_t> from_last(size);
    for (std::size_t k = 0; k < size; ++k) from_last[k] = k;
    while (true) {
      if (++asked > kMostQuestions || questions.out_of_time()) return false;
      std::vector<Ops> subset;
      for (auto k = from_last.rbegin(); k != from_last.rend(); ++k) subset.push_back(blocks[blocks.size() - 1 - *k]);
      const Answer answer = questions.ask(flatten(subset));
      if (answer == Answer::undecided) return false;  // a smaller rejected one may hide behind it
      if (answer == Answer::rejected) {
        blocks = std::move(subset);
        return true;
      }
      std::size_t k = size;  // the next subset: the last index that can move, moved
      while (k > 0 && from_last[k - 1] == blocks.size() - size + k - 1) --k;
      if (k == 0) break;
      ++from_last[k - 1];
      for (std::size_t j = k; j < size; ++j) from_last[j] = from_last[j - 1] + 1;
    }
    if (size + 1 == blocks.size()) return true;
  }
  return false;
}

/// Zeller's ddmin on complements over `blocks`: drop one of n chunks while the rest stays
/// rejected; refine to single blocks. Whether it ended one-minimal: a finished round of single
/// blocks with every answer decided.
bool minimise(std::vector<Ops>& blocks, CoreQuestions& questions) {
  std::size_t chunks = 2;
  bool undecided_at_singles = false;
  while (blocks.size() >= 2 && !questions.out_of_time()) {
    chunks = std::min(chunks, blocks.size());
    bool reduced = false;
    undecided_at_singles = false;
    for (std::size_t c = 0; c < chunks && !reduced; ++c) {
      const std::size_t from = blocks.size() * c / chunks, to = blocks.size() * (c + 1) / chunks;
      std::vector<Ops> rest(blocks.begin(), blocks.begin() + static_cast<std::ptrdiff_t>(from));
      rest.insert(rest.end(), blocks.begin() + static_cast<std::ptrdiff_t>(to), blocks.end());
      const Answer answer = questions.ask(flatten(rest));
      if (answer == Answer::rejected) {
        blocks = std::move(rest);
        chunks = std::max<std::size_t>(chunks - 1, 2);
        reduced = true;
      } else if (answer == Answer::undecided && chunks == blocks.size()) {
        undecided_at_singles = true;
      }
    }
    if (reduced) continue;
    if (chunks == blocks.size()) break;
    chunks = std::min(blocks.size(), chunks * 2);
  }
  const bool finished = blocks.size() < 2 || chunks == blocks.size();
  return finished && !undecided_at_singles && !questions.out_of_time();
}

struct Narrowed {
  Ops core;
  bool minimal = false;
};

/// The core narrowed from `core`: whole transactions first, each question with the others taken
/// whole or not at all (a few states each, where an operation left out alone lets the search try
/// every part of every transaction); then the operations of those left.
Narrowed narrow(Ops core, CoreQuestions& questions, const Groups& groups) {
  std::vector<Ops> blocks = blocks_of(core, groups);
  narrow_to_last(blocks, questions);
  Narrowed out;
  out.minimal = smallest_rejected(blocks, questions) || minimise(blocks, questions);
  out.core = flatten(blocks);
  if (out.core.size() > blocks.size()) {
    std::vector<Ops> singles;
    for (const history::ProblemOp* p : out.core) singles.push_back({p});
    out.minimal = minimise(singles, questions);
    out.core = flatten(singles);
  }
  return out;
}

/// The first of `candidates` (seeds, smallest first) that `questions` find rejected, each with its
/// transactions' other operations required rather than optional in part, which keeps a rejected
/// seed rejected (any order of the larger is one of the smaller's); the last, known rejected,
/// when none is.
std::pair<std::string, Ops> first_rejected_seed(const std::vector<std::pair<std::string, Ops>>& candidates, const history::Problem& base,
                                                const Groups& groups, CoreQuestions& questions) {
  for (std::size_t k = 0; k + 1 < candidates.size(); ++k)
    if (Ops whole = whole_transactions(candidates[k].second, base, groups); questions.ask(whole) == Answer::rejected)
      return {candidates[k].first, std::move(whole)};
  Ops whole = whole_transactions(candidates.back().second, base, groups);
  questions.decided(whole);
  return {candidates.back().first, std::move(whole)};
}

/// The run's first failure: the fewest whole transactions, taken in the order they ended, whose
/// operations are rejected with what began beside them optional, found by bisection. Where a
/// failure recurs through a run (two commits at one timestamp, every few transactions), the one at
/// the refusal may be late, its own question past any budget and its past failing on its own (an
/// earlier recurrence); the first has few operations before it to try. Each question requires a
/// prefix of the run, a few states per operation, as a validation does. The prefix's blocks (whole
/// transactions, or operations of none) in the order they ended; nothing when no prefix shorter
/// than the run is decided rejected.
std::optional<std::vector<Ops>> first_failing_prefix(const history::Problem& base, const Groups& groups, CoreQuestions& questions) {
  std::vector<Ops> blocks = blocks_of(completed_ops(base), groups);
  sort_by_end(blocks);
  // Invariant: the first `accepted` blocks are not known rejected; the first `rejected` are.
  std::size_t accepted = 0, rejected = blocks.size();
  while (rejected - accepted > 1 && !questions.out_of_time()) {
    const std::size_t middle = accepted + (rejected - accepted) / 2;
    const std::vector<Ops> prefix(blocks.begin(), blocks.begin() + static_cast<std::ptrdiff_t>(middle));
    if (questions.ask(flatten(prefix)) == Answer::rejected) rejected = middle;
    else accepted = middle;
  }
  if (rejected == blocks.size() || questions.out_of_time()) return std::nullopt;
  blocks.resize(rejected);
  return blocks;
}

/// A core narrowed given the past (narrowed_given_the_past), if one was; the questions asked either way.
struct NarrowedGiven {
  std::optional<Narrowed> core;
  GivenPast past;
  std::uint64_t questions = 0;
};

/// When a presumed core's own question cannot be decided, the core given the past. Its context is
/// every earlier operation of the run, each optional: late in a long run with timestamps that is
/// more states than any budget (a strict-timestamp core of 3 operations after 485 others: 15.8
/// million states and not done). Taken as the run logged them (required), the operations that ended
/// before the core's transactions began leave a few states where they left millions, and the
/// question is decided in milliseconds. The core is then narrowed given that past, each question
/// with the same cut (GivenPast). Only if the past passes on its own (else the failure is in it, and
/// a core given it would explain nothing) and the presumed core is rejected given it.
NarrowedGiven narrowed_given_the_past(const Ops& presumed, const history::Problem& base, language::LoadedSpec& spec,
                                      const checkers::NativeSearchOptions& search, bool projectable, const Groups& groups, Clock::time_point deadline) {
  std::uint64_t cut = std::numeric_limits<std::uint64_t>::max();
  for (const history::ProblemOp* p : whole_transactions(presumed, base, groups)) cut = std::min(cut, p->op->start);
  NarrowedGiven out;
  out.past = GivenPast{cut, 0};
  for (const auto& thread : base.threads)
    for (const history::ProblemOp& p : thread) out.past.operations += out.past.holds(*p.op) ? 1 : 0;
  if (out.past.operations == 0) return out;  // no past: the core's own question, as costly
  CoreQuestions given(base, spec, search, projectable, groups, deadline, std::nullopt, std::nullopt, out.past);
  if (given.ask({}) == Answer::accepted && given.ask(presumed) == Answer::rejected) out.core = narrow(presumed, given, groups);
  out.questions = given.asked();
  return out;
}

}  // namespace

std::vector<std::vector<std::uint64_t>> transaction_groups(const history::History& history, const std::optional<std::string>& field) {
  std::vector<std::vector<std::uint64_t>> out;
  std::uint64_t last = 0;
  for (const auto& thread : history.threads) {
    auto& groups = out.emplace_back(thread.size(), 0);
    std::string previous;
    std::uint64_t current = 0;  // the transaction of the last operation that logged the field, 0 after one that did not
    for (std::size_t i = 0; i < thread.size(); ++i) {
      if (thread[i].failed) continue;
      const trace::Value* v = field ? thread[i].field(*field) : nullptr;
      if (v == nullptr) {
        previous.clear();
        current = 0;
        continue;
      }
      std::string value = trace::to_tla(*v);
      groups[i] = current != 0 && value == previous ? current : ++last;
      current = groups[i];
      previous = std::move(value);
    }
  }
  return out;
}

TransactionOf transactions_by_operation(const history::History& history, const std::optional<std::string>& field) {
  TransactionOf out;
  const auto numbered = transaction_groups(history, field);
  for (std::size_t t = 0; t < history.threads.size(); ++t)
    for (std::size_t i = 0; i < history.threads[t].size(); ++i)
      if (numbered[t][i] != 0) out.emplace(std::make_pair(history.threads[t][i].thread, history.threads[t][i].index), numbered[t][i]);
  return out;
}

FailingCore find_failing_core(const history::Problem& problem, const results::ValidationResult& failed, language::LoadedSpec& spec,
                              const checkers::ValidateOptions& validate, const CoreOptions& options) {
  if (failed.verdict != results::Verdict::fail || failed.checker != results::DecidedBy::native)
    throw history::ValidationError("a failing core is found from the native checker's FAIL, not from " + to_string(failed.verdict) +
                          (failed.checker == results::DecidedBy::none ? "" : " (" + to_string(failed.checker) + ")"));
  const auto started = Clock::now();
  const history::Problem base = failing_base(problem, failed, spec);
  checkers::NativeSearchOptions search;
  search.init = validate.init;
  search.view = validate.view;
  search.max_states = options.question_states;
  search.restart_budget = validate.restart_budget;
  search.cancel = validate.cancel;
  search.data_independent = history::data_independent_fields(spec, base);
  const bool closed = history::projectable(spec, search.data_independent);
  Groups groups;
  if (options.group_field) {
    const auto numbered = transaction_groups(base.history, options.group_field);
    for (std::size_t t = 0; t < base.threads.size(); ++t)
      for (std::size_t i = 0; i < base.threads[t].size(); ++i)
        if (numbered[t][i] != 0) groups.emplace(&base.threads[t][i], numbered[t][i]);
  }
  CoreQuestions questions(base, spec, search, closed, groups, started + options.time_limit);
  const auto candidates = seeds(base, failed, closed, search.data_independent, groups);

  FailingCore result;
  std::optional<Narrowed> narrowed;  // proven rejected; final once set here
  std::optional<Ops> start;          // proven rejected: where narrowing with every question decided starts
  // With a presumption, what is decided is decided within ten times its budget (Presumption::
  // proof_factor); past that, a core is proven given the past instead, if it can be: the presumed
  // core first (its transactions begin late, leaving a long past), then the core narrowed so far.
  std::vector<Ops> past_due;
  CoreQuestions capped(base, spec, search, closed, groups, started + options.time_limit, std::nullopt, options.presumption);
  CoreQuestions& deciding = options.presumption ? capped : questions;
  std::uint64_t presumed_questions = 0, given_questions = 0;
  Answer own = Answer::undecided;  // the presumed core's own question, capped
  if (options.presumption) {
    CoreQuestions presuming(base, spec, search, closed, groups, started + options.time_limit / 3, options.presumption);
    auto [seed, core] = first_rejected_seed(candidates, base, groups, presuming);
    result.seed = std::move(seed);
    Narrowed presumed = narrow(std::move(core), presuming, groups);
    presumed_questions = presuming.asked();
    own = presuming.decided_rejected(presumed.core) ? Answer::rejected : capped.ask(presumed.core);
    if (own == Answer::rejected && presumed.minimal) {
      narrowed = std::move(presumed);
    } else if (own == Answer::rejected) {
      start = std::move(presumed.core);
    } else {
      // Undecided, or accepted on its own (a wrong presumption) where given the past it may not be.
      // On from the smallest core the presuming questions decided rejected on the way (within the
      // seed), rather than from the seeds again.
      past_due.push_back(std::move(presumed.core));
      if (own == Answer::accepted) start = presuming.smallest_decided_rejected();
    }
  }
  const bool presumed_undecided = options.presumption && own == Answer::undecided;
  if (!narrowed && !presumed_undecided) {
    if (!start) {
      auto [seed, core] = first_rejected_seed(candidates, base, groups, deciding);
      result.seed = std::move(seed);
      start = std::move(core);
    }
    narrowed = narrow(std::move(*start), deciding, groups);
    if (options.presumption) {
      if (narrowed->minimal) past_due.clear();
      else past_due.push_back(narrowed->core);
    }
  }
  // Whether `candidate` is a core given its past; if so, it is the core.
  const auto given_the_past = [&](const Ops& candidate) {
    NarrowedGiven attempt = narrowed_given_the_past(candidate, base, spec, search, closed, groups, started + options.time_limit);
    given_questions += attempt.questions;
    if (!attempt.core) return false;
    narrowed = std::move(attempt.core);
    result.given = attempt.past;
    return true;
  };
  bool given = false;
  for (std::size_t k = 0; k < past_due.size() && !given && !questions.out_of_time(); ++k) given = given_the_past(past_due[k]);
  // Neither given its past (the past fails on its own: the failure recurs earlier in the run; or
  // the core passes given it: a wrong presumption): the run's first failure, whose past passes, is
  // its last transaction given that past.
  std::optional<Ops> first_failure;
  if (!given && !past_due.empty() && !questions.out_of_time())
    if (std::optional<std::vector<Ops>> prefix = first_failing_prefix(base, groups, questions)) {
      result.seed = "the run's first failure";
      given = given_the_past(prefix->back());
      if (!given) first_failure = flatten(*prefix);
    }
  // Not given the past either: decided in full in the time left, from the run's first failure if
  // it was found, else from the core narrowed so far, or the presumed core if it is rejected.
  if (!given && !past_due.empty()) {
    if (first_failure) narrowed = narrow(std::move(*first_failure), questions, groups);
    else if (narrowed) narrowed = narrow(std::move(narrowed->core), questions, groups);
    else if (questions.ask(past_due.front()) == Answer::rejected) narrowed = narrow(std::move(past_due.front()), questions, groups);
  }
  if (!narrowed) {
    auto [seed, core] = first_rejected_seed(candidates, base, groups, questions);
    result.seed = std::move(seed);
    narrowed = narrow(std::move(core), questions, groups);
  }
  Ops core = std::move(narrowed->core);
  result.minimal = narrowed->minimal;
  sort_by_start(core);
  if (!result.minimal)
    result.not_minimal = questions.out_of_time() ? "the minimisation stopped at its time limit of " + std::to_string(options.time_limit.count() / 1000) + " s"
                                                 : "leaving some operation out could not be decided within " + std::to_string(options.question_states) +
                                                       " states" + (options.presumption ? ", nor given the past" : "");
  result.history = core_history(base, core);
  result.operations = core.size();
  result.questions = presumed_questions + given_questions + questions.asked() + capped.asked();
  result.duration = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
  return result;
}

}  // namespace omnilink::explain
