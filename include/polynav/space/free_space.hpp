#pragma once
/// @file
/// The configuration space of a scene: THE geometric truth. Every yes/no about geometry (is this
/// point free, can a straight segment go from a to b) is answered here, exactly, and nowhere
/// else, so discretisations, smoothers, validators and tests can never disagree.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "polynav/enum_names.hpp"
#include "polynav/geometry.hpp"
#include "polynav/kernel/build_clock.hpp"
#include "polynav/scene/scene.hpp"

namespace polynav {

/// A MovingAI map's cells, a bit each (FreeSpace::map_cells): cell (cx, cy), counted from the
/// top-left as the map writes them, is the scene's unit square [cx, cx + 1] x [h - cy - 1, h - cy].
struct MapCells {
  int width = 0;
  int height = 0;
  std::vector<std::uint64_t> blocked;  ///< bit cy * width + cx

  bool is_blocked(int cx, int cy) const {
    const std::size_t i = std::size_t(cy) * std::size_t(width) + std::size_t(cx);
    return ((blocked[i >> 6u] >> (i & 63u)) & 1u) != 0;
  }
};

/// How obstacles grow by the agent's disc. Both block every point within the radius of an
/// obstacle (the exact Minkowski sum with the disc); they differ in how much more they block.
enum class Inflation : std::uint8_t {
  /// `cells` for raster maps (ROS, MovingAI) when the agent has a radius, `exact` otherwise.
  automatic,
  /// Exact Boolean operations (CGAL) on the obstacles grown by a regular polygon around the disc:
  /// at most FreeSpaceOptions::inflation_tolerance more. Time grows faster than the vertices.
  exact,
  /// Raster maps only: a map cell is blocked when any point of it lies within the radius of a
  /// blocked cell or of the map's edge (an exact distance transform on the cells, linear in the
  /// cells), so at most one cell diagonal more is blocked, as a costmap's inflation does.
  cells,
};
inline constexpr auto inflation_names =
    enum_names(Inflation::automatic, "auto", Inflation::exact, "exact", Inflation::cells, "cells");

/// Obstacles already grown by the agent's disc (exact Minkowski sums, the largest part of
/// building free space), kept for the next free space built from a scene that shares them: the
/// versions of an EditablePlanner, where an edit changes a few obstacles and leaves the others.
/// An obstacle is reused when its shape, the agent radius, the inflation tolerance and the
/// scene's bounds are the same, bit for bit. The union of the grown obstacles is kept too: a
/// build whose obstacles differ from the last one's in a few places joins them again only in a
/// window around those (when they reach fewer than half of the parts), and keeps the rest of
/// the union. The free space built is the one built without the cache, ring for ring: the
/// operations are exact, and free space's rings are read from the union in a form that depends
/// on the region alone.
///
/// For each disc (agent radius and tolerance: a free space's own, and one per clearance band) it
/// keeps the sums that the last build with that disc used and their union, and it keeps the 32
/// discs used last.
/// Thread-safe: builds sharing a cache run one after another (its exact objects are shared between
/// them, and CGAL's lazy exact numbers are not safe to read from two threads).
class InflationCache {
 public:
  InflationCache();
  ~InflationCache();
  InflationCache(const InflationCache&) = delete;
  InflationCache& operator=(const InflationCache&) = delete;

  /// What the builds through the cache did with their parts (the obstacles and the outside of
  /// the bounds, each grown by the disc), counted since it was made.
  struct Counts {
    std::size_t reused = 0;    ///< parts whose sum was kept from an earlier build
    std::size_t computed = 0;  ///< parts summed anew
    /// Builds that kept the union of the build before with the same disc, joining the parts
    /// again only around those that changed (if any); the others joined them whole.
    std::size_t joined_locally = 0;
  };
  Counts counts() const;

