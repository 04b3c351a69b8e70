#include "polynav/discretise/navmesh/hierarchical_navmesh.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <unordered_map>

#include "polynav/error.hpp"
#include "polynav/kernel/memory.hpp"
#include "polynav/search/abstraction.hpp"
#include "polynav/search/graph.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr std::string_view what = "the hierarchical abstraction of the navigation mesh";

const NavMeshOptions& checked(const NavMeshOptions& options) {
  if (options.region < 1)
    throw InputError({"", 0, 0, "navmesh.region"},
                     "navmesh.region must be at least 1 (polygons per region of "
                     "navmesh.search=hierarchical), not " +
                         std::to_string(options.region));
  return options;
}

// What a query keeps between its steps, in the workspace.
struct Scratch {
  search::AStar local;  // the searches inside one region
  search::ReachableSet reach;
  search::SearchResult leg;
  // Arcs from the start node: to a transition or a goal node, found by searching from the
  // start's attachments in `region` (and, to a goal node, into goal attachment `into`; direct:
  // the straight segment, no nodes).
  // Kinds: searched from the start's attachments in `region`; the straight segment (start and
  // goal in one polygon, no nodes); a path already found (near[into]).
  enum class Kind : std::uint8_t { region, direct, found };
  struct StartArc {
    search::NodeId to;
    std::uint32_t region, into;
    double cost;
    Kind kind;
  };
  // Arcs into goal node `goal` from a transition, found by searching from that goal's
  // attachments in `region`.
  struct GoalArc {
    search::NodeId from;
    std::uint32_t goal, region;
    double cost;
  };
  std::vector<std::uint32_t> regions, start_regions, goal_regions;
  std::vector<search::NodeId> targets;
  // Paths found start to goal inside two regions (graph nodes, the start's attachment first).
  std::vector<std::vector<search::NodeId>> near;
  std::vector<StartArc> starts;
  std::vector<GoalArc> ends;
};

// Positions of the expanded transitions, for pictures.
struct TransitionRecorder {
  const HierarchicalNavMesh* h;
  std::vector<Point>* out;
  void examine(search::NodeId n) {
    if (n < h->transition_count()) out->push_back(h->node_position(h->transition_node(n)));
  }
  void relax(search::NodeId, search::NodeId, double) {}
  void finish(search::NodeId) {}
};

}  // namespace

HierarchicalNavMesh::HierarchicalNavMesh(const FreeSpace& space, const NavMeshOptions& options)
    : clock_(options.max_build_seconds),
      mesh_(space, checked(options)),
      every_crossing_(options.transitions == NavMeshTransitions::all) {
  if (mesh_.node_count() > 0 && mesh_.components() == nullptr)
    throw InputError({"", 0, 0, "navmesh.search"},
                     "navmesh.search=hierarchical needs every move usable both ways at the same "
                     "cost, and this scene's heights make some moves one way (the agent's "
                     "max_climb); use navmesh.search=graph on it");
  build();
}

