#include "polynav/discretise/quadtree/quadtree.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <sstream>
#include <utility>

#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

// Walls lying along the lattice lines: boundary edges traced once each way (free space on both
// sides), horizontal or vertical. classify() looks at a box's interior only, so a wall along a
// box's side leaves the box free; such boxes are split, and arcs are checked exactly when walls
// exist. Any other wall meets the interior of the boxes it passes, which are then mixed.
class QuadtreeWalls {
 public:
  explicit QuadtreeWalls(const FreeSpace& space) {
    std::vector<std::array<double, 4>> edges;
    for (const BoundaryRing& ring : space.boundary())
      for (std::size_t i = 0; i < ring.points.size(); ++i) {
        const Point u = ring.points[i], v = ring.points[(i + 1) % ring.points.size()];
        if (u.x == v.x || u.y == v.y) edges.push_back({u.x, u.y, v.x, v.y});
      }
    std::sort(edges.begin(), edges.end());
    for (const auto& [ux, uy, vx, vy] : edges) {
      if (!std::binary_search(edges.begin(), edges.end(), std::array<double, 4>{vx, vy, ux, uy}))
        continue;
      if (ux == vx && uy != vy) vertical_[ux].push_back({std::min(uy, vy), std::max(uy, vy)});
      if (uy == vy && ux != vx) horizontal_[uy].push_back({std::min(ux, vx), std::max(ux, vx)});
    }
  }
  bool empty() const { return vertical_.empty() && horizontal_.empty(); }
  /// Whether p lies on a wall (ends included).
  bool contains(Point p) const { return on(vertical_, p.x, p.y) || on(horizontal_, p.y, p.x); }
  /// Whether a wall runs along a piece of positive length of the box's sides.
  bool along_sides(const Box& b) const {
    return along(vertical_, b.min.x, b.min.y, b.max.y) ||
           along(vertical_, b.max.x, b.min.y, b.max.y) ||
           along(horizontal_, b.min.y, b.min.x, b.max.x) ||
           along(horizontal_, b.max.y, b.min.x, b.max.x);
  }

 private:
  using Lines = std::map<double, std::vector<std::pair<double, double>>>;
  static bool on(const Lines& lines, double at, double v) {
    const auto it = lines.find(at);
    if (it == lines.end()) return false;
    for (const auto& [a, b] : it->second)
      if (a <= v && v <= b) return true;
    return false;
  }
  static bool along(const Lines& lines, double at, double lo, double hi) {
    const auto it = lines.find(at);
    if (it == lines.end()) return false;
    for (const auto& [a, b] : it->second)
      if (std::max(a, lo) < std::min(b, hi)) return true;
    return false;
  }
  Lines vertical_;    // x -> y intervals
  Lines horizontal_;  // y -> x intervals
};

namespace {

// Interleaves the bits of x (even positions) and y (odd positions): the Morton (Z-order) code of
// a cell, as in Gargantini's linear quadtree.
std::uint64_t spread_bits(std::uint32_t v) {
  std::uint64_t x = v;
  x = (x | (x << 16)) & 0x0000FFFF0000FFFFull;
  x = (x | (x << 8)) & 0x00FF00FF00FF00FFull;
  x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0Full;
  x = (x | (x << 2)) & 0x3333333333333333ull;
  x = (x | (x << 1)) & 0x5555555555555555ull;
  return x;
}

std::uint64_t morton(std::uint32_t x, std::uint32_t y) {
  return spread_bits(x) | (spread_bits(y) << 1);
}

// An upper bound on the leaves of a tree of the given depth, before building it: a tree node is
// split only when a boundary or region edge meets its box (or lies along its sides), and an
// edge with extents dx, dy meets at most dx/s + dy/s + 4 boxes of side s on one level. Each
// split node adds three leaves.
double estimate_leaves(const FreeSpace& space, double root_side, int depth) {
  double manhattan = 0.0, edges = 0.0;
  const auto add_ring = [&](const Ring& ring) {
    for (std::size_t i = 0; i < ring.size(); ++i) {
      const Point d = ring[(i + 1) % ring.size()] - ring[i];
      manhattan += std::abs(d.x) + std::abs(d.y);
      edges += 1.0;
    }
  };
  for (const BoundaryRing& ring : space.boundary()) add_ring(ring.points);
  for (const Ring& ring : space.cost_boundaries()) add_ring(ring);
  double split = 0.0;
  for (int level = 0; level < depth; ++level) {
    const double side = std::ldexp(root_side, -level);
    split += std::min(std::ldexp(1.0, 2 * level), manhattan / side + 4.0 * edges);
  }
  return 1.0 + 3.0 * split;
}

[[noreturn]] void refuse(double leaves, double min_cell, std::size_t budget) {
  std::ostringstream message;
  message << "a quadtree with min_cell " << min_cell << " would have " << leaves
          << " leaves or more, more than quadtree.max_leaves = " << budget
          << " (raise quadtree.min_cell or quadtree.max_leaves)";
  throw InputError({"", 0, 0, "quadtree.max_leaves"}, message.str());
}

}  // namespace

