// What the user sees while a campaign runs. On a terminal: a live block, redrawn every second, with
// runs done/total, the count of each outcome, elapsed time and ETA, and one line per active run with
// its phase (recording, packing, validating); notable events (a failure, a crash) scroll above it.
// Elsewhere (CI logs, pipes): one plain line per event, nothing redrawn.
#pragma once

#include <chrono>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "store/outcome.hpp"
#include "store/store.hpp"

namespace omnilink::campaign {

class Progress {
 public:
  // `open_ended`: the total is not known in advance (a sweep draws runs until its budget ends), so
  // the status shows runs done and no ETA.
  Progress(std::ostream& out, bool live, bool open_ended = false);

  // `total` runs in the campaign, of which `already` were finished by an earlier (resumed) session.
  void begin(std::size_t total, const std::vector<store::RunRecord>& already);
  void note(const std::string& text);                              // a line above the live block
  // recording | running | packing | waiting to validate | validating; or a Slurm task's state
  void phase(const std::string& run, const std::string& phase);
  void finished(const store::RunRecord& run);                             // the run has its final outcome
  void clear(const std::string& name);                             // `name` is no longer active (a Slurm task merged)
  void tick();                                                     // redraws (live) every second
  void end();

 private:
  void print_event(const std::string& text);
  void clear_block();
  void draw_block();
  std::string status_line() const;
  std::string clock(std::chrono::steady_clock::duration d) const;

  std::ostream& out_;
  bool live_;
  bool open_ended_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::size_t total_ = 0;
  std::size_t done_ = 0;
  std::size_t done_before_ = 0;  // by an earlier session: not counted in the ETA's rate
  std::map<store::Outcome, std::size_t> counts_;
  struct Active {
    std::string phase;
    std::chrono::steady_clock::time_point since;
  };
  std::map<std::string, Active> active_;
  std::size_t block_lines_ = 0;
};

}  // namespace omnilink::campaign
