#pragma once
/// @file
/// The navigation mesh's convex partition of free space: const data, built once. Scenes read
/// from a navigation mesh (`.mesh`) can use its own faces as the polygons; otherwise a
/// constrained Delaunay triangulation of free space (its boundary and, unless told otherwise,
/// the outlines of weighted regions as constraints) is merged into convex polygons, never across
/// a wall, a region outline or a change of cost or height, as the decomposition says
/// (NavMeshDecomposition): by Hertel and Mehlhorn's algorithm ("Fast triangulation of simple
/// polygons", 1983: drop every diagonal whose removal leaves both of its ends convex), into the
/// vertical trapezoidal cells (Latombe 1991, ch. 5: the triangulation also takes the vertical
/// extensions from the boundary's vertices as constraints, and the triangles of each cell are
/// merged), or greedily largest merge first. On top of it: the navigation mesh's graph
/// (navmesh.hpp), Polyanya (polyanya.hpp) and the visibility graph's triangular expansion.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "polynav/discretise/navmesh/options.hpp"
#include "polynav/geometry.hpp"
#include "polynav/kernel/box_index.hpp"
#include "polynav/kernel/build_clock.hpp"

namespace polynav {

class FreeSpace;

struct NavPartitionOptions {
  /// Where the polygons come from (NavMeshSource).
  NavMeshSource source = NavMeshSource::automatic;
  /// Merge triangles into convex polygons (Hertel and Mehlhorn); false keeps the triangles.
  /// Applies to rebuilt partitions only.
  bool merge = true;
  /// How a rebuild cuts free space into convex polygons (NavMeshDecomposition). Anything but
  /// `cdt` refuses to use a scene's mesh faces (InputError, key "decomposition").
  NavMeshDecomposition decomposition = NavMeshDecomposition::cdt;
  /// Budget on the triangulation's faces: a larger one is refused. [Limit: > 0]
  std::size_t max_triangles = std::size_t{1} << 23;
  /// Wall-clock budget of the build, checked once the polygons are indexed (BuildClock) and,
  /// for the vertical extensions of `c_cells`, while they are found.
  /// [Units: s] [Limit: > 0; infinity for none]
  double max_build_seconds = default_max_build_seconds;
  /// Region outlines are constraints too, so that every polygon lies in one cost and height, and
  /// mesh faces that may span regions are not used. false: the boundary of free space alone, so
  /// that every vertex of a rebuilt partition is a given point (no rounded crossings of
  /// constraints); a polygon may then span regions of different cost or height. The visibility
  /// graph's expansion, which needs exact vertices and no costs, takes false.
  bool regions = true;
};

/// The partition a navigation mesh with these options builds (NavMesh).
NavPartitionOptions partition_options(const NavMeshOptions& options);

/// Counters of one build.
struct NavPartitionStats {
  bool from_mesh = false;          ///< the polygons are the scene's mesh faces (no triangulation)
  std::size_t triangles = 0;       ///< faces of the constrained Delaunay triangulation
  std::size_t free_triangles = 0;  ///< of them, those in free space
  std::size_t polygons = 0;        ///< convex polygons after merging
  std::size_t portals = 0;         ///< shared edges between polygons a path may cross
  /// Vertical extensions added as constraints (decomposition `c_cells`), after removing
  /// duplicates (an extension from one vertex to another is found from both ends).
  std::size_t extensions = 0;
  double triangulate_ms = 0.0;
  double build_ms = 0.0;  ///< everything
};

/// Free space cut into convex polygons, with the portals between them and point location.
///
/// The polygons are either rebuilt from free space (triangulated, then merged) or, for scenes
/// read from a navigation mesh with a point agent (FreeSpace::mesh_faces), the mesh's own
/// traversable faces, adjacent across shared edges that are not constrained (walls). Faces are
/// used only when each is convex (exact orientation; straight angles allowed) and, with
/// `regions`, lies in one cost and height: a face whose bounding box meets more than one cost or
/// height (FreeSpace::cost_range, height_range; conservative) needs the rebuild. Source `mesh`
/// refuses such scenes, `automatic` rebuilds them. Everything after the polygons and their
/// portals (numbering, adjacency, point location) is the same for both sources.
///
/// Invariants (check() tests them): every polygon is convex and counter-clockwise (exact
/// orientation tests; straight angles allowed) and lies in free space; with `regions` it has one
/// cost multiplier and one height (the FreeSpace values at its vertex mean). A portal is a
/// maximal run of edges two polygons share, crossed by no wall: two polygons are adjacent only
/// when they share such an edge, so zero-width gaps (polygons meeting at a point) stay closed.
/// Across a portal both polygons list the same vertices, in opposite orders.
///
/// Polygons and portals are numbered in Morton order of their centres and midpoints, so that
/// neighbours in the partition are mostly neighbours in memory: a search touches the records of
/// nodes near its path, and node ids follow polygon and portal ids.
///
/// Corners: corner c of polygon i is first_corner(i) + k for its vertex k, so corners run
/// polygon by polygon, each counter-clockwise. Vertices: the corners at one point joined through
/// portals along edges ending there, one per point and free sector round it (a pinch point, or a
/// point on a wall, has one per side), numbered in order of their first corner.
class NavPartition {
 public:
  struct Portal {
    Point a, b;                         ///< polygon side[0] lies on the left of a -> b
    std::array<std::uint32_t, 2> side;  ///< the two polygons
  };

