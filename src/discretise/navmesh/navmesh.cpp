#include "polynav/discretise/navmesh/navmesh.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <numeric>
#include <sstream>
#include <tuple>
#include <utility>

#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"
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

// A polygon while merging: its vertices counter-clockwise and, per edge (from vertex k to k + 1),
// the triangle across it and whether the edge may be crossed or dissolved.
struct Work {
  std::vector<std::uint32_t> v;
  std::vector<std::int32_t> across;  // triangle on the other side, -1 for none
  std::vector<std::uint8_t> open;    // a path may cross it
  std::vector<std::uint8_t> mergeable;
};

}  // namespace

NavMeshSearch resolve_navmesh_search(const FreeSpace& space, const NavMeshOptions& options) {
  if (options.search != NavMeshSearch::automatic) return options.search;
  if (options.polygons_only || options.nodes != NavMeshNodes::vertices || space.open_gaps() ||
      space.corners().size() > auto_optimal_max_corners)
    return NavMeshSearch::graph;
  // Heights outside every region are 0; with a climb limit, any two heights further apart than
  // it may make a move one way (regions that do not meet free space only make this cautious).
  double lowest = 0.0, highest = 0.0;
  for (const Region& r : space.regions()) {
    if (r.cost != 1.0) return NavMeshSearch::graph;
    if (r.height) {
      lowest = std::min(lowest, *r.height);
      highest = std::max(highest, *r.height);
    }
  }
  if (highest - lowest > space.agent().max_climb) return NavMeshSearch::graph;
  return NavMeshSearch::optimal;
}

namespace {

// Why the scene's mesh faces cannot serve as the polygons, or empty when they can.
std::string mesh_faces_problem(const FreeSpace& space, bool polygons_only) {
  const std::optional<MeshFaces>& mesh = space.mesh_faces();
  if (!mesh)
    return "the scene has no mesh faces: only scenes read from a navigation mesh (.mesh) with a "
           "point agent (radius 0) have them";
  const std::vector<Point>& at = mesh->vertices;
  const bool regions = !polygons_only && !space.regions().empty();
  for (std::size_t f = 0; f < mesh->faces.size(); ++f) {
    const std::vector<std::uint32_t>& v = mesh->faces[f];
    const std::size_t n = v.size();
    for (std::size_t k = 0; k < n; ++k) {
      if (exact::orientation(at[v[k]], at[v[(k + 1) % n]], at[v[(k + 2) % n]]) < 0) {
        const Point c = at[v[(k + 1) % n]];
        std::ostringstream where;
        where.precision(17);
        where << "(" << c.x << ", " << c.y << ")";
        return mesh->names[f] + " of the mesh is not convex at " + where.str();
      }
    }
    if (regions) {
      Box box;
      for (std::uint32_t i : v) box.expand(at[i]);
      const FieldRange cost = space.cost_range(box), height = space.height_range(box);
      if (cost.lowest != cost.highest || height.lowest != height.highest)
        return mesh->names[f] + " of the mesh may span more than one region (cost or height)";
    }
  }
  return {};
}

}  // namespace

NavMesh::NavMesh(const FreeSpace& space, NavMeshOptions options)
    : space_(&space), options_(options) {
  const auto t0 = Clock::now();
  const BuildClock clock(options_.max_build_seconds);
  min_cost_ = space.min_cost();
  directed_ = space.has_heights() && std::isfinite(space.agent().max_climb);
  requested_search_ = options_.search;
  options_.search = resolve_navmesh_search(space, options_);
  if (options_.search == NavMeshSearch::optimal) {
    // Without a graph the node placement and the landmarks do not apply; the vertex nodes stay
    // (Polyanya's turning points, and points to draw).
    options_.nodes = NavMeshNodes::vertices;
    options_.landmarks = 0;
  }
  if (options_.polygons_only) {
    options_.search = NavMeshSearch::graph;
    options_.landmarks = 0;
  }
  bool from_mesh = false;
  if (options_.source != NavMeshSource::rebuild) {
    const std::string problem = mesh_faces_problem(space, options_.polygons_only);
    from_mesh = problem.empty();
    if (!from_mesh && options_.source == NavMeshSource::mesh)
      throw InputError({"", 0, 0, "source"},
                       "navmesh.source=mesh: " + problem + " (use navmesh.source=rebuild or auto)");
  }
  if (from_mesh) {
    build_from_faces(space);
  } else {
    build(space);
  }
  clock.check("the navigation mesh");
  if (directed_ && options_.search == NavMeshSearch::optimal && !height_.empty()) {
    // Polyanya takes every straight motion through the polygons to be valid both ways. With a
    // climb limit that holds when no two heights differ by more than the limit (each polygon has
    // one height); otherwise some steps up are refused and the search could not know which.
    const auto [lo, hi] = std::minmax_element(height_.begin(), height_.end());
    const double climb = space.agent().max_climb;
    if (*hi - *lo > climb) {
      std::ostringstream text;
      text << "navmesh.search=optimal does not apply: heights differ by up to " << *hi - *lo
           << ", more than the agent's max_climb " << climb
           << ", so some moves are one way; use navmesh.search=graph";
      throw InputError({"", 0, 0, "search"}, text.str());
    }
  }
  if (!options_.polygons_only) build_graph();
  stats_.build_ms = ms_since(t0);
}

