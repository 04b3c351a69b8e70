#pragma once
/// @file
/// The constrained Delaunay triangulation behind the navigation mesh, as plain arrays (no CGAL
/// types), so that only triangulate.cpp includes CGAL's triangulation headers.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "polynav/geometry.hpp"

namespace polynav::navmesh_detail {

struct Triangle {
  std::array<std::uint32_t, 3> v;  ///< vertex ids, counter-clockwise
  /// Across edge k (from v[k] to v[(k + 1) % 3]): the neighbouring finite triangle, or -1.
  std::array<std::int32_t, 3> neighbour;
  std::array<bool, 3> constrained;  ///< edge k lies on a constraint
};

struct Triangulation {
  std::vector<Point> vertices;
  /// Whether vertex i is one of the given points (not an intersection of two constraints, whose
  /// coordinates are rounded).
  std::vector<bool> given;
  std::vector<Triangle> triangles;  ///< the finite faces of the convex hull of the points
};

/// The constrained Delaunay triangulation of the points of `rings` with every ring edge (the last
/// point joined back to the first) as a constraint. Constraints may cross or overlap; a crossing
/// becomes a vertex. Points of the rings listed in `rounded` (sorted by x, then y) are
/// constructed ones, not given: Triangulation::given is false for them. face_count receives the
/// number of finite faces; when it exceeds max_triangles the faces are not exported (`triangles`
/// is empty).
Triangulation triangulate(const std::vector<Ring>& rings, std::size_t max_triangles,
                          std::size_t& face_count, const std::vector<Point>& rounded = {});

}  // namespace polynav::navmesh_detail