  /// Builds the partition of space (which need not outlive it).
  /// @throws InputError (key "max_triangles") when the triangulation exceeds the budget, (key
  /// "source") when the source is `mesh` and the scene's mesh faces cannot be used, (key
  /// "decomposition") when the decomposition is not `cdt` and the scene's mesh faces would be
  /// used (source `mesh`, or `automatic` with usable faces), (key "space.max_build_seconds")
  /// when the build takes longer than its budget.
  explicit NavPartition(const FreeSpace& space, NavPartitionOptions options = {});

  std::size_t polygon_count() const { return polygon_first_.size() - 1; }
  /// The vertices of polygon i, counter-clockwise.
  std::span<const Point> polygon(std::size_t i) const {
    return {points_.data() + polygon_first_[i], polygon_first_[i + 1] - polygon_first_[i]};
  }
  double polygon_cost(std::size_t i) const { return cost_.empty() ? one_cost_ : cost_[i]; }
  double polygon_height(std::size_t i) const { return height_.empty() ? one_height_ : height_[i]; }
  /// The mean of polygon i's vertices (inside it).
  Point polygon_centre(std::size_t i) const;
  /// Whether every vertex of polygon i is a given point (a boundary or mesh vertex), not a
  /// rounded crossing of two constraints.
  bool polygon_exact(std::size_t i) const { return exact_[i] != 0; }
  /// The polygon across edge k of polygon i (from vertex k to vertex k + 1), or -1 where the
  /// edge is a wall or lies on the boundary of free space.
  std::int64_t neighbour(std::size_t i, std::size_t k) const {
    const std::int32_t portal = corner_portal_[polygon_first_[i] + k];
    return portal < 0 ? -1 : std::int64_t(other_side(std::size_t(portal), std::uint32_t(i)));
  }

  std::size_t corner_count() const { return points_.size(); }
  /// Polygon i's first corner; first_corner(polygon_count()) is corner_count().
  std::size_t first_corner(std::size_t i) const { return polygon_first_[i]; }
  /// first_corner of every polygon and of polygon_count(), by polygon index.
  std::span<const std::uint32_t> corner_offsets() const { return polygon_first_; }
  Point corner_point(std::size_t c) const { return points_[c]; }
  /// Every corner's point, by corner index.
  std::span<const Point> corner_points() const { return points_; }
  std::uint32_t corner_polygon(std::size_t c) const { return corner_polygon_[c]; }
  /// The portal across the edge from corner c to the next corner of its polygon, or -1.
  std::int32_t corner_portal(std::size_t c) const { return corner_portal_[c]; }
  /// The vertex (point and free sector) of corner c.
  std::uint32_t corner_vertex(std::size_t c) const { return corner_vertex_[c]; }
  /// corner_polygon and corner_vertex of every corner, by corner index.
  std::span<const std::uint32_t> corner_polygons() const { return corner_polygon_; }
  std::span<const std::uint32_t> corner_vertices() const { return corner_vertex_; }

  std::size_t vertex_count() const { return vertex_at_.size(); }
  Point vertex_point(std::size_t v) const { return vertex_at_[v]; }

  std::size_t portal_count() const { return portals_.size(); }
  Portal portal(std::size_t k) const {
    const PortalCorners& p = portals_[k];
    return {points_[p.a], points_[p.b], p.side};
  }
  /// The portals of polygon i.
  std::span<const std::uint32_t> polygon_portals(std::size_t i) const {
    return {portal_ids_.data() + portal_first_[i], portal_first_[i + 1] - portal_first_[i]};
  }
  /// The polygon across portal k from polygon p (one of its sides).
  std::uint32_t other_side(std::size_t k, std::uint32_t p) const {
    return portals_[k].side[0] == p ? portals_[k].side[1] : portals_[k].side[0];
  }
  /// Portal k as crossed leaving polygon `from`: Segment::a on the left, Segment::b on the right.
  Segment oriented(std::size_t k, std::uint32_t from) const {
    // Polygon side[0] lies on the left of a -> b: leaving it, b is on the left.
    const PortalCorners& p = portals_[k];
    return p.side[0] == from ? Segment{points_[p.b], points_[p.a]}
                             : Segment{points_[p.a], points_[p.b]};
  }
  /// The portal between polygons p and q, or -1.
  std::int64_t portal_between(std::uint32_t p, std::uint32_t q) const;

