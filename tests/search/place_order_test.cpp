// place_order (kernel/place_order.hpp) against std::stable_sort with the comparisons it replaces:
// the same order on negative, zero and signed-zero coordinates, repeated points (kept in index
// order) and coordinates of every magnitude, by (x, y) and by (y, x).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "polynav/kernel/place_order.hpp"

namespace polynav {
namespace {

std::vector<std::uint32_t> by_comparison(const std::vector<Point>& points, bool y_first) {
  std::vector<std::uint32_t> order(points.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Point p = points[a], q = points[b];
    const double p1 = y_first ? p.y : p.x, p2 = y_first ? p.x : p.y;
    const double q1 = y_first ? q.y : q.x, q2 = y_first ? q.x : q.y;
    return p1 < q1 || (p1 == q1 && p2 < q2);
  });
  return order;
}

TEST(PlaceOrder, IsTheOrderOfComparisons) {
  std::mt19937 random(7);
  const std::vector<double> special = {
      0.0,  -0.0, 1.0, -1.0, 0.5, -0.5, 1e-300, -1e-300, std::numeric_limits<double>::denorm_min(),
      1e15, -1e15};
  std::uniform_int_distribution<int> pick(0, int(special.size()) - 1), small(-3, 3);
  std::uniform_real_distribution<double> wide(-1e6, 1e6);
  for (int round = 0; round < 20; ++round) {
    std::vector<Point> points(1 + random() % 3000);
    for (Point& p : points) {
      const auto coordinate = [&]() {
        switch (random() % 3) {
          case 0:
            return special[std::size_t(pick(random))];
          case 1:
            return double(small(random));  // many repeats
          default:
            return wide(random);
        }
      };
      p = {coordinate(), coordinate()};
    }
    for (const bool y_first : {false, true}) {
      const std::vector<std::uint32_t> order = place_order(
          points.size(), [&](std::size_t i) { return points[i]; }, y_first);
      ASSERT_EQ(order, by_comparison(points, y_first))
          << "round " << round << " y_first " << y_first;
    }
  }
}

TEST(PlaceOrder, EmptyAndOnePoint) {
  const std::vector<Point> none;
  EXPECT_TRUE(place_order(0, [&](std::size_t i) { return none[i]; }).empty());
  const std::vector<Point> one = {{-2.5, 4}};
  EXPECT_EQ(place_order(1, [&](std::size_t i) { return one[i]; }), (std::vector<std::uint32_t>{0}));
}

}  // namespace
}  // namespace polynav
