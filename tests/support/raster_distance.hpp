#pragma once
// An independent measure for tests of raster maps: the distance from a point to the nearest
// blocked cell of a map (or the outside of the map), found by scanning the cells around it.

#include <algorithm>
#include <cmath>

#include "../../src/space/cell_inflation.hpp"

namespace polynav::test_support {

// Distance from `scene_point` to the nearest blocked cell of `raster` or the outside of the map,
// searching the cells within `reach` of it; infinity when none is that near.
inline double distance_to_blocked(const detail::SceneRaster& raster, Point scene_point,
                                  double reach) {
  const Point p = raster.rotation.undo(scene_point);  // into the map's own frame
  const double s = raster.cell_size;
  const int h = raster.cells.height;
  const double fx = (p.x - raster.origin.x) / s, fy = (p.y - raster.origin.y) / s;
  const int span = int(std::ceil(reach / s)) + 1;
  double best = INFINITY;
  for (int gy = int(std::floor(fy)) - span; gy <= int(std::floor(fy)) + span; ++gy)
    for (int gx = int(std::floor(fx)) - span; gx <= int(std::floor(fx)) + span; ++gx) {
      // Lattice cell (gx, gy) counted from the bottom; image row h - 1 - gy.
      const bool outside = gx < 0 || gy < 0 || gx >= raster.cells.width || gy >= h;
      if (!outside && !raster.cells.is_blocked(gx, h - 1 - gy)) continue;
      const double dx = std::max({gx - fx, 0.0, fx - (gx + 1)});
      const double dy = std::max({gy - fy, 0.0, fy - (gy + 1)});
      best = std::min(best, s * std::hypot(dx, dy));
    }
  return best;
}

}  // namespace polynav::test_support
