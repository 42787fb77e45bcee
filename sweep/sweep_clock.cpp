#include "sweep/sweep_clock.hpp"

#include <ctime>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "platform/json_file.hpp"

namespace omnilink::sweep {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
constexpr const char* kFormat = "omnilink-sweep-clock";
}

std::int64_t next_time_of_day_ms(std::int64_t now_ms, int minutes_after_midnight) {
  const std::time_t now = static_cast<std::time_t>(now_ms / 1000);
  std::tm local{};
  localtime_r(&now, &local);
  local.tm_hour = minutes_after_midnight / 60;
  local.tm_min = minutes_after_midnight % 60;
  local.tm_sec = 0;
  local.tm_isdst = -1;  // whatever daylight saving time says on that day
  std::time_t at = std::mktime(&local);
  if (static_cast<std::int64_t>(at) * 1000 <= now_ms) {
    ++local.tm_mday;  // mktime normalises the day into the next month or year
    local.tm_hour = minutes_after_midnight / 60;
    local.tm_min = minutes_after_midnight % 60;
    local.tm_isdst = -1;
    at = std::mktime(&local);
  }
  return static_cast<std::int64_t>(at) * 1000;
}

fs::path sweep_clock_file(const fs::path& store, const std::string& sweep_id) { return store / sweep_id / "sweep-clock.json"; }

std::optional<std::chrono::milliseconds> recorded_sweep_time(const fs::path& store, const std::string& sweep_id) {
  std::ifstream in(sweep_clock_file(store, sweep_id));
  const json saved = json::parse(in, nullptr, false);
  if (saved.is_discarded() || saved.value("format", "") != kFormat || !saved.contains("spent_ms") || !saved["spent_ms"].is_number_integer())
    return std::nullopt;
  return std::chrono::milliseconds(saved["spent_ms"].get<std::int64_t>());
}

SweepClock SweepClock::read(const fs::path& file) {
  SweepClock clock;
  clock.file_ = file;
  if (fs::exists(file)) {
    std::ifstream in(file);
    const json saved = json::parse(in, nullptr, false);
    if (saved.is_discarded() || saved.value("format", "") != kFormat)
      throw std::runtime_error(file.string() + ": not a sweep clock (format " + kFormat + ")");
    try {
      if (saved.contains("budget_ms")) clock.budget_ms_ = saved.at("budget_ms").get<std::int64_t>();
      if (saved.contains("deadline_ms")) clock.deadline_ms_ = saved.at("deadline_ms").get<std::int64_t>();
      clock.spent_before_ms_ = saved.at("spent_ms").get<std::int64_t>();
    } catch (const json::exception& e) {
      throw std::runtime_error(file.string() + ": " + e.what());
    }
  }
  return clock;
}

SweepClock SweepClock::start(const fs::path& file, const Budget& budget, bool resume, bool restated) {
  SweepClock clock;
  clock.file_ = file;
  if (resume && fs::exists(file)) clock = read(file);
  clock.session_start_ = std::chrono::steady_clock::now();
  if (resume && fs::exists(file) && !restated) return clock;
  // What is left from now: the time spent so far stays spent (and reported).
  clock.budget_ms_.reset();
  clock.deadline_ms_.reset();
  if (budget.duration)
    clock.budget_ms_ = clock.spent_before_ms_ + std::chrono::duration_cast<std::chrono::milliseconds>(*budget.duration).count();
  if (budget.until) clock.deadline_ms_ = next_time_of_day_ms(store::now_ms(), *parse_time_of_day(*budget.until));
  clock.save();
  return clock;
}

std::chrono::milliseconds SweepClock::spent() const {
  if (!session_start_) return std::chrono::milliseconds(spent_before_ms_);
  return std::chrono::milliseconds(spent_before_ms_) +
         std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - *session_start_);
}

std::chrono::milliseconds SweepClock::left() const {
  if (deadline_ms_) return std::chrono::milliseconds(*deadline_ms_ - store::now_ms());
  return std::chrono::milliseconds(budget_ms_.value_or(0)) - spent();
}

void SweepClock::save() const {
  json out{{"format", kFormat}, {"version", 1}, {"spent_ms", spent().count()}};
  if (budget_ms_) out["budget_ms"] = *budget_ms_;
  if (deadline_ms_) out["deadline_ms"] = *deadline_ms_;
  // A kill in the middle leaves the previous clock, never half a file.
  platform::write_json_file<std::runtime_error>(file_, out, -1);
}

}  // namespace omnilink::sweep
