#include "polynav/discretise/navmesh/partition.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <tuple>
#include <utility>

#include "cells.hpp"
#include "disjoint_sets.hpp"
#include "merge.hpp"
#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/kernel/memory.hpp"
#include "polynav/space/free_space.hpp"
#include "triangulate.hpp"

namespace polynav {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

Point mean(std::span<const Point> ring) {
  Point s{0, 0};
  for (const Point& p : ring) s = s + p;
  return (1.0 / double(ring.size())) * s;
}

std::string text(Point p) {
  std::ostringstream out;
  out.precision(17);
  out << "(" << p.x << ", " << p.y << ")";
  return out.str();
}

// Why the scene's mesh faces cannot serve as the polygons, or empty when they can.
std::string mesh_faces_problem(const FreeSpace& space, bool with_regions) {
  const MeshFaces* mesh = space.mesh_faces();
  if (!mesh)
    return "the scene has no mesh faces: only scenes read from a navigation mesh (.mesh) with a "
           "point agent (radius 0) have them";
  if (mesh->across.size() != mesh->corners.size())
    return "the scene's mesh faces were never joined (MeshFaces::join_faces): what lies across "
           "their edges is unknown";
  const std::vector<Point>& at = mesh->vertices;
  const bool regions = with_regions && space.weighted();
  for (std::size_t f = 0; f < mesh->face_count(); ++f) {
    const std::span<const std::uint32_t> v = mesh->face(f);
    const std::size_t n = v.size();
    for (std::size_t k = 0; k < n; ++k) {
      if (exact::orientation(at[v[k]], at[v[(k + 1) % n]], at[v[(k + 2) % n]]) < 0)
        return mesh->name(f) + " of the mesh is not convex at " + text(at[v[(k + 1) % n]]);
    }
    if (regions) {
      Box box;
      for (std::uint32_t i : v) box.expand(at[i]);
      const FieldRange cost = space.cost_range(box), height = space.height_range(box);
      if (cost.lowest != cost.highest || height.lowest != height.highest)
        return mesh->name(f) + " of the mesh may span more than one region (cost or height)";
    }
  }
  return {};
}

// The Morton (Z-order) code of p quantised to 16 bits a coordinate over box: points close in the
// plane mostly get close codes.
std::uint32_t morton(Point p, const Box& box) {
  const auto quantise = [](double v, double lo, double extent) {
    const double t = extent > 0 ? (v - lo) / extent : 0.0;
    return std::uint32_t(std::clamp(t, 0.0, 1.0) * 65535.0);
  };
  const auto spread = [](std::uint32_t v) {
    v = (v | (v << 8)) & 0x00FF00FFu;
    v = (v | (v << 4)) & 0x0F0F0F0Fu;
    v = (v | (v << 2)) & 0x33333333u;
    v = (v | (v << 1)) & 0x55555555u;
    return v;
  };
  return spread(quantise(p.x, box.min.x, box.width())) |
         (spread(quantise(p.y, box.min.y, box.height())) << 1);
}

// The order of items by the Morton codes of their places (stable: ties keep their order).
std::vector<std::uint32_t> morton_order(std::size_t count, const Box& box, auto&& place) {
  std::vector<std::uint32_t> order(count), code(count);
  std::iota(order.begin(), order.end(), 0u);
  for (std::size_t i = 0; i < count; ++i) code[i] = morton(place(i), box);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return code[a] < code[b]; });
  return order;
}

// --- The steps of a rebuild.

