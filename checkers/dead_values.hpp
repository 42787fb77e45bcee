// Data independence in the native search: a spec may declare that it treats the values of some
// fields as atoms (`OmniLinkDataIndependent == {"elem"}`): it compares them only for equality and
// builds sets, sequences and functions of them, never adds, orders or CHOOSEs among them, and
// nothing else in its state takes those values (Wolper's data independence; collections are so).
// Then two search states whose spec states differ only by a renaming of *dead* values, those
// that no operation left to linearize has logged, have the same future: the search keeps one.
//
// Why: a failing history must be searched exhaustively, and every pair of overlapping pushes whose
// elements are never popped doubles the stacks a correct order could have left, for the rest of
// the history (2^k states after k such pairs). Once the elements are dead their order can no longer
// matter, and with them renamed the states coincide.
//
// Soundness rests on the declaration, as TLC's SYMMETRY does: a spec that adds or orders its
// elements must not declare it. Equal fingerprints imply a bijection between the two states' dead
// values (each renamed by its first occurrence in a fixed traversal of the state), so no two states
// are merged that the declaration does not make equivalent.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "language/value.hpp"

namespace omnilink::checkers {

/// Which atoms (integers and strings in the declared fields) each operation may log, and the spec
/// state as the search should fingerprint it at a given position. Owns its index; the positions
/// are the caller's (the search's per-thread count of operations linearized).
class DeadValues {
 public:
  /// An operation: its thread and position there.
  using OpRef = std::pair<std::uint32_t, std::uint32_t>;

  /// `op` logged (or, pending, may return) `value` in a declared field: every atom inside it is
  /// alive until `op` is linearized.
  void add_use(OpRef op, const language::Value& value);
  bool empty() const { return users_.empty(); }
  /// An integer or string inside `value` that a declared field logged too, and the first operation
  /// that logged it there; nullopt when there is none.
  std::optional<std::pair<language::Value, OpRef>> shared_atom(const language::Value& value) const;

  /// The fingerprint, after `seed`, of `state` with every dead atom replaced by a placeholder
  /// numbered by its first occurrence (the state's own where nothing is dead): two states have
  /// the same exactly when they are the same so renamed. `linearized[t]`: thread t's operations
  /// linearized. The renamed state is never built, only hashed as it is traversed (building it
  /// was a fifth of a transactional search's instructions). Not thread-safe (it reuses its scratch
  /// space): one per search.
  language::Fingerprint fingerprint(const std::vector<language::Value>& state, const std::vector<std::uint32_t>& linearized,
                                    language::Fingerprint seed) const;

 private:
  static constexpr std::uint32_t kNotAtom = ~std::uint32_t{0};
  /// The index of a declared field's atom in users_, or kNotAtom.
  std::uint32_t atom(const language::Value& v) const;
  /// The hash of `v` renamed, or nullopt when nothing in it is dead (its own hash is then the
  /// renamed one's).
  std::optional<language::Fingerprint> renamed_hash(const language::Value& v, const std::vector<std::uint32_t>& linearized) const;

  // Atoms by value (integers and strings apart: looking one up is the hot path), then per atom
  // the operations that logged it.
  std::unordered_map<std::int64_t, std::uint32_t> integers_;
  std::unordered_map<std::string, std::uint32_t> strings_;
  std::vector<std::vector<OpRef>> users_;
  // fingerprint()'s scratch: per atom, its placeholder number in the current call if its stamp is
  // the call's; the renamed hashes of the parts (item, or key and value) of the containers being
  // traversed, a stack shared by the recursion.
  mutable std::vector<std::uint64_t> stamp_;
  mutable std::vector<std::uint32_t> number_;
  mutable std::uint64_t call_ = 0;
  mutable std::uint32_t assigned_ = 0;
  mutable std::vector<std::pair<std::optional<language::Fingerprint>, std::optional<language::Fingerprint>>> parts_;
};

}  // namespace omnilink::checkers