  struct Impl;  // internal: the exact sums (configuration_space.cpp)
  Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

struct FreeSpaceOptions {
  /// How obstacles are grown by the agent's disc (Inflation).
  Inflation inflation = Inflation::automatic;
  /// Largest extra width of an inflated obstacle beyond the true Minkowski sum with the agent's
  /// disc (the disc is replaced by a circumscribed regular polygon, which always contains it).
  /// 0 = 1% of the agent radius. `cells` inflation ignores it: its bound is the cell diagonal.
  /// [Limit: >= 0] [Units: scene units]
  double inflation_tolerance = 0.0;
  /// Whether a path may pass through a point where two blocked parts touch (two blocked cells
  /// meeting at a corner, two obstacles sharing a vertex). Closed by default: the gap has no
  /// width, so nothing can pass. The any-angle literature (Uras and Koenig 2015, Central64) opens
  /// them; every method, smoother and the reference then agree on it.
  bool open_gaps = false;
  /// Budget on the vertices handed to the exact Boolean operations that build free space from
  /// obstacles (the bounds and obstacles, plus one inflated disc's vertices per part when the
  /// agent has a radius): their time grows faster than linearly, about 6 s at 50,000 vertices
  /// and 37 s at 200,000 on one core (bench/README.md), so a larger scene is refused before the
  /// work starts rather than left to run for minutes. Scenes whose free space is given (maps,
  /// meshes) with a point agent do not use these operations. [Limit: >= 1]
  std::size_t max_vertices = 150'000;
  /// Wall-clock budget of building free space, and of each discretisation built over it (they
  /// read it through max_build_seconds()), checked between steps (BuildClock); the exact union,
  /// which cannot stop midway, is bounded by max_vertices instead. [Units: s] [Limit: > 0;
  /// infinity for none]
  double max_build_seconds = default_max_build_seconds;
  /// Clearance as a cost, as a costmap's inflation layer makes it: travel within this distance of
  /// the inflated obstacles (and the shrunk bounds) costs more, in `clearance_bands` bands of equal
  /// width whose multiplier falls linearly from `clearance_factor` at the obstacles to
  /// 1 + (factor - 1) / bands in the last band, and is 1 beyond. Band k (1 = nearest) holds the
  /// points free for an agent of radius r + (k - 1) d / bands but not for r + k d / bands, each
  /// such free space computed as this one is (the same inflation), so every method, smoother and
  /// the exact reference evaluate the same piecewise-constant cost exactly. It multiplies the
  /// regions' cost. 0 = none. [Limit: >= 0] [Units: scene units]
  double clearance_distance = 0.0;
  /// The cost multiplier next to the obstacles (see clearance_distance). [Limit: >= 1]
  double clearance_factor = 3.0;
  /// The number of bands the clearance distance is cut into. [Limit: 1 to 16]
  int clearance_bands = 4;
  /// Obstacles grown for earlier free spaces, reused where unchanged (InflationCache); none by
  /// default. EditablePlanner keeps one for its versions. Not a text option.
  std::shared_ptr<InflationCache> reuse{};
};

/// One ring of the free-space boundary, oriented so free space lies on its left: the outer ring
/// of a component runs counter-clockwise, its holes clockwise.
struct BoundaryRing {
  Ring points;
  std::uint32_t component = 0;  ///< the connected component of free space it bounds
  bool outer = false;           ///< outer boundary of its component (otherwise a hole in it)
};

/// A corner of free space: a boundary point with a free sector wider than 180 degrees (a convex
/// corner of an obstacle, a reflex corner of free space), between the boundary edges from
/// `before` and to `after`. Shortest paths among polygons bend only at corners (Lozano-Pérez and
/// Wesley 1979). At a point where several blocked parts touch, each free sector is judged on its
/// own, so a pinch whose free sectors are all narrower is no corner.
struct Corner {
  Point at;
  Point before;                 ///< the far end of the boundary edge arriving at `at`
  Point after;                  ///< the far end of the boundary edge leaving `at`
  std::uint32_t component = 0;  ///< the connected component of free space it bounds
};

/// How a closed box lies relative to free space (FreeSpace::classify).
enum class BoxClass : std::uint8_t {
  free,     ///< the whole box lies in free space
  blocked,  ///< no point of the box's interior is free
  mixed,    ///< the boundary of free space passes through the box's interior
};

/// A uniform frame of square cells: cell (cx, cy) is the closed box [origin.x + cx·side,
/// origin.x + (cx+1)·side] x [origin.y + cy·side, origin.y + (cy+1)·side] of the frame's own
/// coordinates, computed exactly so, so neighbouring cells share their sides bit for bit. The
/// frame lies in the scene turned by `rotation` (a rotated map's frame, FreeSpace::map_frame);
/// with the identity, the default, its coordinates are the scene's. corner() and centre() give
/// points in the scene, every one through Rotation::apply, so that cells share their corners
/// there too, and a rotated map's cells have exactly the corners of its traced outline.
struct CellFrame {
  Point origin;
  double side = 1.0;
  int columns = 0;
  int rows = 0;
  Rotation rotation;