void NavMesh::build(const FreeSpace& space) {
  // Constraints: every boundary ring (walls are traced both ways and inserted twice, which the
  // triangulation merges) and every region outline, so that no face crosses a change of cost or
  // height.
  std::vector<Ring> rings;
  for (const BoundaryRing& r : space.boundary()) rings.push_back(r.points);
  if (!options_.polygons_only)
    for (const Region& r : space.regions()) rings.push_back(r.polygon);
  const auto t0 = Clock::now();
  std::size_t faces = 0;
  const navmesh_detail::Triangulation tri =
      navmesh_detail::triangulate(rings, options_.max_triangles, faces);
  stats_.triangulate_ms = ms_since(t0);
  stats_.triangles = faces;
  if (faces > options_.max_triangles)
    throw InputError({"", 0, 0, "max_triangles"},
                     "the triangulation of free space has " + std::to_string(faces) +
                         " triangles, more than navmesh.max_triangles = " +
                         std::to_string(options_.max_triangles));
  const std::vector<navmesh_detail::Triangle>& t = tri.triangles;
  const std::vector<Point>& at = tri.vertices;
  const auto centroid = [&](std::size_t i) {
    return (1.0 / 3.0) * (at[t[i].v[0]] + at[t[i].v[1]] + at[t[i].v[2]]);
  };

  // Which faces are free. Faces joined by unconstrained edges lie on the same side of every
  // boundary edge (all are constraints), so each such group is decided once, at the centroid of
  // its largest face (far from rounding trouble).
  const std::size_t n = t.size();
  std::vector<std::uint8_t> free(n, 0);
  {
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
      const bool is_free = space.is_free(centroid(largest));
      for (std::uint32_t f : members) free[f] = is_free;
    }
  }

  // Each free face's cost and height, and the work polygons (one per free triangle at first).
  std::vector<double> cost(n), height(n);
  std::vector<Work> work(n);
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  const auto find = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::size_t f = 0; f < n; ++f) {
    if (!free[f]) continue;
    ++stats_.free_triangles;
    cost[f] = space.cost_at(centroid(f));
    height[f] = space.height_at(centroid(f));
  }
  for (std::size_t f = 0; f < n; ++f) {
    if (!free[f]) continue;
    Work& w = work[f];
    for (int k = 0; k < 3; ++k) {
      const std::int32_t g = t[f].neighbour[k];
      bool open = g >= 0 && free[g];
      if (open && t[f].constrained[k]) {
        // A constrained edge between two free faces is a region outline or a wall (a boundary
        // edge traced both ways). FreeSpace tells them apart: crossing a wall at its midpoint is
        // not a free turn, or one of the two segments to it crosses the wall.
        const Point m = 0.5 * (at[t[f].v[k]] + at[t[f].v[(k + 1) % 3]]);
        const Point cf = centroid(f), cg = centroid(std::size_t(g));
        open = !(m == cf) && !(m == cg) && space.line_of_sight(cf, m) &&
               space.line_of_sight(m, cg) && space.turn_is_free(cf, m, cg);
      }
      w.v.push_back(t[f].v[k]);
      w.across.push_back(open ? g : -1);
      w.open.push_back(open);
      w.mergeable.push_back(open && !t[f].constrained[k] && cost[f] == cost[g] &&
                            height[f] == height[g]);
    }
  }

  // Hertel and Mehlhorn (1983): remove a diagonal when both of its ends stay convex. Convexity
  // is decided exactly; a straight angle counts as convex.
  if (options_.merge) {
    for (std::uint32_t f = 0; f < n; ++f) {
      if (!free[f]) continue;
      for (int k = 0; k < 3; ++k) {
        const std::int32_t g = t[f].neighbour[k];
        if (g < 0 || std::uint32_t(g) < f || !free[g]) continue;
        const std::uint32_t P = find(f), Q = find(std::uint32_t(g));
        if (P == Q) continue;
        Work& p = work[P];
        Work& q = work[Q];
        const std::uint32_t a = t[f].v[k], b = t[f].v[(k + 1) % 3];
        const std::size_t np = p.v.size(), nq = q.v.size();
        std::size_t i = np, j = nq;
        for (std::size_t e = 0; e < np; ++e)
          if (p.v[e] == a && p.v[(e + 1) % np] == b) i = e;
        for (std::size_t e = 0; e < nq; ++e)
          if (q.v[e] == b && q.v[(e + 1) % nq] == a) j = e;
        if (i == np || j == nq || !p.mergeable[i]) continue;
        const Point p_before_a = at[p.v[(i + np - 1) % np]], p_after_b = at[p.v[(i + 2) % np]];
        const Point q_after_a = at[q.v[(j + 2) % nq]], q_before_b = at[q.v[(j + nq - 1) % nq]];
        if (exact::orientation(p_before_a, at[a], q_after_a) < 0 ||
            exact::orientation(q_before_b, at[b], p_after_b) < 0)
          continue;
        Work merged;
        const auto take = [&](const Work& w, std::size_t e) {
          merged.v.push_back(w.v[e]);
          merged.across.push_back(w.across[e]);
          merged.open.push_back(w.open[e]);
          merged.mergeable.push_back(w.mergeable[e]);
        };
        // P from b round to the edge before a, then Q from a round to the edge before b.
        for (std::size_t s = 1; s < np; ++s) take(p, (i + s) % np);
        for (std::size_t s = 1; s < nq; ++s) take(q, (j + s) % nq);
        parent[Q] = P;
        p = std::move(merged);
        q = Work{};
      }
    }
  }

  // Compact numbering of the polygons.
  std::vector<std::int32_t> id(n, -1);
  for (std::uint32_t f = 0; f < n; ++f) {
    if (!free[f] || find(f) != f) continue;
    id[f] = std::int32_t(cost_.size());
    const Work& w = work[f];
    for (std::uint32_t v : w.v) points_.push_back(at[v]);
    polygon_first_.push_back(points_.size());
    cost_.push_back(cost[f]);
    height_.push_back(height[f]);
    bool given = true;
    for (std::uint32_t v : w.v) given = given && tri.given[v];
    exact_.push_back(given);
    centre_.push_back(mean(polygon(cost_.size() - 1)));
  }

  // Portals: maximal runs of open edges towards one neighbour, listed from the lower id.
  std::vector<std::int64_t> others;
  for (std::uint32_t f = 0; f < n; ++f) {
    if (id[f] < 0) continue;
    const Work& w = work[f];
    others.clear();
    for (std::size_t e = 0; e < w.v.size(); ++e)
      others.push_back(w.across[e] < 0 ? std::int64_t(-1)
                                       : std::int64_t(id[find(std::uint32_t(w.across[e]))]));
    add_portals(std::uint32_t(id[f]), others);
  }
  index_polygons();
}