void HierarchicalNavMesh::build() {
  const auto started = std::chrono::steady_clock::now();
  clock_.check(what);
  const std::size_t nodes = mesh_.node_count();

  // 1. The squares: sized from the polygons' bounding box so that each holds about `region`
  //    polygons.
  double x0 = infinity, y0 = infinity, x1 = -infinity, y1 = -infinity;
  for (std::size_t i = 0; i < mesh_.polygon_count(); ++i)
    for (const Point& p : mesh_.polygon(i)) {
      x0 = std::min(x0, p.x);
      y0 = std::min(y0, p.y);
      x1 = std::max(x1, p.x);
      y1 = std::max(y1, p.y);
    }
  const double area = x1 > x0 && y1 > y0 ? (x1 - x0) * (y1 - y0) : 1.0;
  side_ = std::sqrt(area * double(mesh_.options().region) /
                    double(std::max<std::size_t>(1, mesh_.polygon_count())));
  if (!(side_ > 0.0) || !std::isfinite(side_)) side_ = 1.0;
  const auto square = [&](search::NodeId n) {
    const Point p = mesh_.node_position(n);
    const auto cx = std::int64_t(std::floor((p.x - x0) / side_));
    const auto cy = std::int64_t(std::floor((p.y - y0) / side_));
    return std::uint64_t(cx) << 32 ^ std::uint64_t(std::uint32_t(cy));
  };

  // 2. Regions: the connected pieces of each square's nodes (arcs inside the square).
  constexpr std::uint32_t unlabelled = std::numeric_limits<std::uint32_t>::max();
  region_.assign(nodes, unlabelled);
  std::vector<std::uint64_t> square_of(nodes);
  for (search::NodeId n = 0; n < nodes; ++n) square_of[n] = square(n);
  std::uint32_t regions = 0;
  {
    std::vector<search::NodeId> stack;
    for (search::NodeId n = 0; n < nodes; ++n) {
      if (n % 4096 == 0) clock_.check(what);
      if (region_[n] != unlabelled) continue;
      region_[n] = regions;
      stack.assign(1, n);
      while (!stack.empty()) {
        const search::NodeId m = stack.back();
        stack.pop_back();
        mesh_.for_each_neighbour(m, [&](search::NodeId to, double) {
          if (region_[to] == unlabelled && square_of[to] == square_of[n]) {
            region_[to] = regions;
            stack.push_back(to);
          }
        });
      }
      ++regions;
    }
  }
  release(square_of);

  // 3. Transitions, region by region: with `all`, every node with an arc to another region;
  //    with `entrances`, for each pair of regions joined by arcs (an entrance), the arcs ordered
  //    along their border (their midpoints projected across the line between the regions'
  //    centroids): one pair at the middle arc when the entrance spans less than half a square,
  //    else two, at its ends (the paper's rule, with its 6 of 10 cells read as half a square).
  //    Either covers every crossing: regions are connected, so any pair of the entrance joins
  //    the same two regions as each of its arcs.
  std::vector<char> is_transition(nodes, 0);
  if (every_crossing_) {
    for (search::NodeId n = 0; n < nodes; ++n)
      mesh_.for_each_neighbour(n, [&](search::NodeId to, double) {
        if (region_[to] != region_[n]) is_transition[n] = 1;
      });
  } else {
    std::vector<Point> centroid(regions, Point{0.0, 0.0});
    std::vector<double> members(regions, 0.0);
    for (search::NodeId n = 0; n < nodes; ++n) {
      centroid[region_[n]] = centroid[region_[n]] + mesh_.node_position(n);
      members[region_[n]] += 1.0;
    }
    for (std::uint32_t r = 0; r < regions; ++r)
      centroid[r] = {centroid[r].x / members[r], centroid[r].y / members[r]};
    struct Crossing {
      std::uint64_t pair;
      double along;
      search::NodeId a, b;
    };
    std::vector<Crossing> crossings;
    for (search::NodeId n = 0; n < nodes; ++n) {
      if (n % 4096 == 0) clock_.check(what);
      mesh_.for_each_neighbour(n, [&](search::NodeId to, double) {
        const std::uint32_t ra = region_[n], rb = region_[to];
        if (rb <= ra) return;
        const Point d = centroid[rb] - centroid[ra];
        const Point mid = 0.5 * (mesh_.node_position(n) + mesh_.node_position(to));
        crossings.push_back({std::uint64_t{ra} << 32 | rb, mid.y * d.x - mid.x * d.y, n, to});
      });
    }
    std::sort(crossings.begin(), crossings.end(), [](const Crossing& x, const Crossing& y) {
      return x.pair != y.pair     ? x.pair < y.pair
             : x.along != y.along ? x.along < y.along
                                  : x.a < y.a;
    });
    for (std::size_t i = 0; i < crossings.size();) {
      std::size_t end = i;
      while (end < crossings.size() && crossings[end].pair == crossings[i].pair) ++end;
      const Point d = centroid[crossings[i].pair & 0xffffffffu] - centroid[crossings[i].pair >> 32];
      const double length = std::sqrt(d.x * d.x + d.y * d.y);
      const double span =
          length > 0 ? (crossings[end - 1].along - crossings[i].along) / length : 0.0;
      const auto take = [&](const Crossing& c) { is_transition[c.a] = is_transition[c.b] = 1; };
      if (span < 0.5 * side_) {
        take(crossings[i + (end - i - 1) / 2]);
      } else {
        take(crossings[i]);
        take(crossings[end - 1]);
      }
      i = end;
    }
  }
  nodes_.clear();
  for (search::NodeId n = 0; n < nodes; ++n)
    if (is_transition[n]) nodes_.push_back(n);
  adjacent_.clear();
  for (search::NodeId n = 0; n < nodes; ++n)
    mesh_.for_each_neighbour(n, [&](search::NodeId to, double) {
      if (region_[to] != region_[n])
        adjacent_.push_back(std::uint64_t{region_[n]} << 32 | region_[to]);
    });
  std::sort(adjacent_.begin(), adjacent_.end());
  adjacent_.erase(std::unique(adjacent_.begin(), adjacent_.end()), adjacent_.end());
  adjacent_.shrink_to_fit();
  const auto by_region = [&](search::NodeId a, search::NodeId b) {
    return region_[a] != region_[b] ? region_[a] < region_[b] : a < b;
  };
  std::sort(nodes_.begin(), nodes_.end(), by_region);
  nodes_.shrink_to_fit();
  region_first_.assign(std::size_t{regions} + 1, 0);
  for (const search::NodeId n : nodes_) ++region_first_[region_[n] + 1];
  for (std::size_t r = 0; r < regions; ++r) region_first_[r + 1] += region_first_[r];
  const auto id_of = [&](search::NodeId n) {
    return search::NodeId(std::lower_bound(nodes_.begin(), nodes_.end(), n, by_region) -
                          nodes_.begin());
  };

  // 4. Arcs: the graph's arcs between transitions of different regions, then the cheapest paths
  //    inside each region between its transitions.
  std::vector<search::Edge> edges;
  for (search::NodeId t = 0; t < nodes_.size(); ++t) {
    const search::NodeId n = nodes_[t];
    mesh_.for_each_neighbour(n, [&](search::NodeId to, double cost) {
      if (region_[to] != region_[n] && is_transition[to]) edges.push_back({t, id_of(to), cost});
    });
  }
  search::AStar dijkstra;
  search::ReachableSet reached;
  for (std::uint32_t r = 0; r < regions; ++r) {
    const std::uint32_t first = region_first_[r], last = region_first_[r + 1];
    if (last - first < 2) continue;
    clock_.check(what);
    search::add_paths_within(region_view(r),
                             std::span<const search::NodeId>(nodes_).subspan(first, last - first),
                             first, edges, dijkstra, reached);
  }
  abstract_ = search::abstract_graph(nodes_.size(), std::move(edges));
  inter_arcs_ = 0;
  for (search::NodeId t = 0; t < nodes_.size(); ++t)
    for (const search::Arc& a : abstract_.arcs(t))
      inter_arcs_ += region_[nodes_[t]] != region_[nodes_[a.to]] ? 1 : 0;
  build_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
}