Quadtree::Quadtree(const FreeSpace& space, QuadtreeOptions options)
    : space_(&space), options_(std::move(options)) {
  // The tree before an edit is read while building, not kept.
  const std::shared_ptr<const EditedFrom<Quadtree>> update =
      std::exchange(options_.update, nullptr);
  min_cost_ = space.min_cost();
  const Box box = space.box();
  if (box.empty()) return;
  double min_cell = options_.min_cell;
  if (min_cell == 0.0)
    min_cell = space.native_cell_size().value_or(std::max(box.width(), box.height()) / 256.0);
  if (!(min_cell > 0.0) || !std::isfinite(min_cell))
    throw InputError({"", 0, 0, "quadtree.min_cell"},
                     "quadtree.min_cell must be a positive finite number, found " +
                         std::to_string(options_.min_cell));
  if (options_.max_depth < 1 || options_.max_depth > 30)
    throw InputError(
        {"", 0, 0, "quadtree.max_depth"},
        "quadtree.max_depth must be between 1 and 30, found " + std::to_string(options_.max_depth));
  // The root is a square whose lower-left corner is the grid method's origin, 2^depth cells of
  // side min_cell across, so that the bottom cells are the grid's cells (bit for bit: the same
  // origin + index * side).
  const Box bounds = space.bounds_box();
  origin_ = bounds.empty() ? box.min : bounds.min;
  const double cells = std::max({1.0, std::ceil((box.max.x - origin_.x) / min_cell),
                                 std::ceil((box.max.y - origin_.y) / min_cell)});
  int needed = 0;
  while (std::ldexp(1.0, needed) < cells) ++needed;
  depth_ = std::min(needed, options_.max_depth);
  cell_ = std::ldexp(min_cell, needed - depth_);
  const double estimate = estimate_leaves(space, std::ldexp(cell_, depth_), depth_);
  if (estimate > double(options_.max_leaves)) refuse(estimate, min_cell, options_.max_leaves);

  const BuildClock clock(options_.max_build_seconds);
  const QuadtreeWalls walls(space);
  // The tree before an edit, when it has this tree's cells; a balanced tree's leaves depend on
  // their neighbours far away, so it is built whole.
  const Quadtree* before = update ? update->before : nullptr;
  if (before && (before->origin_ != origin_ || before->cell_ != cell_ || before->depth_ != depth_ ||
                 before->leaves_.empty() || options_.balance || before->options_.balance ||
                 before->space_->weighted() != space.weighted()))
    before = nullptr;
  // Outside the edit's extent in the free spaces before and after it nothing changed; a bottom
  // cell more covers rounding.
  EditedFrom<Quadtree> extent;
  if (before) {
    extent.before = before;
    extent.changed = space.edit_extent(*before->space_, update->changed);
  }
  std::vector<std::uint32_t> kept;
  build_tree(space, walls, clock, before ? &extent : nullptr, cell_, kept);
  clock.check("the quadtree");
  if (options_.balance) balance_tree();
  clock.check("the quadtree");
  free_leaves_ = std::size_t(
      std::count_if(leaves_.begin(), leaves_.end(), [](const QuadtreeLeaf& l) { return l.free; }));
  exact_checks_ = !walls.empty() || (space.has_heights() && std::isfinite(space.agent().max_climb));
  if (options_.nodes == QuadtreeNodes::portals) {
    build_portal_graph(space, walls, before, kept);
  } else {
    build_graph(space, walls);
  }
}

Box Quadtree::leaf_box(const QuadtreeLeaf& leaf) const {
  const std::int64_t s = side_cells(leaf);
  return {{coord_x(leaf.x), coord_y(leaf.y)}, {coord_x(leaf.x + s), coord_y(leaf.y + s)}};
}

Box Quadtree::root_box() const {
  const std::int64_t n = std::int64_t{1} << depth_;
  return {{coord_x(0), coord_y(0)}, {coord_x(n), coord_y(n)}};
}

std::size_t Quadtree::leaf_index(std::uint32_t cx, std::uint32_t cy) const {
  // The leaves tile the root and each covers a contiguous range of Morton codes starting at its
  // own code, so the containing leaf is the last one whose code is not greater.
  const auto it = std::upper_bound(codes_.begin(), codes_.end(), morton(cx, cy));
  return std::size_t(it - codes_.begin()) - 1;
}

search::NodeId Quadtree::node_at_cell(std::int64_t cx, std::int64_t cy) const {
  const std::int64_t n = std::int64_t{1} << depth_;
  if (leaves_.empty() || cx < 0 || cy < 0 || cx >= n || cy >= n) return search::no_node;
  return node_of_leaf_[leaf_index(std::uint32_t(cx), std::uint32_t(cy))];
}