void NavMesh::add_portals(std::uint32_t p, const std::vector<std::int64_t>& others) {
  const std::span<const Point> ring = polygon(p);
  const std::size_t m = ring.size();
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
      portals_.push_back({ring[e], ring[(e + len) % m], {p, std::uint32_t(q)}});
    s += len;
  }
}

namespace {

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

}  // namespace

void NavMesh::order_by_place() {
  // Polygons and portals in Morton order of their centres and midpoints, so that neighbours in
  // the mesh are mostly neighbours in memory: a search touches the records of nodes near its
  // path, and these then share cache lines (node ids follow polygon and portal ids).
  const std::size_t polygons = cost_.size();
  Box box;
  for (const Point& p : points_) box.expand(p);
  std::vector<std::uint32_t> order(polygons);
  std::iota(order.begin(), order.end(), 0u);
  {
    std::vector<std::uint32_t> code(polygons);
    for (std::size_t i = 0; i < polygons; ++i) code[i] = morton(centre_[i], box);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return code[a] < code[b]; });
  }
  std::vector<std::uint32_t> new_id(polygons);
  std::vector<Point> points;
  std::vector<std::size_t> first{0};
  std::vector<double> cost, height;
  std::vector<Point> centre;
  std::vector<std::uint8_t> exact;
  points.reserve(points_.size());
  for (std::uint32_t i = 0; i < polygons; ++i) {
    const std::uint32_t old = order[i];
    new_id[old] = i;
    const std::span<const Point> ring = polygon(old);
    points.insert(points.end(), ring.begin(), ring.end());
    first.push_back(points.size());
    cost.push_back(cost_[old]);
    height.push_back(height_[old]);
    centre.push_back(centre_[old]);
    exact.push_back(exact_[old]);
  }
  points_ = std::move(points);
  polygon_first_ = std::move(first);
  cost_ = std::move(cost);
  height_ = std::move(height);
  centre_ = std::move(centre);
  exact_ = std::move(exact);
  for (Portal& k : portals_)
    for (std::uint32_t& side : k.side) side = new_id[side];
  std::vector<std::uint32_t> code(portals_.size());
  std::vector<std::uint32_t> by_place(portals_.size());
  std::iota(by_place.begin(), by_place.end(), 0u);
  for (std::size_t k = 0; k < portals_.size(); ++k)
    code[k] = morton(0.5 * (portals_[k].a + portals_[k].b), box);
  std::stable_sort(by_place.begin(), by_place.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return code[a] < code[b]; });
  std::vector<Portal> portals;
  portals.reserve(portals_.size());
  for (const std::uint32_t k : by_place) portals.push_back(portals_[k]);
  portals_ = std::move(portals);
}