  bool rotated() const { return !rotation.identity(); }
  /// The cell in the frame's own coordinates (the scene's when not rotated).
  Box cell(int cx, int cy) const {
    return {{origin.x + cx * side, origin.y + cy * side},
            {origin.x + (cx + 1) * side, origin.y + (cy + 1) * side}};
  }
  /// The lattice point (x, y), the lower-left corner of cell (x, y), in the scene.
  Point corner(int x, int y) const {
    return rotation.apply({origin.x + x * side, origin.y + y * side});
  }
  Point centre(int cx, int cy) const {
    return rotation.apply({origin.x + (cx + 0.5) * side, origin.y + (cy + 0.5) * side});
  }
  /// The cell's corners in the scene, counter-clockwise from its lower-left one.
  std::array<Point, 4> quad(int cx, int cy) const {
    return {corner(cx, cy), corner(cx + 1, cy), corner(cx + 1, cy + 1), corner(cx, cy + 1)};
  }
  /// The box the cell covers in the scene: cell() itself when not rotated, else its corners' box.
  Box scene_box(int cx, int cy) const {
    if (!rotated()) return cell(cx, cy);
    Box box;
    for (const Point& p : quad(cx, cy)) box.expand(p);
    return box;
  }
};

/// A window of a CellFrame's cells: columns [x0, x1) of rows [y0, y1).
struct CellWindow {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;

  bool empty() const { return x1 <= x0 || y1 <= y0; }
  std::size_t size() const { return empty() ? 0 : std::size_t(x1 - x0) * std::size_t(y1 - y0); }
};

/// The frame of a raster map whose cells are turned in the scene (a ROS map whose origin has a
/// yaw): in it the map's cells are axis-aligned squares from `extent.min`, and `rotation` turns
/// it into the scene (OccupancyMap::rotation).
struct MapFrame {
  Rotation rotation;
  Box extent;  ///< the map's image in its own frame
  double cell_size = 1.0;
};

/// The range of a terrain field (cost multiplier or height) over a box: `lowest` is at most and
/// `highest` at least every value the field takes in the box's interior.
struct FieldRange {
  double lowest = 0.0;
  double highest = 0.0;
};

/// A band of the clearance cost (FreeSpaceOptions::clearance_distance): its cost multiplier and
/// the boundary of the free space beyond it (the band lies between the previous band's `beyond`,
/// or F's own boundary for the first, and this one).
struct ClearanceBand {
  double cost = 1.0;
  const std::vector<BoundaryRing>* beyond = nullptr;
};

/// Free space F = (bounds shrunk by the agent radius) minus the union of (obstacle ⊕ disc).
/// F is closed: a path may touch its boundary (graze a vertex, run along an edge) but never leave
/// it, and never pass through a point where two blocked parts touch (a zero-width gap), unless
/// FreeSpaceOptions::open_gaps says otherwise; components are then joined through such points.
///
/// A built FreeSpace is immutable: every query is const and may be called from several threads
/// at once.
///
/// Predicates are exact (CGAL's filtered exact predicates on the double coordinates of the
/// boundary). Constructed boundary vertices (inflation, intersections) are rounded to doubles
/// after an exact construction that errs outwards, so F is never larger than the true
/// configuration space by more than rounding of an already conservative construction.
class FreeSpace {
 public:
  /// Builds the configuration space. @pre scene was validated by its loader.
  /// Complexity: O(n log n) in the number of obstacle vertices for the index, plus CGAL's
  /// Minkowski sums and Boolean operations when the agent has a radius or obstacles overlap.
  explicit FreeSpace(const Scene& scene, FreeSpaceOptions options = {});
  ~FreeSpace();
  FreeSpace(FreeSpace&&) noexcept;
  FreeSpace& operator=(FreeSpace&&) noexcept;
  FreeSpace(const FreeSpace&) = delete;
  FreeSpace& operator=(const FreeSpace&) = delete;

