#pragma once
/// @file
/// Internal to the navigation mesh: union-find over the ids 0 .. n - 1 (path halving), for
/// merging triangles and joining corners into vertices and nodes.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace polynav::navmesh_detail {

class DisjointSets {
 public:
  explicit DisjointSets(std::size_t n) : parent_(n) {
    std::iota(parent_.begin(), parent_.end(), 0u);
  }
  /// The root of x's set.
  std::uint32_t find(std::uint32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  /// Puts the set of root y under root x.
  void attach(std::uint32_t y, std::uint32_t x) { parent_[y] = x; }
  /// Joins the sets of x and y under the lower root: where every join is made so, a set's root
  /// is its lowest id.
  void join_lower(std::uint32_t x, std::uint32_t y) {
    x = find(x);
    y = find(y);
    if (x != y) parent_[std::max(x, y)] = std::min(x, y);
  }

 private:
  std::vector<std::uint32_t> parent_;
};

}  // namespace polynav::navmesh_detail