template <class F>
void Quadtree::for_each_side_neighbour(std::size_t i, int side, F&& f) const {
  const QuadtreeLeaf& leaf = leaves_[i];
  const std::uint32_t s = side_cells(leaf), n = std::uint32_t{1} << depth_;
  const bool along_y = side == 0 || side == 2;  // east and west sides run along y
  std::uint32_t fixed = 0;
  switch (side) {
    case 0:
      if (leaf.x + s >= n) return;
      fixed = leaf.x + s;
      break;
    case 1:
      if (leaf.y + s >= n) return;
      fixed = leaf.y + s;
      break;
    case 2:
      if (leaf.x == 0) return;
      fixed = leaf.x - 1;
      break;
    default:
      if (leaf.y == 0) return;
      fixed = leaf.y - 1;
      break;
  }
  const std::uint32_t first = along_y ? leaf.y : leaf.x, end = first + s;
  for (std::uint32_t at = first; at < end;) {
    const std::size_t j = along_y ? leaf_index(fixed, at) : leaf_index(at, fixed);
    const QuadtreeLeaf& other = leaves_[j];
    const std::uint32_t hi = std::min(end, (along_y ? other.y : other.x) + side_cells(other));
    f(j, at, hi);
    at = hi;
  }
}

void Quadtree::build_tree(const FreeSpace& space, const QuadtreeWalls& walls,
                          const BuildClock& clock, const EditedFrom<Quadtree>* update, double reach,
                          std::vector<std::uint32_t>& kept) {
  // Depth first, children in Morton order, so leaves come out sorted by Morton code.
  const bool fields = space.weighted();
  std::vector<QuadtreeLeaf> pending = {{0, 0, 0, false}};
  // A tree node away from the edit is split as the tree before split it, since it is classified
  // against the same free space, costs and heights: a leaf of the tree before that covers it
  // whole (a free or blocked box is so in every part), or the leaves of the tree before inside
  // it, which start at its Morton code.
  const auto keep = [&](const QuadtreeLeaf& node) {
    const Quadtree& old = *update->before;
    const std::size_t j = old.leaf_index(node.x, node.y);
    if (old.leaves_[j].level <= node.level) {
      leaves_.push_back({node.x, node.y, node.level, old.leaves_[j].free});
      kept.push_back(old.leaves_[j].level == node.level ? std::uint32_t(j) : no_leaf);
      return;
    }
    const std::uint64_t end =
        old.codes_[j] + (std::uint64_t{1} << (2 * unsigned(depth_ - node.level)));
    for (std::size_t k = j; k < old.leaves_.size() && old.codes_[k] < end; ++k) {
      leaves_.push_back(old.leaves_[k]);
      kept.push_back(std::uint32_t(k));
    }
  };
  while (!pending.empty()) {
    QuadtreeLeaf leaf = pending.back();
    pending.pop_back();
    if (leaves_.size() % 4096 == 0) clock.check("the quadtree");
    const Box b = leaf_box(leaf);
    if (update && !update->near(b, reach)) {
      keep(leaf);
      if (leaves_.size() > options_.max_leaves)
        refuse(double(leaves_.size()), cell_, options_.max_leaves);
      continue;
    }
    ++classified_boxes_;
    const BoxClass c = space.classify(b);
    bool split = c == BoxClass::mixed;
    if (c == BoxClass::free) {
      leaf.free = true;
      const auto uniform = [](FieldRange r) { return r.lowest == r.highest; };
      split = (fields && (!uniform(space.cost_range(b)) || !uniform(space.height_range(b)))) ||
              (!walls.empty() && walls.along_sides(b));
    }
    if (split && leaf.level < depth_) {
      const std::uint32_t h = side_cells(leaf) / 2;
      const auto l = std::uint8_t(leaf.level + 1);
      pending.push_back({leaf.x + h, leaf.y + h, l, false});
      pending.push_back({leaf.x, leaf.y + h, l, false});
      pending.push_back({leaf.x + h, leaf.y, l, false});
      pending.push_back({leaf.x, leaf.y, l, false});
      continue;
    }
    // At the bottom a mixed box is blocked; a free one stays free even if its cost varies (arc
    // costs are exact) or a wall runs along its side (arcs are checked).
    leaves_.push_back(leaf);
    if (update) kept.push_back(no_leaf);
    if (leaves_.size() > options_.max_leaves)
      refuse(double(leaves_.size()), cell_, options_.max_leaves);
  }
  codes_.resize(leaves_.size());
  for (std::size_t i = 0; i < leaves_.size(); ++i) codes_[i] = morton(leaves_[i].x, leaves_[i].y);
}

