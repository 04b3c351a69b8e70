#include "polynav/discretise/waypoints/waypoint_graph.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <utility>

#include "polynav/discretise/method.hpp"
#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/number.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string point_text(Point p) {
  return "(" + shortest_text(p.x) + ", " + shortest_text(p.y) + ")";
}

// "1.7 KiB", "48 MiB": sizes for people.
std::string bytes_text(std::size_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  const char* units[] = {"KiB", "MiB", "GiB"};
  double v = double(bytes) / 1024.0;
  int u = 0;
  while (v >= 1024.0 && u < 2) {
    v /= 1024.0;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, v < 10.0 ? "%.1f %s" : "%.0f %s", v, units[u]);
  return text;
}

std::string ms_text(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, ms < 10.0 ? "%.2f ms" : "%.0f ms", ms);
  return text;
}

// Whether Floyd-Warshall is expected to build the table faster than Dijkstra from every node.
// Its n^3 inner loop is a regular pass over two rows (about 0.5 ns a step while the table fits in
// the cache, under 256 nodes), against n searches of about (n + m) log n heap steps of about 1 ns.
// Measured on the corner graphs of the bundled scenes: Floyd-Warshall 2 ms against 6 ms at 131
// nodes and 2,070 arcs, 4 ms against 6 ms at 187 nodes and 3,412 arcs; Dijkstra 0.13 ms against
// 0.19 ms on a sparse graph of 80 nodes and 390 arcs, and 31 ms against 50 ms at 324 nodes, whose
// table no longer fits in the cache.
bool prefer_floyd_warshall(std::size_t nodes, std::size_t arcs) {
  if (nodes > 256) return false;
  const double n = double(nodes);
  return n * n <= 2.0 * (double(arcs) + n) * std::log2(n + 1.0);
}

// The table of n nodes before any route is known: every cost infinite, every hop none.
RouteTable unreached(std::size_t n) {
  RouteTable table;
  table.nodes = n;
  table.cost.assign(n * n, inf);
  table.next.assign(n * n, search::no_node);
  return table;
}

}  // namespace

RouteTable all_pairs_dijkstra(const search::CsrGraph& graph, const BuildClock* clock) {
  const std::size_t n = graph.node_count();
  RouteTable table = unreached(n);
  // Lazy deletion: an entry whose cost is above the node's settled cost is skipped. The heap
  // holds at most one entry per arc relaxed.
  using Entry = std::pair<double, search::NodeId>;
  std::vector<Entry> heap;
  std::vector<std::uint8_t> done(n);
  for (search::NodeId s = 0; s < n; ++s) {
    if (clock != nullptr && (s & 63) == 0) clock->check("the waypoints' route table");
    double* cost = table.cost.data() + std::size_t(s) * n;
    search::NodeId* hop = table.next.data() + std::size_t(s) * n;
    std::fill(done.begin(), done.end(), 0);
    heap.clear();
    cost[s] = 0.0;
    heap.push_back({0.0, s});
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<>());
      // Named, not structured bindings: lambdas below use them (clang 14 cannot capture those).
      const double d = heap.back().first;
      const search::NodeId u = heap.back().second;
      heap.pop_back();
      if (done[u]) continue;
      done[u] = 1;
      // The first hop towards u is final once u is settled: the node itself when its parent is
      // the source, else its parent's.
      const search::NodeId first = u == s ? search::no_node : hop[u];
      graph.for_each_neighbour(u, [&](search::NodeId v, double c) {
        const double through = d + c;
        if (done[v] || !(through < cost[v])) return;
        cost[v] = through;
        hop[v] = u == s ? v : first;
        heap.push_back({through, v});
        std::push_heap(heap.begin(), heap.end(), std::greater<>());
      });
    }
  }
  return table;
}

