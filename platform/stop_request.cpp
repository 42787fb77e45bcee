#include "platform/stop_request.hpp"

namespace omnilink {
namespace {

// Set from the handler: lock-free atomics are safe there, as volatile sig_atomic_t is.
std::atomic<bool> stop_requested{false};
std::atomic<int> stop_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

extern "C" void request_stop(int signal) {
  int none = 0;
  stop_signal.compare_exchange_strong(none, signal);
  stop_requested = true;
}

}  // namespace

StopRequest::StopRequest() {
  stop_requested = false;
  stop_signal = 0;
  struct sigaction on_signal {};
  on_signal.sa_handler = request_stop;
  sigemptyset(&on_signal.sa_mask);
  // As std::signal's handlers did: a read, write or copy the signal lands in goes on, and the
  // flag is seen at the next poll.
  on_signal.sa_flags = SA_RESTART;
  sigaction(SIGINT, &on_signal, &previous_int_);
  sigaction(SIGTERM, &on_signal, &previous_term_);
}

StopRequest::~StopRequest() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

bool StopRequest::requested() const { return stop_requested; }

const char* StopRequest::signal_name() const { return stop_signal_name(stop_signal.load()); }

const char* stop_signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "";
  }
}

const std::atomic<bool>& StopRequest::flag() const { return stop_requested; }

}  // namespace omnilink