void Quadtree::balance_tree() {
  // Splitting a free or blocked leaf needs no new classification: the parts of a free box with
  // uniform fields are such boxes, the parts of a blocked box are blocked.
  for (;;) {
    std::vector<char> split(leaves_.size(), 0);
    bool any = false;
    for (std::size_t i = 0; i < leaves_.size(); ++i) {
      const QuadtreeLeaf& leaf = leaves_[i];
      if (leaf.level + 1 >= depth_) continue;
      for (int side = 0; side < 4 && !split[i]; ++side)
        for_each_side_neighbour(i, side, [&](std::size_t j, std::uint32_t, std::uint32_t) {
          if (leaves_[j].level > leaf.level + 1) split[i] = 1;
        });
      any = any || split[i];
    }
    if (!any) return;
    std::vector<QuadtreeLeaf> next;
    next.reserve(leaves_.size() + 3 * std::size_t(std::count(split.begin(), split.end(), 1)));
    for (std::size_t i = 0; i < leaves_.size(); ++i) {
      const QuadtreeLeaf& leaf = leaves_[i];
      if (!split[i]) {
        next.push_back(leaf);
        continue;
      }
      const std::uint32_t h = side_cells(leaf) / 2;
      const auto l = std::uint8_t(leaf.level + 1);
      next.push_back({leaf.x, leaf.y, l, leaf.free});
      next.push_back({leaf.x + h, leaf.y, l, leaf.free});
      next.push_back({leaf.x, leaf.y + h, l, leaf.free});
      next.push_back({leaf.x + h, leaf.y + h, l, leaf.free});
    }
    if (next.size() > options_.max_leaves) refuse(double(next.size()), cell_, options_.max_leaves);
    leaves_ = std::move(next);
    codes_.resize(leaves_.size());
    for (std::size_t i = 0; i < leaves_.size(); ++i) codes_[i] = morton(leaves_[i].x, leaves_[i].y);
  }
}

Segment Quadtree::shared_boundary(const QuadtreeLeaf& a, const QuadtreeLeaf& b) const {
  const std::int64_t sa = side_cells(a), sb = side_cells(b);
  const std::int64_t x0 = std::max<std::int64_t>(a.x, b.x), x1 = std::min(a.x + sa, b.x + sb);
  const std::int64_t y0 = std::max<std::int64_t>(a.y, b.y), y1 = std::min(a.y + sa, b.y + sb);
  return {{coord_x(x0), coord_y(y0)}, {coord_x(x1), coord_y(y1)}};
}

std::optional<Point> Quadtree::bend(search::NodeId a, search::NodeId b) const {
  if (a > b) std::swap(a, b);  // the same bend both ways
  const Point p = centres_[a], q = centres_[b];
  const Segment s = shared_boundary(node_leaf(a), node_leaf(b));
  if (s.a == s.b) return s.a;  // leaves touching at a corner
  // The straight segment is the motion when it crosses the shared side clear of its ends (it
  // then runs inside the two closed leaves); otherwise bend at the nearest point of the side.
  // With aligned leaves the shared side is the smaller leaf's whole side and the segment always
  // crosses it inside (it ends half that side away from it, at a slope below one), so in
  // practice only corner arcs bend; the test stays for exactness.
  const bool vertical = s.a.x == s.b.x;
  const double at = vertical ? s.a.x : s.a.y;
  const double p_along = vertical ? p.y : p.x, q_along = vertical ? q.y : q.x;
  const double p_across = vertical ? p.x : p.y, q_across = vertical ? q.x : q.y;
  const double cross_at = p_along + (at - p_across) / (q_across - p_across) * (q_along - p_along);
  const double lo = vertical ? s.a.y : s.a.x, hi = vertical ? s.b.y : s.b.x;
  const double margin = 1e-9 * (hi - lo);
  if (cross_at > lo + margin && cross_at < hi - margin) return std::nullopt;
  const double clamped = std::clamp(cross_at, lo, hi);
  return vertical ? Point{at, clamped} : Point{clamped, at};
}