RouteTable all_pairs_floyd_warshall(const search::CsrGraph& graph, const BuildClock* clock) {
  const std::size_t n = graph.node_count();
  RouteTable table = unreached(n);
  double* cost = table.cost.data();
  search::NodeId* next = table.next.data();
  for (search::NodeId u = 0; u < n; ++u) {
    graph.for_each_neighbour(u, [&](search::NodeId v, double c) {
      const std::size_t uv = std::size_t(u) * n + v;
      if (u != v && c < cost[uv]) {
        cost[uv] = c;
        next[uv] = v;
      }
    });
    cost[std::size_t(u) * n + u] = 0.0;
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (clock != nullptr && (k & 63) == 0) clock->check("the waypoints' route table");
    const double* via = cost + k * n;
    for (std::size_t i = 0; i < n; ++i) {
      const double to_k = cost[i * n + k];
      if (to_k == inf || i == k) continue;
      double* row = cost + i * n;
      search::NodeId* row_next = next + i * n;
      const search::NodeId first = row_next[k];
      for (std::size_t j = 0; j < n; ++j) {
        const double through = to_k + via[j];
        if (through < row[j]) {
          row[j] = through;
          row_next[j] = first;
        }
      }
    }
  }
  return table;
}

WaypointGraph::WaypointGraph(const FreeSpace& space, WaypointOptions options)
    : space_(&space), options_(options) {
  const auto t0 = Clock::now();
  const BuildClock clock(options_.max_build_seconds);
  const std::optional<Waypoints>& given = space.waypoints();
  if (options_.source == WaypointSource::scene && !given)
    throw InputError({"", 0, 0, "waypoints.source"},
                     "waypoints.source=scene needs a scene with a `waypoints` key, and this one "
                     "has none: place waypoints in the scene (docs/scene-format.md), or generate "
                     "them with waypoints.source=corners (auto does so when the scene has none)");
  stats_.from_scene = options_.source != WaypointSource::corners && given.has_value();

  const std::size_t count = stats_.from_scene ? given->points.size() : space.corners().size();
  if (count > options_.max_nodes)
    throw InputError({"", 0, 0, "waypoints.max_nodes"},
                     "the waypoint graph would have " + std::to_string(count) +
                         " waypoints, more than the budget of " +
                         std::to_string(options_.max_nodes) +
                         "; linking them tests every pair for line of sight: raise the budget "
                         "with --set waypoints.max_nodes=N, or use --method navmesh for scenes "
                         "this large");

  if (stats_.from_scene) {
    // Where blocked parts touch at a point, free space has several sectors there and a turn from
    // one to another slips through the gap; a node cannot tell which sector a route arrives in,
    // so a waypoint there is refused (unless gaps are open, when such turns are allowed). The
    // boundary rings pass through such a point once per free sector.
    std::vector<Point> vertices;
    if (!space.open_gaps())
      for (const BoundaryRing& ring : space.boundary())
        vertices.insert(vertices.end(), ring.points.begin(), ring.points.end());
    const auto less = [](Point a, Point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); };
    std::sort(vertices.begin(), vertices.end(), less);
    for (std::size_t i = 0; i < given->points.size(); ++i) {
      const Point p = given->points[i];
      InputLocation where = given->point_where[i];
      if (where.key_path.empty()) where.key_path = "waypoints.points[" + std::to_string(i) + "]";
      if (!space.is_free(p))
        throw InputError(where, "waypoint " + std::to_string(i) + " " + point_text(p) +
                                    " is not in free space: it lies " + space.explain_blocked(p) +
                                    "; a waypoint must be a place the agent can stand");
      const auto [lo, hi] = std::equal_range(vertices.begin(), vertices.end(), p, less);
      if (hi - lo > 1)
        throw InputError(where, "waypoint " + std::to_string(i) + " " + point_text(p) +
                                    " lies where blocked parts touch (a gap of zero width), and a "
                                    "route turning there could slip through the gap: move it off "
                                    "that point (or open gaps with --set space.gaps=open)");
      nodes_.push_back(p);
    }
  } else {
    for (const Corner& c : space.corners()) {
      nodes_.push_back(c.at);
      before_.push_back(c.before);
      after_.push_back(c.after);
    }
  }
  component_.reserve(nodes_.size());
  for (const Point& p : nodes_) {
    const std::vector<std::uint32_t> in = space.components(p);
    component_.push_back(in.size() == 1 ? in[0] : search::ComponentLabels::no_component);
  }
  min_cost_ = space.min_cost();

  std::vector<search::Edge> edges;
  stats_.links_given = stats_.from_scene && given->links_given;
  if (stats_.links_given) {
    link_scene(clock, edges);
  } else {
    link_visible(clock, edges);
  }
  clock.check("the waypoint graph");
  graph_ = search::CsrGraph(nodes_.size(), edges, search::Direction::directed);
  if (!directed_) components_ = search::ComponentLabels(graph_);
  stats_.graph_ms = ms_since(t0);
  // Positions, components, the corners' wedges, the CSR offsets and arcs.
  stats_.graph_bytes = nodes_.size() * (sizeof(Point) + 3 * sizeof(std::uint32_t)) +
                       2 * before_.size() * sizeof(Point) + sizeof(std::uint32_t) +
                       graph_.arc_count() * sizeof(search::Arc);

  if (nodes_.size() <= options_.max_table_nodes && !nodes_.empty()) {
    const auto t1 = Clock::now();
    stats_.floyd_warshall = prefer_floyd_warshall(nodes_.size(), graph_.arc_count());
    table_ = stats_.floyd_warshall ? all_pairs_floyd_warshall(graph_, &clock)
                                   : all_pairs_dijkstra(graph_, &clock);
    stats_.table = true;
    stats_.table_ms = ms_since(t1);
    stats_.table_bytes = table_.bytes();
  }
}

