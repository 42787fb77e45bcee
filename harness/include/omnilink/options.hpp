// Command-line options every harness executable accepts (the orchestrator passes them), parsed
// without dependencies so the harness stays header-only on msgpack alone. Run `<harness> --help`.
#pragma once

#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "omnilink/clock.hpp"

namespace omnilink {

enum class PerturbMode { none, yield, sleep, mixed };

inline constexpr std::string_view perturb_name(PerturbMode m) {
  switch (m) {
    case PerturbMode::none: return "none";
    case PerturbMode::yield: return "yield";
    case PerturbMode::sleep: return "sleep";
    case PerturbMode::mixed: return "mixed";
  }
  return "?";
}

/// A workload parameter a harness declares (`--param NAME=VALUE`, docs/harness.md): an integer in
/// [lo, hi], or one of a few words, with its default and a line of help. The harness refuses an
/// undeclared, repeated or malformed parameter before any thread starts, and lists its
/// parameters in --help.
struct Param {
  std::string name;
  std::string help;
  std::int64_t fallback = 0, lo = 0, hi = 0;  // an integer parameter
  std::vector<std::string> words;            // a word parameter: one of these (the first is the default)

  static Param integer(std::string name, std::int64_t fallback, std::int64_t lo, std::int64_t hi, std::string help) {
    return {std::move(name), std::move(help), fallback, lo, hi, {}};
  }
  static Param word(std::string name, std::vector<std::string> words, std::string help) {
    return {std::move(name), std::move(help), 0, 0, 0, std::move(words)};
  }
  bool is_word() const { return !words.empty(); }

  /// What is wrong with `value` for this parameter, or nullopt.
  std::optional<std::string> problem(std::string_view value) const {
    if (is_word()) {
      for (const auto& w : words)
        if (w == value) return std::nullopt;
      std::string list;
      for (std::size_t i = 0; i < words.size(); ++i) list += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
      return "must be " + list;
    }
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec == std::errc::result_out_of_range) return "out of range: must be " + range();
    if (ec != std::errc() || p != value.data() + value.size() || value.empty()) return "not an integer";
    if (v < lo || v > hi) return "must be " + range();
    return std::nullopt;
  }
  /// An integer parameter's values in words: "1 to 1000", or "0 or 1".
  std::string range() const { return std::to_string(lo) + (hi == lo + 1 ? " or " : " to ") + std::to_string(hi); }
  /// "  --param keys=8   keys 1..N (1 to 1000, default 8)": a line of --help.
  std::string usage() const {
    const std::string values = is_word() ? "" : range() + ", ";
    std::string shown = name + "=" + (is_word() ? words.front() : std::to_string(fallback));
    if (shown.size() < 24) shown.resize(24, ' ');
    return "  --param " + shown + " " + help + " (" + values + "default " + (is_word() ? words.front() : std::to_string(fallback)) + ")\n";
  }
};

struct Options {
  std::uint32_t threads = 2;
  std::uint64_t ops = 1000;  // per thread
  std::uint64_t seed = 0;
  bool seed_given = false;
  ClockKind clock = ClockKind::monotonic;
  std::string out = "omnilink-run";
  PerturbMode perturb = PerturbMode::none;
  double perturb_rate = 0.1;     // probability per operation boundary
  std::uint32_t sleep_max_us = 50;
  int pin_cpu = -1;              // -1: no pinning
  std::uint32_t max_unsupported = 1000;  // consecutive unsupported() before a thread stops
  bool quiet = false;
  std::map<std::string, std::string> params;  // --param key=value, for the workload (each key once)
  std::vector<Param> declared;                // the parameters the harness takes (check_params)

  /// Every given parameter declared and well-formed; throws std::invalid_argument naming the first
  /// that is not.
  void check_params(std::vector<Param> harness_params) {
    declared = std::move(harness_params);
    for (const auto& [key, value] : params) {
      const Param* p = find(key);
      if (p == nullptr) {
        std::string known;
        for (const Param& d : declared) known += (known.empty() ? "" : ", ") + d.name;
        throw std::invalid_argument("--param " + key + "=" + value + ": no such parameter; " +
                                    (known.empty() ? "this harness takes none" : "this harness takes " + known));
      }
      if (const auto problem = p->problem(value)) throw std::invalid_argument("--param " + key + "=" + value + ": " + *problem);
    }
  }
  /// Whether the run was given this parameter (a default may then depend on others).
  bool param_given(const std::string& name) const { return params.count(name) != 0; }
  /// A declared integer parameter: as given, else its default.
  std::int64_t param_int(const std::string& name) const {
    const Param& p = declared_param(name, false);
    const auto it = params.find(name);
    if (it == params.end()) return p.fallback;
    std::int64_t v = 0;
    std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);  // checked by check_params
    return v;
  }
  /// A declared word parameter: as given, else its default.
  std::string param_word(const std::string& name) const {
    const Param& p = declared_param(name, true);
    const auto it = params.find(name);
    return it == params.end() ? p.words.front() : it->second;
  }

 private:
  const Param* find(const std::string& name) const {
    for (const Param& p : declared)
      if (p.name == name) return &p;
    return nullptr;
  }
  // A harness asking for a parameter it did not declare (or as the other kind) is its own bug.
  const Param& declared_param(const std::string& name, bool word) const {
    const Param* p = find(name);
    if (p == nullptr || p->is_word() != word)
      throw std::logic_error("the harness reads --param " + name + " without declaring it as " + (word ? "a word" : "an integer"));
    return *p;
  }
};