void Quadtree::build_graph(const FreeSpace& space, const QuadtreeWalls& walls) {
  node_of_leaf_.assign(leaves_.size(), search::no_node);
  for (std::size_t i = 0; i < leaves_.size(); ++i) {
    if (!leaves_[i].free) continue;
    node_of_leaf_[i] = search::NodeId(centres_.size());
    node_leaves_.push_back({std::uint32_t(i), std::uint32_t(i)});
    const Box b = leaf_box(leaves_[i]);
    centres_.push_back({0.5 * (b.min.x + b.max.x), 0.5 * (b.min.y + b.max.y)});
  }
  const bool climb = space.has_heights() && std::isfinite(space.agent().max_climb);
  std::vector<search::Edge> edges;
  std::vector<Point> polyline;
  const auto join = [&](search::NodeId u, search::NodeId v, bool corner) {
    polyline = {centres_[u]};
    if (const std::optional<Point> p = bend(u, v)) polyline.push_back(*p);
    polyline.push_back(centres_[v]);
    // Inside the two closed free leaves every segment is free; only walls along the sides and
    // turns through a corner need the exact checks.
    if (!walls.empty())
      for (std::size_t k = 1; k < polyline.size(); ++k)
        if (!space.line_of_sight(polyline[k - 1], polyline[k])) return;
    if ((corner || !walls.empty()) && polyline.size() == 3 &&
        !space.turn_is_free(polyline[0], polyline[1], polyline[2]))
      return;
    if (corner && !space.is_free(polyline[1])) return;
    double cost = 0.0;
    bool forward = true, backward = true;
    for (std::size_t k = 1; k < polyline.size(); ++k) {
      cost += space.segment_cost(polyline[k - 1], polyline[k]);
      if (climb) {
        forward = forward && space.climbable(polyline[k - 1], polyline[k]);
        backward = backward && space.climbable(polyline[k], polyline[k - 1]);
      }
    }
    if (forward) edges.push_back({u, v, cost});
    if (backward) edges.push_back({v, u, cost});
  };
  const std::uint32_t n = std::uint32_t{1} << depth_;
  for (std::size_t i = 0; i < leaves_.size(); ++i) {
    const search::NodeId u = node_of_leaf_[i];
    if (u == search::no_node) continue;
    for (int side = 0; side < 2; ++side)  // east and north: each pair once
      for_each_side_neighbour(i, side, [&](std::size_t j, std::uint32_t, std::uint32_t) {
        if (node_of_leaf_[j] != search::no_node) join(u, node_of_leaf_[j], false);
      });
    if (!options_.corners) continue;
    // The leaves touching only at the lower-left and lower-right corners: a leaf touching only at
    // a corner has that corner as its own (else the two would share a side), so each such pair is
    // met once, from the upper leaf.
    const QuadtreeLeaf& leaf = leaves_[i];
    const std::uint32_t s = side_cells(leaf);
    if (leaf.y == 0) continue;
    if (leaf.x > 0) {
      const std::size_t j = leaf_index(leaf.x - 1, leaf.y - 1);
      const QuadtreeLeaf& o = leaves_[j];
      if (o.free && o.x + side_cells(o) == leaf.x && o.y + side_cells(o) == leaf.y)
        join(u, node_of_leaf_[j], true);
    }
    if (leaf.x + s < n) {
      const std::size_t j = leaf_index(leaf.x + s, leaf.y - 1);
      const QuadtreeLeaf& o = leaves_[j];
      if (o.free && o.x == leaf.x + s && o.y + side_cells(o) == leaf.y)
        join(u, node_of_leaf_[j], true);
    }
  }
  graph_ = search::CsrGraph(centres_.size(), edges, search::Direction::directed);
  // Arcs run both ways unless a climb limit makes some one way; then component labels would be
  // wrong.
  if (!climb) components_ = search::ComponentLabels(*this);
}