void NavMesh::index_polygons() {
  order_by_place();
  const std::size_t polygons = cost_.size();
  stats_.polygons = polygons;
  stats_.portals = portals_.size();
  portal_first_.assign(polygons + 1, 0);
  for (const Portal& k : portals_) ++portal_first_[k.side[0] + 1], ++portal_first_[k.side[1] + 1];
  for (std::size_t i = 1; i <= polygons; ++i) portal_first_[i] += portal_first_[i - 1];
  portal_ids_.resize(portal_first_.back());
  {
    std::vector<std::uint32_t> next(portal_first_.begin(), portal_first_.end() - 1);
    for (std::uint32_t k = 0; k < portals_.size(); ++k)
      for (std::uint32_t s : portals_[k].side) portal_ids_[next[s]++] = k;
  }
  // Each corner's polygon, and the portal across each edge: polygon side[0] runs from a to b
  // counter-clockwise along its portal, side[1] from b to a.
  corners_.assign(points_.size(), Corner{});
  for (std::uint32_t i = 0; i < polygons; ++i) {
    const std::size_t first = polygon_first_[i], m = polygon_first_[i + 1] - first;
    for (std::size_t c = first; c < first + m; ++c) corners_[c].polygon = i;
    for (std::uint32_t s = portal_first_[i]; s < portal_first_[i + 1]; ++s) {
      const std::uint32_t k = portal_ids_[s];
      const Point from = portals_[k].side[0] == i ? portals_[k].a : portals_[k].b;
      const Point to = portals_[k].side[0] == i ? portals_[k].b : portals_[k].a;
      std::size_t j = 0;
      while (j < m && !(points_[first + j] == from)) ++j;
      for (std::size_t step = 0; j < m && step < m && !(points_[first + (j + step) % m] == to);
           ++step)
        corners_[first + (j + step) % m].portal = std::int32_t(k);
    }
  }

  // Point location buckets: about one polygon per bucket.
  Box box;
  for (const Point& p : points_) box.expand(p);
  if (polygons > 0) {
    bucket_origin_ = box.min;
    const double extent = std::max({box.width(), box.height(), 1e-300});
    const double area = std::max(box.width() * box.height(), extent * extent * 1e-6);
    bucket_side_ = std::max(std::sqrt(area / double(polygons)), extent / 4096);
    bucket_columns_ = int(box.width() / bucket_side_) + 1;
    bucket_rows_ = int(box.height() / bucket_side_) + 1;
    const auto cells = std::size_t(bucket_columns_) * std::size_t(bucket_rows_);
    std::vector<std::uint32_t> count(cells + 1, 0);
    const auto range = [&](std::size_t i, auto&& f) {
      const Box b = bounding_box(Ring(polygon(i).begin(), polygon(i).end()));
      const int x0 =
          std::clamp(int((b.min.x - bucket_origin_.x) / bucket_side_), 0, bucket_columns_ - 1);
      const int x1 =
          std::clamp(int((b.max.x - bucket_origin_.x) / bucket_side_), 0, bucket_columns_ - 1);
      const int y0 =
          std::clamp(int((b.min.y - bucket_origin_.y) / bucket_side_), 0, bucket_rows_ - 1);
      const int y1 =
          std::clamp(int((b.max.y - bucket_origin_.y) / bucket_side_), 0, bucket_rows_ - 1);
      for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x)
          f(std::size_t(y) * std::size_t(bucket_columns_) + std::size_t(x));
    };
    for (std::size_t i = 0; i < polygons; ++i) range(i, [&](std::size_t c) { ++count[c + 1]; });
    for (std::size_t c = 1; c <= cells; ++c) count[c] += count[c - 1];
    bucket_first_ = count;
    bucket_polygons_.resize(count.back());
    for (std::size_t i = 0; i < polygons; ++i)
      range(i, [&](std::size_t c) { bucket_polygons_[count[c]++] = std::uint32_t(i); });
  }
}

void NavMesh::build_from_faces(const FreeSpace& space) {
  stats_.from_mesh = true;
  const MeshFaces& mesh = *space.mesh_faces();
  const std::vector<Point>& at = mesh.vertices;
  const std::size_t n = mesh.faces.size();
  for (const std::vector<std::uint32_t>& face : mesh.faces) {
    for (std::uint32_t v : face) points_.push_back(at[v]);
    polygon_first_.push_back(points_.size());
    const std::size_t i = cost_.size();
    // The face lies in one cost and height (checked), so its vertex mean decides them.
    centre_.push_back(mean(polygon(i)));
    cost_.push_back(space.cost_at(centre_.back()));
    height_.push_back(space.height_at(centre_.back()));
    exact_.push_back(1);  // the vertices are the file's own points
  }

  // Adjacency: faces listing the same edge (as vertex ids) meet along it, unless it is a wall.
  struct Side {
    std::uint32_t lo, hi, face;
  };
  std::vector<Side> sides;
  for (std::uint32_t f = 0; f < n; ++f) {
    const std::vector<std::uint32_t>& v = mesh.faces[f];
    for (std::size_t k = 0; k < v.size(); ++k) {
      const std::uint32_t a = v[k], b = v[(k + 1) % v.size()];
      sides.push_back({std::min(a, b), std::max(a, b), f});
    }
  }
  std::sort(sides.begin(), sides.end(), [](const Side& x, const Side& y) {
    return std::tie(x.lo, x.hi, x.face) < std::tie(y.lo, y.hi, y.face);
  });
  const auto across = [&](std::uint32_t f, std::uint32_t a, std::uint32_t b) -> std::int64_t {
    const std::pair<std::uint32_t, std::uint32_t> key{std::min(a, b), std::max(a, b)};
    if (std::binary_search(mesh.walls.begin(), mesh.walls.end(), key)) return -1;
    auto it = std::lower_bound(sides.begin(), sides.end(), key, [](const Side& s, const auto& k) {
      return std::pair{s.lo, s.hi} < k;
    });
    for (; it != sides.end() && it->lo == key.first && it->hi == key.second; ++it)
      if (it->face != f) return it->face;
    return -1;
  };
  std::vector<std::int64_t> others;
  for (std::uint32_t f = 0; f < n; ++f) {
    const std::vector<std::uint32_t>& v = mesh.faces[f];
    others.clear();
    for (std::size_t k = 0; k < v.size(); ++k)
      others.push_back(across(f, v[k], v[(k + 1) % v.size()]));
    add_portals(f, others);
  }
  index_polygons();
}

bool NavMesh::motion_ok(Point a, Point b, bool check_sight) const {
  if (check_sight && !space_->line_of_sight(a, b)) return false;
  return !directed_ || space_->climbable(a, b);
}

std::optional<Point> NavMesh::bend(std::uint32_t p, std::size_t k) const {
  const Point cp = centre_[p], cq = centre_[other_side(k, p)];
  const Portal& portal = portals_[k];
  // The centres lie on either side of the portal's line, so the segment between them crosses
  // that line, on the portal exactly when the portal's ends are not strictly on one side of it.
  const int sa = exact::orientation(cp, cq, portal.a), sb = exact::orientation(cp, cq, portal.b);
  if (sa * sb <= 0) return std::nullopt;
  const double via_a = distance(cp, portal.a) + distance(portal.a, cq);
  const double via_b = distance(cp, portal.b) + distance(portal.b, cq);
  return via_a <= via_b ? portal.a : portal.b;
}

