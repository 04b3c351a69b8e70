// BoxIndex (kernel/box_index.hpp) over boxes: every cell a box meets lists it, and boxes large
// against the cells (a fan of long thin triangles round one point) make the grid coarser instead
// of a list of billions.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

#include "polynav/kernel/box_index.hpp"

namespace polynav {
namespace {

// The boxes of a fan of n triangles (0, 0), p_k, p_k+1 with p_k on a half circle of radius r.
std::vector<Box> fan_boxes(std::size_t n, double r) {
  std::vector<Box> boxes(n);
  const auto rim = [&](std::size_t k) {
    const double a = std::numbers::pi * double(k) / double(n);
    return Point{r * std::cos(a), r * std::sin(a)};
  };
  for (std::size_t k = 0; k < n; ++k) {
    boxes[k].expand(Point{0, 0});
    boxes[k].expand(rim(k));
    boxes[k].expand(rim(k + 1));
  }
  return boxes;
}

// Every box is listed in the cell of each of some points inside it.
void expect_listed_where_they_lie(const BoxIndex& index, const std::vector<Box>& boxes) {
  std::mt19937 random(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (std::uint32_t i = 0; i < boxes.size(); i += 97) {
    for (int k = 0; k < 4; ++k) {
      const Box& b = boxes[i];
      const Point p{b.min.x + unit(random) * b.width(), b.min.y + unit(random) * b.height()};
      bool found = false;
      for (std::uint32_t id : index.ids_in(index.cell(p))) found = found || id == i;
      ASSERT_TRUE(found) << "box " << i << " is not listed at a point inside it";
    }
  }
}

TEST(BoxIndex, SmallBoxesKeepAboutOneCellEach) {
  std::vector<Box> boxes;
  for (int y = 0; y < 100; ++y)
    for (int x = 0; x < 100; ++x) boxes.push_back({{x + 0.1, y + 0.1}, {x + 0.9, y + 0.9}});
  BoxIndex index(Box{{0, 0}, {100, 100}}, boxes.size());
  const std::size_t cells = index.cell_count();
  index.assign_boxes(boxes);
  EXPECT_EQ(index.cell_count(), cells);  // not coarsened
  EXPECT_LE(index.listed(), 4 * boxes.size());
  expect_listed_where_they_lie(index, boxes);
}

TEST(BoxIndex, AFanOfThinBoxesMakesTheGridCoarser) {
  const std::vector<Box> boxes = fan_boxes(20000, 1000.0);
  Box all;
  for (const Box& b : boxes) all.expand(b);
  BoxIndex index(all, boxes.size());
  const std::size_t cells = index.cell_count();
  index.assign_boxes(boxes);
  // Listed in every cell each box meets on the grid asked for, the fan would take about a third
  // of the cells times the boxes (over a hundred million entries).
  EXPECT_LT(index.cell_count(), cells);
  EXPECT_LE(index.listed(), 64 * boxes.size() + index.cell_count());
  expect_listed_where_they_lie(index, boxes);
}

}  // namespace
}  // namespace polynav
