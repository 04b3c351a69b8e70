#pragma once
// FreeSpace's private state, shared by the files that implement it: free_space.cpp
// (construction, point location, line of sight, turns, components, messages) and
// free_space_regions.cpp (costs and heights of the weighted regions).

#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

#include "edge_grid.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/search/components.hpp"
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

  // A map's free cells (with map_cells, gaps closed) answer points, components and the segments
  // of grid paths themselves; the outline's edges, their index and the rings' labels wait for
  // the first question that needs them (outlined()): a grid search on the map's cells may never
  // ask one. Cells are the scene's unit squares, (x, y) from the bottom-left.
  struct Cells {
    std::vector<search::CellRun> runs;   // free cells joined through sides, row after row
    std::vector<std::size_t> row_begin;  // the runs of row y: [row_begin[y], row_begin[y + 1])
    std::vector<std::uint32_t> label;    // per run, its component: 0 .. components - 1
  };
  std::optional<Cells> cells;
  mutable std::once_flag outline_once;
  // This Impl with its outline built (at once where cells is empty).
  const Impl& outlined() const {
    if (cells) std::call_once(outline_once, [this] { const_cast<Impl*>(this)->build_outline(); });
    return *this;
  }
  // cells, components, box and area from the map map_cells was made from.
  void label_cells(const CellMap& map);
  // The edges and their index, each ring labelled with the component of the cell on its left.
  void build_outline();
  bool cell_is_free(std::int64_t x, std::int64_t y) const {
    return x >= 0 && y >= 0 && x < map_cells->width && y < map_cells->height &&
           !map_cells->is_blocked(int(x), int(map_cells->height - 1 - y));
  }
  // The component of free cell (x, y).
  std::uint32_t cell_component(int x, int y) const;
  // Calls f(x, y) for each cell (possibly outside the map) whose closed square holds p: one to
  // four; none for a point outside the map.
  template <class F>
  void for_each_cell_holding(Point p, F&& f) const {
    const double w = map_cells->width, h = map_cells->height;
    if (!(p.x >= 0.0 && p.x <= w && p.y >= 0.0 && p.y <= h)) return;
    const double fx = std::floor(p.x), fy = std::floor(p.y);
    for (int dy = p.y == fy ? -1 : 0; dy <= 0; ++dy)
      for (int dx = p.x == fx ? -1 : 0; dx <= 0; ++dx) f(int(fx) + dx, int(fy) + dy);
  }
  // Whether the cells alone show segment ab free (false: not shown, not blocked): both ends in
  // one free cell, or a grid move's line from cell centre to centre, straight or diagonal, over
  // free cells, with four free cells round every corner it passes.
  bool cells_show_free(Point a, Point b) const;
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
  // The corners, worked out from the stars by the first corners() (only methods that bend round
  // corners ask).
  mutable std::once_flag corners_once;
  mutable std::vector<Corner> corners;
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