void Quadtree::build_portal_graph(const FreeSpace& space, const QuadtreeWalls& walls,
                                  const Quadtree* before, const std::vector<std::uint32_t>& kept) {
  // Nodes on the portals (Quadtree's class comment), created leaf by leaf in Morton order so that
  // nearby nodes get nearby ids. Arcs across a leaf between points of its boundary are the idea
  // of framed quadtrees (Chen, Szczerba and Uhran, "A framed-quadtree approach for determining
  // Euclidean shortest paths in a 2-D environment", IEEE Trans. Robotics and Automation 13(5),
  // 1997), which frame every leaf with bottom-size border cells; here a leaf's boundary points
  // are only the midpoints of the sides it shares with free leaves.
  const bool climb = space.has_heights() && std::isfinite(space.agent().max_climb);
  const double h = 0.5 * cell_;  // a point this far from a portal lies in the leaves beside it
  std::vector<search::Edge> edges;
  const auto add_node = [&](Point p, std::size_t a, std::size_t b, Segment s) {
    node_leaves_.push_back({std::uint32_t(a), std::uint32_t(b)});
    centres_.push_back(p);
    portal_.push_back(s);
  };
  // A crossing from leaf a to leaf b at p, on portal s; in_a and in_b lie in a and b near p.
  const auto add_crossing = [&](Point p, std::size_t a, std::size_t b, Segment s, Point in_a,
                                Point in_b) {
    if (!climb) {
      add_node(p, a, b, s);
      return;
    }
    // Moves may be one way: a node per leaf, joined across the portal where the step is
    // climbable.
    const bool ab = space.climbable(in_a, in_b), ba = space.climbable(in_b, in_a);
    if (!ab && !ba) return;
    const auto na = search::NodeId(centres_.size());
    add_node(p, a, a, s);
    add_node(p, b, b, s);
    if (ab) edges.push_back({na, na + 1, 0.0});
    if (ba) edges.push_back({na + 1, na, 0.0});
  };
  // Whether the turns between leaves a and b through their common corner c are free: the two
  // widest, each between rays along the leaves' sides (from c towards a_ray and b_ray), sweep
  // through everything any other turn between the two leaves sweeps on the same side.
  const auto corner_turns_free = [&](Point c, Point a_ray1, Point b_ray1, Point a_ray2,
                                     Point b_ray2) {
    if (!space.is_free(c) || (!walls.empty() && walls.contains(c))) return false;
    return space.turn_is_free(a_ray1, c, b_ray1) && space.turn_is_free(a_ray2, c, b_ray2);
  };
  const std::uint32_t n = std::uint32_t{1} << depth_;
  for (std::size_t i = 0; i < leaves_.size(); ++i) {
    if (!leaves_[i].free) continue;
    for (int side = 0; side < 2; ++side)  // east and north: each pair once
      for_each_side_neighbour(i, side, [&](std::size_t j, std::uint32_t, std::uint32_t) {
        if (!leaves_[j].free) return;
        const Segment s = shared_boundary(leaves_[i], leaves_[j]);
        const Point mid = 0.5 * (s.a + s.b);
        if (!walls.empty() && walls.contains(mid)) return;
        const Point normal = side == 0 ? Point{h, 0.0} : Point{0.0, h};
        add_crossing(mid, i, j, s, mid - normal, mid + normal);
      });
    if (!options_.corners) continue;
    // The leaves touching only at the lower-left and lower-right corners, met once each from the
    // upper leaf (as in build_graph).
    const QuadtreeLeaf& leaf = leaves_[i];
    const std::uint32_t size = side_cells(leaf);
    if (leaf.y == 0) continue;
    const Point c0{coord_x(leaf.x), coord_y(leaf.y)}, c1{coord_x(leaf.x + size), coord_y(leaf.y)};
    if (leaf.x > 0) {
      const std::size_t j = leaf_index(leaf.x - 1, leaf.y - 1);
      const QuadtreeLeaf& o = leaves_[j];
      // This leaf to the north-east of c0, the other to the south-west.
      if (o.free && o.x + side_cells(o) == leaf.x && o.y + side_cells(o) == leaf.y &&
          corner_turns_free(c0, c0 + Point{h, 0.0}, c0 - Point{0.0, h}, c0 + Point{0.0, h},
                            c0 - Point{h, 0.0}))
        add_crossing(c0, i, j, {c0, c0}, c0 + Point{h, h}, c0 - Point{h, h});
    }
    if (leaf.x + size < n) {
      const std::size_t j = leaf_index(leaf.x + size, leaf.y - 1);
      const QuadtreeLeaf& o = leaves_[j];
      // This leaf to the north-west of c1, the other to the south-east.
      if (o.free && o.x == leaf.x + size && o.y + side_cells(o) == leaf.y &&
          corner_turns_free(c1, c1 + Point{0.0, h}, c1 + Point{h, 0.0}, c1 - Point{h, 0.0},
                            c1 - Point{0.0, h}))
        add_crossing(c1, i, j, {c1, c1}, c1 + Point{-h, h}, c1 + Point{h, -h});
    }
  }
  // Every free leaf's nodes; a leaf without any gets one at its centre.
  std::vector<std::uint32_t> count(leaves_.size() + 1, 0);
  for (const auto& [a, b] : node_leaves_) {
    ++count[a];
    if (b != a) ++count[b];
  }
  for (std::size_t i = 0; i < leaves_.size(); ++i)
    if (leaves_[i].free && count[i] == 0) {
      const Box box = leaf_box(leaves_[i]);
      const Point c = 0.5 * (box.min + box.max);
      add_node(c, i, i, {c, c});
      count[i] = 1;
    }
  leaf_node_start_.assign(leaves_.size() + 1, 0);
  for (std::size_t i = 0; i < leaves_.size(); ++i)
    leaf_node_start_[i + 1] = leaf_node_start_[i] + count[i];
  leaf_nodes_.resize(leaf_node_start_.back());
  std::vector<std::uint32_t> fill(leaf_node_start_.begin(), leaf_node_start_.end() - 1);
  for (std::size_t v = 0; v < node_leaves_.size(); ++v) {
    const auto [a, b] = node_leaves_[v];
    leaf_nodes_[fill[a]++] = search::NodeId(v);
    if (b != a) leaf_nodes_[fill[b]++] = search::NodeId(v);
  }
  // Arcs: every two nodes of one leaf, the straight segment inside it, costed from the node of
  // lower id (leaf_nodes_ lists a leaf's nodes in increasing order). In a leaf kept whole from
  // the tree before, a segment between two places that leaf had nodes at lies in the same free
  // space, costs and heights: its arcs are the tree before's.
  std::vector<std::pair<Point, search::NodeId>> old_nodes;  // the kept leaf's, in the tree before
  const auto old_node_at = [&](Point p) {
    for (const auto& [at, node] : old_nodes)
      if (at == p) return node;
    return search::no_node;
  };
  for (std::size_t i = 0; i < leaves_.size(); ++i) {
    if (!leaves_[i].free) continue;
    old_nodes.clear();
    if (before && kept[i] != no_leaf)
      before->for_each_leaf_node(kept[i], [&](search::NodeId old) {
        old_nodes.push_back({before->centres_[old], old});
      });
    for (std::uint32_t x = leaf_node_start_[i]; x < leaf_node_start_[i + 1]; ++x)
      for (std::uint32_t y = x + 1; y < leaf_node_start_[i + 1]; ++y) {
        const search::NodeId u = leaf_nodes_[x], v = leaf_nodes_[y];
        const Point p = centres_[u], q = centres_[v];
        // The tree before costed the segment from its lower-numbered node, as this loop does:
        // the two directions may differ in the last bit, so only the same order is taken.
        if (const search::NodeId ou = old_node_at(p), ov = old_node_at(q);
            ou != search::no_node && ov != search::no_node && ou < ov) {
          before->graph_.for_each_neighbour(ou, [&](search::NodeId to, double cost) {
            if (to == ov) edges.push_back({u, v, cost});
          });
          before->graph_.for_each_neighbour(ov, [&](search::NodeId to, double cost) {
            if (to == ou) edges.push_back({v, u, cost});
          });
          continue;
        }
        // Inside the closed free leaf every segment is free; a wall along its side is not.
        if (!walls.empty() && !space.line_of_sight(p, q)) continue;
        const double cost = space.segment_cost(p, q);
        if (!climb || space.climbable(p, q)) edges.push_back({u, v, cost});
        if (!climb || space.climbable(q, p)) edges.push_back({v, u, cost});
      }
  }
  graph_ = search::CsrGraph(centres_.size(), edges, search::Direction::directed);
  if (!climb) components_ = search::ComponentLabels(*this);
}