bool HierarchicalNavMesh::adjacent(std::uint32_t r, std::uint32_t q) const {
  return std::binary_search(adjacent_.begin(), adjacent_.end(), std::uint64_t{r} << 32 | q);
}

std::size_t HierarchicalNavMesh::bytes() const {
  return region_.capacity() * sizeof(std::uint32_t) + adjacent_.capacity() * sizeof(std::uint64_t) +
         nodes_.capacity() * sizeof(search::NodeId) +
         region_first_.capacity() * sizeof(std::uint32_t) +
         (abstract_.node_count() + 1) * sizeof(std::uint32_t) +
         abstract_.arc_count() * sizeof(search::Arc);
}

std::string HierarchicalNavMesh::summary() const {
  std::ostringstream s;
  s.precision(3);
  s << mesh_.summary()
    << "; navmesh.search=hierarchical (Botea, Mueller and Schaeffer 2004): " << region_count()
    << " regions (about " << mesh_.options().region << " polygons per square of side " << side_
    << "), " << transition_count() << " transitions (" << (every_crossing_ ? "all" : "entrances")
    << "), " << arc_count() << " abstract arcs (" << inter_arcs_ << " between regions); built in "
    << build_ms_ << " ms, " << bytes() << " bytes";
  return s.str();
}

void HierarchicalNavMesh::prepare(QueryWorkspace& ws) const {
  ws.astar.reserve(nodes_.size() + 8);
  ws.state<Scratch>().local.reserve(mesh_.node_count() + 1);
}

