#include "polynav/discretise/hybrid/hybrid_astar.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "polynav/error.hpp"
#include "polynav/number.hpp"
#include "polynav/search/budget.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

using curves::Pose;
using curves::Steer;
constexpr double pi = std::numbers::pi;

[[noreturn]] void refuse(const char* option, const std::string& what) {
  throw InputError({"", 0, 0, std::string("hybrid.") + option}, what);
}

// Far above the rounding of the arcs' construction (about 1e-16 of the coordinates per
// operation), far below anything a scene resolves: how much a checked triangle is grown.
double margin_at(Point p, double r) {
  return 1e-10 * (std::abs(p.x) + std::abs(p.y) + r + 1.0);
}

// Whether the arc piece from a to b (radius r, turning through `angle` < 90 degrees about the
// centre c) lies in free space: the triangle of its ends and the intersection of its end
// tangents, its sides moved outwards by `margin`, is free (FreeSpace::classify, exact). Nearly
// straight pieces use the rectangle over the chord as high as that triangle instead.
bool piece_is_free(const FreeSpace& space, Point a, Point b, Point c, double angle, double margin) {
  const Point chord = b - a;
  const double length = norm(chord);
  if (!(length > 0)) return space.is_free(a);
  const Point u = (1.0 / length) * chord;
  Point n{-u.y, u.x};  // towards the bulge: away from the centre
  const Point mid = 0.5 * (a + b);
  const bool left_bulge = dot(n, mid - c) > 0;
  if (!left_bulge) n = -1.0 * n;
  const double half = 0.5 * angle;
  const double height = 0.5 * length * std::tan(half);
  const auto at = [&](double x, double y) { return a + x * u + y * n; };
  std::array<Point, 4> corners;
  std::size_t count = 0;
  if (half < 1e-3) {
    corners = {at(-margin, -margin), at(length + margin, -margin),
               at(length + margin, height + margin), at(-margin, height + margin)};
    count = 4;
  } else {
    const double reach = margin * (1 + std::cos(half)) / std::sin(half);
    corners = {at(-reach, -margin), at(length + reach, -margin),
               at(0.5 * length, height + margin / std::cos(half)), Point{}};
    count = 3;
  }
  // Counter-clockwise: the local frame (u, n) is counter-clockwise when n is u's left normal.
  if (!left_bulge) std::reverse(corners.begin(), corners.begin() + std::ptrdiff_t(count));
  return space.classify(std::span<const Point>(corners.data(), count)) == BoxClass::free;
}

Point centre_of(Pose p, Steer s, double r) {
  return s == Steer::left ? Point{p.x - r * std::sin(p.theta), p.y + r * std::cos(p.theta)}
                          : Point{p.x + r * std::sin(p.theta), p.y - r * std::cos(p.theta)};
}

// The densified points of an arc driven from p, at most `spacing` apart, its pieces' ends among
// them: `pieces` pieces of `per_piece` sub-chords each.
struct ArcPlan {
  int pieces = 1;
  int per_piece = 1;
};
ArcPlan plan_arc(double length, double r, double spacing) {
  ArcPlan plan;
  const double angle = std::abs(length) / r;
  plan.pieces = std::max(1, int(std::ceil(angle / (pi / 4) - 1e-12)));
  const double piece = std::abs(length) / plan.pieces;
  // At most a million points a piece, however fine the spacing asked for.
  plan.per_piece = int(std::clamp(std::ceil(piece / spacing - 1e-12), 1.0, 1e6));
  return plan;
}

Pose arc_point(Pose p, Steer s, double length, double r, int j, int total) {
  return curves::advance(p, s, j == total ? length : length * double(j) / double(total), r);
}

}  // namespace

bool hybrid_arc_is_free(const FreeSpace& space, Pose p, Steer s, double length, double r,
                        double spacing, std::vector<Point>* samples,
                        std::vector<double>* headings) {
  if (s == Steer::straight) {
    const Pose e = curves::advance(p, s, length, r);
    if (samples) samples->push_back(e.at());
    if (headings) headings->push_back(curves::wrap_pi(e.theta));
    return space.line_of_sight(p.at(), e.at());
  }
  const ArcPlan plan = plan_arc(length, r, spacing);
  const int total = plan.pieces * plan.per_piece;
  const Point c = centre_of(p, s, r);
  const double margin = margin_at(p.at(), r);
  const double angle = std::abs(length) / r / plan.pieces;
  Point from = p.at();
  for (int k = 1; k <= plan.pieces; ++k) {
    const Pose to = arc_point(p, s, length, r, k * plan.per_piece, total);
    if (!piece_is_free(space, from, to.at(), c, angle, margin)) return false;
    from = to.at();
  }
  if (samples || headings) {
    for (int j = 1; j <= total; ++j) {
      const Pose q = arc_point(p, s, length, r, j, total);
      if (samples) samples->push_back(q.at());
      if (headings) headings->push_back(curves::wrap_pi(q.theta));
    }
  }
  return true;
}

