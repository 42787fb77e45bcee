// Workload: a Treiber lock-free stack (a singly linked list whose head, `top_`, is swung by
// compare-and-swap) of heap-allocated elements, each node owning its element's box (the
// node-plus-payload layout of generic lock-free stacks), validated against Stack.tla.
//
// Built twice: `treiber-stack` is correct; `treiber-stack-bug` (OMNILINK_INJECT_BUG=1) publishes
// before it initialises: push swings `top_` to the new node first and allocates and attaches the
// element only afterwards. A pop that takes the node in between finds no element: it reports the
// stack empty although it is not, and the pushed element is lost.
#include <atomic>
#include <cstdint>

#include "common/stack_workload.hpp"
#include "injected-bugs/retired_nodes.hpp"

#ifndef OMNILINK_INJECT_BUG
#define OMNILINK_INJECT_BUG 0
#endif

namespace {

constexpr bool kInjectBug = OMNILINK_INJECT_BUG != 0;

struct Node {
  // The element, owned by the node. Atomic only so that the buggy variant's late write racing
  // with a pop's read is a stale read rather than undefined behaviour; ordering comes from `top_`.
  std::atomic<const std::int64_t*> element{nullptr};
  Node* next = nullptr;  // written by the pusher before publication, never after
  Node* retired_next = nullptr;
  ~Node() { delete element.load(std::memory_order_relaxed); }
};

// Memory orders: push fills the node (element, next) and then publishes it with a release CAS on
// `top_`; pop loads `top_` with acquire (pops' CASes are read-modify-writes, so they continue the
// pusher's release sequence), hence sees the node and its element initialised. Nodes are never
// freed while the stack lives (RetiredNodes): a popped address is never pushed again, so no ABA.
class TreiberStack {
 public:
  TreiberStack() = default;
  TreiberStack(const TreiberStack&) = delete;
  TreiberStack& operator=(const TreiberStack&) = delete;
  ~TreiberStack() {
    for (Node* n = top_.load(std::memory_order_relaxed); n != nullptr;) {
      Node* next = n->next;
      delete n;
      n = next;
    }
  }

  bool push(std::int64_t v, omnilink::Context&) {
    Node* node = new Node;
    if constexpr (!kInjectBug) node->element.store(new std::int64_t(v), std::memory_order_relaxed);
    node->next = top_.load(std::memory_order_relaxed);
    while (!top_.compare_exchange_weak(node->next, node, std::memory_order_release, std::memory_order_relaxed)) {
    }
    // BUG: the node is already visible to pops; one may take it before its element is attached.
    if constexpr (kInjectBug) node->element.store(new std::int64_t(v), std::memory_order_relaxed);
    return true;
  }

  // False when there is nothing to pop: no node, or (the bug) a node without its element.
  bool try_pop(std::int64_t& out, omnilink::Context&) {
    Node* top = top_.load(std::memory_order_acquire);
    for (;;) {
      if (top == nullptr) return false;
      if (top_.compare_exchange_weak(top, top->next, std::memory_order_acquire, std::memory_order_acquire)) break;
    }
    retired_.retire(top);
    const std::int64_t* element = top->element.load(std::memory_order_relaxed);
    if (element == nullptr) return false;
    out = *element;
    return true;
  }

 private:
  std::atomic<Node*> top_{nullptr};
  examples::RetiredNodes<Node> retired_;
};

}  // namespace

int main(int argc, char** argv) {
  TreiberStack stack;
  return examples::run_stack_workload(argc, argv, stack);
}