bool WaypointGraph::enters_well(search::NodeId n, Point other) const {
  // With open gaps a turn only needs both of its directions free, which the segments are.
  if (before_.empty() || space_->open_gaps()) return true;
  // The blocked wedge of a corner is narrower than 180 degrees: the directions left of the ray
  // to `before` and right of the ray to `after`. A route leaving or entering through it could
  // only do so where blocked parts touch at the corner, and would slip between them.
  const Point at = nodes_[n];
  return !(exact::orientation(at, before_[n], other) > 0 &&
           exact::orientation(at, after_[n], other) < 0);
}

void WaypointGraph::link_scene(const BuildClock& clock, std::vector<search::Edge>& edges) {
  const FreeSpace& space = *space_;
  const Waypoints& given = *space.waypoints();
  if (given.links.size() > options_.max_links)
    throw InputError({"", 0, 0, "waypoints.max_links"},
                     "the scene gives " + std::to_string(given.links.size()) +
                         " links, more than the budget of " + std::to_string(options_.max_links) +
                         "; raise it with --set waypoints.max_links=N");
  for (std::size_t k = 0; k < given.links.size(); ++k) {
    if ((k & 255) == 0) clock.check("the waypoint graph");
    const std::uint32_t i = given.links[k][0], j = given.links[k][1];
    const Point a = nodes_[i], b = nodes_[j];
    const auto refuse = [&](const std::string& why) {
      InputLocation where = given.link_where[k];
      if (where.key_path.empty()) where.key_path = "waypoints.links[" + std::to_string(k) + "]";
      throw InputError(where, "the link from waypoint " + std::to_string(i) + " " + point_text(a) +
                                  " to waypoint " + std::to_string(j) + " " + point_text(b) +
                                  " is not a valid motion: " + why);
    };
    if (!space.line_of_sight(a, b))
      refuse(
          "the straight segment between them leaves free space (it crosses an obstacle or the "
          "bounds, or passes within the agent's radius of one)");
    const bool forward = space.climbable(a, b), backward = space.climbable(b, a);
    if (!forward && !backward)
      refuse("it steps up more than the agent's max_climb " +
             shortest_text(space.agent().max_climb) + " in both directions");
    // A link the agent can only go down is kept one way: it is a valid motion that way.
    if (forward) edges.push_back({i, j, space.segment_cost(a, b)});
    if (backward) edges.push_back({j, i, space.segment_cost(b, a)});
    directed_ = directed_ || !(forward && backward);
    ++stats_.links;
  }
}