HybridSettings resolve_hybrid(const FreeSpace& space, const HybridOptions& o) {
  HybridSettings s;
  const Box box = space.box();
  const double longest = std::max({box.max.x - box.min.x, box.max.y - box.min.y, 0.0});
  if (!(o.turning_radius >= 0) || !std::isfinite(o.turning_radius))
    refuse("turning_radius", "the minimum turning radius must be a finite number > 0 (or auto)");
  s.radius = o.turning_radius > 0 ? o.turning_radius : longest / 64;
  if (!(s.radius > 0)) s.radius = 1.0;  // free space without extent
  if (o.headings < 4 || o.headings > 3600)
    refuse("headings",
           "the number of heading bins must be 4 to 3600, found " + std::to_string(o.headings));
  s.headings = o.headings;
  if (!(o.step >= 0) || !std::isfinite(o.step))
    refuse("step", "the step length must be a finite number > 0 (or auto)");
  s.step = o.step > 0 ? o.step : s.radius * pi / 6;
  s.cell = s.step / 1.5;
  const double across = (box.max.x - box.min.x) / s.cell + 1,
               up = (box.max.y - box.min.y) / s.cell + 1;
  if (!(across * up <= double(max_hybrid_cells)))
    refuse("step", "the step " + shortest_text(s.step) +
                       " is too small for the scene: its cells (step / 1.5) would number " +
                       shortest_text(std::floor(across * up)) + ", more than " +
                       std::to_string(max_hybrid_cells) +
                       " (raise hybrid.step or hybrid.turning_radius)");
  if (!(o.spacing >= 0) || !std::isfinite(o.spacing))
    refuse("spacing", "the waypoint spacing must be a finite number > 0 (or auto)");
  s.spacing = o.spacing > 0 ? o.spacing : s.step / 4;
  if (!(o.reverse_penalty >= 1) || !std::isfinite(o.reverse_penalty))
    refuse("reverse_penalty", "the reverse penalty must be a finite number >= 1");
  s.reverse = o.motion == HybridMotion::reeds_shepp;
  s.reverse_penalty = o.reverse_penalty;
  const auto heading = [](double degrees, const char* name) {
    if (std::isnan(degrees)) return degrees;
    if (!std::isfinite(degrees)) refuse(name, "a heading must be finite degrees (or auto: any)");
    return curves::wrap_pi(degrees * pi / 180);
  };
  s.start_heading = heading(o.start_heading, "start_heading");
  s.goal_heading = heading(o.goal_heading, "goal_heading");
  if (!(o.heuristic_weight >= 1) || !std::isfinite(o.heuristic_weight))
    refuse("heuristic_weight", "the heuristic weight must be a finite number >= 1");
  s.heuristic_weight = o.heuristic_weight;
  if (o.max_expansions < 1) refuse("max_expansions", "the expansion budget must be at least 1");
  s.max_expansions = o.max_expansions;
  return s;
}