std::optional<std::size_t> Quadtree::free_leaf_at(Point p) const {
  if (leaves_.empty()) return std::nullopt;
  const auto cx = std::int64_t(std::floor((p.x - origin_.x) / cell_));
  const auto cy = std::int64_t(std::floor((p.y - origin_.y) / cell_));
  const std::int64_t n = std::int64_t{1} << depth_;
  // Decided by comparisons with the leaf's box (the cell index above is only a guess near cell
  // sides).
  for (const std::int64_t dy : {0, -1, 1})
    for (const std::int64_t dx : {0, -1, 1}) {
      const std::int64_t x = cx + dx, y = cy + dy;
      if (x < 0 || y < 0 || x >= n || y >= n) continue;
      const std::size_t i = leaf_index(std::uint32_t(x), std::uint32_t(y));
      if (!leaves_[i].free) continue;
      const Box b = leaf_box(leaves_[i]);
      if (p.x >= b.min.x && p.x <= b.max.x && p.y >= b.min.y && p.y <= b.max.y) return i;
    }
  return std::nullopt;
}

void Quadtree::attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const {
  out.clear();
  if (leaves_.empty()) return;
  const FreeSpace& space = *space_;
  const bool outgoing = direction == AttachDirection::from_point;
  const bool portals = options_.nodes == QuadtreeNodes::portals;
  const auto join = [&](search::NodeId n, bool check) {
    const Point c = centres_[n];
    if (check && !(outgoing ? space.traversable(p, c) : space.traversable(c, p))) return;
    out.push_back({n, outgoing ? space.segment_cost(p, c) : space.segment_cost(c, p)});
  };
  if (const std::optional<std::size_t> i = free_leaf_at(p)) {
    if (!portals) {
      join(node_of_leaf_[*i], false);
    } else {
      // Inside the convex leaf every segment is free, unless along a wall or up a step.
      for_each_leaf_node(*i, [&](search::NodeId n) { join(n, exact_checks_); });
    }
    return;
  }
  // p lies in a blocked bottom cell next to the boundary: the nodes of the free leaves nearby
  // that it sees.
  const auto cx = std::int64_t(std::floor((p.x - origin_.x) / cell_));
  const auto cy = std::int64_t(std::floor((p.y - origin_.y) / cell_));
  const std::int64_t n = std::int64_t{1} << depth_;
  std::vector<std::size_t> seen;
  for (std::int64_t y = cy - 2; y <= cy + 2; ++y)
    for (std::int64_t x = cx - 2; x <= cx + 2; ++x) {
      if (x < 0 || y < 0 || x >= n || y >= n) continue;
      const std::size_t i = leaf_index(std::uint32_t(x), std::uint32_t(y));
      if (!leaves_[i].free || std::find(seen.begin(), seen.end(), i) != seen.end()) continue;
      seen.push_back(i);
      if (!portals) {
        join(node_of_leaf_[i], true);
      } else {
        for_each_leaf_node(i, [&](search::NodeId m) {
          for (const Attachment& a : out)
            if (a.node == m) return;  // a portal node of two leaves nearby
          join(m, true);
        });
      }
    }
}

