// platform/stop_request.hpp: while a StopRequest lives, SIGINT and SIGTERM only ask to stop (the
// process goes on and can say so); afterwards the handlers it replaced are back.
#include <catch2/catch.hpp>

#include <csignal>
#include <string>

#include "platform/stop_request.hpp"

namespace {

volatile std::sig_atomic_t previous_handler_ran = 0;
extern "C" void previous_handler(int) { previous_handler_ran = 1; }

/// The handler now installed for `signal`.
void (*installed(int signal))(int) {
  struct sigaction now {};
  sigaction(signal, nullptr, &now);
  return now.sa_handler;
}

}  // namespace

TEST_CASE("a signal during a StopRequest is a request to stop, and the previous handlers come back") {
  for (const int signal : {SIGINT, SIGTERM}) {
    INFO(signal);
    std::signal(signal, previous_handler);
    previous_handler_ran = 0;
    {
      const omnilink::StopRequest stop;
      CHECK_FALSE(stop.requested());
      CHECK_FALSE(stop.flag().load());
      CHECK(std::string(stop.signal_name()).empty());
      std::raise(signal);  // would end the process without it
      CHECK(stop.requested());
      CHECK(stop.flag().load());  // what a child's supervision polls
      const std::string name = signal == SIGINT ? "SIGINT" : "SIGTERM";
      CHECK(stop.signal_name() == name);
      const int other = signal == SIGINT ? SIGTERM : SIGINT;
      std::raise(other);
      CHECK(stop.signal_name() == name);  // the first signal is the one that asked
      CHECK(previous_handler_ran == 0);
    }
    CHECK(installed(signal) == previous_handler);
    CHECK(std::string(omnilink::stop_signal_name(signal)) == (signal == SIGINT ? "SIGINT" : "SIGTERM"));
    CHECK(std::string(omnilink::stop_signal_name(SIGHUP)).empty());  // not a stop request
    std::raise(signal);
    CHECK(previous_handler_ran == 1);
    const omnilink::StopRequest again;  // a new one starts unrequested
    CHECK_FALSE(again.requested());
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}