namespace {

// The lattice the registry's Discretisation stands for: no nodes of its own (states are made
// per query), nothing to attach.
class HybridLattice final : public Discretisation {
 public:
  HybridLattice(const FreeSpace& space, HybridSettings settings)
      : space_(&space), settings_(settings), origin_(space.box().min) {
    const Box box = space.box();
    nx_ = std::max(1, int(std::ceil((box.max.x - box.min.x) / settings_.cell)));
    ny_ = std::max(1, int(std::ceil((box.max.y - box.min.y) / settings_.cell)));
    open_.assign(std::size_t(nx_) * std::size_t(ny_), 0);
    for (int y = 0; y < ny_; ++y) {
      for (int x = 0; x < nx_; ++x) {
        // Grown a little, so that a free point anywhere in the closed cell makes it open.
        const double m = margin_at(box.max, settings_.cell) + margin_at(box.min, 0.0);
        const Box cell{
            {origin_.x + x * settings_.cell - m, origin_.y + y * settings_.cell - m},
            {origin_.x + (x + 1) * settings_.cell + m, origin_.y + (y + 1) * settings_.cell + m}};
        open_[std::size_t(y) * std::size_t(nx_) + std::size_t(x)] =
            space.classify(cell) != BoxClass::blocked;
      }
    }
  }
  int nx() const { return nx_; }
  int ny() const { return ny_; }
  /// The cell of p, clamped to the lattice.
  std::size_t cell_of(Point p) const {
    const int x = int(std::clamp(std::floor((p.x - origin_.x) / settings_.cell), 0.0, nx_ - 1.0));
    const int y = int(std::clamp(std::floor((p.y - origin_.y) / settings_.cell), 0.0, ny_ - 1.0));
    return std::size_t(y) * std::size_t(nx_) + std::size_t(x);
  }
  /// Whether some point of the closed cell may be free.
  bool open(std::size_t cell) const { return open_[cell] != 0; }
  std::string_view method() const override { return "hybrid"; }
  std::size_t node_count() const override { return 0; }
  Point node_position(search::NodeId) const override { return {}; }
  void attach(Point, AttachDirection, std::vector<Attachment>& out) const override { out.clear(); }
  std::string unattached_reason(std::string_view which) const override {
    return "the hybrid method attaches no " + std::string(which) + " to a graph";
  }
  std::string_view graph_noun() const override { return "hybrid state lattice"; }
  const search::ComponentLabels* components() const override { return nullptr; }
  Primitives primitives() const override { return {}; }
  std::string summary() const override {
    std::ostringstream s;
    s << "hybrid A* over (x, y, heading): turning radius " << shortest_text(settings_.radius)
      << ", step " << shortest_text(settings_.step) << ", cells " << shortest_text(settings_.cell)
      << ", " << settings_.headings << " heading bins, "
      << (settings_.reverse ? "forwards and backwards" : "forwards only");
    return s.str();
  }
  const FreeSpace& space() const { return *space_; }
  const HybridSettings& settings() const { return settings_; }

 private:
  const FreeSpace* space_;
  HybridSettings settings_;
  Point origin_;
  int nx_ = 1, ny_ = 1;
  std::vector<std::uint8_t> open_;  // per cell, row-major
};

struct Node {
  Pose pose;
  double g = 0.0;
  double f = 0.0;
  std::uint32_t parent = 0;
  Steer steer = Steer::straight;
  double length = 0.0;  // of the primitive from the parent (signed); 0 for a start state
  std::uint64_t key = 0;
  bool closed = false;
};

// One query's search state, kept in the workspace from query to query.
struct HybridState {
  std::vector<Node> nodes;
  std::unordered_map<std::uint64_t, std::uint32_t> index;
  std::vector<std::pair<double, std::uint32_t>> heap;  // min-heap on f, stale entries skipped
  std::vector<std::uint32_t> hops;  // per cell: 8-connected hops to a goal's cell
  std::vector<std::size_t> queue;
};

struct Shot {
  std::size_t goal = 0;
  std::vector<Point> points;  // after the state's own position, the goal last
  std::vector<double> headings;
  double cost = 0.0;
};

class HybridMethod final : public Method {
 public:
  HybridMethod(const FreeSpace& space, const HybridOptions& options)
      : lattice_(space, resolve_hybrid(space, options)) {}

  const Discretisation& discretisation() const override { return lattice_; }
  RawPath find_path(Point start, Point goal, const QueryOptions& options,
                    QueryWorkspace& workspace) const override {
    std::size_t reached = 0;
    return search(start, std::span<const Point>(&goal, 1), options, workspace, reached);
  }
  RawPath find_path_to_any(Point start, std::span<const Point> goals, const QueryOptions& options,
                           QueryWorkspace& workspace, std::size_t& reached_goal) const override {
    return search(start, goals, options, workspace, reached_goal);
  }
  Reach reach(Point, double, QueryWorkspace&) const override {
    Reach out;
    out.status = search::SearchStatus::invalid_query;
    out.message = "the hybrid method does not compute reachable sets (its states carry headings)";
    return out;
  }
  void prepare(QueryWorkspace& workspace) const override {
    HybridState& state = workspace.state<HybridState>();
    state.nodes.reserve(4096);
    state.index.reserve(4096);
    state.heap.reserve(4096);
  }