// The constrained Delaunay triangulation of free space: every boundary ring is a constraint
// (walls are traced both ways and inserted twice, which the triangulation merges) and, with
// regions, every region outline, so that no face crosses a change of cost or height. For the
// cell decomposition the vertical extensions are constraints too (two-point rings), and the
// edges they end inside are split there, so that no triangle crosses a cell's side.
navmesh_detail::Triangulation triangulate_free_space(const FreeSpace& space,
                                                     const NavPartitionOptions& options,
                                                     const BuildClock& clock,
                                                     NavPartitionStats& stats) {
  std::vector<Ring> rings;
  navmesh_detail::VerticalCuts cuts;
  const bool cells = options.decomposition == NavMeshDecomposition::c_cells;
  if (cells) {
    cuts = navmesh_detail::vertical_cuts(space.boundary(), clock);
    stats.extensions = cuts.extensions.size();
  }
  for (const BoundaryRing& r : space.boundary())
    rings.push_back(cells ? navmesh_detail::split_at_cuts(r.points, cuts) : r.points);
  if (options.regions)
    for (Ring& r : space.cost_boundaries())
      rings.push_back(cells ? navmesh_detail::split_at_cuts(r, cuts) : std::move(r));
  for (const Segment& e : cuts.extensions) rings.push_back({e.a, e.b});
  const auto t0 = Clock::now();
  std::size_t faces = 0;
  navmesh_detail::Triangulation tri =
      navmesh_detail::triangulate(rings, options.max_triangles, faces, cuts.rounded);
  stats.triangulate_ms = ms_since(t0);
  stats.triangles = faces;
  if (faces > options.max_triangles)
    throw InputError({"", 0, 0, "max_triangles"},
                     "the triangulation of free space has " + std::to_string(faces) +
                         " triangles, more than navmesh.max_triangles = " +
                         std::to_string(options.max_triangles));
  return tri;
}

Point centroid(const navmesh_detail::Triangulation& tri, std::size_t f) {
  const std::array<std::uint32_t, 3>& v = tri.triangles[f].v;
  return (1.0 / 3.0) * (tri.vertices[v[0]] + tri.vertices[v[1]] + tri.vertices[v[2]]);
}

// Which faces are free. Faces joined by unconstrained edges lie on the same side of every
// boundary edge (all are constraints), so each such group is decided once, at the centroid of
// its largest face (far from rounding trouble).
std::vector<std::uint8_t> free_faces(const FreeSpace& space,
                                     const navmesh_detail::Triangulation& tri) {
  const std::vector<navmesh_detail::Triangle>& t = tri.triangles;
  const std::vector<Point>& at = tri.vertices;
  const std::size_t n = t.size();
  std::vector<std::uint8_t> free(n, 0);
  std::vector<std::int32_t> group(n, -1);
  std::vector<std::uint32_t> stack, members;
  for (std::size_t s = 0; s < n; ++s) {
    if (group[s] >= 0) continue;
    members.clear();
    stack.assign(1, std::uint32_t(s));
    group[s] = std::int32_t(s);
    std::size_t largest = s;
    double largest_area = -1;
    while (!stack.empty()) {
      const std::uint32_t f = stack.back();
      stack.pop_back();
      members.push_back(f);
      const Point a = at[t[f].v[0]], b = at[t[f].v[1]], c = at[t[f].v[2]];
      const double area = cross(b - a, c - a);
      if (area > largest_area) largest_area = area, largest = f;
      for (int k = 0; k < 3; ++k) {
        const std::int32_t g = t[f].neighbour[k];
        if (g >= 0 && !t[f].constrained[k] && group[g] < 0) {
          group[g] = std::int32_t(s);
          stack.push_back(std::uint32_t(g));
        }
      }
    }
    const bool is_free = space.is_free(centroid(tri, largest));
    for (std::uint32_t f : members) free[f] = is_free;
  }
  return free;
}

