#include "campaign/progress.hpp"

#include <cstdio>
#include <ostream>
#include <sstream>

#include "store/outcome.hpp"

namespace omnilink::campaign {

Progress::Progress(std::ostream& out, bool live, bool open_ended) : out_(out), live_(live), open_ended_(open_ended) {}

std::string Progress::clock(std::chrono::steady_clock::duration d) const {
  const auto s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
  char text[32];
  if (s >= 3600) std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", static_cast<long long>(s / 3600), static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
  else std::snprintf(text, sizeof text, "%lld:%02lld", static_cast<long long>(s / 60), static_cast<long long>(s % 60));
  return text;
}

void Progress::begin(std::size_t total, const std::vector<store::RunRecord>& already) {
  total_ = total;
  for (const auto& run : already) ++counts_[store::outcome(run)];
  done_ = done_before_ = already.size();
  if (done_before_ > 0)
    print_event("resuming: " + std::to_string(done_before_) + (open_ended_ ? "" : " of " + std::to_string(total)) + " runs already done");
  draw_block();
}

void Progress::note(const std::string& text) { print_event(text); }

void Progress::phase(const std::string& run, const std::string& phase) {
  active_[run] = {phase, std::chrono::steady_clock::now()};
  if (!live_) print_event(run + ": " + phase);
}

void Progress::finished(const store::RunRecord& run) {
  active_.erase(run.id);
  const store::Outcome o = store::outcome(run);
  ++counts_[o];
  ++done_;
  std::string line = run.id + ": " + store::to_string(o);
  if (run.status != store::RunStatus::ok && store::to_string(run.status) != store::to_string(o))
    line += " (run " + store::to_string(run.status) + ")";
  if (!run.detail.empty() && o != store::Outcome::pass) line += " - " + run.detail;
  else if (run.validation && o != store::Outcome::pass && !run.validation->reason.empty()) line += " - " + run.validation->reason;
  // On a terminal, passes only move the counters; everything else deserves a line.
  if (!live_ || o != store::Outcome::pass) print_event(line);
  else draw_block();
}

void Progress::clear(const std::string& name) {
  active_.erase(name);
  if (live_) draw_block();
}

void Progress::tick() {
  if (live_) draw_block();
}

void Progress::end() {
  if (live_) clear_block();
  out_ << status_line() << "\n";
  out_.flush();
}

std::string Progress::status_line() const {
  const auto elapsed = std::chrono::steady_clock::now() - started_;
  std::ostringstream s;
  s << "runs " << done_;
  if (!open_ended_) s << "/" << total_;
  for (const store::Outcome o : store::kOutcomes)
    if (auto it = counts_.find(o); it != counts_.end() && it->second > 0) s << " | " << o << " " << it->second;
  s << " | " << clock(elapsed) << " elapsed";
  const std::size_t done_now = done_ - done_before_;
  if (!open_ended_ && done_now > 0 && done_ < total_) s << ", ETA " << clock(elapsed / done_now * (total_ - done_));
  return s.str();
}

void Progress::print_event(const std::string& text) {
  if (live_) {
    clear_block();
    out_ << text << "\n";
    draw_block();
  } else {
    out_ << "[" << clock(std::chrono::steady_clock::now() - started_) << "] " << text << "\n";
    out_.flush();
  }
}

void Progress::clear_block() {
  if (block_lines_ == 0) return;
  out_ << "\x1b[" << block_lines_ << "F\x1b[J";  // up to the block's first line, clear to the end
  block_lines_ = 0;
}

void Progress::draw_block() {
  if (!live_) return;
  clear_block();
  out_ << status_line() << "\n";
  const auto now = std::chrono::steady_clock::now();
  for (const auto& [run, active] : active_) out_ << "  " << run << "  " << active.phase << " " << clock(now - active.since) << "\n";
  block_lines_ = 1 + active_.size();
  out_.flush();
}

}  // namespace omnilink::campaign