  /// Whether p lies in F (its boundary included).
  bool is_free(Point p) const;
  /// Whether the closed segment ab lies in F without crossing a zero-width gap.
  bool line_of_sight(Point a, Point b) const;
  /// The integral of the cost multipliers (regions times clearance bands) along segment ab (its
  /// length where neither applies). Does not check line of sight.
  double segment_cost(Point a, Point b) const;
  /// Whether moving straight from a to b never steps up by more than the agent's max_climb
  /// between terrain heights (regions with a `height`). Stepping down is always allowed.
  bool climbable(Point a, Point b) const;
  /// Whether a path arriving at w from `from` may leave towards `to`: when w lies on the
  /// boundary, the turn must sweep through free space on one side, so a path can neither enter
  /// an obstacle at w nor cross between two blocked parts that touch at w (a zero-width gap).
  /// Segments are checked separately by line_of_sight. @pre from != w, to != w
  bool turn_is_free(Point from, Point w, Point to) const;
  /// line_of_sight and climbable: the segment is a valid motion.
  bool traversable(Point a, Point b) const { return line_of_sight(a, b) && climbable(a, b); }
  /// segment_cost summed over a polyline.
  double path_cost(const std::vector<Point>& path) const;
  /// The cost multiplier at p: the last region containing p (else 1) times its clearance band's.
  double cost_at(Point p) const;
  /// The terrain height at p (the last region with a height containing p, else 0).
  double height_at(Point p) const;
  /// The least distance from the closed segment ab to the boundary of F: how far a motion along
  /// it keeps from the inflated obstacles and the shrunk bounds (0 where it touches them).
  /// Computed in floating point (a measure, not a decision); infinity when F has no boundary.
  double clearance(Point a, Point b) const;
  /// The point of F nearest to p (p itself when free); empty when F is empty.
  std::optional<Point> nearest_free(Point p) const;
  /// The connected component of F containing p; empty when p is not free. A point where
  /// components touch (a zero-width gap, closed) is in all of them: this returns one, components()
  /// all.
  std::optional<std::uint32_t> component(Point p) const;
  /// Every connected component of F containing p, in increasing order: one for a point inside F,
  /// several for a boundary point where components touch, none when p is not free. Two points
  /// can be joined by a path in F only if their lists share a component.
  std::vector<std::uint32_t> components(Point p) const;
  std::size_t component_count() const;
  /// Why p is not free, e.g. "outside the bounds" or "inside obstacles[3]" or "within the agent
  /// radius 0.25 of obstacles[3]"; empty when p is free.
  std::string explain_blocked(Point p) const;