// The polygon of each free triangle before merging: per edge, the triangle across where a path
// may cross (a free neighbour across an unconstrained edge or a region outline, not a wall), and
// whether the edge may be dissolved (unconstrained, the same cost and height on both sides).
std::vector<navmesh_detail::MergePolygon> triangle_polygons(
    const FreeSpace& space, const navmesh_detail::Triangulation& tri,
    const std::vector<std::uint8_t>& free, const std::vector<double>& cost,
    const std::vector<double>& height) {
  const std::vector<navmesh_detail::Triangle>& t = tri.triangles;
  const std::vector<Point>& at = tri.vertices;
  std::vector<navmesh_detail::MergePolygon> work(t.size());
  for (std::size_t f = 0; f < t.size(); ++f) {
    if (!free[f]) continue;
    navmesh_detail::MergePolygon& w = work[f];
    for (int k = 0; k < 3; ++k) {
      const std::int32_t g = t[f].neighbour[k];
      bool open = g >= 0 && free[g];
      if (open && t[f].constrained[k]) {
        // A constrained edge between two free faces is a region outline or a wall (a boundary
        // edge traced both ways). FreeSpace tells them apart: crossing a wall at its midpoint is
        // not a free turn, or one of the two segments to it crosses the wall.
        const Point m = 0.5 * (at[t[f].v[k]] + at[t[f].v[(k + 1) % 3]]);
        const Point cf = centroid(tri, f), cg = centroid(tri, std::size_t(g));
        open = !(m == cf) && !(m == cg) && space.line_of_sight(cf, m) &&
               space.line_of_sight(m, cg) && space.turn_is_free(cf, m, cg);
      }
      w.v.push_back(t[f].v[k]);
      w.across.push_back(open ? g : -1);
      w.mergeable.push_back(open && !t[f].constrained[k] && cost[f] == cost[g] &&
                            height[f] == height[g]);
    }
  }
  return work;
}

// Whether segment uv meets the interior of the convex polygon `ring` (counter-clockwise, of some
// area): no separating line among the polygon's edge lines and the segment's own (exact). A
// vertex within `slack` of the segment's line (0 for none) counts as lying on it: a constructed
// vertex, rounded, may lie that far on the wrong side of the boundary edge it was made on.
bool meets_interior(std::span<const Point> ring, Point u, Point v, double slack) {
  const std::size_t n = ring.size();
  for (std::size_t k = 0; k < n; ++k) {
    const Point a = ring[k], b = ring[(k + 1) % n];
    if (exact::orientation(a, b, u) <= 0 && exact::orientation(a, b, v) <= 0) return false;
  }
  const double length = distance(u, v);
  bool left = false, right = false;
  for (const Point& p : ring) {
    const int o = exact::orientation(u, v, p);
    if (o != 0 && slack > 0.0 && std::abs(cross(v - u, p - u)) <= slack * length) continue;
    left = left || o > 0;
    right = right || o < 0;
  }
  return left && right;
}

// Whether segments ab and uv lie on one line and share more than a point (exact).
bool overlap(Point a, Point b, Point u, Point v) {
  if (exact::orientation(a, b, u) != 0 || exact::orientation(a, b, v) != 0) return false;
  // Along the line, by the coordinate in which ab is longer (exact comparisons).
  const bool by_x = std::abs(b.x - a.x) >= std::abs(b.y - a.y);
  const auto along = [by_x](Point p) { return by_x ? p.x : p.y; };
  const double lo = std::max(std::min(along(a), along(b)), std::min(along(u), along(v)));
  const double hi = std::min(std::max(along(a), along(b)), std::max(along(u), along(v)));
  return lo < hi;
}

}  // namespace

NavPartitionOptions partition_options(const NavMeshOptions& options) {
  NavPartitionOptions out;
  out.source = options.source;
  out.merge = options.merge;
  out.decomposition = options.decomposition;
  out.max_triangles = options.max_triangles;
  out.max_build_seconds = options.max_build_seconds;
  return out;
}

NavPartition::NavPartition(const FreeSpace& space, NavPartitionOptions options)
    : options_(options) {
  const auto t0 = Clock::now();
  const BuildClock clock(options_.max_build_seconds);
  bool from_mesh = false;
  if (options_.source != NavMeshSource::rebuild) {
    const std::string problem = mesh_faces_problem(space, options_.regions);
    from_mesh = problem.empty();
    if (!from_mesh && options_.source == NavMeshSource::mesh)
      throw InputError({"", 0, 0, "source"},
                       "navmesh.source=mesh: " + problem + " (use navmesh.source=rebuild or auto)");
  }
  if (from_mesh && options_.decomposition != NavMeshDecomposition::cdt)
    // The faces are the polygons the scene's author made, used as they are; keeping them under
    // another decomposition's name would ignore the option silently, so it is refused.
    throw InputError(
        {"", 0, 0, "decomposition"},
        "navmesh.decomposition=" + std::string(navmesh_decomposition_name(options_.decomposition)) +
            " applies to rebuilt meshes, and this scene's own mesh faces would be "
            "the polygons (navmesh.source=" +
            std::string(options_.source == NavMeshSource::mesh ? "mesh" : "auto") +
            "); use navmesh.source=rebuild to decompose free space anew, or "
            "navmesh.decomposition=cdt to keep the faces");
  if (from_mesh) {
    build_from_faces(space);
  } else {
    rebuild(space, clock);
  }
  index();
  clock.check("the navigation mesh");
  stats_.build_ms = ms_since(t0);
}

