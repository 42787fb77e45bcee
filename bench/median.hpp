// The median the benchmarks report: of an odd count the middle value, of an even one the upper of
// the two middle values (a value that was measured, never an average of two); 0 of none.
#pragma once

#include <algorithm>
#include <vector>

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
