// Workload: a Michael-Scott lock-free FIFO queue (a singly linked list with a dummy head node;
// enqueue links at the tail, dequeue advances the head), validated against LinearizableQueue.tla.
//
// Built twice: `ms-queue` is correct; `ms-queue-bug` (OMNILINK_INJECT_BUG=1) links a new node with
// a plain store after checking that the tail's `next` is null, instead of a compare-and-swap that
// re-checks it at the moment of linking. Two enqueuers that both saw the same null `next` both
// store, and the first one's node is overwritten: lost, or (if its tail swing wins) the tail ends
// up on a branch no dequeue reaches, losing every later element too.
#include <atomic>
#include <cstdint>

#include "common/queue_workload.hpp"
#include "injected-bugs/retired_nodes.hpp"

#ifndef OMNILINK_INJECT_BUG
#define OMNILINK_INJECT_BUG 0
#endif

namespace {

constexpr bool kInjectBug = OMNILINK_INJECT_BUG != 0;

struct Node {
  std::int64_t value = 0;  // written before the node is published, never after
  std::atomic<Node*> next{nullptr};
  Node* retired_next = nullptr;
};

// Memory orders: a node's fields are written before the release CAS that links it (on the
// predecessor's `next`); every `next` is loaded with acquire, so whoever reaches a node through
// the list sees it initialised. `head_` and `tail_` only ever hold nodes already reachable that
// way; their CASes are release (acq_rel for helpers) and loads acquire, so a node reached through
// them is seen initialised as well. Nodes are never freed while the queue lives (RetiredNodes),
// so no ABA and no use-after-free.
class MsQueue {
 public:
  MsQueue() {
    Node* dummy = new Node;
    head_.store(dummy, std::memory_order_relaxed);
    tail_.store(dummy, std::memory_order_relaxed);
  }
  MsQueue(const MsQueue&) = delete;
  MsQueue& operator=(const MsQueue&) = delete;
  ~MsQueue() {
    for (Node* n = head_.load(std::memory_order_relaxed); n != nullptr;) {
      Node* next = n->next.load(std::memory_order_relaxed);
      delete n;
      n = next;
    }
  }

  void enqueue(std::int64_t v, omnilink::Context&) {
    Node* node = nullptr;  // allocated once the end of the list is found, then kept across retries
    for (;;) {
      Node* tail = tail_.load(std::memory_order_acquire);
      Node* next = tail->next.load(std::memory_order_acquire);
      // Michael and Scott's consistency check: were `tail` and `next` read from one state?
      if (tail != tail_.load(std::memory_order_acquire)) continue;
      if (next != nullptr) {  // the tail lags behind a linked node: help swing it, then retry
        tail_.compare_exchange_strong(tail, next, std::memory_order_acq_rel, std::memory_order_acquire);
        continue;
      }
      if (node == nullptr) {
        node = new Node;
        node->value = v;
      }
      if constexpr (kInjectBug) {
        // BUG: `next` was null when loaded above, but another enqueuer may have linked its node
        // since (the allocation above widens that window); this store overwrites it.
        tail->next.store(node, std::memory_order_release);
      } else if (!tail->next.compare_exchange_weak(next, node, std::memory_order_release,
                                                   std::memory_order_relaxed)) {
        continue;  // someone linked first: start over from the (new) tail
      }
      // Linked: the enqueue has taken effect. Swing the tail; failure means a helper did it.
      tail_.compare_exchange_strong(tail, node, std::memory_order_acq_rel, std::memory_order_relaxed);
      return;
    }
  }

  bool try_dequeue(std::int64_t& out, omnilink::Context&) {
    for (;;) {
      Node* head = head_.load(std::memory_order_acquire);
      Node* next = head->next.load(std::memory_order_acquire);
      if (next == nullptr) return false;  // only the dummy: empty (linearized at the load of `next`)
      Node* tail = tail_.load(std::memory_order_acquire);
      if (head == tail) {  // never let the head pass the tail: help swing the lagging tail first
        tail_.compare_exchange_strong(tail, next, std::memory_order_acq_rel, std::memory_order_relaxed);
        continue;
      }
      if (head_.compare_exchange_weak(head, next, std::memory_order_release, std::memory_order_relaxed)) {
        out = next->value;  // `next` is the new dummy; its value is never rewritten
        retired_.retire(head);
        return true;
      }
    }
  }

 private:
  std::atomic<Node*> head_;
  std::atomic<Node*> tail_;
  examples::RetiredNodes<Node> retired_;
};

}  // namespace

int main(int argc, char** argv) { return examples::run_queue_workload<MsQueue>(argc, argv); }