void NavPartition::add_polygon(std::span<const Point> ring, double cost, double height,
                               bool exact) {
  // Corners are numbered in 32 bits (4 billion corners would need 64 GB for their points).
  if (points_.size() + ring.size() > std::numeric_limits<std::uint32_t>::max())
    throw InputError({"", 0, 0, {}}, "the navigation mesh has more than 2^32 - 1 polygon corners");
  points_.insert(points_.end(), ring.begin(), ring.end());
  polygon_first_.push_back(std::uint32_t(points_.size()));
  cost_.push_back(cost);
  height_.push_back(height);
  exact_.push_back(exact);
}

Point NavPartition::polygon_centre(std::size_t i) const {
  return mean(polygon(i));
}

void NavPartition::rebuild(const FreeSpace& space, const BuildClock& clock) {
  const navmesh_detail::Triangulation tri = triangulate_free_space(space, options_, clock, stats_);
  const std::vector<navmesh_detail::Triangle>& t = tri.triangles;
  const std::vector<Point>& at = tri.vertices;
  const std::size_t n = t.size();
  const std::vector<std::uint8_t> free = free_faces(space, tri);

  // Each free face's cost and height, its polygon before merging, then the merge.
  std::vector<double> cost(n), height(n);
  for (std::size_t f = 0; f < n; ++f) {
    if (!free[f]) continue;
    ++stats_.free_triangles;
    cost[f] = space.cost_at(centroid(tri, f));
    height[f] = space.height_at(centroid(tri, f));
  }
  std::vector<navmesh_detail::MergePolygon> work =
      triangle_polygons(space, tri, free, cost, height);
  // The cells' sides are constraints, never mergeable: Hertel and Mehlhorn's merge joins the
  // triangles of each (convex) cell and stops there, or leaves a cell in pieces where its
  // rounded corners would make the union not quite convex.
  std::vector<std::uint32_t> owner(n);
  if (!options_.merge) {
    std::iota(owner.begin(), owner.end(), 0u);
  } else if (options_.decomposition == NavMeshDecomposition::max_area) {
    owner = navmesh_detail::merge_largest_first(tri, free, work);
  } else {
    owner = navmesh_detail::merge_convex(tri, free, work);
  }

  // Compact numbering of the polygons, in the order of the triangles that hold them.
  std::vector<std::int32_t> id(n, -1);
  std::vector<Point> ring;
  for (std::uint32_t f = 0; f < n; ++f) {
    if (!free[f] || owner[f] != f) continue;
    id[f] = std::int32_t(polygon_count());
    ring.clear();
    bool given = true;
    for (std::uint32_t v : work[f].v) {
      ring.push_back(at[v]);
      given = given && tri.given[v];
    }
    add_polygon(ring, cost[f], height[f], given);
  }

  // Portals: maximal runs of open edges towards one neighbour, listed from the lower id.
  std::vector<std::int64_t> others;
  for (std::uint32_t f = 0; f < n; ++f) {
    if (id[f] < 0) continue;
    const navmesh_detail::MergePolygon& w = work[f];
    others.clear();
    for (std::size_t e = 0; e < w.v.size(); ++e)
      others.push_back(w.across[e] < 0 ? std::int64_t(-1)
                                       : std::int64_t(id[owner[std::size_t(w.across[e])]]));
    add_portals(std::uint32_t(id[f]), others);
  }
}