  /// The polygons containing p (several when p lies on a shared edge or vertex), in increasing
  /// order, into out: exact orientation tests against the polygons listed in p's cell of a
  /// uniform grid over their boxes (kernel/box_index.hpp).
  void locate(Point p, std::vector<std::uint32_t>& out) const;

  /// The invariants that do not hold, one sentence each (empty when all hold), decided exactly:
  /// - every polygon has three or more vertices, none twice in a row, every vertex on the left of
  ///   or on the line of each edge and one strictly (convex, counter-clockwise, of some area);
  /// - every portal joins two different polygons, each of which runs along it (side[0] from a to
  ///   b, side[1] back) by a run of edges whose corners name it; no other corner names it, and
  ///   each polygon's portal list holds exactly the portals naming it as a side;
  /// - every polygon lies in free space: its centre is free and no boundary edge of free space
  ///   meets its interior (a separating-axis test with exact orientations; for a polygon with
  ///   constructed vertices, rounded crossings of region outlines with the boundary, a vertex
  ///   within 1e-9 of the coordinates' magnitude of the edge's line counts as on it), and no
  ///   portal lies along a boundary edge (a wall);
  /// - point location finds every polygon at its centre (every polygon wider than rounding:
  ///   one thinner may hold no double).
  /// Meant for tests and diagnosis: O(polygons x their vertices^2 + boundary edges x the
  /// polygons near each).
  std::vector<std::string> check(const FreeSpace& space) const;

  const NavPartitionOptions& options() const { return options_; }
  const NavPartitionStats& stats() const { return stats_; }

  /// Drops the leading portals of a corridor that the start lies on and the trailing ones the
  /// end lies on (exact tests): the funnel would take an apex inside a portal for a funnel
  /// already closed, and the polygon after such a portal holds the start too.
  static void trim_ends(Point start, Point end, std::vector<Segment>& portals);

 private:
  // The steps of a build: the polygons (from the scene's faces, or triangulated and merged),
  // then their numbering and indexes.
  void build_from_faces(const FreeSpace& space);
  void rebuild(const FreeSpace& space, const BuildClock& clock);
  // Appends a polygon (its vertices counter-clockwise) with its cost, height and exactness.
  void add_polygon(std::span<const Point> ring, double cost, double height, bool exact);
  // Portals of polygon p (its ring as in points_): others[e] is the polygon across edge e (from
  // vertex e to e + 1), or -1. Maximal runs towards one polygon make one portal, listed from the
  // lower id.
  void add_portals(std::uint32_t p, const std::vector<std::int64_t>& others);
  // Renumbers polygons and portals in Morton order of their places (memory locality).
  void order_by_place();
  // Each polygon's portal list, each corner's polygon and portal, the vertices and point
  // location, once polygons and portals exist.
  void index();
  void join_vertices();

  NavPartitionOptions options_;
  NavPartitionStats stats_;
  // Polygons: vertices in points_[polygon_first_[i] .. polygon_first_[i + 1]).
  std::vector<Point> points_;
  std::vector<std::uint32_t> polygon_first_{0};
  // Per polygon; empty when every polygon has one_cost_ (one_height_): the common case of a
  // scene without weighted regions, whose arrays were 0.56 MB of aurora's mesh.
  std::vector<double> cost_;
  std::vector<double> height_;
  double one_cost_ = 1.0, one_height_ = 0.0;
  std::vector<std::uint8_t> exact_;  // every vertex of the polygon is a given point
  // A portal by the corners of polygon side[0] its ends lie at (16 bytes, not a Portal's 40).
  struct PortalCorners {
    std::uint32_t a, b;
    std::array<std::uint32_t, 2> side;
  };
  std::vector<PortalCorners> portals_;
  // Portals of polygon i: portal_ids_[portal_first_[i] .. portal_first_[i + 1]).
  std::vector<std::uint32_t> portal_first_;
  std::vector<std::uint32_t> portal_ids_;
  // Per corner (index into points_): the portal across the edge from it to the next corner (or
  // -1), its polygon and its vertex, together because walking round a vertex reads them
  // together.
  // Per corner: the portal across the edge to the next corner (-1: none), the corner's polygon
  // and its vertex. Arrays of their own, so that Polyanya reads the polygons and vertices in
  // place (corner_polygons, corner_vertices) as fast as from copies of its own.
  std::vector<std::int32_t> corner_portal_;
  std::vector<std::uint32_t> corner_polygon_;
  std::vector<std::uint32_t> corner_vertex_;
  std::vector<Point> vertex_at_;
  // Point location: the polygons by their boxes, and the boxes rounded outwards to floats (a
  // quick and safe rejection: half the memory of exact ones, 0.56 MB on aurora's mesh).
  struct RoundedBox {
    float min_x, min_y, max_x, max_y;
    bool contains(Point p) const {
      return p.x >= min_x && p.x <= max_x && p.y >= min_y && p.y <= max_y;
    }
  };
  BoxIndex locator_;
  std::vector<RoundedBox> boxes_;
};

}  // namespace polynav