inline const char* options_usage() {
  return "Options:\n"
         "  --threads N          worker threads (default 2, at most 1024)\n"
         "  --ops N              operations per thread (default 1000)\n"
         "  --seed S             run seed (default: random, printed)\n"
         "  --clock C            counter | monotonic | rdtsc (default monotonic)\n"
         "  --out DIR            run directory to write (default omnilink-run)\n"
         "  --perturb M          none | yield | sleep | mixed: native stress lane (default none)\n"
         "  --perturb-rate P     probability of a perturbation per operation boundary (default 0.1)\n"
         "  --sleep-max-us N     longest perturbation sleep in microseconds (default 50)\n"
         "  --pin-cpu N          pin every worker thread to CPU N\n"
         "  --max-unsupported N  consecutive unsupported operations before a thread stops (default 1000)\n"
         "  --param KEY=VALUE    a workload parameter (repeatable)\n"
         "  --quiet              print nothing on success\n"
         "  --help               this text\n";
}

namespace detail {
template <class T>
T parse_number(std::string_view flag, std::string_view text, T lo, T hi) {
  T v{};
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < lo || v > hi)
    throw std::invalid_argument(std::string(flag) + ": expected a number in [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "], got '" + std::string(text) + "'");
  return v;
}
}  // namespace detail

// Parses argv. Throws std::invalid_argument with a message naming the flag. Returns nullopt
// for --help.
inline std::optional<Options> parse_options(int argc, const char* const* argv) {
  Options o;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view flag = args[i];
    if (flag == "--help" || flag == "-h") return std::nullopt;
    if (flag == "--quiet") {
      o.quiet = true;
      continue;
    }
    if (i + 1 >= args.size()) throw std::invalid_argument(std::string(flag) + ": missing value (or unknown flag)");
    std::string_view v = args[++i];
    if (flag == "--threads") {
      o.threads = detail::parse_number<std::uint32_t>(flag, v, 1, 1024);
    } else if (flag == "--ops") {
      o.ops = detail::parse_number<std::uint64_t>(flag, v, 0, UINT64_C(1) << 40);
    } else if (flag == "--seed") {
      o.seed = detail::parse_number<std::uint64_t>(flag, v, 0, UINT64_MAX);
      o.seed_given = true;
    } else if (flag == "--clock") {
      auto c = parse_clock(v);
      if (!c) throw std::invalid_argument("--clock: expected counter, monotonic or rdtsc (x86 only), got '" + std::string(v) + "'");
      o.clock = *c;
    } else if (flag == "--out") {
      if (v.empty()) throw std::invalid_argument("--out: empty path");
      o.out = v;
    } else if (flag == "--perturb") {
      if (v == "none") o.perturb = PerturbMode::none;
      else if (v == "yield") o.perturb = PerturbMode::yield;
      else if (v == "sleep") o.perturb = PerturbMode::sleep;
      else if (v == "mixed") o.perturb = PerturbMode::mixed;
      else throw std::invalid_argument("--perturb: expected none, yield, sleep or mixed, got '" + std::string(v) + "'");
    } else if (flag == "--perturb-rate") {
      double rate = 0;
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), rate);
      if (ec != std::errc() || p != v.data() + v.size() || !(rate >= 0.0 && rate <= 1.0))
        throw std::invalid_argument("--perturb-rate: expected a probability in [0, 1], got '" + std::string(v) + "'");
      o.perturb_rate = rate;
    } else if (flag == "--sleep-max-us") {
      o.sleep_max_us = detail::parse_number<std::uint32_t>(flag, v, 1, 1'000'000);
    } else if (flag == "--pin-cpu") {
      o.pin_cpu = detail::parse_number<int>(flag, v, 0, 4095);
    } else if (flag == "--max-unsupported") {
      o.max_unsupported = detail::parse_number<std::uint32_t>(flag, v, 1, 1u << 30);
    } else if (flag == "--param") {
      auto eq = v.find('=');
      if (eq == std::string_view::npos || eq == 0) throw std::invalid_argument("--param: expected KEY=VALUE, got '" + std::string(v) + "'");
      if (!o.params.emplace(std::string(v.substr(0, eq)), std::string(v.substr(eq + 1))).second)
        throw std::invalid_argument("--param " + std::string(v.substr(0, eq)) + ": given twice");
    } else {
      throw std::invalid_argument("unknown flag '" + std::string(flag) + "'");
    }
  }
  if (!o.seed_given) o.seed = (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  return o;
}

}  // namespace omnilink