void NavPartition::build_from_faces(const FreeSpace& space) {
  stats_.from_mesh = true;
  const MeshFaces& mesh = *space.mesh_faces();
  const std::vector<Point>& at = mesh.vertices;
  const std::size_t n = mesh.face_count();
  std::vector<Point> ring;
  std::vector<std::int64_t> others;
  for (std::uint32_t f = 0; f < n; ++f) {
    ring.clear();
    for (std::uint32_t v : mesh.face(f)) ring.push_back(at[v]);
    // The face lies in one cost and height (checked), so its vertex mean decides them; the
    // vertices are the file's own points.
    const Point centre = mean(ring);
    add_polygon(ring, space.cost_at(centre), space.height_at(centre), true);
    // Adjacency: the faces across its edges as the mesh joined them (none along a wall).
    others.assign(mesh.across.begin() + mesh.first[f], mesh.across.begin() + mesh.first[f + 1]);
    add_portals(f, others);
  }
}

void NavPartition::add_portals(std::uint32_t p, const std::vector<std::int64_t>& others) {
  const auto first = std::uint32_t(first_corner(p));
  const std::size_t m = polygon(p).size();
  // Start at an edge that does not continue the run of the edge before it.
  std::size_t start = 0;
  while (start < m && others[start] >= 0 && others[start] == others[(start + m - 1) % m]) ++start;
  if (start == m) start = 0;
  for (std::size_t s = 0; s < m;) {
    const std::size_t e = (start + s) % m;
    const std::int64_t q = others[e];
    std::size_t len = 1;
    while (s + len < m && q >= 0 && others[(start + s + len) % m] == q) ++len;
    if (q > std::int64_t(p))
      portals_.push_back(
          {first + std::uint32_t(e), first + std::uint32_t((e + len) % m), {p, std::uint32_t(q)}});
    s += len;
  }
}

void NavPartition::order_by_place() {
  // Polygons and portals in Morton order of their centres and midpoints.
  const std::size_t polygons = polygon_count();
  Box box;
  for (const Point& p : points_) box.expand(p);
  const std::vector<std::uint32_t> order =
      morton_order(polygons, box, [&](std::size_t i) { return polygon_centre(i); });
  const std::vector<Point> points = std::exchange(points_, {});
  const std::vector<std::uint32_t> first = std::exchange(polygon_first_, {0});
  const std::vector<double> cost = std::exchange(cost_, {}), height = std::exchange(height_, {});
  const std::vector<std::uint8_t> exact = std::exchange(exact_, {});
  // Sized exactly: these arrays live as long as the mesh, and grown one polygon at a time they
  // would keep up to twice the room (aurora's 34,816 polygons: 1.3 MB unused).
  points_.reserve(points.size());
  polygon_first_.reserve(polygons + 1);
  cost_.reserve(polygons);
  height_.reserve(polygons);
  exact_.reserve(polygons);
  std::vector<std::uint32_t> new_id(polygons);
  for (std::uint32_t i = 0; i < polygons; ++i) {
    const std::uint32_t old = order[i];
    new_id[old] = i;
    add_polygon({points.data() + first[old], first[old + 1] - first[old]}, cost[old], height[old],
                exact[old] != 0);
  }
  // A portal's corners move with their polygon (side[0]), at the same places in it.
  const std::vector<PortalCorners> portals = std::exchange(portals_, {});
  portals_.reserve(portals.size());
  for (const std::uint32_t k : morton_order(portals.size(), box, [&](std::size_t k) {
         return 0.5 * (points[portals[k].a] + points[portals[k].b]);
       })) {
    PortalCorners portal = portals[k];
    const std::uint32_t old_first = first[portal.side[0]];
    for (std::uint32_t& side : portal.side) side = new_id[side];
    const std::uint32_t new_first = polygon_first_[portal.side[0]];
    portal.a = portal.a - old_first + new_first;
    portal.b = portal.b - old_first + new_first;
    portals_.push_back(portal);
  }
}