 private:
  const FreeSpace& space() const { return lattice_.space(); }
  const HybridSettings& settings() const { return lattice_.settings(); }

  std::uint64_t key_of(Pose p) const {
    const HybridSettings& s = settings();
    const Box box = space().box();
    const auto cell = [&](double v, double lo) {
      return std::uint64_t(std::clamp(std::floor((v - lo) / s.cell), -1.0, double(1 << 20)) + 1);
    };
    const double bin_width = 2 * pi / s.headings;
    const std::uint64_t bin = std::min<std::uint64_t>(
        std::uint64_t(curves::wrap_two_pi(p.theta) / bin_width), s.headings - 1);
    return (cell(p.x, box.min.x) << 42) | (cell(p.y, box.min.y) << 20) | bin;
  }

  // The curve from p to the goal pose (goal, heading) that the motion allows.
  std::optional<curves::Curve> curve_to(Pose p, Point goal, double heading) const {
    const Pose g{goal.x, goal.y, heading};
    const HybridSettings& s = settings();
    return s.reverse ? curves::shortest_reeds_shepp(p, g, s.radius, s.reverse_penalty)
                     : curves::shortest_dubins(p, g, s.radius);
  }

  double weighted_length(const curves::Curve& c) const {
    return curves::weighted_length(c, settings().reverse_penalty);
  }