std::int64_t NavMesh::portal_between(std::uint32_t p, std::uint32_t q) const {
  for (std::uint32_t s = portal_first_[p]; s < portal_first_[p + 1]; ++s)
    if (other_side(portal_ids_[s], p) == q) return portal_ids_[s];
  return -1;
}

Segment NavMesh::oriented(std::size_t k, std::uint32_t from) const {
  // Polygon side[0] lies on the left of a -> b: leaving it, b is on the left.
  const Portal& p = portals_[k];
  return p.side[0] == from ? Segment{p.b, p.a} : Segment{p.a, p.b};
}

void NavMesh::build_graph() {
  if (options_.search == NavMeshSearch::optimal) {
    // Polyanya searches the polygons themselves: the vertex nodes name its turning points (one
    // per vertex and free sector), and there are no arcs and no landmarks to compute.
    build_vertex_nodes(false);
    graph_ = search::CsrGraph(node_at_.size(), std::vector<search::Edge>{},
                              search::Direction::undirected);
    return;
  }
  std::vector<search::Edge> edges;
  const FreeSpace& space = *space_;
  const double climb = space.agent().max_climb;
  const auto step_ok = [&](std::uint32_t from, std::uint32_t to) {
    return !directed_ || height_[to] - height_[from] <= climb;
  };
  // The straight motion between nodes u and v inside one polygon, each way it is valid.
  const auto join = [&](search::NodeId u, search::NodeId v, bool check) {
    const Point a = node_at_[u], b = node_at_[v];
    const double cost = space.segment_cost(a, b);
    if (motion_ok(a, b, check)) edges.push_back({u, v, cost});
    if (directed_ && motion_ok(b, a, check)) edges.push_back({v, u, cost});
  };
  const auto polygons = std::uint32_t(cost_.size());
  if (options_.nodes == NavMeshNodes::centres) {
    node_at_ = centre_;
    for (std::uint32_t k = 0; k < portals_.size(); ++k) {
      const auto [p, q] = portals_[k].side;
      const bool check = !exact_[p] || !exact_[q];
      for (const auto& [from, to] : {std::pair{p, q}, std::pair{q, p}}) {
        if (!directed_ && from != p) break;  // one undirected edge
        if (!step_ok(from, to)) continue;
        const Point a = centre_[from], c = centre_[to];
        double cost;
        if (const std::optional<Point> b = bend(from, k)) {
          if (!motion_ok(a, *b, check) || !motion_ok(*b, c, check) ||
              (check && !space.turn_is_free(a, *b, c)))
            continue;
          cost = space.segment_cost(a, *b) + space.segment_cost(*b, c);
        } else {
          if (!motion_ok(a, c, check)) continue;
          cost = space.segment_cost(a, c);
        }
        edges.push_back({from, to, cost});
      }
    }
  } else if (options_.nodes == NavMeshNodes::vertices) {
    build_vertex_graph(edges);
  } else {
    // Node 2k + s: at portal k's midpoint, inside polygon side[s]. Crossing a portal is a free
    // arc between its two nodes; arcs inside a polygon join its portals' nodes (and its centre's
    // node, with portals+centres).
    portal_nodes_ = std::uint32_t(2 * portals_.size());
    node_at_.resize(portal_nodes_);
    for (std::uint32_t k = 0; k < portals_.size(); ++k) {
      const Point m = 0.5 * (portals_[k].a + portals_[k].b);
      node_at_[2 * k] = node_at_[2 * k + 1] = m;
      const auto [p, q] = portals_[k].side;
      if (!directed_) {
        edges.push_back({2 * k, 2 * k + 1, 0.0});
      } else {
        if (step_ok(p, q)) edges.push_back({2 * k, 2 * k + 1, 0.0});
        if (step_ok(q, p)) edges.push_back({2 * k + 1, 2 * k, 0.0});
      }
    }
    if (options_.nodes == NavMeshNodes::portals_and_centres)
      node_at_.insert(node_at_.end(), centre_.begin(), centre_.end());
    for (std::uint32_t poly = 0; poly < polygons; ++poly) {
      const bool check = !exact_[poly];
      for (std::uint32_t s = portal_first_[poly]; s < portal_first_[poly + 1]; ++s) {
        const search::NodeId u = portal_node(portal_ids_[s], poly);
        for (std::uint32_t r = s + 1; r < portal_first_[poly + 1]; ++r)
          join(u, portal_node(portal_ids_[r], poly), check);
        if (options_.nodes == NavMeshNodes::portals_and_centres)
          join(portal_nodes_ + poly, u, check);
      }
    }
  }
  graph_ =
      search::CsrGraph(node_at_.size(), edges,
                       directed_ ? search::Direction::directed : search::Direction::undirected);
  if (!directed_) {
    components_ = search::ComponentLabels(graph_);
    const auto t0 = Clock::now();
    landmarks_ = search::Landmarks(graph_, components_, options_.landmarks);
    for (const search::NodeId n : landmarks_.nodes()) landmark_at_.push_back(node_at_[n]);
    stats_.landmarks_ms = ms_since(t0);
  }
}