void NavPartition::index() {
  order_by_place();
  const std::size_t polygons = polygon_count();
  // One cost and one height for every polygon are kept once.
  const auto uniform = [](std::vector<double>& per_polygon, double& one) {
    if (per_polygon.empty() || std::any_of(per_polygon.begin(), per_polygon.end(),
                                           [&](double v) { return v != per_polygon.front(); }))
      return;
    one = per_polygon.front();
    release(per_polygon);
  };
  uniform(cost_, one_cost_);
  uniform(height_, one_height_);
  stats_.polygons = polygons;
  stats_.portals = portals_.size();
  portal_first_.assign(polygons + 1, 0);
  for (const PortalCorners& k : portals_)
    ++portal_first_[k.side[0] + 1], ++portal_first_[k.side[1] + 1];
  for (std::size_t i = 1; i <= polygons; ++i) portal_first_[i] += portal_first_[i - 1];
  portal_ids_.resize(portal_first_.back());
  {
    std::vector<std::uint32_t> next(portal_first_.begin(), portal_first_.end() - 1);
    for (std::uint32_t k = 0; k < portals_.size(); ++k)
      for (std::uint32_t s : portals_[k].side) portal_ids_[next[s]++] = k;
  }
  // Each corner's polygon, and the portal across each edge: polygon side[0] runs from a to b
  // counter-clockwise along its portal, side[1] from b to a.
  corner_portal_.assign(points_.size(), -1);
  corner_polygon_.assign(points_.size(), 0);
  corner_vertex_.assign(points_.size(), 0);
  for (std::uint32_t i = 0; i < polygons; ++i) {
    const std::size_t first = polygon_first_[i], m = polygon_first_[i + 1] - first;
    for (std::size_t c = first; c < first + m; ++c) corner_polygon_[c] = i;
    for (const std::uint32_t k : polygon_portals(i)) {
      const Portal portal = this->portal(k);
      const Point from = portal.side[0] == i ? portal.a : portal.b;
      const Point to = portal.side[0] == i ? portal.b : portal.a;
      std::size_t j = 0;
      while (j < m && !(points_[first + j] == from)) ++j;
      for (std::size_t step = 0; j < m && step < m && !(points_[first + (j + step) % m] == to);
           ++step)
        corner_portal_[first + (j + step) % m] = std::int32_t(k);
    }
  }
  join_vertices();

  // Point location: about one polygon per cell.
  Box box;
  std::vector<Box> boxes(polygons);
  for (std::size_t i = 0; i < polygons; ++i) {
    for (const Point& p : polygon(i)) boxes[i].expand(p);
    box.expand(boxes[i]);
  }
  locator_ = BoxIndex(box, polygons);
  locator_.assign_boxes(boxes);
  // The float nearest a coordinate, stepped outwards when it lies inside (coordinates are at
  // most 2^50, far inside the floats' range).
  const auto down = [](double v) {
    const float f = float(v);
    return double(f) > v ? std::nextafter(f, -HUGE_VALF) : f;
  };
  const auto up = [](double v) {
    const float f = float(v);
    return double(f) < v ? std::nextafter(f, HUGE_VALF) : f;
  };
  boxes_.resize(polygons);
  for (std::size_t i = 0; i < polygons; ++i)
    boxes_[i] = {down(boxes[i].min.x), down(boxes[i].min.y), up(boxes[i].max.x),
                 up(boxes[i].max.y)};
}

void NavPartition::join_vertices() {
  // Corners at one point are one vertex when a portal joins their polygons along an edge ending
  // there (or passing through it): union-find over the corners.
  const std::size_t corners = points_.size();
  navmesh_detail::DisjointSets sets(corners);
  for (std::uint32_t i = 0; i < polygon_count(); ++i) {
    const std::size_t first = polygon_first_[i], m = polygon_first_[i + 1] - first;
    for (std::size_t e = 0; e < m; ++e) {
      const std::int32_t k = corner_portal_[first + e];
      if (k < 0) continue;
      const std::uint32_t q = other_side(std::size_t(k), i);
      for (const std::size_t c : {first + e, first + (e + 1) % m}) {
        for (std::size_t d = polygon_first_[q]; d < polygon_first_[q + 1]; ++d) {
          if (points_[d] == points_[c]) {
            sets.join_lower(std::uint32_t(c), std::uint32_t(d));
            break;
          }
        }
      }
    }
  }
  // A root is the first corner of its vertex, so numbering roots as they come numbers the
  // vertices in order of their first corners.
  vertex_at_.clear();
  for (std::size_t c = 0; c < corners; ++c) {
    const std::uint32_t root = sets.find(std::uint32_t(c));
    if (root == c) {
      corner_vertex_[c] = std::uint32_t(vertex_at_.size());
      vertex_at_.push_back(points_[c]);
    } else {
      corner_vertex_[c] = corner_vertex_[root];
    }
  }
  vertex_at_.shrink_to_fit();  // kept as long as the mesh
}