void WaypointGraph::link_visible(const BuildClock& clock, std::vector<search::Edge>& edges) {
  const FreeSpace& space = *space_;
  const bool heights = space.has_heights() && std::isfinite(space.agent().max_climb);
  const auto n = search::NodeId(nodes_.size());
  const auto budget = [&] {
    throw InputError({"", 0, 0, "waypoints.max_links"},
                     "the waypoint graph would have more than " +
                         std::to_string(options_.max_links) + " links (every two of its " +
                         std::to_string(nodes_.size()) +
                         " waypoints that see each other are linked): raise the budget with "
                         "--set waypoints.max_links=N, or give the scene's waypoints links:");
  };
  for (search::NodeId u = 0; u < n; ++u) {
    clock.check("the waypoint graph");
    for (search::NodeId w = u + 1; w < n; ++w) {
      const std::uint32_t cu = component_[u], cw = component_[w];
      if (cu != cw && cu != search::ComponentLabels::no_component &&
          cw != search::ComponentLabels::no_component)
        continue;
      const Point a = nodes_[u], b = nodes_[w];
      if (!enters_well(u, b) || !enters_well(w, a) || !space.line_of_sight(a, b)) continue;
      const bool forward = !heights || space.climbable(a, b);
      const bool backward = !heights || space.climbable(b, a);
      if (!forward && !backward) continue;
      if (++stats_.links > options_.max_links) budget();
      if (!heights) {
        const double c = space.segment_cost(a, b);
        edges.push_back({u, w, c});
        edges.push_back({w, u, c});
        continue;
      }
      if (forward) edges.push_back({u, w, space.segment_cost(a, b)});
      if (backward) edges.push_back({w, u, space.segment_cost(b, a)});
      directed_ = directed_ || !(forward && backward);
    }
  }
}

std::optional<double> WaypointGraph::attachment(search::NodeId n, Point p,
                                                AttachDirection direction,
                                                std::span<const std::uint32_t> in) const {
  const std::uint32_t c = component_[n];
  if (c != search::ComponentLabels::no_component && std::find(in.begin(), in.end(), c) == in.end())
    return std::nullopt;
  const Point q = nodes_[n];
  if (!enters_well(n, p)) return std::nullopt;
  if (direction == AttachDirection::from_point) {
    if (!space_->traversable(p, q)) return std::nullopt;
    return space_->segment_cost(p, q);
  }
  if (!space_->traversable(q, p)) return std::nullopt;
  return space_->segment_cost(q, p);
}

void WaypointGraph::attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const {
  out.clear();
  const std::vector<std::uint32_t> in = space_->components(p);
  for (search::NodeId n = 0; n < nodes_.size(); ++n)
    if (const std::optional<double> cost = attachment(n, p, direction, in))
      out.push_back({n, *cost});
}

std::string WaypointGraph::unattached_reason(std::string_view which) const {
  return "no_path: the " + std::string(which) + " sees no " +
         (stats_.from_scene ? "waypoint" : "corner of free space") +
         " and the goal is not in line of sight";
}

std::optional<double> WaypointGraph::direct_cost(Point start, Point goal) const {
  if (space_->weighted() || !space_->traversable(start, goal)) return std::nullopt;
  return space_->segment_cost(start, goal);
}

std::string WaypointGraph::summary() const {
  std::string s =
      std::to_string(nodes_.size()) +
      (stats_.from_scene ? " waypoints (the scene's), "
                         : " waypoints (the corners of free space), ") +
      std::to_string(stats_.links) + " links" +
      (stats_.from_scene ? (stats_.links_given ? " (the scene's)" : " (line of sight)") : "") +
      (directed_ ? ", some one way" : "") + ": " + bytes_text(stats_.graph_bytes) + ", " +
      ms_text(stats_.graph_ms) + "; ";
  if (stats_.table) {
    s += "all pairs precomputed (" +
         std::string(stats_.floyd_warshall ? "Floyd-Warshall" : "Dijkstra from every waypoint") +
         "): " + bytes_text(stats_.table_bytes) + ", " +
         bytes_text(nodes_.empty() ? 0 : stats_.table_bytes / nodes_.size()) + " per waypoint, " +
         ms_text(stats_.table_ms);
  } else if (nodes_.empty()) {
    s += "no waypoints: only straight segments";
  } else {
    s += "searched by A* per query (more than waypoints.max_table_nodes = " +
         std::to_string(options_.max_table_nodes) + " waypoints to precompute)";
  }
  return s;
}

Primitives WaypointGraph::primitives() const {
  Primitives out;
  for (search::NodeId u = 0; u < nodes_.size(); ++u)
    for (const search::Arc& a : graph_.arcs(u)) {
      // An arc both ways is drawn once.
      bool both = false;
      if (a.to < u) {
        for (const search::Arc& back : graph_.arcs(a.to)) both = both || back.to == u;
        if (both) continue;
      }
      out.arcs.push_back({nodes_[u], nodes_[a.to]});
    }
  out.nodes = nodes_;
  return out;
}

