#include "cell_inflation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "../scene/free_boundary_trace.hpp"
#include "../scene/vectorise.hpp"

namespace polynav::detail {
namespace {

// The lower envelope of the parabolas (x - q)^2 + f[q] over q, at every x of [0, n): the 1D
// squared Euclidean distance transform of the sampled function f (Felzenszwalb and Huttenlocher
// 2012, section 2.1). f holds small integers, so every value is exact in a double.
void distance_transform_1d(const double* f, std::size_t n, double* out, std::vector<int>& hull,
                           std::vector<double>& bounds) {
  hull.assign(n, 0);
  bounds.assign(n + 1, 0.0);
  int k = 0;
  hull[0] = 0;
  bounds[0] = -std::numeric_limits<double>::infinity();
  bounds[1] = std::numeric_limits<double>::infinity();
  for (int q = 1; q < int(n); ++q) {
    // Where the parabola of q overtakes the last one on the hull; the hull's first bound is
    // -infinity, so the loop stops there at the latest.
    const auto meet = [&](int v) {
      return ((f[q] + double(q) * q) - (f[v] + double(v) * v)) / (2.0 * (q - v));
    };
    double s = meet(hull[k]);
    while (s <= bounds[k]) s = meet(hull[--k]);
    ++k;
    hull[k] = q;
    bounds[k] = s;
    bounds[k + 1] = std::numeric_limits<double>::infinity();
  }
  k = 0;
  for (int x = 0; x < int(n); ++x) {
    while (bounds[k + 1] < x) ++k;
    const double d = x - hull[k];
    out[x] = d * d + f[hull[k]];
  }
}

}  // namespace

CellMap inflate_cells(const CellMap& blocked, double radius_in_cells) {
  const int w = blocked.width, h = blocked.height;
  // The map framed by one ring of blocked cells: outside the map is blocked, so cells near its
  // edge are blocked too (the bounds shrink by the radius).
  const int pw = w + 2, ph = h + 2;
  const auto padded_blocked = [&](int x, int y) {
    return x == 0 || y == 0 || x == pw - 1 || y == ph - 1 || blocked.is_blocked(x - 1, y - 1);
  };

  // The distance between the closed squares of cells at offsets (dx, dy) is
  // sqrt(g(dx) + g(dy)) cell sides, g(d) = max(|d| - 1, 0)^2: separable, so a column pass then a
  // row pass give the least sum over all blocked cells. Down each column, g of the distance to the
  // nearest blocked cell.
  std::vector<double> column(std::size_t(pw) * ph);
  for (int x = 0; x < pw; ++x) {
    int last = std::numeric_limits<int>::min() / 2;
    for (int y = 0; y < ph; ++y) {
      if (padded_blocked(x, y)) last = y;
      column[std::size_t(y) * pw + x] = double(y - last);
    }
    last = std::numeric_limits<int>::max() / 2;
    for (int y = ph - 1; y >= 0; --y) {
      if (padded_blocked(x, y)) last = y;
      double& d = column[std::size_t(y) * pw + x];
      d = std::min(d, double(last - y));
      const double g = std::max(d - 1.0, 0.0);
      d = g * g;
    }
  }

  // Along each row: g(d) = min over e in {-1, 0, 1} of (d - e)^2 for integer d, so the row's least
  // g(x - x') + column[x'] is the least of the squared distance transform at x - 1, x and x + 1.
  // A cell is blocked when that sum is at most the squared radius; the threshold is taken a hair
  // above it, so rounding in the squared radius can only block more.
  const double limit = radius_in_cells * radius_in_cells * (1.0 + 1e-12);
  CellMap result;
  result.width = w;
  result.height = h;
  result.blocked.assign(std::size_t(w) * h, 0);
  std::vector<double> row(pw);
  std::vector<int> hull;
  std::vector<double> bounds;
  for (int y = 1; y + 1 < ph; ++y) {
    distance_transform_1d(&column[std::size_t(y) * pw], std::size_t(pw), row.data(), hull, bounds);
    for (int x = 1; x + 1 < pw; ++x) {
      const double d = std::min({row[x - 1], row[x], row[x + 1]});
      result.blocked[std::size_t(y - 1) * w + (x - 1)] = d <= limit ? 1 : 0;
    }
  }
  return result;
}

std::optional<SceneRaster> scene_raster(const Scene& scene) {
  if (scene.occupancy) {
    const OccupancyMap& map = *scene.occupancy;
    SceneRaster raster;
    raster.cells.width = map.width;
    raster.cells.height = map.height;
    raster.cells.blocked.resize(map.cells.size());
    for (std::size_t i = 0; i < map.cells.size(); ++i)
      raster.cells.blocked[i] = map.cells[i] == OccupancyMap::Cell::occupied ||
                                (map.cells[i] == OccupancyMap::Cell::unknown && !map.unknown_free);
    raster.origin = map.origin;
    raster.cell_size = map.resolution;
    raster.rotation = map.rotation();
    return raster;
  }
  if (scene.cell_map) return SceneRaster{*scene.cell_map, {0.0, 0.0}, 1.0, {}};
  return std::nullopt;
}

std::vector<Ring> inflated_raster_boundary(const Scene& scene) {
  const SceneRaster raster = scene_raster(scene).value();
  const double margin = raster.rotation.identity() ? 1.0 : 1.0 + 1e-9;
  const CellMap inflated =
      inflate_cells(raster.cells, margin * scene.agent.radius / raster.cell_size);
  std::vector<Ring> rings =
      trace_free_boundary(inflated, raster.origin, raster.cell_size, raster.rotation);
  const double tolerance = scene.vectorisation ? scene.vectorisation->tolerance : 0.0;
  if (tolerance > 0.0) rings = simplify_free_boundary(std::move(rings), tolerance).rings;
  return rings;
}

}  // namespace polynav::detail
