// Ctrl-C (SIGINT) and SIGTERM as a request to stop at the next step, for work a verb does after
// its campaign's runs (reading interleavings from recordings): stopped there, the verb still
// writes its summary and reports instead of dying with the signal. The event loop's own handling
// (campaign/engine.cpp) is over by then. The children of that work share the terminal's process
// group, so a Ctrl-C reaches them too and the step in progress ends at once.
#pragma once

#include <csignal>

namespace omnilink {

/// While alive, SIGINT and SIGTERM only set a flag; the previous handlers come back when it is
/// destroyed. One at a time.
class StopRequest {
 public:
  StopRequest();
  ~StopRequest();
  StopRequest(const StopRequest&) = delete;
  StopRequest& operator=(const StopRequest&) = delete;

  /// A signal arrived since construction.
  bool requested() const;

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

}  // namespace omnilink