namespace {

// The `waypoints` method: the route table where there is one, else A* over the graph.
class WaypointMethod final : public Method {
 public:
  WaypointMethod(const FreeSpace& space, const WaypointOptions& options) : graph_(space, options) {}

  const Discretisation& discretisation() const override { return graph_; }

  void prepare(QueryWorkspace& workspace) const override {
    if (!graph_.has_table()) {
      Method::prepare(workspace);
      return;
    }
    workspace.state<NearestFirst>().heap.reserve(graph_.node_count());
  }

  RawPath find_path(Point start, Point goal, const QueryOptions& options,
                    QueryWorkspace& workspace) const override {
    std::size_t reached = 0;
    return answer(start, std::span(&goal, 1), options, workspace, reached);
  }

  RawPath find_path_to_any(Point start, std::span<const Point> goals, const QueryOptions& options,
                           QueryWorkspace& workspace, std::size_t& reached_goal) const override {
    reached_goal = goals.size();
    if (goals.empty()) {
      RawPath out = empty();
      out.message = "the goal set is empty";
      return out;
    }
    return answer(start, goals, options, workspace, reached_goal);
  }

  Reach reach(Point from, double max_cost, QueryWorkspace& workspace) const override {
    return polynav::reach(graph_, from, max_cost, workspace);
  }

 private:
  // The straight segment from the start to each goal, when it is a valid motion.
  struct Direct {
    std::vector<std::optional<double>> cost;
  };

  RawPath empty() const {
    RawPath out;
    out.method = graph_.method();
    return out;
  }

  RawPath answer(Point start, std::span<const Point> goals, const QueryOptions& options,
                 QueryWorkspace& ws, std::size_t& reached_goal) const {
    const auto t0 = Clock::now();
    RawPath out = empty();
    reached_goal = goals.size();
    if (graph_.has_table() && goals.size() == 1 &&
        nearest_first(start, goals[0], options, ws, out)) {
      reached_goal = out.status == search::SearchStatus::found ? 0 : 1;
      finish(goals, 0, out);
      out.stats.elapsed = Clock::now() - t0;
      return out;
    }
    out = empty();
    const FreeSpace& space = graph_.space();
    std::vector<std::optional<double>>& direct = ws.state<Direct>().cost;
    direct.assign(goals.size(), std::nullopt);
    bool any_direct = false;
    for (std::size_t i = 0; i < goals.size(); ++i) {
      if (!space.traversable(start, goals[i])) continue;
      direct[i] = space.segment_cost(start, goals[i]);
      any_direct = true;
    }
    const auto refuse = [&](search::SearchStatus status, std::string message) {
      out.status = status;
      out.message = std::move(message);
      out.stats.elapsed = Clock::now() - t0;
      return out;
    };
    graph_.attach(start, AttachDirection::from_point, ws.from);
    if (ws.from.empty() && !any_direct)
      return refuse(graph_.unattached_status(), graph_.unattached_reason("start"));
    ws.goal_arcs.resize(goals.size());
    bool any_goal = any_direct;
    for (std::size_t i = 0; i < goals.size(); ++i) {
      graph_.attach(goals[i], AttachDirection::to_point, ws.goal_arcs[i]);
      any_goal = any_goal || !ws.goal_arcs[i].empty();
    }
    if (!any_goal) return refuse(graph_.unattached_status(), graph_.unattached_reason("goal"));
    if (!any_direct && !shares_component(ws))
      return refuse(search::SearchStatus::no_path,
                    goals.size() == 1
                        ? "no_path: start and goal attach to different connected components of "
                          "the waypoint graph"
                        : "no_path: no goal of the set is reachable from the start");

    if (graph_.has_table()) {
      reached_goal = from_table(start, goals, direct, options, ws, out);
      out.stats.elapsed = Clock::now() - t0;
      if (out.status == search::SearchStatus::found || !options.search.partial_fallback) return out;
      // Only a search knows which reached node is closest to the goals.
      out = empty();
    }
    reached_goal = detail::search_to_goals(graph_, start, goals, direct, options, ws, out);
    finish(goals, reached_goal, out);
    out.stats.elapsed = Clock::now() - t0;
    return out;
  }