std::int64_t NavPartition::portal_between(std::uint32_t p, std::uint32_t q) const {
  for (const std::uint32_t k : polygon_portals(p))
    if (other_side(k, p) == q) return k;
  return -1;
}

void NavPartition::locate(Point p, std::vector<std::uint32_t>& out) const {
  out.clear();
  if (locator_.empty()) return;
  for (const std::uint32_t i : locator_.ids_in(locator_.cell(p))) {
    // A cell lists every polygon whose box meets it: most boxes miss p, decided by comparisons
    // (with the box rounded outwards: never a polygon holding p) before any orientation test.
    // Each edge from the corner before: a remainder per edge cost more than its test (every
    // query locates its ends).
    if (!boxes_[i].contains(p)) continue;
    const std::span<const Point> ring = polygon(i);
    bool inside = true;
    for (std::size_t k = 0, before = ring.size() - 1; k < ring.size() && inside; before = k++)
      inside = exact::orientation(ring[before], ring[k], p) >= 0;
    if (inside) out.push_back(i);
  }
}

void NavPartition::trim_ends(Point start, Point end, std::vector<Segment>& portals) {
  // A start on the first portal lies in the polygon after it too, so that polygon can begin the
  // corridor: a path through the dropped polygon reaches the portal at some point, and the
  // segment along the portal from the start to that point is no longer. The funnel needs this:
  // an apex inside a portal would look to it like a funnel already closed. The same at the end.
  // A portal that is a point (a pinch, a vertex Polyanya's path crosses at) holds that point
  // only: on_segment's betweenness test assumes two distinct ends.
  const auto on = [](const Segment& s, Point p) {
    return s.a == s.b ? p == s.a : exact::on_segment(s.a, s.b, p);
  };
  std::size_t lead = 0, trail = portals.size();
  while (lead < trail && on(portals[lead], start)) ++lead;
  while (trail > lead && on(portals[trail - 1], end)) --trail;
  if (lead > 0 || trail < portals.size()) {
    portals.erase(portals.begin() + std::ptrdiff_t(trail), portals.end());
    portals.erase(portals.begin(), portals.begin() + std::ptrdiff_t(lead));
  }
}

