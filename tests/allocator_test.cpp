// How a sweep shares its runs among its configurations (sweep/allocator): UCB1 after each
// configuration's minimum. A unit test, no harness runs.
#include <catch2/catch.hpp>

#include <vector>

#include "sweep/allocator.hpp"

using namespace omnilink;

TEST_CASE("the allocator gives every configuration its minimum, then favours those that find something") {
  sweep::Allocator allocator(3, 2);
  std::vector<int> first;
  for (int i = 0; i < 6; ++i) {
    const auto c = allocator.next();
    first.push_back(static_cast<int>(c));
    allocator.started(c);
  }
  CHECK(first == std::vector<int>{0, 1, 2, 0, 1, 2});
  for (std::size_t c = 0; c < 3; ++c)
    for (int i = 0; i < 2; ++i) allocator.finished(c, c == 1);  // only configuration 1 finds anything
  std::vector<int> picks(3, 0);
  for (int i = 0; i < 200; ++i) {
    const auto c = allocator.next();
    ++picks[c];
    allocator.started(c);
    allocator.finished(c, c == 1);
  }
  CHECK(picks[1] > picks[0] * 3);
  CHECK(picks[1] > picks[2] * 3);
  CHECK(picks[0] > 0);  // the others keep getting some
  CHECK(picks[2] > 0);
}
