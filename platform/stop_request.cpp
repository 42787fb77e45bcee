#include "platform/stop_request.hpp"

namespace omnilink {
namespace {

volatile std::sig_atomic_t stop_requested = 0;

extern "C" void request_stop(int) { stop_requested = 1; }

}  // namespace

StopRequest::StopRequest() {
  stop_requested = 0;
  struct sigaction on_signal {};
  on_signal.sa_handler = request_stop;
  sigemptyset(&on_signal.sa_mask);
  sigaction(SIGINT, &on_signal, &previous_int_);
  sigaction(SIGTERM, &on_signal, &previous_term_);
}

StopRequest::~StopRequest() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

bool StopRequest::requested() const { return stop_requested != 0; }

}  // namespace omnilink
