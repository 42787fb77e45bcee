// How many nanoseconds per operation the harness adds (timeboxing, replay hook, logging) over the
// same workload loop without it, per clock source, with 1 and 2 threads. Each configuration is
// run several times; the table shows medians. The operation is deliberately tiny (a relaxed
// fetch_add on a per-thread counter plus one random draw), so the overhead dominates.
//
// Usage: harness_overhead [--ops N] [--repeats R] [--dir SCRATCH]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <omnilink/harness.hpp>

#include "median.hpp"

namespace {

struct alignas(64) Slot {
  std::atomic<std::int64_t> value{0};
};
struct Sut {
  Slot slots[64];
};

struct Add {
  static constexpr std::string_view omnilink_name = "Add";
  std::int64_t by = 0;
  std::int64_t old = 0;
  template <class V>
  void omnilink_fields(V&& f) const {
    f("by", by);
    f("old", old);
  }
};

// The same work the harness's operation does, without the harness: random draw, the call.
double baseline_ns_per_op(std::uint32_t threads, std::uint64_t ops) {
  Sut sut;
  auto begin = std::chrono::steady_clock::now();
  {
    std::vector<std::jthread> workers;
    for (std::uint32_t t = 0; t < threads; ++t)
      workers.emplace_back([&sut, t, ops] {
        omnilink::Rng rng(omnilink::derive_seed(1, t, 0));
        std::int64_t sink = 0;
        for (std::uint64_t i = 0; i < ops; ++i) {
          std::int64_t by = rng.uniform(1, 3);
          sink += sut.slots[t].value.fetch_add(by, std::memory_order_relaxed);
        }
        asm volatile("" : : "r"(sink) : "memory");
      });
  }
  std::chrono::duration<double, std::nano> d = std::chrono::steady_clock::now() - begin;
  return d.count() / static_cast<double>(ops);  // per op of one thread: threads run in parallel
}

double harness_ns_per_op(std::uint32_t threads, std::uint64_t ops, omnilink::ClockKind clock, const std::filesystem::path& dir) {
  omnilink::Options o;
  o.threads = threads;
  o.ops = ops;
  o.seed = 1;
  o.seed_given = true;
  o.clock = clock;
  o.out = dir.string();
  o.quiet = true;
  omnilink::Harness<Sut> h(o);
  h.op<Add>([](Sut& s, omnilink::Context& ctx, Add& op) {
    op.by = ctx.uniform(1, 3);
    op.old = s.slots[ctx.thread()].value.fetch_add(op.by, std::memory_order_relaxed);
  });
  Sut sut;
  auto begin = std::chrono::steady_clock::now();
  if (h.run(sut) != 0) {
    std::fprintf(stderr, "harness run failed\n");
    std::exit(1);
  }
  std::chrono::duration<double, std::nano> d = std::chrono::steady_clock::now() - begin;
  return d.count() / static_cast<double>(ops);
}

// The floor of any shared-counter clock: threads doing only what the counter clock does per
// operation (a seq_cst load, some thread-local work standing in for the rest of an operation, a
// seq_cst fetch_add on one shared atomic). With two cores the counter's cache line moves between
// them about twice per operation; the 2-thread minus 1-thread difference is that cost.
double shared_counter_floor_ns_per_op(std::uint32_t threads, std::uint64_t ops) {
  alignas(64) std::atomic<std::uint64_t> counter{0};
  auto begin = std::chrono::steady_clock::now();
  {
    std::vector<std::jthread> workers;
    for (std::uint32_t t = 0; t < threads; ++t)
      workers.emplace_back([&counter, ops] {
        std::uint64_t sink = 0, local = 88172645463325252ull;
        for (std::uint64_t i = 0; i < ops; ++i) {
          sink += counter.load();
          for (int k = 0; k < 24; ++k) local ^= local << 13, local ^= local >> 7, local ^= local << 17;
          sink += counter.fetch_add(1);
        }
        asm volatile("" : : "r"(sink + local) : "memory");
      });
  }
  std::chrono::duration<double, std::nano> d = std::chrono::steady_clock::now() - begin;
  return d.count() / static_cast<double>(ops);
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t ops = 2'000'000;
  int repeats = 7;
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "omnilink-bench-overhead";
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--ops") ops = std::stoull(argv[i + 1]);
    else if (flag == "--repeats") repeats = std::stoi(argv[i + 1]);
    else if (flag == "--dir") dir = argv[i + 1];
  }
  std::printf("harness overhead: %llu ops per thread, median of %d runs, trace written to %s\n",
              static_cast<unsigned long long>(ops), repeats, dir.c_str());
  std::printf("%-10s %-8s %14s %14s %14s\n", "clock", "threads", "baseline ns/op", "harness ns/op", "overhead ns/op");
  for (auto clock : {omnilink::ClockKind::counter, omnilink::ClockKind::rdtsc, omnilink::ClockKind::monotonic}) {
    for (std::uint32_t threads : {1u, 2u}) {
      std::vector<double> base, with;
      for (int r = 0; r < repeats; ++r) {
        base.push_back(baseline_ns_per_op(threads, ops));
        with.push_back(harness_ns_per_op(threads, ops, clock, dir));
      }
      const double b = median(base), w = median(with);
      std::printf("%-10s %-8u %14.1f %14.1f %14.1f\n", std::string(omnilink::clock_name(clock)).c_str(), threads, b, w, w - b);
    }
  }
  for (std::uint32_t threads : {1u, 2u}) {
    std::vector<double> floor;
    for (int r = 0; r < repeats; ++r) floor.push_back(shared_counter_floor_ns_per_op(threads, ops));
    std::printf("shared-counter floor (load, local work, fetch_add), %u thread(s): %.1f ns/op\n", threads,
                median(floor));
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return 0;
}