void NavMesh::build_vertex_nodes(bool through_pinches) {
  // Corners at one point are one node when a portal joins their polygons along an edge ending
  // there (or passing through it): union-find over the corners.
  const std::size_t corners = points_.size();
  std::vector<std::uint32_t> parent(corners);
  std::iota(parent.begin(), parent.end(), 0u);
  const auto find = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const auto polygons = std::uint32_t(cost_.size());
  for (std::uint32_t i = 0; i < polygons; ++i) {
    const std::size_t first = polygon_first_[i], m = polygon_first_[i + 1] - first;
    for (std::size_t e = 0; e < m; ++e) {
      const std::int32_t k = corners_[first + e].portal;
      if (k < 0) continue;
      const std::uint32_t q = other_side(std::size_t(k), i);
      for (const std::size_t c : {first + e, first + (e + 1) % m}) {
        for (std::size_t d = polygon_first_[q]; d < polygon_first_[q + 1]; ++d) {
          if (points_[d] == points_[c]) {
            const std::uint32_t x = find(std::uint32_t(c)), y = find(std::uint32_t(d));
            if (x != y) parent[std::max(x, y)] = std::min(x, y);
            break;
          }
        }
      }
    }
  }
  if (through_pinches) {
    // Corners at one point still apart lie in different free sectors; they are one node where
    // the turn from one polygon's inside through the point into the other's is free.
    std::vector<std::uint32_t> order(corners);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      const Point p = points_[a], q = points_[b];
      return p.x < q.x || (p.x == q.x && p.y < q.y);
    });
    for (std::size_t run = 0, end = 0; run < corners; run = end) {
      while (end < corners && points_[order[end]] == points_[order[run]]) ++end;
      for (std::size_t a = run; a < end; ++a)
        for (std::size_t b = a + 1; b < end; ++b) {
          const std::uint32_t x = find(order[a]), y = find(order[b]);
          if (x != y && space_->turn_is_free(centre_[corners_[order[a]].polygon], points_[order[a]],
                                             centre_[corners_[order[b]].polygon]))
            parent[std::max(x, y)] = std::min(x, y);
        }
    }
  }
  for (std::size_t c = 0; c < corners; ++c) {
    const std::uint32_t root = find(std::uint32_t(c));
    if (corners_[root].node == search::no_node) {
      corners_[root].node = search::NodeId(node_at_.size());
      node_at_.push_back(points_[root]);
    }
    corners_[c].node = corners_[root].node;
  }
  node_corner_first_.assign(node_at_.size() + 1, 0);
  for (std::size_t c = 0; c < corners; ++c) ++node_corner_first_[corners_[c].node + 1];
  for (std::size_t n = 1; n < node_corner_first_.size(); ++n)
    node_corner_first_[n] += node_corner_first_[n - 1];
  node_corners_.resize(corners);
  {
    std::vector<std::uint32_t> next(node_corner_first_.begin(), node_corner_first_.end() - 1);
    for (std::size_t c = 0; c < corners; ++c)
      node_corners_[next[corners_[c].node]++] = std::uint32_t(c);
  }
}

void NavMesh::build_vertex_graph(std::vector<search::Edge>& edges) {
  build_vertex_nodes(space_->open_gaps());
  const auto polygons = std::uint32_t(cost_.size());

  // Every two corners of a polygon: the segment between them lies in the (closed, convex, free)
  // polygon. A pair on a shared edge is listed by both polygons: keep one arc per direction.
  for (std::uint32_t i = 0; i < polygons; ++i) {
    const bool check = !exact_[i];
    for (std::size_t c = polygon_first_[i]; c < polygon_first_[i + 1]; ++c) {
      for (std::size_t d = c + 1; d < polygon_first_[i + 1]; ++d) {
        const search::NodeId u = std::min(corners_[c].node, corners_[d].node);
        const search::NodeId v = std::max(corners_[c].node, corners_[d].node);
        const Point a = node_at_[u], b = node_at_[v];
        const double cost = space_->segment_cost(a, b);
        if (motion_ok(a, b, check)) edges.push_back({u, v, cost});
        if (directed_ && motion_ok(b, a, check)) edges.push_back({v, u, cost});
      }
    }
  }
  std::sort(edges.begin(), edges.end(), [](const search::Edge& x, const search::Edge& y) {
    return std::tie(x.from, x.to) < std::tie(y.from, y.to);
  });
  edges.erase(std::unique(edges.begin(), edges.end(),
                          [](const search::Edge& x, const search::Edge& y) {
                            return x.from == y.from && x.to == y.to;
                          }),
              edges.end());
}

void NavMesh::locate(Point p, std::vector<std::uint32_t>& out) const {
  out.clear();
  if (bucket_first_.empty()) return;
  const double fx = std::floor((p.x - bucket_origin_.x) / bucket_side_);
  const double fy = std::floor((p.y - bucket_origin_.y) / bucket_side_);
  if (!(fx >= 0 && fy >= 0 && fx < bucket_columns_ && fy < bucket_rows_)) {
    // Outside the buckets only by rounding of the division: clamp.
    if (!(fx >= -1 && fy >= -1 && fx <= bucket_columns_ && fy <= bucket_rows_)) return;
  }
  const int cx = std::clamp(int(fx), 0, bucket_columns_ - 1);
  const int cy = std::clamp(int(fy), 0, bucket_rows_ - 1);
  const std::size_t c = std::size_t(cy) * std::size_t(bucket_columns_) + std::size_t(cx);
  for (std::uint32_t s = bucket_first_[c]; s < bucket_first_[c + 1]; ++s) {
    const std::uint32_t i = bucket_polygons_[s];
    const std::span<const Point> ring = polygon(i);
    bool inside = true;
    for (std::size_t k = 0; k < ring.size() && inside; ++k)
      inside = exact::orientation(ring[k], ring[(k + 1) % ring.size()], p) >= 0;
    if (inside) out.push_back(i);
  }
}

