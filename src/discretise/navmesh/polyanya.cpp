#include "polynav/discretise/navmesh/polyanya.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "polynav/kernel/exact.hpp"

namespace polynav {
namespace {

constexpr std::uint32_t start_id = 0xFFFFFFFEu;  // the start as a point id or root
constexpr std::uint32_t no_parent = 0xFFFFFFFFu;

enum : std::uint8_t {
  left_vertex = 1,   // the left end is the entry edge's left corner (edge)
  right_vertex = 2,  // the right end is the entry edge's right corner (next(edge))
  root_on_edge = 4,  // the root is a corner of the entry edge: it sees the whole polygon
  final_node = 8,    // the goal reached: g is the path's length
};

// Where the line through a and b crosses segment pq (known, exactly, to cross it): coordinates
// only, for the heuristic.
Point crossing(Point a, Point b, Point p, Point q) {
  const Point dir = b - a, e = q - p;
  const double den = cross(dir, e);
  double t = den != 0.0 ? cross(dir, a - p) / den : 0.5;
  t = std::clamp(t, 0.0, 1.0);
  return p + t * e;
}

// Heap order: the smaller f first, then the larger g (deeper nodes, as search::AStar breaks
// ties).
struct Worse {
  bool operator()(const PolyanyaWorkspace::Entry& x, const PolyanyaWorkspace::Entry& y) const {
    return x.f > y.f || (x.f == y.f && x.g < y.g);
  }
};
constexpr Worse worse{};

// Root-level pruning keeps a node unless its root was reached more cheaply by more than this
// relative margin: equal lengths computed along different routes differ by rounding, and the
// shortest path's nodes must never be dropped for it.
constexpr double root_margin = 1e-10;

}  // namespace

Polyanya::Polyanya(const NavPartition& mesh)
    : partition_(&mesh),
      at_(mesh.corner_points().data()),
      polygon_(mesh.corner_polygons().data()),
      vertex_(mesh.corner_vertices().data()),
      first_(mesh.corner_offsets().data()) {
  const std::size_t polygons = mesh.polygon_count(), corners = mesh.corner_count();
  next_.reserve(corners);
  for (std::size_t i = 0; i < polygons; ++i) {
    const auto first = std::uint32_t(mesh.first_corner(i)),
               m = std::uint32_t(mesh.polygon(i).size());
    for (std::uint32_t k = 0; k < m; ++k) next_.push_back(k + 1 == m ? first : first + k + 1);
  }

  // Across each edge, the corner of the other polygon where the same edge starts: it runs the
  // other way there, from this edge's end point to its start point.
  opposite_.assign(corners, -1);
  for (std::size_t i = 0; i < polygons; ++i) {
    for (std::uint32_t c = first_[i]; c < first_[i + 1]; ++c) {
      const std::int64_t q = mesh.neighbour(i, c - first_[i]);
      if (q < 0) continue;
      for (std::uint32_t d = first_[std::size_t(q)]; d < first_[std::size_t(q) + 1]; ++d) {
        if (at_[d] == at_[next_[c]] && at_[next_[d]] == at_[c]) {
          opposite_[c] = std::int32_t(d);
          break;
        }
      }
    }
  }

  // Turning points. The polygons round a vertex form a chain joined by shared edges: a
  // cycle inside free space (no turn there), or a run from the polygon whose edge leaving the
  // vertex is a wall (its far end is `first_ray`) counter-clockwise to the polygon whose edge
  // arriving at it is a wall (its far end is `last_ray`). A shortest path can only bend round a
  // vertex whose free sector between those two rays is wider than 180 degrees.
  const std::size_t nodes = mesh.vertex_count();
  std::vector<Point> first_ray(nodes), last_ray(nodes);
  std::vector<std::uint8_t> has(nodes, 0);  // bit 0: first_ray, bit 1: last_ray
  for (std::size_t i = 0; i < polygons; ++i) {
    for (std::uint32_t c = first_[i]; c < first_[i + 1]; ++c) {
      const std::uint32_t previous = c == first_[i] ? first_[i + 1] - 1 : c - 1;
      if (opposite_[c] < 0) {
        first_ray[vertex_[c]] = at_[next_[c]];
        has[vertex_[c]] |= 1;
      }
      if (opposite_[previous] < 0) {
        last_ray[vertex_[c]] = at_[previous];
        has[vertex_[c]] |= 2;
      }
    }
  }
  // Pockets: peel polygons with at most one neighbour left, as long as there are any; each
  // peeled polygon's pocket is itself and what was peeled behind it, and its exit the one
  // neighbour it had left (none when its whole component was a tree).
  pocket_exit_.assign(polygons, no_parent);
  {
    std::vector<std::uint32_t> left(polygons, 0), peel;
    std::vector<std::uint8_t> peeled(polygons, 0);
    for (std::size_t i = 0; i < polygons; ++i) {
      for (std::uint32_t c = first_[i]; c < first_[i + 1]; ++c) left[i] += opposite_[c] >= 0;
      if (left[i] <= 1) peel.push_back(std::uint32_t(i));
    }
    while (!peel.empty()) {
      const std::uint32_t i = peel.back();
      peel.pop_back();
      peeled[i] = 1;
      for (std::uint32_t c = first_[i]; c < first_[i + 1]; ++c) {
        if (opposite_[c] < 0) continue;
        const std::uint32_t j = polygon_[std::size_t(opposite_[c])];
        if (peeled[j]) continue;
        pocket_exit_[i] = j;
        if (--left[j] == 1) peel.push_back(j);
      }
    }
  }

  turn_.assign(nodes, 0);
  for (std::size_t v = 0; v < nodes; ++v) {
    if (has[v] == 0) continue;
    if (has[v] != 3) {
      turn_[v] = 1;  // not a simple chain: allow turns (only costs nodes)
      continue;
    }
    const Point at = mesh.vertex_point(v);
    const int o = exact::orientation(at, first_ray[v], last_ray[v]);
    // Counter-clockwise from first_ray to last_ray: more than 180 degrees when last_ray is to
    // the right, and 360 degrees when both are the same ray (the free end of a wall).
    turn_[v] = o < 0 || (o == 0 && exact::same_direction(at, first_ray[v], last_ray[v]));
  }
}

std::size_t Polyanya::turning_points() const {
  return std::size_t(std::count(turn_.begin(), turn_.end(), std::uint8_t{1}));
}

void Polyanya::prepare(PolyanyaWorkspace& ws) const {
  ws.best_g.assign(turn_.size(), 0.0);
  ws.best_stamp.assign(turn_.size(), 0);
  ws.goal_stamp.assign(partition_->polygon_count(), 0);
  ws.pocket_stamp.assign(partition_->polygon_count(), 0);
  ws.stamp = 0;
}

// The helpers called per node are `inline`: the library is position-independent code, where the
// compiler keeps out-of-line member functions as calls.
inline Point Polyanya::point(std::uint32_t id, Point start) const {
  return id == start_id ? start : at_[id];
}

inline bool Polyanya::keep_root(std::uint32_t corner, double g, PolyanyaWorkspace& ws) const {
  const std::uint32_t v = vertex_[corner];
  if (ws.best_stamp[v] != ws.stamp) {
    ws.best_stamp[v] = ws.stamp;
    ws.best_g[v] = g;
    return true;
  }
  if (g > ws.best_g[v] * (1.0 + root_margin)) return false;
  ws.best_g[v] = std::min(ws.best_g[v], g);
  return true;
}

inline bool Polyanya::dead_end(std::uint32_t from, std::uint32_t to,
                               const PolyanyaWorkspace& ws) const {
  return pocket_exit_[to] == from && ws.pocket_stamp[to] != ws.stamp;
}

inline double Polyanya::heuristic(const PolyanyaNode& n, std::span<const Point> goals) const {
  double best = std::numeric_limits<double>::infinity();
  const Point r = n.root;
  for (Point t : goals) {
    if (n.flags & root_on_edge) {
      best = std::min(best, quick_distance(r, t));
      continue;
    }
    // The path crosses the interval's line at the interval: a goal on the root's side is as far
    // as its mirror image on the other side.
    const Point a = at_[n.edge], b = at_[next_[n.edge]];
    const Point ab = b - a;
    if (cross(ab, t - a) < 0) {
      const double u = dot(t - a, ab) / dot(ab, ab);
      t = 2.0 * (a + u * ab) - t;
    }
    double h;
    if (cross(n.left - r, t - r) > 0) {
      h = quick_distance(r, n.left) + quick_distance(n.left, t);
    } else if (cross(n.right - r, t - r) < 0) {
      h = quick_distance(r, n.right) + quick_distance(n.right, t);
    } else {
      h = quick_distance(r, t);
    }
    best = std::min(best, h);
  }
  return best;
}

std::uint32_t Polyanya::root_node(std::uint32_t& via, std::uint32_t corner, double g,
                                  const PolyanyaNode& from, std::uint32_t index,
                                  PolyanyaWorkspace& ws) const {
  // Paths are read back root by root through the parents, so a successor rooted beyond a turn
  // made within this expansion needs a node for that turn: one in the pool, never opened.
  if (via == no_parent) {
    via = std::uint32_t(ws.nodes.size());
    PolyanyaNode turn = from;
    turn.root_id = corner;
    turn.root = at_[corner];
    turn.g = g;
    turn.parent = index;
    turn.flags = 0;
    ws.nodes.push_back(turn);
  }
  return via;
}

void Polyanya::edge_on(std::uint32_t a, std::uint32_t b, Point root, double g, std::uint32_t parent,
                       std::span<const Point> goals, double weight, PolyanyaWorkspace& ws) const {
  // Edge a -> b lies on a line through the root but does not hold it: the root sees it edge-on,
  // along the boundary of the polygon holding both (a convex polygon whose sides run straight
  // from the root to the edge). The polygon beyond is reached only by turning at the edge's nearer
  // end, where a path may turn there: root it there, seeing that polygon whole. Where the nearer
  // end is no turning point, that polygon is reached round it through the polygons on both sides.
  if (dead_end(polygon_[a], polygon_[std::size_t(opposite_[a])], ws)) return;
  const std::uint32_t w = exact::collinear_between(root, at_[b], at_[a]) ? a : b;
  if (!turn_[vertex_[w]]) return;
  const double g2 = g + distance(root, at_[w]);
  if (!keep_root(w, g2, ws)) return;
  PolyanyaNode s;
  s.parent = parent;
  s.edge = std::uint32_t(opposite_[a]);
  s.root_id = w;
  s.root = at_[w];
  s.g = g2;
  s.left = at_[b];
  s.right = at_[a];
  s.la = s.ra = w;
  s.lb = b;
  s.rb = a;
  s.flags = left_vertex | right_vertex | root_on_edge;
  ws.successors.emplace_back(s, s.g + weight * heuristic(s, goals));
}

void Polyanya::expand(const PolyanyaNode& n, std::uint32_t index, Point start,
                      std::span<const Point> goals, double weight, PolyanyaWorkspace& ws) const {
  const std::uint32_t d = n.edge;
  const std::uint32_t poly = polygon_[d];
  const std::uint32_t first = first_[poly], m = first_[poly + 1] - first;
  // The polygon's corners counter-clockwise from the entry edge's right end: q(0) = next(d) is
  // the right end, q(m - 1) = d the left end; the other edges are q(c) -> q(c + 1).
  const std::uint32_t e = d - first;
  const auto q = [&](std::uint32_t c) {
    std::uint32_t k = e + 1 + c;
    if (k >= m) k -= m;
    return first + k;
  };
  const Point r = n.root;

  PolyanyaNode s;
  s.parent = index;
  const auto add = [&](PolyanyaNode& node) {
    if (dead_end(poly, polygon_[node.edge], ws)) return;
    ws.successors.emplace_back(node, node.g + weight * heuristic(node, goals));
  };
  const auto add_final = [&](std::uint32_t goal, std::uint32_t root_id, Point root, double g) {
    PolyanyaNode f;
    f.parent = index;
    f.root_id = root_id;
    f.root = root;
    f.edge = goal;
    f.g = g + distance(root, goals[goal]);
    f.flags = final_node;
    ws.successors.emplace_back(f, f.g);
  };
  // A piece of edge a -> b (a = q(c)) seen from `root`: left end at b's side, right end at a's.
  const auto piece = [&](std::uint32_t a, std::uint32_t root_id, Point root, double g) {
    s.edge = std::uint32_t(opposite_[a]);
    s.root_id = root_id;
    s.root = root;
    s.g = g;
  };

  // Goals in this polygon: seen from the root through the interval, else from the end of the
  // interval they lie beyond when the path may turn there.
  if (ws.goal_stamp[poly] == ws.stamp) {
    for (const auto& [p, goal] : ws.goal_polygons) {
      if (p != poly) continue;
      const Point t = goals[goal];
      if (n.flags & root_on_edge) {
        add_final(goal, n.root_id, r, n.g);
        continue;
      }
      const int sr = exact::orientation(point(n.ra, start), point(n.rb, start), t);
      const int sl = exact::orientation(point(n.la, start), point(n.lb, start), t);
      if (sr >= 0 && sl <= 0) {
        add_final(goal, n.root_id, r, n.g);
      } else if (sr < 0) {
        const std::uint32_t w = q(0);
        const double g = n.g + distance(r, at_[w]);
        if ((n.flags & right_vertex) && turn_[vertex_[w]] && keep_root(w, g, ws))
          add_final(goal, w, at_[w], g);
      } else {
        const double g = n.g + distance(r, at_[d]);
        if ((n.flags & left_vertex) && turn_[vertex_[d]] && keep_root(d, g, ws))
          add_final(goal, d, at_[d], g);
      }
    }
  }

  if (n.flags & root_on_edge) {
    // The root is a corner of this convex polygon: it sees all of it, and every other edge is
    // observable whole. An edge on a line through the root but not ending there is seen edge-on
    // (a zero-width interval): the polygons beyond it are reached round its ends instead.
    for (std::uint32_t c = 0; c + 1 < m; ++c) {
      const std::uint32_t a = q(c), b = q(c + 1);
      if (opposite_[a] < 0) continue;
      const bool on = at_[a] == r || at_[b] == r;
      if (!on && exact::orientation(at_[a], at_[b], r) <= 0) {
        edge_on(a, b, r, n.g, index, goals, weight, ws);
        continue;
      }
      piece(a, n.root_id, r, n.g);
      s.left = at_[b];
      s.right = at_[a];
      s.la = s.ra = n.root_id;
      s.lb = b;
      s.rb = a;
      s.flags = std::uint8_t(left_vertex | right_vertex | (on ? root_on_edge : 0));
      add(s);
    }
    return;
  }

  const Point ra = point(n.ra, start), rb = point(n.rb, start);
  const Point la = point(n.la, start), lb = point(n.lb, start);
  // Corners on or right of the right ray come first (from q(0)); c_right is the last of them,
  // where the ray leaves the polygon (at the corner itself when it lies on the ray). Then come
  // the corners inside the projection, then those on or left of the left ray from c_left, where
  // the left ray leaves. Convexity makes each run contiguous; the entry edge's own corners are
  // on the right sides of the rays by construction (the same exact tests made the interval).
  std::uint32_t c_right_end = 0;
  int side = exact::orientation(ra, rb, at_[q(0)]);
  int side_right = side;
  while (side <= 0) {
    side_right = side;
    if (++c_right_end >= m) return;  // cannot happen: q(m - 1) is left of the right ray
    side = exact::orientation(ra, rb, at_[q(c_right_end)]);
  }
  const std::uint32_t c_right = c_right_end - 1;
  std::uint32_t c_left = c_right_end;
  int side_left = exact::orientation(la, lb, at_[q(c_left)]);
  while (side_left < 0) {
    if (++c_left >= m) return;  // cannot happen: q(m - 1) is on or left of the left ray
    side_left = exact::orientation(la, lb, at_[q(c_left)]);
  }
  const bool right_exit_at_corner = side_right == 0, left_exit_at_corner = side_left == 0;
  const Point right_exit = right_exit_at_corner
                               ? at_[q(c_right)]
                               : crossing(ra, rb, at_[q(c_right)], at_[q(c_right + 1)]);
  const Point left_exit =
      left_exit_at_corner ? at_[q(c_left)] : crossing(la, lb, at_[q(c_left - 1)], at_[q(c_left)]);

  // Observable successors: the edges (pieces of edges) between the two exits.
  for (std::uint32_t c = c_right; c < c_left; ++c) {
    const std::uint32_t a = q(c), b = q(c + 1);
    if (opposite_[a] < 0) continue;
    if (exact::orientation(at_[a], at_[b], r) <= 0) continue;  // edge-on: zero width
    piece(a, n.root_id, r, n.g);
    s.flags = 0;
    if (c == c_right && !right_exit_at_corner) {
      s.right = right_exit;
      s.ra = n.ra;
      s.rb = n.rb;
    } else {
      s.right = at_[a];
      s.ra = n.root_id;
      s.rb = a;
      s.flags |= right_vertex;
    }
    if (c + 1 == c_left && !left_exit_at_corner) {
      s.left = left_exit;
      s.la = n.la;
      s.lb = n.lb;
    } else {
      s.left = at_[b];
      s.la = n.root_id;
      s.lb = b;
      s.flags |= left_vertex;
    }
    add(s);
  }

  // A ray that enters at a corner of the entry edge and runs along the polygon's sides (the
  // interval's end ray grazes the polygon) sees those sides edge-on: the polygons beyond them are
  // reached by turning at the nearer end of each. Where the corner it enters at is a turning
  // point, the shadow's successors below turn there and see the same sides edge-on from it (the
  // same lengths, straight on); otherwise turn from the root itself.
  if ((n.flags & right_vertex) && c_right >= 1 && !turn_[vertex_[q(0)]] &&
      exact::orientation(ra, rb, at_[q(1)]) == 0) {
    for (std::uint32_t c = 1; c < c_right; ++c)
      if (opposite_[q(c)] >= 0) edge_on(q(c), q(c + 1), r, n.g, index, goals, weight, ws);
  }
  if ((n.flags & left_vertex) && c_left + 2 <= m && !turn_[vertex_[d]] &&
      exact::orientation(la, lb, at_[q(m - 2)]) == 0) {
    for (std::uint32_t c = c_left; c + 2 < m; ++c)
      if (opposite_[q(c)] >= 0) edge_on(q(c), q(c + 1), r, n.g, index, goals, weight, ws);
  }

  // Non-observable successors right of the projection: the path turns at the interval's right
  // end, when that end is a corner and a path may turn there. The new root sees the shadow's
  // edges from q(0) up to where the right ray left the polygon; the last piece's far end lies on
  // the old right ray, which runs through the new root (from the old root through it).
  if ((n.flags & right_vertex) && c_right >= 1 && turn_[vertex_[q(0)]]) {
    const std::uint32_t w = q(0);
    const Point pw = at_[w];
    const double g = n.g + distance(r, pw);
    if (keep_root(w, g, ws)) {
      std::uint32_t via = no_parent;  // a node rooted at w, for what edge_on roots beyond it
      for (std::uint32_t c = 0; c <= c_right; ++c) {
        if (c == c_right && right_exit_at_corner) break;  // the shadow ends at that corner
        const std::uint32_t a = q(c), b = q(c + 1);
        if (opposite_[a] < 0) continue;
        const bool on = c == 0;
        if (!on && exact::orientation(at_[a], at_[b], pw) <= 0) {
          edge_on(a, b, pw, g, root_node(via, w, g, n, index, ws), goals, weight, ws);
          continue;
        }
        piece(a, w, pw, g);
        s.right = at_[a];
        s.ra = w;
        s.rb = a;
        s.flags = std::uint8_t(right_vertex | (on ? root_on_edge : 0));
        if (c == c_right) {
          s.left = right_exit;
          s.la = n.root_id;
          s.lb = w;
        } else {
          s.left = at_[b];
          s.la = w;
          s.lb = b;
          s.flags |= left_vertex;
        }
        add(s);
      }
    }
  }

  // The same on the left of the projection, turning at the interval's left end q(m - 1) = d.
  if ((n.flags & left_vertex) && c_left + 2 <= m && turn_[vertex_[d]]) {
    const Point pw = at_[d];
    const double g = n.g + distance(r, pw);
    if (keep_root(d, g, ws)) {
      std::uint32_t via = no_parent;
      for (std::uint32_t c = c_left - 1; c + 1 < m; ++c) {
        if (c + 1 == c_left && left_exit_at_corner) continue;  // the shadow starts at q(c_left)
        const std::uint32_t a = q(c), b = q(c + 1);
        if (opposite_[a] < 0) continue;
        const bool on = c + 2 == m;
        if (!on && exact::orientation(at_[a], at_[b], pw) <= 0) {
          edge_on(a, b, pw, g, root_node(via, d, g, n, index, ws), goals, weight, ws);
          continue;
        }
        piece(a, d, pw, g);
        s.left = at_[b];
        s.la = d;
        s.lb = b;
        s.flags = std::uint8_t(left_vertex | (on ? root_on_edge : 0));
        if (c + 1 == c_left) {
          s.right = left_exit;
          s.ra = n.root_id;
          s.rb = d;
        } else {
          s.right = at_[a];
          s.ra = d;
          s.rb = a;
          s.flags |= right_vertex;
        }
        add(s);
      }
    }
  }
}

void Polyanya::search(Point start, std::span<const Point> goals,
                      const search::SearchOptions& options, bool record_expanded,
                      PolyanyaWorkspace& ws, PolyanyaResult& out) const {
  const search::SearchBudget budget = search::budget_of(options);
  out.status = search::SearchStatus::invalid_query;
  out.limit = search::SearchLimit::none;
  out.limit_value = 0.0;
  out.points.clear();
  out.corridor.clear();
  out.length = 0.0;
  out.goal = goals.size();
  out.stats = {};
  out.expanded.clear();
  if (ws.goal_stamp.size() != partition_->polygon_count()) prepare(ws);
  if (++ws.stamp == 0) {  // the stamps wrapped: forget every mark
    std::fill(ws.best_stamp.begin(), ws.best_stamp.end(), 0u);
    std::fill(ws.goal_stamp.begin(), ws.goal_stamp.end(), 0u);
    std::fill(ws.pocket_stamp.begin(), ws.pocket_stamp.end(), 0u);
    ws.stamp = 1;
  }
  ws.nodes.clear();
  ws.open.clear();
  ws.goal_polygons.clear();
  for (std::size_t i = 0; i < goals.size(); ++i) {
    partition_->locate(goals[i], ws.located);
    for (const std::uint32_t p : ws.located) {
      ws.goal_stamp[p] = ws.stamp;
      // The pockets holding the goal: its polygon's, and every one that holds that.
      for (std::uint32_t x = p; x != no_parent && ws.pocket_stamp[x] != ws.stamp;
           x = pocket_exit_[x])
        ws.pocket_stamp[x] = ws.stamp;
      ws.goal_polygons.emplace_back(p, std::uint32_t(i));
    }
  }
  partition_->locate(start, ws.located);
  if (ws.located.empty() || ws.goal_polygons.empty()) {
    out.stats.elapsed = budget.elapsed();
    return;
  }

  const double weight = options.weight;
  bool cost_limited = false;
  const auto push = [&](const PolyanyaNode& node, double f) {
    if (budget.beyond_cost(f)) {
      cost_limited = true;
      return;
    }
    const auto index = std::uint32_t(ws.nodes.size());
    ws.nodes.push_back(node);
    ws.open.push_back({f, node.g, index});
    std::push_heap(ws.open.begin(), ws.open.end(), worse);
    ++out.stats.heap_pushes;
  };

  // The start: every edge of every polygon holding it that has a polygon beyond, seen whole. An
  // edge through the start is skipped: the polygon beyond holds the start too.
  ws.successors.clear();
  for (const std::uint32_t poly : ws.located) {
    if (ws.goal_stamp[poly] == ws.stamp) {
      for (const auto& [p, goal] : ws.goal_polygons) {
        if (p != poly) continue;
        PolyanyaNode f;
        f.parent = no_parent;
        f.root_id = start_id;
        f.root = start;
        f.edge = goal;
        f.g = distance(start, goals[goal]);
        f.flags = final_node;
        push(f, f.g);
      }
    }
    for (std::uint32_t c = first_[poly]; c < first_[poly + 1]; ++c) {
      if (opposite_[c] < 0) continue;
      const std::uint32_t b = next_[c];
      if (exact::orientation(at_[c], at_[b], start) <= 0) {
        // The start on the edge's line: an edge through it borders another polygon holding it;
        // one further along the line is seen edge-on.
        if (!exact::collinear_between(at_[c], at_[b], start)) {
          ws.successors.clear();
          edge_on(c, b, start, 0.0, no_parent, goals, weight, ws);
          out.stats.generated += ws.successors.size();
          for (const auto& s : ws.successors) push(s.node, s.f);
        }
        continue;
      }
      if (dead_end(poly, polygon_[std::size_t(opposite_[c])], ws)) continue;
      PolyanyaNode n;
      n.parent = no_parent;
      n.root_id = start_id;
      n.root = start;
      n.edge = std::uint32_t(opposite_[c]);
      n.left = at_[b];
      n.right = at_[c];
      n.la = n.ra = start_id;
      n.lb = b;
      n.rb = c;
      n.flags = left_vertex | right_vertex;
      n.g = 0.0;
      ++out.stats.generated;
      push(n, weight * heuristic(n, goals));
    }
  }

  search::SearchLimit stop = search::SearchLimit::none;
  std::uint32_t found = no_parent;
  while (!ws.open.empty() && found == no_parent) {
    std::pop_heap(ws.open.begin(), ws.open.end(), worse);
    const std::uint32_t top = ws.open.back().node;
    ws.open.pop_back();
    ++out.stats.heap_pops;
    if (ws.nodes[top].flags & final_node) {
      found = top;
      break;
    }
    {
      // Root-level pruning again: the root may have been reached more cheaply since.
      const PolyanyaNode& n = ws.nodes[top];
      if (n.root_id != start_id) {
        const std::uint32_t v = vertex_[n.root_id];
        if (ws.best_stamp[v] == ws.stamp && n.g > ws.best_g[v] * (1.0 + root_margin)) continue;
      }
    }
    std::uint32_t current = top;
    for (;;) {
      stop = budget.before_expansion(out.stats.expanded);
      if (stop != search::SearchLimit::none) break;
      ++out.stats.expanded;
      const PolyanyaNode& n = ws.nodes[current];  // pool nodes never move
      if (record_expanded) out.expanded.push_back(0.5 * (n.left + n.right));
      ws.successors.clear();
      expand(n, current, start, goals, weight, ws);
      out.stats.generated += ws.successors.size();
      if (ws.successors.size() == 1 && !(ws.successors[0].node.flags & final_node)) {
        // One way on: expand it now, without the open list (intermediate pruning). It is kept
        // in the pool as the parent of what it leads to.
        if (budget.beyond_cost(ws.successors[0].f)) {
          cost_limited = true;
          break;
        }
        current = std::uint32_t(ws.nodes.size());
        ws.nodes.push_back(ws.successors[0].node);
        continue;
      }
      for (const auto& s : ws.successors) push(s.node, s.f);
      break;
    }
    if (stop != search::SearchLimit::none) break;
  }

  if (found == no_parent) {
    const search::SearchBudget::Ending ending = budget.unreached(stop, cost_limited, false);
    out.status = ending.status;
    out.limit = ending.limit;
    out.limit_value = ending.limit_value;
    out.stats.elapsed = budget.elapsed();
    return;
  }

  // The path: the goal, then each root back to the start. The corridor: a node that is not
  // final lies on the edge by which it enters its polygon, edge d -> next(d) of that polygon,
  // whose start d is on the left as the path crosses into it. Its parent was expanded in the
  // polygon before; a turn's node in the pool repeats its parent's edge (the earlier of the two
  // crossed it), and a final node lies in its parent's polygon. A node whose root is an end of
  // its edge crosses it at the root, a vertex of the path: that portal is the point (the funnel,
  // seeing an edge that lies on a line through its apex, could not tell which end the path
  // takes).
  const PolyanyaNode& last = ws.nodes[found];
  out.goal = last.goal();
  out.points.push_back(goals[last.goal()]);
  std::uint32_t root = no_parent, crossed = no_parent;
  for (std::uint32_t i = found; i != no_parent; i = ws.nodes[i].parent) {
    const PolyanyaNode& n = ws.nodes[i];
    if (!(n.flags & final_node)) {
      const Segment portal = (n.flags & root_on_edge) ? Segment{n.root, n.root}
                                                      : Segment{at_[n.edge], at_[next_[n.edge]]};
      if (n.edge != crossed) {
        crossed = n.edge;
        out.corridor.push_back(portal);
      } else {
        out.corridor.back() = portal;
      }
    }
    if (n.root_id == root) continue;
    root = n.root_id;
    if (!(n.root == out.points.back())) out.points.push_back(n.root);
  }
  if (!(out.points.back() == start)) out.points.push_back(start);
  std::reverse(out.points.begin(), out.points.end());
  std::reverse(out.corridor.begin(), out.corridor.end());
  NavPartition::trim_ends(start, goals[last.goal()], out.corridor);
  if (out.points.size() == 1) out.points.push_back(out.points.front());  // start == goal
  out.length = polyline_length(out.points);
  out.status = search::SearchStatus::found;
  out.stats.elapsed = budget.elapsed();
}

}  // namespace polynav
