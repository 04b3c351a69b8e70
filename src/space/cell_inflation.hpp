#pragma once
// Internal: the configuration space of a raster map (ROS, MovingAI) for a disc agent, computed on
// the map's own cells instead of by exact Boolean operations on their polygons.

#include <optional>
#include <vector>

#include "polynav/geometry.hpp"
#include "polynav/scene/scene.hpp"

namespace polynav::detail {

/// The cells of `blocked` that come within `radius_in_cells` (a distance measured in cell sides)
/// of a blocked cell or of the outside of the map: a cell is blocked in the result when the
/// distance between its closed square and the closed square of some blocked cell is at most the
/// radius, decided on exact integers. So every point within the radius of a blocked cell lies in a
/// blocked cell, and a blocked cell of the result lies wholly within radius + one cell diagonal.
/// An exact Euclidean distance transform (Felzenszwalb and Huttenlocher, "Distance Transforms of
/// Sampled Functions", Theory of Computing 8, 2012): O(width * height), whatever the radius.
CellMap inflate_cells(const CellMap& blocked, double radius_in_cells);

/// The blocked cells of a raster scene as its loader classified them (Scene::occupancy with its
/// unknown cells as LoadOptions::unknown said, or Scene::cell_map), with where they lie: cell
/// (cx, cy) is the square origin + cell_size * [cx, cx + 1] x [H - cy - 1, H - cy] of the map's
/// frame, which lies in the scene turned by `rotation` (a ROS map's origin yaw).
struct SceneRaster {
  CellMap cells;
  Point origin;
  double cell_size = 1.0;
  Rotation rotation;
};
/// The raster of a scene read from a map; nothing for other scenes.
std::optional<SceneRaster> scene_raster(const Scene& scene);

/// The free-space boundary of a raster scene for its agent's disc: the map's cells inflated by
/// inflate_cells, traced along cell sides, simplified with the map's own tolerance
/// (LoadOptions::simplify, which only ever blocks more) and placed in the scene's frame. A
/// rotated map is inflated in its own frame, by a hair more than the radius so that rounding the
/// turned corners cannot bring the outline nearer to a blocked cell than the radius.
/// @pre scene_raster(scene) and scene.agent.radius > 0.
std::vector<Ring> inflated_raster_boundary(const Scene& scene);

}  // namespace polynav::detail
