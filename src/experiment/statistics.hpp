#pragma once
// Internal to experiment/: the summary's and the plots' order statistics, computed one way.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace polynav::experiment::detail {

/// The q-quantile of sorted, non-empty values by the nearest-rank method.
inline double nearest_rank(const std::vector<double>& sorted, double q) {
  const std::size_t rank = std::size_t(std::ceil(q * double(sorted.size())));
  return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

}  // namespace polynav::experiment::detail