  // A path found from a point to itself is still a segment, as the driver's straight answer is.
  static void finish(std::span<const Point> goals, std::size_t reached, RawPath& out) {
    if (out.status == search::SearchStatus::found && out.points.size() == 1)
      out.points.push_back(goals[reached]);
  }

  // Whether some goal attachment shares a component with some start attachment (true where the
  // graph has no component labels).
  bool shares_component(const QueryWorkspace& ws) const {
    const search::ComponentLabels* labels = graph_.components();
    if (labels == nullptr) return true;
    for (const std::vector<Attachment>& to : ws.goal_arcs)
      for (const Attachment& a : ws.from)
        for (const Attachment& b : to)
          if (labels->same_component(a.node, b.node)) return true;
    return false;
  }

  // The nodes in order of a lower bound on a route through them (a heap, popped as needed), and
  // the attachments found so far at each end.
  struct NearestFirst {
    std::vector<std::pair<double, search::NodeId>> heap;
    std::vector<Attachment> from, to;
  };

  // The table's answer to a single goal, attaching the ends only to nodes through which a route
  // could still win: every route through node v costs at least m (|start v| + |v goal|) for the
  // cheapest cost multiplier m (each arc and attachment costs at least m times its length). Nodes
  // are taken in order of that bound, the straight segment (when valid) the first best, and the
  // scan stops where the bound reaches the best route so far. Each node is tried as a start and
  // as a goal attachment; a new one is paired with the other end's found so far, so every pair
  // both of whose nodes lie below the final best is read once: the same minimum as from_table
  // over all attachments, with line-of-sight tests only inside the ellipse the best route bounds.
  // Returns false, leaving the reason to the full attachment, when no route is found.
  bool nearest_first(Point start, Point goal, const QueryOptions& options, QueryWorkspace& ws,
                     RawPath& out) const {
    const FreeSpace& space = graph_.space();
    const RouteTable& table = graph_.table();
    const double cheapest = space.min_cost() * (1.0 - 1e-12);
    const std::size_t n = graph_.node_count();
    NearestFirst& s = ws.state<NearestFirst>();
    s.heap.clear();
    s.from.clear();
    s.to.clear();
    for (search::NodeId v = 0; v < n; ++v) {
      const Point at = graph_.node_position(v);
      s.heap.push_back({cheapest * (distance(start, at) + distance(at, goal)), v});
    }
    const auto later = std::greater<>();
    std::make_heap(s.heap.begin(), s.heap.end(), later);
    const std::vector<std::uint32_t> from_in = space.components(start);
    const std::vector<std::uint32_t> to_in = space.components(goal);

    double best = inf;
    bool straight = false;
    search::NodeId first = search::no_node, last = search::no_node;
    if (space.traversable(start, goal)) {
      best = space.segment_cost(start, goal);
      straight = true;
    }
    const auto consider = [&](const Attachment& a, const Attachment& b) {
      const Point pa = graph_.node_position(a.node), pb = graph_.node_position(b.node);
      if (a.cost + b.cost + cheapest * distance(pa, pb) >= best) return;
      const double c = a.cost + table.at(a.node, b.node) + b.cost;
      if (c < best) {
        best = c;
        straight = false;
        first = a.node;
        last = b.node;
      }
    };
    while (!s.heap.empty() && s.heap.front().first < best) {
      std::pop_heap(s.heap.begin(), s.heap.end(), later);
      const search::NodeId v = s.heap.back().second;
      s.heap.pop_back();
      const Point at = graph_.node_position(v);
      if (const std::optional<double> c =
              graph_.attachment(v, start, AttachDirection::from_point, from_in);
          c && *c + cheapest * distance(at, goal) < best) {
        const Attachment a{v, *c};
        s.from.push_back(a);
        for (const Attachment& b : s.to) consider(a, b);
      }
      if (const std::optional<double> c =
              graph_.attachment(v, goal, AttachDirection::to_point, to_in);
          c && *c + cheapest * distance(start, at) < best) {
        const Attachment b{v, *c};
        s.to.push_back(b);
        for (const Attachment& a : s.from) consider(a, b);
      }
    }
    if (!straight && first == search::no_node) return false;
    if (best > options.search.max_cost) {
      if (options.search.partial_fallback) return false;
      out.status = search::SearchStatus::limit_reached;
      out.message = search::limit_reached_explanation(search::SearchLimit::cost,
                                                      options.search.max_cost, out.stats);
      return true;
    }
    out.status = search::SearchStatus::found;
    out.graph_cost = best;
    if (!straight) {
      for (search::NodeId v = first;; v = table.hop(v, last)) {
        out.nodes.push_back(v);
        if (v == last) break;
      }
    }
    detail::trace_points(graph_, start, goal, ws, out);
    return true;
  }