void NavMesh::attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const {
  out.clear();
  thread_local std::vector<std::uint32_t> found;
  locate(p, found);
  const bool outgoing = direction == AttachDirection::from_point;
  const auto join = [&](search::NodeId node, bool check) {
    const Point q = node_at_[node];
    const Point a = outgoing ? p : q, b = outgoing ? q : p;
    if (!motion_ok(a, b, check)) return;
    for (const Attachment& e : out)
      if (e.node == node) return;
    out.push_back({node, space_->segment_cost(a, b)});
  };
  for (const std::uint32_t poly : found) {
    const bool check = !exact_[poly];
    for_each_polygon_node(poly, [&](search::NodeId node) { join(node, check); });
  }
}

template <class F>
void NavMesh::for_each_polygon_node(std::uint32_t poly, F&& f) const {
  if (options_.nodes == NavMeshNodes::vertices) {
    for (std::size_t c = polygon_first_[poly]; c < polygon_first_[poly + 1]; ++c)
      f(corners_[c].node);
    return;
  }
  for (std::uint32_t s = portal_first_[poly]; portal_nodes_ > 0 && s < portal_first_[poly + 1]; ++s)
    f(portal_node(portal_ids_[s], poly));
  if (options_.nodes == NavMeshNodes::centres ||
      options_.nodes == NavMeshNodes::portals_and_centres)
    f(portal_nodes_ + poly);
}

search::LandmarkTarget NavMesh::landmark_target(std::span<const Attachment> starts,
                                                std::span<const Attachment> goals,
                                                Point goal) const {
  const std::size_t count = landmarks_.count();
  if (starts.empty() || count <= active_landmarks) return landmarks_.target(goals);
  // Rank by |d(L, goal) - d(L, start)| in straight-line distance, an estimate of each landmark's
  // bound from the start that reads nothing but the landmarks' positions.
  const Point start = node_at_[starts.front().node];
  std::array<double, search::LandmarkTarget::capacity> score{};
  std::array<std::uint8_t, search::LandmarkTarget::capacity> ranking{};
  for (std::size_t l = 0; l < count; ++l) {
    score[l] = std::abs(distance(landmark_at_[l], goal) - distance(landmark_at_[l], start));
    ranking[l] = std::uint8_t(l);
  }
  std::sort(ranking.begin(), ranking.begin() + std::ptrdiff_t(count),
            [&](std::uint8_t a, std::uint8_t b) { return score[a] > score[b]; });
  return landmarks_.target(goals, std::span<const std::uint8_t>(ranking.data(), count),
                           active_landmarks);
}

std::string NavMesh::unattached_reason(std::string_view which) const {
  return std::string(which) + " lies in no polygon of the navigation mesh that joins the others";
}

std::optional<double> NavMesh::direct_cost(Point start, Point goal) const {
  thread_local std::vector<std::uint32_t> a, b;
  locate(start, a);
  locate(goal, b);
  for (std::uint32_t p : a)
    for (std::uint32_t q : b)
      if (p == q && motion_ok(start, goal, !exact_[p])) return space_->segment_cost(start, goal);
  return std::nullopt;
}

Ring NavMesh::node_region(search::NodeId n) const {
  if (options_.nodes == NavMeshNodes::vertices) return {};
  const std::span<const Point> ring = polygon(node_polygon(n));
  return Ring(ring.begin(), ring.end());
}

void NavMesh::arc_points(search::NodeId from, search::NodeId to, std::vector<Point>& out) const {
  if (options_.nodes != NavMeshNodes::centres) return;
  const std::int64_t k = portal_between(from, to);
  if (k < 0) return;
  if (const std::optional<Point> b = bend(from, std::size_t(k))) out.push_back(*b);
}

std::optional<std::vector<Segment>> NavMesh::corridor(Point start,
                                                      std::span<const search::NodeId> path,
                                                      Point end) const {
  std::vector<Segment> portals;
  if (options_.nodes == NavMeshNodes::vertices) {
    if (!vertex_corridor(start, path, end, portals)) return std::nullopt;
    trim_ends(start, end, portals);
    return portals;
  }
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (options_.nodes == NavMeshNodes::centres) {
      const std::int64_t k = portal_between(path[i - 1], path[i]);
      if (k >= 0) portals.push_back(oriented(std::size_t(k), path[i - 1]));
    } else if (path[i - 1] < portal_nodes_ && path[i] < portal_nodes_ &&
               path[i - 1] / 2 == path[i] / 2) {
      // The two nodes of one portal: the path crosses it from side[n % 2].
      const std::uint32_t k = path[i] / 2;
      portals.push_back(oriented(k, portals_[k].side[path[i - 1] % 2]));
    }
  }
  trim_ends(start, end, portals);
  return portals;
}

