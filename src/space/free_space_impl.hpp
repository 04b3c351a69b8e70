#pragma once
// FreeSpace's private state, shared by the files that implement it: free_space.cpp
// (construction, point location, line of sight, turns, components, messages) and
// free_space_regions.cpp (costs and heights of the weighted regions).

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "edge_grid.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/space/free_space.hpp"
#include "vertex_stars.hpp"

namespace polynav {

struct FreeSpace::Impl {
  Agent agent;
  std::vector<Region> regions;
  std::vector<Box> region_boxes;
  Ring original_bounds;
  Box bounds_box;
  std::optional<double> native_cell_size;
  std::optional<MapCells> map_cells;  // FreeSpace::map_cells
  std::optional<MapFrame> map_frame;
  std::shared_ptr<const MeshFaces> mesh_faces;
  std::optional<Waypoints> waypoints;
  // The obstacles as written, for saying why a point is not free: the shape and its key path
  // (not the whole InputLocation: a copy of the file's name per obstacle is most of copying a
  // traced map's thousands of obstacles).
  struct GivenObstacle {
    Polygon shape;
    std::string key_path;
  };
  std::vector<GivenObstacle> original_obstacles;
  bool given_free_space = false;  // the scene defined free space directly (map, mesh)
  double tolerance = 0.0;
  Inflation inflation = Inflation::exact;
  bool open_gaps = false;
  double max_build_seconds = default_max_build_seconds;

  std::vector<BoundaryRing> rings;
  std::vector<double> ring_area;  // |area| of each ring
  // Directed boundary edges, free space on their left, ring after ring.
  std::vector<Segment> edges;
  std::vector<std::uint32_t> edge_ring;
  std::size_t components = 0;
  Box box;
  double area = 0.0;
  double min_cost = 1.0;
  bool has_heights = false;

  // The clearance cost (FreeSpaceOptions::clearance_distance): the free space for each larger
  // radius r + k d / bands, k = 1 .. (nested in this one; a level with nothing free ends the list)
  // and the multiplier of each band: clearance_costs[k - 1] in band k, 1 beyond the last band.
  std::vector<FreeSpace> clearance_levels;
  std::vector<double> clearance_costs;
  void build_clearance(const Scene& scene, const FreeSpaceOptions& options);
  double clearance_multiplier(Point p) const;
  FieldRange clearance_range(const Box& where) const;
  // The parameters t in [0, 1] where segment ab meets a boundary edge (both ends of an edge it
  // overlaps), appended to `cuts`.
  void boundary_cuts(Point a, Point b, std::vector<double>& cuts) const;

  detail::EdgeGrid grid;
  detail::VertexStars stars;
  // Point location without long rays: each cell of the grid has a reference point of known
  // status. A point's status is its cell's reference status flipped once per edge crossing the
  // segment between them, and only the cell's own edges can cross that segment (the cell is
  // convex).
  std::vector<Point> reference;
  std::vector<std::uint8_t> reference_free;

  // The rings' edges, each edge's ring, the areas, and the grid over the edges.
  void build_edges();
  // With the components labelled: the stars of the vertices and the reference points.
  void build_index();
  void build_references();
  // Whether segment c->p crosses edge e, for c and p on no edge: endpoints of e on the line cp
  // count as lying on its left (a symbolic perturbation of the line), so a crossing through a
  // vertex counts exactly once.
  bool crosses(Point c, Point p, std::uint32_t e) const {
    const Point u = edges[e].a, v = edges[e].b;
    const bool u_left = exact::orientation(c, p, u) >= 0, v_left = exact::orientation(c, p, v) >= 0;
    if (u_left == v_left) return false;
    return exact::orientation(u, v, c) * exact::orientation(u, v, p) < 0;
  }
  void label_components_by_nesting();
  // With open gaps: components whose boundaries share a point are one, relabelled 0 .. n-1.
  void join_components_at_pinches();
  // Crossing parity of a ray from p towards +x; sets on_boundary when p lies on an edge.
  // With `per_ring`, also counts crossings per ring. With `only_ring`, of that ring's edges
  // alone (exact::side_of_ring of that ring, through the grid), and the ray may end at
  // `until_x`, the right side of that ring's box.
  static constexpr std::uint32_t all_rings = std::uint32_t(-1);
  bool ray_parity(Point p, bool& on_boundary, std::vector<std::uint32_t>* per_ring,
                  std::uint32_t only_ring = all_rings,
                  double until_x = std::numeric_limits<double>::infinity()) const;
  // The range of the regions' field over the open box: value(region) gives a region's value or
  // nothing when the region does not carry the field; `ground` applies outside every region.
  template <class Value>
  FieldRange field_range(const Box& where, double ground, Value&& value) const;
};

}  // namespace polynav