std::optional<double> Quadtree::direct_cost(Point start, Point goal) const {
  const std::optional<std::size_t> i = free_leaf_at(start);
  if (!i) return std::nullopt;
  const Box b = leaf_box(leaves_[*i]);
  if (!(goal.x >= b.min.x && goal.x <= b.max.x && goal.y >= b.min.y && goal.y <= b.max.y))
    return std::nullopt;
  if (exact_checks_ && !space_->traversable(start, goal)) return std::nullopt;
  return space_->segment_cost(start, goal);
}

std::string Quadtree::unattached_reason(std::string_view which) const {
  return std::string(which) +
         " is free but no free quadtree leaf around it is in line of sight (try a smaller "
         "quadtree.min_cell)";
}

Ring Quadtree::node_region(search::NodeId n) const {
  const auto [a, b_leaf] = node_leaves_[n];
  const Box b = leaf_box(leaves_[a]);
  // A portal node is a point; a leaf's centre node stands for the leaf.
  if (options_.nodes == QuadtreeNodes::portals &&
      !(a == b_leaf && centres_[n] == 0.5 * (b.min + b.max)))
    return {};
  return {b.min, {b.max.x, b.min.y}, b.max, {b.min.x, b.max.y}};
}

void Quadtree::arc_points(search::NodeId from, search::NodeId to, std::vector<Point>& out) const {
  if (options_.nodes == QuadtreeNodes::portals) return;  // straight segments inside a leaf
  if (const std::optional<Point> p = bend(from, to)) out.push_back(*p);
}

std::optional<std::vector<Segment>> Quadtree::corridor(Point start,
                                                       std::span<const search::NodeId> path,
                                                       Point end) const {
  // The shared sides, each oriented as seen in the direction of travel from one leaf's centre to
  // the next (a on the left, b on the right), the convention of Discretisation::corridor.
  std::vector<Segment> portals;
  const auto add = [&](Segment side, Point from, Point to) {
    const int oa = exact::orientation(from, to, side.a), ob = exact::orientation(from, to, side.b);
    if (oa < ob) std::swap(side.a, side.b);
    portals.push_back(side);
  };
  if (options_.nodes == QuadtreeNodes::centres) {
    for (std::size_t k = 1; k < path.size(); ++k)
      add(shared_boundary(node_leaf(path[k - 1]), node_leaf(path[k])), node_position(path[k - 1]),
          node_position(path[k]));
    return portals;
  }
  // Portal nodes: the path runs through the leaf two consecutive nodes share and crosses the
  // portal of a node between two leaves when the leaves before and after it differ; an arc
  // between one-leaf nodes of two leaves (one way moves) crosses their common portal.
  constexpr std::int64_t none = -1, on_portal = -2;
  const auto common = [&](search::NodeId u, search::NodeId v) -> std::int64_t {
    for (const std::uint32_t a : node_leaves_[u])
      for (const std::uint32_t b : node_leaves_[v])
        if (a == b) return a;
    return none;
  };
  // Which of a node's two leaves holds an end point.
  const auto holding = [&](Point p, std::uint32_t a, std::uint32_t b) -> std::int64_t {
    const auto in = [&](std::uint32_t i) {
      const Box box = leaf_box(leaves_[i]);
      return p.x >= box.min.x && p.x <= box.max.x && p.y >= box.min.y && p.y <= box.max.y;
    };
    const bool ina = in(a), inb = in(b);
    return ina && inb ? on_portal : ina ? a : inb ? b : none;
  };
  const std::size_t n = path.size();
  for (std::size_t k = 0; k < n; ++k) {
    const search::NodeId u = path[k];
    const auto [a, b] = node_leaves_[u];
    const Point from = k > 0 ? centres_[path[k - 1]] : start;
    const Point to = k + 1 < n ? centres_[path[k + 1]] : end;
    if (a == b) {
      if (k + 1 < n && common(u, path[k + 1]) == none)
        add(portal_[u], from, k + 2 < n ? centres_[path[k + 2]] : end);
      continue;
    }
    std::int64_t before = k > 0 ? common(path[k - 1], u) : holding(start, a, b);
    std::int64_t after = k + 1 < n ? common(u, path[k + 1]) : holding(end, a, b);
    // An end on the portal itself: the funnel's apex would lie inside it.
    if (before == on_portal || after == on_portal) continue;
    if (before == none) before = after == a ? b : a;
    if (after == none) after = before == a ? b : a;
    if (before != after) add(portal_[u], from, to);
  }
  return portals;
}

Primitives Quadtree::primitives() const {
  Primitives out;
  for (const QuadtreeLeaf& leaf : leaves_) {
    const Box b = leaf_box(leaf);
    Ring ring = {b.min, {b.max.x, b.min.y}, b.max, {b.min.x, b.max.y}};
    (leaf.free ? out.regions : out.blocked).push_back(std::move(ring));
  }
  return out;
}

}  // namespace polynav