  // The start's attachments in order of a lower bound on any route through them.
  struct Order {
    std::vector<std::pair<double, std::uint32_t>> keys;
  };

  // The cheapest of the straight segments and c(start, a) + D(a, b) + c(b, goal) over the
  // attachments, its route read from the next hops; returns the goal reached.
  //
  // A table read is a cache miss on large tables, so pairs that cannot win are skipped without
  // one: D(a, b) is at least the distance from a to b times the cheapest cost multiplier (every
  // arc costs at least that), and so is the rest of the way to a goal. Starts are tried in order
  // of that bound, and the scan stops at the first whose bound reaches the best so far. The bounds
  // are shrunk by far more than rounding, so that they never exceed what they bound.
  std::size_t from_table(Point start, std::span<const Point> goals,
                         std::span<const std::optional<double>> direct, const QueryOptions& options,
                         QueryWorkspace& ws, RawPath& out) const {
    const RouteTable& table = graph_.table();
    const double slack = 1.0 - 1e-12;
    const double cheapest = graph_.space().min_cost() * slack;
    double best = inf;
    std::size_t goal = goals.size();
    search::NodeId first = search::no_node, last = search::no_node;
    // The straight segment first, so that it wins ties: it is the simpler path.
    for (std::size_t i = 0; i < goals.size(); ++i)
      if (direct[i] && *direct[i] < best) {
        best = *direct[i];
        goal = i;
      }
    std::vector<std::pair<double, std::uint32_t>>& order = ws.state<Order>().keys;
    order.clear();
    for (std::uint32_t k = 0; k < ws.from.size(); ++k) {
      const Point at = graph_.node_position(ws.from[k].node);
      double rest = inf;
      for (const Point& g : goals) rest = std::min(rest, distance(at, g));
      order.push_back({ws.from[k].cost + cheapest * rest, k});
    }
    std::sort(order.begin(), order.end());
    for (const auto& [bound, k] : order) {
      if (bound >= best) break;
      const Attachment& a = ws.from[k];
      const Point at = graph_.node_position(a.node);
      const double* row = table.cost.data() + std::size_t(a.node) * table.nodes;
      for (std::size_t i = 0; i < goals.size(); ++i) {
        if (a.cost + cheapest * distance(at, goals[i]) >= best) continue;
        for (const Attachment& b : ws.goal_arcs[i]) {
          if (a.cost + b.cost + cheapest * distance(at, graph_.node_position(b.node)) >= best)
            continue;
          const double c = a.cost + row[b.node] + b.cost;
          if (c < best) {
            best = c;
            goal = i;
            first = a.node;
            last = b.node;
          }
        }
      }
    }
    if (goal == goals.size()) {
      out.status = search::SearchStatus::no_path;
      out.message = goals.size() == 1
                        ? "no_path: no route through the waypoint graph joins the start to the goal"
                        : "no_path: no goal of the set is reachable from the start";
      return goals.size();
    }
    if (best > options.search.max_cost) {
      out.status = search::SearchStatus::limit_reached;
      out.message = search::limit_reached_explanation(search::SearchLimit::cost,
                                                      options.search.max_cost, out.stats);
      return goals.size();
    }
    out.status = search::SearchStatus::found;
    out.graph_cost = best;
    if (first != search::no_node) {
      for (search::NodeId n = first;; n = table.hop(n, last)) {
        out.nodes.push_back(n);
        if (n == last) break;
      }
    }
    detail::trace_points(graph_, start, goals[goal], ws, out);
    finish(goals, goal, out);
    return goal;
  }

  WaypointGraph graph_;
};

}  // namespace

std::unique_ptr<Method> make_waypoint_method(const FreeSpace& space,
                                             const WaypointOptions& options) {
  return std::make_unique<WaypointMethod>(space, options);
}

}  // namespace polynav