void NavMesh::trim_ends(Point start, Point end, std::vector<Segment>& portals) {
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

std::int64_t NavMesh::corner_at(std::uint32_t poly, search::NodeId n) const {
  for (std::size_t c = polygon_first_[poly]; c < polygon_first_[poly + 1]; ++c)
    if (corners_[c].node == n) return std::int64_t(c);
  return -1;
}

template <class Arrive>
bool NavMesh::turn_round(search::NodeId v, std::uint32_t from, Arrive&& arrive, int turn,
                         std::vector<Segment>& out, std::vector<std::uint32_t>& chain) const {
  // Round a vertex, polygon by polygon: leaving a polygon clockwise crosses the edge from its
  // corner at v to the next corner, counter-clockwise the edge from the previous corner to v.
  const std::size_t most = node_corner_first_[v + 1] - node_corner_first_[v];
  const auto round = [&](std::uint32_t poly, bool clockwise) {
    const std::size_t mark = out.size(), chain_mark = chain.size();
    for (std::size_t step = 0; !arrive(poly); ++step) {
      const std::int64_t c = corner_at(poly, v);
      const std::size_t first = polygon_first_[poly], m = polygon_first_[poly + 1] - first;
      const std::int32_t k =
          c < 0 || step >= most
              ? -1
              : corners_[clockwise ? std::size_t(c) : first + (std::size_t(c) - first + m - 1) % m]
                    .portal;
      if (k < 0) {
        out.resize(mark);
        chain.resize(chain_mark);
        return false;
      }
      out.push_back(oriented(std::size_t(k), poly));
      poly = other_side(std::size_t(k), poly);
      chain.push_back(poly);
    }
    return true;
  };
  for (const bool clockwise : {turn > 0, turn <= 0})
    if (round(from, clockwise)) return true;
  // Through a pinch (the node joins free sectors that touch at v only): a zero-length portal at
  // v into a polygon of another sector, then round v there.
  const Point at = node_at_[v];
  for (std::size_t i = node_corner_first_[v]; i < node_corner_first_[v + 1]; ++i) {
    const std::uint32_t poly = corners_[node_corners_[i]].polygon;
    if (poly == from) continue;
    out.push_back({at, at});
    chain.push_back(poly);
    for (const bool clockwise : {turn > 0, turn <= 0})
      if (round(poly, clockwise)) return true;
    out.pop_back();
    chain.pop_back();
  }
  return false;
}

bool NavMesh::vertex_corridor(Point start, std::span<const search::NodeId> path, Point end,
                              std::vector<Segment>& out) const {
  out.clear();
  // No nodes: start and goal share a polygon (the only direct arcs).
  if (path.empty()) return true;
  thread_local std::vector<std::uint32_t> found, chain;
  // The start's polygon: one holding it with a corner at the first node.
  locate(start, found);
  std::int64_t first = -1;
  for (const std::uint32_t poly : found)
    if (first < 0 && corner_at(poly, path[0]) >= 0) first = poly;
  if (first < 0) return false;
  locate(end, found);  // the polygons holding the end
  // chain[j] is the polygon entered through out[j - 1] (chain[0] holds the start).
  chain.assign(1, std::uint32_t(first));
  Point before = start;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const search::NodeId v = path[i];
    // Round v to the polygon of the arc to the next node (one with a corner there too), or to
    // one holding the end; the current polygon when it already is one.
    const bool last = i + 1 == path.size();
    const Point after = last ? end : node_at_[path[i + 1]];
    const auto arrive = [&](std::uint32_t poly) {
      return last ? std::find(found.begin(), found.end(), poly) != found.end()
                  : corner_at(poly, path[i + 1]) >= 0;
    };
    if (!turn_round(v, chain.back(), arrive, exact::orientation(before, node_at_[v], after), out,
                    chain))
      return false;
    before = node_at_[v];
  }
  // A polygon entered twice: drop the loop between, back to its first visit (the chain stays
  // one of adjacent polygons, and the path's pieces in the loop are replaced by a straight
  // segment inside that convex polygon, which is never longer). The kept chain's positions are
  // found through a small open-addressing table over this chain's polygons; an entry is current
  // when the kept chain still has its polygon at its position.
  thread_local std::vector<std::pair<std::uint32_t, std::uint32_t>> table;  // (polygon + 1, at)
  const std::size_t size = std::bit_ceil(2 * chain.size());
  table.assign(size, {0u, 0u});
  std::size_t kept = 0;
  for (std::size_t j = 0; j < chain.size(); ++j) {
    const std::uint32_t poly = chain[j];
    std::size_t i = (std::size_t(poly) * 0x9E3779B1u) & (size - 1);
    while (table[i].first != 0 && table[i].first != poly + 1) i = (i + 1) & (size - 1);
    if (table[i].first == poly + 1 && table[i].second < kept && chain[table[i].second] == poly) {
      kept = table[i].second + 1;
      continue;
    }
    if (j > 0) out[kept - 1] = out[j - 1];  // the portal from chain[kept - 1] into poly
    chain[kept] = poly;
    table[i] = {poly + 1, std::uint32_t(kept++)};
  }
  out.resize(kept - 1);
  return true;
}

Primitives NavMesh::primitives() const {
  Primitives out;
  for (std::size_t i = 0; i < polygon_count(); ++i) {
    const std::span<const Point> ring = polygon(i);
    out.regions.emplace_back(ring.begin(), ring.end());
  }
  if (node_at_.size() <= 20000) {
    for (std::size_t n = 0; n < node_at_.size(); ++n)
      if (n >= portal_nodes_ || n % 2 == 0) out.nodes.push_back(node_at_[n]);
  }
  return out;
}

std::string NavMesh::summary() const {
  const std::string graph =
      optimal()
          ? "no graph: searched by Polyanya (navmesh.search=" +
                std::string(navmesh_search_name(requested_search_)) + ")"
          : std::to_string(node_count()) + " nodes" +
                (requested_search_ == NavMeshSearch::automatic ? " (navmesh.search=auto: the graph)"
                                                               : "");
  if (stats().from_mesh)
    return std::to_string(stats().polygons) + " convex polygons (the mesh's faces), " +
           std::to_string(stats().portals) + " portals; " + graph;
  return std::to_string(stats().triangles) + " triangles (" +
         std::to_string(stats().free_triangles) + " free), " + std::to_string(stats().polygons) +
         " convex polygons, " + std::to_string(stats().portals) + " portals; " + graph;
}

}  // namespace polynav