std::vector<std::string> NavPartition::check(const FreeSpace& space) const {
  std::vector<std::string> problems;
  const auto name = [](const char* what, std::size_t i) {
    return std::string(what) + " " + std::to_string(i);
  };
  const std::size_t polygons = polygon_count();

  // Convex, counter-clockwise, of some area.
  for (std::size_t i = 0; i < polygons; ++i) {
    const std::span<const Point> ring = polygon(i);
    const std::size_t n = ring.size();
    if (n < 3) {
      problems.push_back(name("polygon", i) + " has fewer than three vertices");
      continue;
    }
    bool convex = true, strictly = false, repeated = false;
    for (std::size_t k = 0; k < n; ++k) {
      const Point a = ring[k], b = ring[(k + 1) % n];
      repeated = repeated || a == b;
      for (const Point& p : ring) {
        const int o = exact::orientation(a, b, p);
        convex = convex && o >= 0;
        strictly = strictly || o > 0;
      }
    }
    if (repeated) problems.push_back(name("polygon", i) + " has a vertex twice in a row");
    if (!convex) problems.push_back(name("polygon", i) + " is not convex and counter-clockwise");
    if (!strictly) problems.push_back(name("polygon", i) + " has no area");
  }

  // Portals: each joins two polygons along a run of edges of each, and no corner elsewhere
  // names it.
  std::vector<std::uint32_t> listed(polygons, 0);  // portals naming the polygon as a side
  for (std::size_t k = 0; k < portal_count(); ++k) {
    const Portal p = portal(k);
    if (p.side[0] == p.side[1] || p.side[0] >= polygons || p.side[1] >= polygons || p.a == p.b) {
      problems.push_back(name("portal", k) + " does not join two polygons along a segment");
      continue;
    }
    for (int s = 0; s < 2; ++s) {
      const std::uint32_t poly = p.side[s];
      ++listed[poly];
      const Point from = s == 0 ? p.a : p.b, to = s == 0 ? p.b : p.a;
      const std::size_t first = polygon_first_[poly], m = polygon_first_[poly + 1] - first;
      std::size_t j = 0, run = 0, naming = 0;
      while (j < m && !(points_[first + j] == from)) ++j;
      while (j < m && run < m && corner_portal_[first + (j + run) % m] == std::int32_t(k)) ++run;
      for (std::size_t c = first; c < first + m; ++c)
        naming += corner_portal_[c] == std::int32_t(k);
      const std::span<const std::uint32_t> list = polygon_portals(poly);
      if (j == m || run == 0 || run != naming || !(points_[first + (j + run) % m] == to) ||
          std::find(list.begin(), list.end(), std::uint32_t(k)) == list.end())
        problems.push_back(name("portal", k) + " is not a run of edges of " +
                           name("polygon", poly) + " from " + text(from) + " to " + text(to));
    }
  }
  for (std::size_t c = 0; c < corner_count(); ++c) {
    const std::int32_t k = corner_portal_[c];
    if (k >= 0 && (std::size_t(k) >= portal_count() ||
                   (portals_[std::size_t(k)].side[0] != corner_polygon_[c] &&
                    portals_[std::size_t(k)].side[1] != corner_polygon_[c])))
      problems.push_back("a corner of " + name("polygon", corner_polygon_[c]) + " names " +
                         name("portal", std::size_t(k)) + ", which does not join it");
  }
  for (std::size_t i = 0; i < polygons; ++i)
    if (polygon_portals(i).size() != listed[i])
      problems.push_back(name("polygon", i) + "'s portal list is not the portals joining it");

  // In free space: the centre free, no boundary edge through the interior or along a portal.
  for (std::size_t i = 0; i < polygons; ++i) {
    const Point centre = polygon_centre(i);
    if (!space.is_free(centre))
      problems.push_back(name("polygon", i) + "'s centre " + text(centre) + " is not free");
  }
  std::vector<std::uint32_t> stamps;
  std::uint32_t stamp = 0;
  const Box whole = space.box();
  const double slack = 1e-9 * std::max({1.0, std::abs(whole.min.x), std::abs(whole.min.y),
                                        std::abs(whole.max.x), std::abs(whole.max.y)});
  for (const BoundaryRing& r : space.boundary()) {
    for (std::size_t e = 0; e < r.points.size(); ++e) {
      const Point u = r.points[e], v = r.points[(e + 1) % r.points.size()];
      Box box;
      box.expand(u);
      box.expand(v);
      locator_.visit(box, stamps, ++stamp, [&](std::uint32_t i) {
        if (meets_interior(polygon(i), u, v, exact_[i] ? 0.0 : slack))
          problems.push_back(name("polygon", i) + " meets the boundary edge " + text(u) + " - " +
                             text(v) + " inside");
        for (const std::uint32_t k : polygon_portals(i))
          if (portals_[k].side[0] == i && overlap(portal(k).a, portal(k).b, u, v))
            problems.push_back(name("portal", k) + " lies along the boundary edge " + text(u) +
                               " - " + text(v));
      });
    }
  }

  // Point location. A polygon thinner than rounding (c-cells between two vertices an ulp apart
  // in x) may hold no double at all, so nothing can be located in it.
  std::vector<std::uint32_t> found;
  for (std::uint32_t i = 0; i < polygons; ++i) {
    const Ring corners(polygon(i).begin(), polygon(i).end());
    double longest = 0.0;
    for (std::size_t k = 0; k < corners.size(); ++k)
      longest = std::max(longest, distance(corners[k], corners[(k + 1) % corners.size()]));
    if (std::abs(signed_area2(corners)) <= slack * longest) continue;
    locate(polygon_centre(i), found);
    if (std::find(found.begin(), found.end(), i) == found.end())
      problems.push_back("point location does not find " + name("polygon", i) + " at its centre");
  }
  return problems;
}

}  // namespace polynav
