// Deferred reclamation for the lock-free examples, reduced to its simplest form: a node unlinked
// from a structure is retired here and freed only when the structure is destroyed. No address is
// reused while the structure lives, so its compare-and-swaps cannot suffer ABA and a thread still
// reading an unlinked node reads valid memory: the injected bugs are the only bugs.
#pragma once

#include <atomic>

namespace examples {

// NODE must have a `Node* retired_next` field, used only by this list.
template <class Node>
class RetiredNodes {
 public:
  RetiredNodes() = default;
  RetiredNodes(const RetiredNodes&) = delete;
  RetiredNodes& operator=(const RetiredNodes&) = delete;
  ~RetiredNodes() {
    for (Node* n = head_.load(std::memory_order_relaxed); n != nullptr;) {
      Node* next = n->retired_next;
      delete n;
      n = next;
    }
  }

  // Push-only (nodes leave only in the destructor), so this CAS loop has no ABA either. Relaxed:
  // the list is read only by the destructor, after every worker thread has been joined.
  void retire(Node* n) {
    n->retired_next = head_.load(std::memory_order_relaxed);
    while (!head_.compare_exchange_weak(n->retired_next, n, std::memory_order_relaxed)) {
    }
  }

 private:
  std::atomic<Node*> head_{nullptr};
};

}  // namespace examples