  /// How the closed box lies in F, exactly: free when no boundary edge meets its interior and
  /// its centre is free, blocked when none meets it and the centre is not free, else mixed.
  /// Complexity: O(edges near the box).
  BoxClass classify(const Box& box) const;
  /// How the closed convex polygon `corners` (counter-clockwise, no three collinear: a hexagonal
  /// cell) lies in F, exactly, as classify(Box) decides a box: free when no boundary edge meets
  /// its interior (exact::meets_open_convex) and its centroid is free.
  BoxClass classify(std::span<const Point> corners) const;
  /// For each cell of the frame (row-major from cell (0, 0)), 1 when the closed cell lies in F,
  /// else 0: the same answer as classify(frame.cell(cx, cy)) == BoxClass::free, computed for the
  /// whole frame at once. A rotated frame's cells are the quadrilaterals of their corners in the
  /// scene (CellFrame::quad), decided with the same exact tests. Complexity: O(cells + cells the
  /// boundary edges pass through).
  std::vector<std::uint8_t> free_cells(const CellFrame& frame) const;
  /// free_cells for the window's cells only (row-major within it): the same answers, at a cost
  /// that grows with the window and the boundary edges near it rather than the whole frame
  /// (a rotated frame is still classified whole). @pre the window lies in the frame
  std::vector<std::uint8_t> free_cells(const CellFrame& frame, const CellWindow& window) const;
  /// The cost multipliers over the box's interior (plain ground counts 1). Exact for boxes that
  /// meet at most one region edge; otherwise a region hidden under several later ones may still
  /// be counted, so `highest` can only be too high and `lowest` too low, never the other way.
  FieldRange cost_range(const Box& box) const;
  /// The terrain heights over the box's interior (0 outside every region with a height), with the
  /// same guarantee as cost_range.
  FieldRange height_range(const Box& box) const;
  /// The corners of F (see Corner), ordered by position (x, then y).
  const std::vector<Corner>& corners() const;
  /// The boundary of F as rings with free space on their left.
  const std::vector<BoundaryRing>& boundary() const;
  /// Total number of boundary edges.
  std::size_t edge_count() const;
  /// Builds now the boundary's edges and their index. A MovingAI map's free space answers
  /// points, components and grid moves from its cells, and builds these on the first question
  /// that needs them; a caller that will ask at once (smoothing) builds them here instead, so
  /// that no query pays for them. Thread-safe; a no-op once built, and on every other scene.
  void prepare_outline() const;
  /// Bounding box of F.
  Box box() const;
  /// Area of F.
  double area() const;
  /// The cheapest cost multiplier anywhere in F (1 when no region is cheaper); heuristics scale
  /// distances by it to stay admissible.
  double min_cost() const;
  /// Whether any region carries a height.
  bool has_heights() const;
  const Agent& agent() const;
  const std::vector<Region>& regions() const;
  /// Whether the scene has regions (costs or heights) or a clearance cost: travel may cost more
  /// than its length, or terrain may matter.
  bool weighted() const;
  /// Whether travel near obstacles costs more (FreeSpaceOptions::clearance_distance > 0).
  bool has_clearance_cost() const;
  /// The clearance cost's bands, nearest the obstacles first; a band whose far edge would leave
  /// nothing free has no `beyond` (it holds the rest of F). Empty without a clearance cost.
  std::vector<ClearanceBand> clearance_bands() const;
  /// Every ring along which the cost multiplier may change: the regions' polygons and the
  /// boundaries of the clearance bands. Discretisations that cut their cells along cost changes
  /// (the navigation mesh, the quadtree) use them.
  std::vector<Ring> cost_boundaries() const;
  /// Whether zero-width gaps are open (FreeSpaceOptions::open_gaps).
  bool open_gaps() const;
  /// The build budget for discretisations over this space (FreeSpaceOptions::max_build_seconds).
  double max_build_seconds() const;
  /// The inflation tolerance actually used: the resolved default, or the cell diagonal with
  /// `cells` inflation (how much more than the exact disc sum may be blocked).
  double inflation_tolerance() const;
  /// How the obstacles were grown (`exact` or `cells`, resolved; `exact` for a point agent, which
  /// grows nothing).
  Inflation inflation() const;
  /// The radius of the agent this free space is for (Scene::agent).
  double agent_radius() const;
  /// How far from an obstacle its presence can change this free space, its costs or heights:
  /// the agent radius plus the inflation tolerance, for the farthest clearance band when there
  /// is a clearance cost (0 for a point agent).
  double edit_reach() const;
  /// Where an edit of obstacles and regions within the `changed` boxes (edited_boxes) may have
  /// made this free space, its costs or heights differ from `before`, the free space of the
  /// scene before the edit (with the same options), as boxes: each changed box grown by
  /// edit_reach, and the box of every boundary edge of either (free space's own, and each
  /// clearance band's) with an end in one of those. The exact sets are the same beyond
  /// edit_reach, but an edge that the edit cut short ends at a vertex rounded to doubles, which
  /// tilts it by an ulp all along its length. Outside the boxes everything is as it was, bit for
  /// bit (EditablePlanner's updates).
  std::vector<Box> edit_extent(const FreeSpace& before, std::span<const Box> changed) const;
  /// The box of the scene's bounds as written (before shrinking by the agent radius); grids line
  /// their cells up with its lower-left corner.
  Box bounds_box() const;
  /// The scene's natural cell size (MovingAI maps: 1), when it has one.
  std::optional<double> native_cell_size() const;
  /// A MovingAI map's cells, when this free space is exactly the outline of their free cells (a
  /// point agent, the outline as traced: checked side by side when built), so that a cell of the
  /// map lies wholly in free space exactly when the map has it free; null otherwise. free_cells
  /// on the map's own cells reads them instead of classifying the cells.
  const MapCells* map_cells() const;
  /// For a scene from a rotated raster map, the map's own frame (the grid method lines its cells
  /// up with it); empty for every other scene, whose cells, if any, follow the scene's axes.
  const std::optional<MapFrame>& map_frame() const;
  /// The faces of the navigation mesh the scene was read from (Scene::mesh, shared with it), when
  /// the agent is a point: with a radius they no longer describe F. Null otherwise.
  const MeshFaces* mesh_faces() const;
  /// The scene's hand-placed waypoints (Scene::waypoints), as written; empty when it has none.
  const std::optional<Waypoints>& waypoints() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  // free_cells for a frame turned in the scene.
  std::vector<std::uint8_t> free_rotated_cells(const CellFrame& frame) const;
  // Calls f(t0, t1, midpoint) for the pieces of segment ab between region boundaries.
  template <class F>
  void for_each_piece(Point a, Point b, F&& f) const;
};

}  // namespace polynav