RawPath HierarchicalNavMesh::find_path(Point start, std::span<const Point> goals,
                                       const QueryOptions& options, QueryWorkspace& ws,
                                       std::size_t& reached_goal) const {
  RawPath out;
  out.method = mesh_.method();
  out.method_has_corridors = out.has_corridor = mesh_.has_corridors();
  reached_goal = goals.size();
  if (goals.empty()) {
    out.message = "the goal set is empty";
    return out;
  }
  if (goals.size() == 1) {
    if (const std::optional<double> cost = mesh_.direct_cost(start, goals[0])) {
      // One polygon holds both: the straight segment, as the graph search answers.
      out.status = search::SearchStatus::found;
      out.points = {start, goals[0]};
      out.graph_cost = *cost;
      reached_goal = 0;
      return out;
    }
  }
  std::vector<std::optional<double>> direct(goals.size());
  if (goals.size() > 1)
    for (std::size_t i = 0; i < goals.size(); ++i) direct[i] = mesh_.direct_cost(start, goals[i]);
  if (!attach_ends(mesh_, start, goals, direct, ws, out)) return out;

  Scratch& scratch = ws.state<Scratch>();
  search::AStar& local = scratch.local;
  search::SearchStats local_stats;
  const auto count = [&](const search::SearchStats& st) {
    local_stats.expanded += st.expanded;
    local_stats.generated += st.generated;
  };

  // The abstract graph with the start and one node per goal.
  search::AugmentedGraph<search::CsrGraph>& graph = detail::augmented(ws, abstract_);
  const auto transitions = search::NodeId(nodes_.size());
  const search::NodeId s = graph.add_node();
  ws.extra_goal_nodes.clear();
  for (std::size_t i = 0; i < goals.size(); ++i) ws.extra_goal_nodes.push_back(graph.add_node());
  scratch.starts.clear();
  for (std::uint32_t i = 0; i < goals.size(); ++i)
    if (direct[i]) {
      graph.add_arc(s, ws.extra_goal_nodes[i], *direct[i]);
      scratch.starts.push_back({ws.extra_goal_nodes[i], 0, 0, *direct[i], Scratch::Kind::direct});
    }

  // The start: each region of its attachments searched outwards from them all at once, joined
  // to its transitions and to the goal attachments in it.
  const auto regions_of = [&](std::span<const Attachment> ends) {
    scratch.regions.clear();
    for (const Attachment& e : ends) scratch.regions.push_back(region_[e.node]);
    std::sort(scratch.regions.begin(), scratch.regions.end());
    scratch.regions.erase(std::unique(scratch.regions.begin(), scratch.regions.end()),
                          scratch.regions.end());
    return std::span<const std::uint32_t>(scratch.regions);
  };
  const auto source = search::NodeId(mesh_.node_count());
  for (const std::uint32_t r : regions_of(ws.from)) {
    local.reachable(source_view(region_view(r), ws.from), source, infinity, scratch.reach);
    count(scratch.reach.stats);
    for (std::uint32_t t = region_first_[r]; t < region_first_[r + 1]; ++t) {
      const double d = local.cost_to(nodes_[t]);
      if (d < infinity) {
        graph.add_arc(s, t, d);
        scratch.starts.push_back({t, r, 0, d, Scratch::Kind::region});
      }
    }
    for (std::uint32_t i = 0; i < goals.size(); ++i)
      for (std::uint32_t j = 0; j < ws.goal_arcs[i].size(); ++j) {
        const Attachment& b = ws.goal_arcs[i][j];
        if (region_[b.node] != r) continue;
        const double d = local.cost_to(b.node);
        if (!(d < infinity)) continue;
        const search::NodeId g = ws.extra_goal_nodes[i];
        graph.add_arc(s, g, d + b.cost);
        scratch.starts.push_back({g, r, j, d + b.cost, Scratch::Kind::region});
      }
  }
  // A goal attached in a region next to a start region: A* inside the two regions from the
  // start's attachments to the goal's there (no transition on the way; never cheaper than the
  // graph's optimum, since it is a path of the graph). The path is kept for the refinement.
  std::size_t near_count = 0;
  {
    const std::span<const std::uint32_t> from_regions = regions_of(ws.from);
    scratch.start_regions.assign(from_regions.begin(), from_regions.end());
    for (const std::uint32_t r : scratch.start_regions)
      for (std::uint32_t i = 0; i < goals.size(); ++i) {
        const std::span<const std::uint32_t> to_regions = regions_of(ws.goal_arcs[i]);
        scratch.goal_regions.assign(to_regions.begin(), to_regions.end());
        for (const std::uint32_t q : scratch.goal_regions) {
          if (q == r || !adjacent(r, q)) continue;
          scratch.targets.clear();
          for (const Attachment& b : ws.goal_arcs[i])
            if (region_[b.node] == q) scratch.targets.push_back(b.node);
          const auto towards = mesh_.heuristic(ws.from, ws.goal_arcs[i], goals[i]);
          local.search(
              source_view(pair_view(r, q), ws.from), source, scratch.targets,
              [&](search::NodeId n) { return n == source ? 0.0 : double(towards(n)); },
              search::SearchOptions{}, scratch.leg);
          count(scratch.leg.stats);
          if (scratch.leg.status != search::SearchStatus::found) continue;
          const search::NodeId end = scratch.leg.path.back();
          double last = infinity;
          for (const Attachment& b : ws.goal_arcs[i])
            if (b.node == end) last = std::min(last, b.cost);
          if (scratch.near.size() <= near_count) scratch.near.emplace_back();
          scratch.near[near_count].assign(scratch.leg.path.begin() + 1, scratch.leg.path.end());
          const double cost = scratch.leg.cost + last;
          graph.add_arc(s, ws.extra_goal_nodes[i], cost);
          scratch.starts.push_back(
              {ws.extra_goal_nodes[i], r, std::uint32_t(near_count), cost, Scratch::Kind::found});
          ++near_count;
        }
      }
  }
  // Each goal: each region of its attachments searched outwards from them all at once (moves
  // cost the same both ways).
  scratch.ends.clear();
  for (std::uint32_t i = 0; i < goals.size(); ++i)
    for (const std::uint32_t r : regions_of(ws.goal_arcs[i])) {
      local.reachable(source_view(region_view(r), ws.goal_arcs[i]), source, infinity,
                      scratch.reach);
      count(scratch.reach.stats);
      for (std::uint32_t t = region_first_[r]; t < region_first_[r + 1]; ++t) {
        const double d = local.cost_to(nodes_[t]);
        if (d < infinity) {
          graph.add_arc(t, ws.extra_goal_nodes[i], d);
          scratch.ends.push_back({t, i, r, d});
        }
      }
    }

  // The abstract search, with the mesh's heuristic at each transition's node.
  using H = decltype(mesh_.heuristic(ws.from, ws.goal_arcs[0], goals[0]));
  std::vector<H>& per_goal = ws.state<std::vector<H>>();
  per_goal.clear();
  for (std::size_t i = 0; i < goals.size(); ++i)
    per_goal.push_back(mesh_.heuristic(ws.from, ws.goal_arcs[i], goals[i]));
  const auto h = [&](search::NodeId n) {
    if (n >= transitions) return 0.0;
    double best = infinity;
    for (const H& e : per_goal) best = std::min(best, double(e(nodes_[n])));
    return best;
  };
  search::SearchResult& result = ws.result;
  if (options.record_expanded) {
    ws.astar.search(graph, s, ws.extra_goal_nodes, h, options.search, result,
                    TransitionRecorder{this, &out.expanded});
  } else {
    ws.astar.search(graph, s, ws.extra_goal_nodes, h, options.search, result);
  }
  out.status = result.status;
  out.stats = result.stats;
  out.graph_cost = result.cost;
  if (out.status != search::SearchStatus::found)
    out.message = out.status == search::SearchStatus::no_path && goals.size() > 1
                      ? "no_path: no goal of the set is reachable from the start"
                      : result.explanation();

  // Refinement: each abstract arc into graph nodes, by A* inside its region (from the extra
  // source node of an end's attachments, whose own node the path then leaves out).
  bool refined = true;
  const auto search_in = [&](const auto& view, search::NodeId from, search::NodeId to) {
    const Attachment target{to, 0.0};
    const auto towards =
        mesh_.heuristic(std::span<const Attachment>(&target, 1), mesh_.node_position(to));
    local.search(
        view, from, std::span<const search::NodeId>(&to, 1),
        [&](search::NodeId n) { return n == source ? 0.0 : double(towards(n)); },
        search::SearchOptions{}, scratch.leg);
    count(scratch.leg.stats);
    refined = refined && scratch.leg.status == search::SearchStatus::found;
    return refined;
  };
  // Appends a piece of the path, joining it where the path so far ends at its first node.
  const auto append = [&](auto first, auto last) {
    if (first == last) return;
    if (!out.nodes.empty() && out.nodes.back() == *first) ++first;
    out.nodes.insert(out.nodes.end(), first, last);
  };
  const std::vector<search::NodeId>& path = result.path;
  for (std::size_t k = 1; k < path.size() && refined; ++k) {
    const search::NodeId from = path[k - 1], to = path[k];
    // The cheapest of the recorded arcs that the search took.
    if (from == s) {
      const Scratch::StartArc* best = nullptr;
      for (const Scratch::StartArc& a : scratch.starts)
        if (a.to == to && (best == nullptr || a.cost < best->cost)) best = &a;
      if (best->kind == Scratch::Kind::direct) continue;  // start and goal in one polygon
      if (best->kind == Scratch::Kind::found) {
        append(scratch.near[best->into].begin(), scratch.near[best->into].end());
        continue;
      }
      const search::NodeId end =
          to < transitions ? nodes_[to] : ws.goal_arcs[to - s - 1][best->into].node;
      if (!search_in(source_view(region_view(best->region), ws.from), source, end)) break;
      append(scratch.leg.path.begin() + 1, scratch.leg.path.end());
    } else if (to >= transitions) {
      const Scratch::GoalArc* best = nullptr;
      for (const Scratch::GoalArc& a : scratch.ends)
        if (a.from == from && a.goal == to - s - 1 && (best == nullptr || a.cost < best->cost))
          best = &a;
      // Searched from the goal's attachments (costs are the same both ways), then reversed.
      if (!search_in(source_view(region_view(best->region), ws.goal_arcs[best->goal]), source,
                     nodes_[from]))
        break;
      append(scratch.leg.path.rbegin(), scratch.leg.path.rend() - 1);
    } else if (region_[nodes_[from]] == region_[nodes_[to]]) {
      if (!search_in(region_view(region_[nodes_[from]]), nodes_[from], nodes_[to])) break;
      append(scratch.leg.path.begin(), scratch.leg.path.end());
    } else {  // an arc of the graph between regions
      if (out.nodes.empty()) out.nodes.push_back(nodes_[from]);
      out.nodes.push_back(nodes_[to]);
    }
  }
  out.stats.expanded += local_stats.expanded;
  out.stats.generated += local_stats.generated;
  if (!refined) {  // never expected: every abstract arc stands for a path inside its region
    out.status = search::SearchStatus::no_path;
    out.message = "navmesh.search=hierarchical could not refine an abstract arc into graph arcs";
    out.nodes.clear();
    return out;
  }
  Point goal;
  if (out.status == search::SearchStatus::found) {
    reached_goal = path.back() - s - 1;
    goal = goals[reached_goal];
  }
  if (path.empty()) return out;
  detail::trace_points(mesh_, start, goal, ws, out);
  detail::set_corridor(mesh_, options, out);
  return out;
}

}  // namespace polynav
