#pragma once
/// @file
/// Points put in (x, y) order without comparisons: a least-significant-digit radix sort on the
/// coordinates' bits. A comparison sort branches on doubles at every step, and on a mesh of
/// 35,000 vertices each of its several sorts by place cost 20 to 30 million instructions; this
/// one takes a few passes of the points.
///
/// The order is exact: a double's bits, with the sign bit set for a positive value and every bit
/// flipped for a negative one, order as the doubles do (-0 is taken as +0, so that the two,
/// which compare equal, sort as equal). NaN has no place and must not be given.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "polynav/geometry.hpp"

namespace polynav {

namespace detail {

// The bits of v, ordered as the doubles are.
inline std::uint64_t ordered_bits(double v) {
  const auto bits = std::bit_cast<std::uint64_t>(v + 0.0);  // -0 as +0
  return bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
}

}  // namespace detail

/// The indices 0 .. n - 1 in order of point_of(i): by x, then by y (by y, then x, with y_first);
/// indices of equal points in increasing order. Sixteen stable passes of 8-bit digits over the
/// points' keys, moved with their indices (every digit's counts taken in one pass first, and a
/// digit on which all points agree skipped).
template <class PointOf>
std::vector<std::uint32_t> place_order(std::size_t n, PointOf&& point_of, bool y_first = false) {
  struct Item {
    std::uint64_t minor, major;
    std::uint32_t index;
  };
  std::vector<Item> items(n), moved(n);
  // counts[d][b]: the items whose digit d is b; digits 0-7 the minor key's, 8-15 the major one's.
  std::vector<std::array<std::uint32_t, 256>> counts(16, std::array<std::uint32_t, 256>{});
  for (std::size_t i = 0; i < n; ++i) {
    const Point p = point_of(i);
    Item& it = items[i];
    it = {detail::ordered_bits(y_first ? p.x : p.y), detail::ordered_bits(y_first ? p.y : p.x),
          std::uint32_t(i)};
    for (int d = 0; d < 8; ++d) {
      ++counts[std::size_t(d)][(it.minor >> (8 * d)) & 0xFF];
      ++counts[std::size_t(d) + 8][(it.major >> (8 * d)) & 0xFF];
    }
  }
  for (int d = 0; d < 16; ++d) {
    std::array<std::uint32_t, 256>& count = counts[std::size_t(d)];
    if (std::find(count.begin(), count.end(), std::uint32_t(n)) != count.end()) continue;
    std::uint32_t sum = 0;
    for (std::uint32_t& c : count) sum += std::exchange(c, sum);  // each digit's first place
    const int shift = 8 * (d % 8);
    for (const Item& it : items)
      moved[count[((d < 8 ? it.minor : it.major) >> shift) & 0xFF]++] = it;
    items.swap(moved);
  }
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = items[i].index;
  return order;
}

}  // namespace polynav