  // Hops from every cell to the goals' cells through open cells, 8-connected (breadth first).
  // A path of length l visits, at points at most a cell side apart along it, a chain of at most
  // ceil(l / cell) + 1 open cells, consecutive ones 8-neighbours: so l >= (hops - 1) x cell, a
  // lower bound that sees walls (Dolgov et al.'s holonomic-with-obstacles heuristic, made
  // admissible). Unreachable cells keep the largest count: no path from there.
  void count_hops(std::span<const Point> goals, HybridState& st) const {
    const std::size_t cells = std::size_t(lattice_.nx()) * std::size_t(lattice_.ny());
    st.hops.assign(cells, std::numeric_limits<std::uint32_t>::max());
    st.queue.clear();
    for (const Point& g : goals) {
      const std::size_t c = lattice_.cell_of(g);
      if (st.hops[c] == 0) continue;
      st.hops[c] = 0;
      st.queue.push_back(c);
    }
    const int nx = lattice_.nx(), ny = lattice_.ny();
    for (std::size_t head = 0; head < st.queue.size(); ++head) {
      const std::size_t c = st.queue[head];
      const int x = int(c % std::size_t(nx)), y = int(c / std::size_t(nx));
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const int u = x + dx, v = y + dy;
          if ((dx == 0 && dy == 0) || u < 0 || v < 0 || u >= nx || v >= ny) continue;
          const std::size_t n = std::size_t(v) * std::size_t(nx) + std::size_t(u);
          if (!lattice_.open(n) || st.hops[n] != std::numeric_limits<std::uint32_t>::max())
            continue;
          st.hops[n] = st.hops[c] + 1;
          st.queue.push_back(n);
        }
      }
    }
  }

  double heuristic(Pose p, std::span<const Point> goals, const HybridState& st) const {
    const double min_cost = space().min_cost();
    const std::uint32_t hops = st.hops[lattice_.cell_of(p.at())];
    if (hops == std::numeric_limits<std::uint32_t>::max())
      return std::numeric_limits<double>::infinity();
    const double around = hops > 1 ? min_cost * (hops - 1) * settings().cell : 0.0;
    double best = std::numeric_limits<double>::infinity();
    const HybridSettings& s = settings();
    // The Dubins distance bounds every forward path from below, the Reeds-Shepp distance every
    // path (obstacles only lengthen them); it is a lower bound on the cost where costs are
    // lengths, backward ones weighed at least as much.
    const bool exact = !std::isnan(s.goal_heading) && !space().weighted();
    for (const Point& g : goals) {
      double h = min_cost * quick_distance(p.at(), g);
      if (exact) {
        const Pose goal{g.x, g.y, s.goal_heading};
        if (const auto c = s.reverse ? curves::shortest_reeds_shepp(p, goal, s.radius)
                                     : curves::shortest_dubins(p, goal, s.radius))
          h = std::max(h, c->length());
      }
      best = std::min(best, h);
    }
    return std::max(best, around);
  }

  // Whether the curve c from p, ending exactly at goal, is free; its densified points into shot.
  bool curve_is_free(Pose p, const curves::Curve& c, Point goal, Shot& shot) const {
    const HybridSettings& s = settings();
    shot.points.clear();
    shot.headings.clear();
    Pose at = p;
    int last = c.count - 1;
    while (last > 0 && c.pieces[std::size_t(last)].length == 0.0) --last;
    for (int k = 0; k <= last; ++k) {
      const curves::Piece& piece = c.pieces[std::size_t(k)];
      if (piece.length == 0.0) continue;
      const Pose end = curves::advance(at, piece.steer, piece.length, s.radius);
      if (piece.steer == Steer::straight) {
        const Point to = k == last ? goal : end.at();
        if (k == last && distance(end.at(), goal) > margin_at(goal, s.radius) / 4) return false;
        if (!space().line_of_sight(at.at(), to)) return false;
        shot.points.push_back(to);
        shot.headings.push_back(curves::wrap_pi(end.theta));
      } else {
        if (!hybrid_arc_is_free(space(), at, piece.steer, piece.length, s.radius, s.spacing,
                                &shot.points, &shot.headings))
          return false;
        if (k == last) {
          if (distance(shot.points.back(), goal) > margin_at(goal, s.radius) / 4) return false;
          shot.points.back() = goal;
        }
      }
      at = end;
    }
    if (shot.points.empty() || !(shot.points.back() == goal)) {
      // A curve of no length: p is the goal pose.
      if (!(p.at() == goal)) return false;
    }
    if (!climbable(p.at(), shot.points)) return false;
    shot.cost = space().weighted() ? chord_cost(p.at(), shot.points) : weighted_length(c);
    return true;
  }

  bool climbable(Point from, const std::vector<Point>& points) const {
    if (!space().has_heights()) return true;
    for (const Point& q : points) {
      if (!space().climbable(from, q)) return false;
      from = q;
    }
    return true;
  }

  double chord_cost(Point from, const std::vector<Point>& points) const {
    double sum = 0.0;
    for (const Point& q : points) {
      sum += space().segment_cost(from, q);
      from = q;
    }
    return sum;
  }

  // Analytic expansion from p: the cheapest free curve to a goal, tried in order of cost.
  bool shoot(Pose p, std::span<const Point> goals, Shot& best) const {
    const HybridSettings& s = settings();
    struct Candidate {
      double cost;
      std::size_t goal;
      curves::Curve curve;
    };
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < goals.size(); ++i) {
      const Point g = goals[i];
      if (g == p.at() && (std::isnan(s.goal_heading) ||
                          std::abs(curves::wrap_pi(p.theta - s.goal_heading)) < 1e-12)) {
        candidates.push_back({0.0, i, curves::Curve{}});
        continue;
      }
      std::vector<double> headings;
      if (!std::isnan(s.goal_heading)) {
        headings.push_back(s.goal_heading);
      } else {
        const double towards = std::atan2(g.y - p.y, g.x - p.x);
        headings = {towards, p.theta, 2 * towards - p.theta};
      }
      for (const double h : headings)
        if (const auto c = curve_to(p, g, h)) candidates.push_back({weighted_length(*c), i, *c});
      if (std::isnan(s.goal_heading)) {
        // Any heading: a turn and then straight to the goal (which may lie on the boundary,
        // where no arc can end).
        for (const bool backwards : {false, true}) {
          if (backwards && !s.reverse) break;
          for (const curves::Curve& c : curves::arc_then_line(p, g, s.radius, backwards))
            candidates.push_back({weighted_length(c), i, c});
        }
      }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& a, const Candidate& b) { return a.cost < b.cost; });
    Shot shot;
    for (const Candidate& c : candidates) {
      if (curve_is_free(p, c.curve, goals[c.goal], shot)) {
        best = std::move(shot);
        best.goal = c.goal;
        return true;
      }
    }
    return false;
  }

  RawPath search(Point start, std::span<const Point> goals, const QueryOptions& options,
                 QueryWorkspace& ws, std::size_t& reached_goal) const {
    RawPath out;
    out.method = lattice_.method();
    out.method_has_corridors = out.has_corridor = false;
    reached_goal = goals.size();
    if (goals.empty()) {
      out.message = "the goal set is empty";
      return out;
    }
    const HybridSettings& s = settings();
    const search::SearchOptions& so = options.search;
    const double weight = so.weight * s.heuristic_weight;
    if (!(so.weight >= 1)) {
      out.message = "invalid query: heuristic weight " + shortest_text(so.weight) + " is not >= 1";
      return out;
    }
    const search::SearchBudget budget(so.max_cost, so.max_expansions, so.max_time, so.beam_width);
    {
      search::SearchResult check;
      if (!budget.valid(check)) {
        out.message = check.explanation();
        return out;
      }
    }
    HybridState& st = ws.state<HybridState>();
    st.nodes.clear();
    st.index.clear();
    st.heap.clear();
    count_hops(goals, st);
    const auto heap_less = [](const std::pair<double, std::uint32_t>& a,
                              const std::pair<double, std::uint32_t>& b) {
      return a.first > b.first;
    };
    const auto push = [&](std::uint32_t i) {
      st.heap.emplace_back(st.nodes[i].f, i);
      std::push_heap(st.heap.begin(), st.heap.end(), heap_less);
      ++out.stats.heap_pushes;
    };

    // Start states: the given heading, or every bin's centre and the heading towards the
    // nearest goal first (so that a goal in plain sight is reached straight).
    std::vector<double> start_headings;
    if (!std::isnan(s.start_heading)) {
      start_headings.push_back(s.start_heading);
    } else {
      Point nearest = goals.front();
      for (const Point& g : goals)
        if (distance(start, g) < distance(start, nearest)) nearest = g;
      if (!(nearest == start))
        start_headings.push_back(std::atan2(nearest.y - start.y, nearest.x - start.x));
      for (std::uint32_t k = 0; k < s.headings; ++k)
        start_headings.push_back(curves::wrap_pi((k + 0.5) * 2 * pi / s.headings));
    }
    for (const double heading : start_headings) {
      Node n;
      n.pose = {start.x, start.y, heading};
      n.key = key_of(n.pose);
      if (st.index.count(n.key)) continue;
      const double h = heuristic(n.pose, goals, st);
      if (!std::isfinite(h)) continue;
      n.f = weight * h;
      n.parent = std::uint32_t(st.nodes.size());
      st.index.emplace(n.key, std::uint32_t(st.nodes.size()));
      st.nodes.push_back(n);
      push(std::uint32_t(st.nodes.size() - 1));
    }

    constexpr std::array<Steer, 3> steers = {Steer::left, Steer::straight, Steer::right};
    std::uint64_t expanded = 0;
    std::uint64_t since_shot = 0;
    search::SearchLimit stop = search::SearchLimit::none;
    bool pruned = false, exhausted = false;
    std::optional<Shot> found;
    std::uint32_t found_from = 0;
    std::vector<Point> samples;
    while (!st.heap.empty()) {
      std::pop_heap(st.heap.begin(), st.heap.end(), heap_less);
      const auto [f, i] = st.heap.back();
      st.heap.pop_back();
      ++out.stats.heap_pops;
      if (st.nodes[i].closed || f != st.nodes[i].f) continue;
      if ((stop = budget.before_expansion(expanded)) != search::SearchLimit::none) break;
      if (expanded >= s.max_expansions) {
        exhausted = true;
        break;
      }
      st.nodes[i].closed = true;
      ++expanded;
      const Node node = st.nodes[i];
      if (options.record_expanded) out.expanded.push_back(node.pose.at());
      // Analytic expansion: at the start states, then more often as the goal nears.
      double nearest = std::numeric_limits<double>::infinity();
      for (const Point& g : goals) nearest = std::min(nearest, distance(node.pose.at(), g));
      const std::uint64_t period = std::uint64_t(std::clamp(nearest / (4 * s.step), 1.0, 10.0));
      if (node.length == 0.0 || ++since_shot >= period) {
        since_shot = 0;
        Shot shot;
        if (shoot(node.pose, goals, shot)) {
          found = std::move(shot);
          found_from = i;
          break;
        }
      }
      for (int direction = 1; direction >= (s.reverse ? -1 : 1); direction -= 2) {
        for (const Steer steer : steers) {
          const double length = direction * s.step;
          const Pose end = curves::advance(node.pose, steer, length, s.radius);
          const std::uint64_t key = key_of(end);
          if (key == node.key) continue;
          const auto it = st.index.find(key);
          if (it != st.index.end() && st.nodes[it->second].closed) continue;
          ++out.stats.generated;
          samples.clear();
          // Cost before the check where it needs no samples.
          double cost = s.step * (direction < 0 ? s.reverse_penalty : 1.0);
          if (!space().weighted()) {
            const double g2 = node.g + cost;
            if (it != st.index.end() && g2 >= st.nodes[it->second].g) continue;
          }
          const bool sampled = space().weighted() || space().has_heights();
          if (!hybrid_arc_is_free(space(), node.pose, steer, length, s.radius, s.spacing,
                                  sampled ? &samples : nullptr))
            continue;
          if (!climbable(node.pose.at(), samples)) continue;
          if (space().weighted())
            cost = chord_cost(node.pose.at(), samples) * (direction < 0 ? s.reverse_penalty : 1.0);
          const double g2 = node.g + cost;
          if (it != st.index.end() && g2 >= st.nodes[it->second].g) continue;
          const double h = heuristic(end, goals, st);
          if (!std::isfinite(h)) continue;
          if (budget.beyond_cost(g2 + h)) {
            pruned = true;
            continue;
          }
          Node next;
          next.pose = end;
          next.g = g2;
          next.f = g2 + weight * h;
          next.parent = i;
          next.steer = steer;
          next.length = length;
          next.key = key;
          std::uint32_t at;
          if (it != st.index.end()) {
            at = it->second;
            st.nodes[at] = next;
          } else {
            at = std::uint32_t(st.nodes.size());
            st.nodes.push_back(next);
            st.index.emplace(key, at);
          }
          push(at);
        }
      }
    }
    out.stats.expanded = expanded;
    out.stats.elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(budget.elapsed());
    const std::string radius = shortest_text(s.radius);
    if (!found) {
      if (stop != search::SearchLimit::none || (pruned && !exhausted)) {
        const search::SearchBudget::Ending e = budget.unreached(stop, pruned, false);
        out.status = e.status;
        out.message = e.status == search::SearchStatus::limit_reached
                          ? search::limit_reached_explanation(e.limit, e.limit_value, out.stats)
                          : "no_path: no path within the search's limits";
        if (e.status == search::SearchStatus::no_path) out.status = search::SearchStatus::no_path;
      } else {
        out.status = search::SearchStatus::no_path;
        out.message =
            exhausted
                ? "no_path: no path found within hybrid.max_expansions = " +
                      std::to_string(s.max_expansions) + " expanded states; the turning radius " +
                      radius + " may be too large for the scene's passages (or raise the budget)"
                : "no_path: every state reachable with the turning radius " + radius +
                      " was expanded without a free curve to the goal; the turning radius may "
                      "be too large for the scene's passages, or the lattice (hybrid.step) too "
                      "coarse";
      }
      return out;
    }
    // The path: the primitives from the start state to found_from, then the analytic curve.
    std::vector<std::uint32_t> chain;
    for (std::uint32_t k = found_from;; k = st.nodes[k].parent) {
      chain.push_back(k);
      if (st.nodes[k].length == 0.0) break;
    }
    std::reverse(chain.begin(), chain.end());
    const Node& first = st.nodes[chain.front()];
    out.points.push_back(start);
    out.headings.push_back(curves::wrap_pi(first.pose.theta));
    double cost = 0.0;
    for (std::size_t k = 1; k < chain.size(); ++k) {
      const Node& n = st.nodes[chain[k]];
      const Node& parent = st.nodes[n.parent];
      (void)hybrid_arc_is_free(space(), parent.pose, n.steer, n.length, s.radius, s.spacing,
                               &out.points, &out.headings);
      cost = n.g;
    }
    for (std::size_t k = 0; k < found->points.size(); ++k) {
      if (found->points[k] == out.points.back()) continue;
      out.points.push_back(found->points[k]);
      out.headings.push_back(found->headings[k]);
    }
    out.status = search::SearchStatus::found;
    out.graph_cost = cost + found->cost;
    reached_goal = found->goal;
    out.message = "turning radius " + radius + (s.reverse ? ", forwards and backwards" : "");
    return out;
  }

  HybridLattice lattice_;
};

}  // namespace

std::unique_ptr<Method> make_hybrid_method(const FreeSpace& space, const HybridOptions& options) {
  return std::make_unique<HybridMethod>(space, options);
}

}  // namespace polynav
