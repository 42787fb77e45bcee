// Ctrl-C (SIGINT) and SIGTERM as a request to stop at the next step: stopped there, a verb still
// writes its summary and reports instead of dying with the signal. Every place that polls for a
// stop uses this one mechanism: the work after a campaign's runs (reading interleavings from
// recordings), the Slurm coordinator's loop, a Slurm task supervising its shard. The campaign
// engine's event loop, which waits on children with Boost.Asio, takes the signals as Asio events
// instead (campaign/engine.cpp): it must wake at the signal, not at its next poll. Children that
// share the terminal's process group get a Ctrl-C too, so the step in progress ends at once.
#pragma once

#include <atomic>
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
  /// The name of the signal that asked first (stop_signal_name), for the line that says why the
  /// work stopped; "" while none has.
  const char* signal_name() const;
  /// Set when requested(): what a child's supervision polls (ProcessOptions::cancel) to stop it.
  const std::atomic<bool>& flag() const;

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

/// "SIGINT" or "SIGTERM" (the two that ask for a stop, here and in the campaign engine); "" for
/// any other.
const char* stop_signal_name(int signal);

}  // namespace omnilink
