#include "polynav/discretise/grid/hierarchical_grid.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <unordered_set>
#include <utility>

#include "polynav/error.hpp"
#include "polynav/kernel/memory.hpp"
#include "polynav/search/abstraction.hpp"
#include "polynav/search/graph.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

const GridOptions& checked(const GridOptions& grid, int cluster) {
  if (cluster < 2)
    throw InputError({"", 0, 0, "grid.cluster"},
                     "grid.cluster must be at least 2 (the side of an HPA* cluster in grid "
                     "nodes), not " +
                         std::to_string(cluster));
  return grid;
}

// The cost of the grid's arc a -> b, +infinity when there is none.
double arc_cost(const OccupancyGrid& grid, search::NodeId a, search::NodeId b) {
  double cost = infinity;
  grid.for_each_neighbour(a, [&](search::NodeId to, double c) {
    if (to == b) cost = std::min(cost, c);
  });
  return cost;
}

// What a query keeps between its steps, in the workspace.
struct HpaScratch {
  search::AStar local;  // the searches inside one cluster
  search::ReachableSet reach;
  search::SearchResult leg;
  // Arcs from the start node: to a transition or a goal node, from start attachment `from` (and,
  // to a goal node, into goal attachment `into`).
  struct StartArc {
    search::NodeId to;
    std::uint32_t from, into;
    double cost;
  };
  // Arcs into goal node `goal` from a transition, into that goal's attachment `into`.
  struct GoalArc {
    search::NodeId from;
    std::uint32_t goal, into;
    double cost;
  };
  std::vector<StartArc> starts;
  std::vector<GoalArc> ends;
  std::vector<OccupancyGrid::Estimate> per_goal;
};

// Positions of the expanded transitions, for pictures.
struct TransitionRecorder {
  const HierarchicalGrid* h;
  std::vector<Point>* out;
  void examine(search::NodeId n) {
    if (n < h->transition_count()) out->push_back(h->node_position(h->transition_cell(n)));
  }
  void relax(search::NodeId, search::NodeId, double) {}
  void finish(search::NodeId) {}
};

}  // namespace

HierarchicalGrid::HierarchicalGrid(const FreeSpace& space, GridOptions grid, int cluster)
    : clock_(grid.max_build_seconds), grid_(space, checked(grid, cluster)), cluster_(cluster) {
  // Costs are symmetric by construction (a move costs its length times the mean of its cells'
  // multipliers); only heights with a climb limit make moves one way. Checked on the arcs.
  if (space.has_heights()) {
    for (search::NodeId n = 0; n < grid_.node_count(); ++n) {
      if (n % 4096 == 0) clock_.check("the HPA* abstraction of the grid");
      grid_.for_each_neighbour(n, [&](search::NodeId to, double cost) {
        if (arc_cost(grid_, to, n) != cost)
          throw InputError(
              {"", 0, 0, "grid.search"},
              "grid.search=hpa needs every grid move usable both ways at the same cost, and "
              "this grid's terrain heights make some moves one way (the agent's max_climb); "
              "use grid.search=astar on it");
      });
    }
  }
  build();
}

bool HierarchicalGrid::neighbours(std::uint32_t c, std::uint32_t d) const {
  const auto cx = std::int64_t(c % clusters_across_), cy = std::int64_t(c / clusters_across_);
  const auto dx = std::int64_t(d % clusters_across_), dy = std::int64_t(d / clusters_across_);
  return c != d && std::abs(cx - dx) <= 1 && std::abs(cy - dy) <= 1;
}

HierarchicalGrid::ClusterView HierarchicalGrid::pair_view(std::uint32_t c, std::uint32_t d) const {
  const ClusterView a = cluster_view(c), b = cluster_view(d);
  return {&grid_,
          across_,
          std::min(a.x0, b.x0),
          std::min(a.y0, b.y0),
          std::max(a.x1, b.x1),
          std::max(a.y1, b.y1)};
}

HierarchicalGrid::ClusterView HierarchicalGrid::cluster_view(std::uint32_t c) const {
  const std::uint32_t cx = c % clusters_across_, cy = c / clusters_across_;
  const auto side = std::uint32_t(cluster_);
  return {&grid_,
          across_,
          cx * side,
          cy * side,
          std::min(across_, (cx + 1) * side),
          std::min(down_, (cy + 1) * side)};
}

void HierarchicalGrid::build() {
  const auto started = std::chrono::steady_clock::now();
  constexpr std::string_view what = "the HPA* abstraction of the grid";
  across_ = std::uint32_t(grid_.width() + (grid_.corners() ? 1 : 0));
  down_ = std::uint32_t(grid_.height() + (grid_.corners() ? 1 : 0));
  const auto side = std::uint32_t(cluster_);
  clusters_across_ = (across_ + side - 1) / side;
  clusters_down_ = (down_ + side - 1) / side;
  const std::size_t nodes = grid_.node_count();
  const auto node = [&](std::uint32_t x, std::uint32_t y) {
    return search::NodeId(y * across_ + x);
  };

  // 1. The connected pieces of each cluster (arcs inside it), numbered over the whole grid.
  constexpr std::uint32_t unlabelled = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> piece(nodes, unlabelled);
  {
    std::uint32_t next = 0;
    std::vector<search::NodeId> stack;
    for (search::NodeId n = 0; n < nodes; ++n) {
      if (n % 4096 == 0) clock_.check(what);
      if (piece[n] != unlabelled) continue;
      const ClusterView view = cluster_view(cluster_of(n));
      piece[n] = next;
      stack.assign(1, n);
      while (!stack.empty()) {
        const search::NodeId m = stack.back();
        stack.pop_back();
        view.for_each_neighbour(m, [&](search::NodeId to, double) {
          if (piece[to] == unlabelled) {
            piece[to] = next;
            stack.push_back(to);
          }
        });
      }
      ++next;
    }
  }

  // 2. Transition pairs: the paper's entrances, then every border-crossing move that joins two
  //    pieces no pair joins yet.
  std::vector<std::pair<search::NodeId, search::NodeId>> pairs;
  std::unordered_set<std::uint64_t> joined;  // (piece of a) << 32 | (piece of b), both ways
  const auto add_pair = [&](search::NodeId a, search::NodeId b) {
    pairs.emplace_back(a, b);
    joined.insert(std::uint64_t{piece[a]} << 32 | piece[b]);
    joined.insert(std::uint64_t{piece[b]} << 32 | piece[a]);
  };
  // The entrances along one border of `length` steps: `pair_at(i)` is the pair of nodes either
  // side of it at step i, an entrance wherever the grid has the straight move between them.
  const auto entrances = [&](std::uint32_t length, auto&& pair_at) {
    std::uint32_t i = 0;
    while (i < length) {
      const auto [a, b] = pair_at(i);
      if (!(arc_cost(grid_, a, b) < infinity)) {
        ++i;
        continue;
      }
      std::uint32_t end = i;
      while (end + 1 < length) {
        const auto [c, d] = pair_at(end + 1);
        if (!(arc_cost(grid_, c, d) < infinity)) break;
        ++end;
      }
      const std::uint32_t run = end - i + 1;
      if (run < std::uint32_t(wide_entrance)) {
        const auto [c, d] = pair_at(i + (run - 1) / 2);
        add_pair(c, d);
      } else {
        add_pair(a, b);
        const auto [c, d] = pair_at(end);
        add_pair(c, d);
      }
      i = end + 1;
    }
  };
  for (std::uint32_t cx = 1; cx < clusters_across_; ++cx) {  // borders between columns
    const std::uint32_t x = cx * side;
    for (std::uint32_t cy = 0; cy < clusters_down_; ++cy) {
      const std::uint32_t y0 = cy * side, y1 = std::min(down_, y0 + side);
      entrances(y1 - y0, [&](std::uint32_t i) {
        return std::pair{node(x - 1, y0 + i), node(x, y0 + i)};
      });
    }
  }
  for (std::uint32_t cy = 1; cy < clusters_down_; ++cy) {  // borders between rows
    const std::uint32_t y = cy * side;
    for (std::uint32_t cx = 0; cx < clusters_across_; ++cx) {
      const std::uint32_t x0 = cx * side, x1 = std::min(across_, x0 + side);
      entrances(x1 - x0, [&](std::uint32_t i) {
        return std::pair{node(x0 + i, y - 1), node(x0 + i, y)};
      });
    }
  }
  for (search::NodeId n = 0; n < nodes; ++n) {
    if (n % 4096 == 0) clock_.check(what);
    const std::uint32_t c = cluster_of(n);
    grid_.for_each_neighbour(n, [&](search::NodeId to, double) {
      if (cluster_of(to) != c && !joined.contains(std::uint64_t{piece[n]} << 32 | piece[to]))
        add_pair(n, to);
    });
  }
  release(piece);

  // 3. The transitions, cluster by cluster.
  const auto by_cluster = [&](search::NodeId a, search::NodeId b) {
    const std::uint32_t ca = cluster_of(a), cb = cluster_of(b);
    return ca != cb ? ca < cb : a < b;
  };
  cells_.clear();
  for (const auto& [a, b] : pairs) {
    cells_.push_back(a);
    cells_.push_back(b);
  }
  std::sort(cells_.begin(), cells_.end(), by_cluster);
  cells_.erase(std::unique(cells_.begin(), cells_.end()), cells_.end());
  cells_.shrink_to_fit();
  const auto id_of = [&](search::NodeId cell) {
    return search::NodeId(std::lower_bound(cells_.begin(), cells_.end(), cell, by_cluster) -
                          cells_.begin());
  };
  const std::size_t clusters = std::size_t(clusters_across_) * clusters_down_;
  cluster_first_.assign(clusters + 1, 0);
  for (const search::NodeId cell : cells_) ++cluster_first_[cluster_of(cell) + 1];
  for (std::size_t c = 0; c < clusters; ++c) cluster_first_[c + 1] += cluster_first_[c];

  // 4. Arcs: each pair's move both ways, then the cheapest paths inside each cluster between
  //    its transitions.
  std::vector<search::Edge> edges;
  for (const auto& [a, b] : pairs) {
    const search::NodeId ia = id_of(a), ib = id_of(b);
    edges.push_back({ia, ib, arc_cost(grid_, a, b)});
    edges.push_back({ib, ia, arc_cost(grid_, b, a)});
  }
  release(pairs);
  search::AStar dijkstra;
  search::ReachableSet reached;
  for (std::uint32_t c = 0; c < clusters; ++c) {
    const std::uint32_t first = cluster_first_[c], last = cluster_first_[c + 1];
    if (last - first < 2) continue;
    clock_.check(what);
    search::add_paths_within(cluster_view(c),
                             std::span<const search::NodeId>(cells_).subspan(first, last - first),
                             first, edges, dijkstra, reached);
  }
  abstract_ = search::abstract_graph(cells_.size(), std::move(edges));
  inter_arcs_ = 0;
  for (search::NodeId t = 0; t < cells_.size(); ++t)
    for (const search::Arc& a : abstract_.arcs(t))
      inter_arcs_ += cluster_of(cells_[t]) != cluster_of(cells_[a.to]) ? 1 : 0;
  build_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
}

std::size_t HierarchicalGrid::bytes() const {
  return cells_.capacity() * sizeof(search::NodeId) +
         cluster_first_.capacity() * sizeof(std::uint32_t) +
         (abstract_.node_count() + 1) * sizeof(std::uint32_t) +
         abstract_.arc_count() * sizeof(search::Arc);
}

std::string HierarchicalGrid::summary() const {
  std::ostringstream s;
  s.precision(3);
  s << "grid.search=hpa (Botea, Mueller and Schaeffer 2004): clusters of " << cluster_ << " x "
    << cluster_ << " nodes (" << cluster_count() << "), " << transition_count() << " transitions, "
    << arc_count() << " abstract arcs (" << inter_arcs_ << " between clusters); built in "
    << build_ms_ << " ms, " << bytes() << " bytes ("
    << double(bytes()) / double(std::max<std::size_t>(1, node_count())) << " per grid node)";
  return s.str();
}

void HierarchicalGrid::prepare(QueryWorkspace& ws) const {
  ws.astar.reserve(cells_.size() + 8);
  ws.state<HpaScratch>().local.reserve(grid_.node_count());
}

RawPath HierarchicalGrid::find_path(Point start, std::span<const Point> goals,
                                    const QueryOptions& options, QueryWorkspace& ws,
                                    std::size_t& reached_goal) const {
  RawPath out;
  out.method = grid_.method();
  out.method_has_corridors = out.has_corridor = grid_.has_corridors();
  reached_goal = goals.size();
  if (goals.empty()) {
    out.message = "the goal set is empty";
    return out;
  }
  if (!attach_ends(grid_, start, goals, {}, ws, out)) return out;

  HpaScratch& scratch = ws.state<HpaScratch>();
  search::AStar& local = scratch.local;
  search::SearchStats local_stats;
  const auto count = [&](const search::SearchStats& st) {
    local_stats.expanded += st.expanded;
    local_stats.generated += st.generated;
  };

  // The abstract graph with the start and one node per goal.
  search::AugmentedGraph<search::CsrGraph>& graph = detail::augmented(ws, abstract_);
  const auto transitions = search::NodeId(cells_.size());
  const search::NodeId s = graph.add_node();
  ws.extra_goal_nodes.clear();
  for (std::size_t i = 0; i < goals.size(); ++i) ws.extra_goal_nodes.push_back(graph.add_node());

  // The start: its attachments' clusters searched outwards, joined to their transitions and to
  // the goal attachments in the same cluster.
  scratch.starts.clear();
  for (std::uint32_t k = 0; k < ws.from.size(); ++k) {
    const Attachment& a = ws.from[k];
    const std::uint32_t c = cluster_of(a.node);
    local.reachable(cluster_view(c), a.node, infinity, scratch.reach);
    count(scratch.reach.stats);
    for (std::uint32_t t = cluster_first_[c]; t < cluster_first_[c + 1]; ++t) {
      const double d = local.cost_to(cells_[t]);
      if (d < infinity) {
        graph.add_arc(s, t, a.cost + d);
        scratch.starts.push_back({t, k, 0, a.cost + d});
      }
    }
    for (std::size_t i = 0; i < goals.size(); ++i)
      for (std::uint32_t j = 0; j < ws.goal_arcs[i].size(); ++j) {
        const Attachment& b = ws.goal_arcs[i][j];
        if (cluster_of(b.node) != c) continue;
        const double d = local.cost_to(b.node);
        if (!(d < infinity)) continue;
        const search::NodeId g = ws.extra_goal_nodes[i];
        graph.add_arc(s, g, a.cost + d + b.cost);
        scratch.starts.push_back({g, k, j, a.cost + d + b.cost});
      }
    // A goal in a neighbouring cluster: A* inside the two clusters. (The paper searches directly
    // within one cluster only; this keeps a short query across a border from detouring through
    // a transition at the far end of a wide entrance.)
    for (std::size_t i = 0; i < goals.size(); ++i)
      for (std::uint32_t j = 0; j < ws.goal_arcs[i].size(); ++j) {
        const Attachment& b = ws.goal_arcs[i][j];
        if (!neighbours(c, cluster_of(b.node))) continue;
        const Attachment target{b.node, 0.0};
        local.search(pair_view(c, cluster_of(b.node)), a.node,
                     std::span<const search::NodeId>(&b.node, 1),
                     grid_.heuristic(std::span<const Attachment>(&target, 1), Point{}),
                     search::SearchOptions{}, scratch.leg);
        count(scratch.leg.stats);
        if (scratch.leg.status != search::SearchStatus::found) continue;
        const search::NodeId g = ws.extra_goal_nodes[i];
        const double cost = a.cost + scratch.leg.cost + b.cost;
        graph.add_arc(s, g, cost);
        scratch.starts.push_back({g, k, j, cost});
      }
  }
  // Each goal: its attachments' clusters searched outwards (moves cost the same both ways).
  scratch.ends.clear();
  for (std::uint32_t i = 0; i < goals.size(); ++i)
    for (std::uint32_t j = 0; j < ws.goal_arcs[i].size(); ++j) {
      const Attachment& b = ws.goal_arcs[i][j];
      const std::uint32_t c = cluster_of(b.node);
      local.reachable(cluster_view(c), b.node, infinity, scratch.reach);
      count(scratch.reach.stats);
      for (std::uint32_t t = cluster_first_[c]; t < cluster_first_[c + 1]; ++t) {
        const double d = local.cost_to(cells_[t]);
        if (d < infinity) {
          graph.add_arc(t, ws.extra_goal_nodes[i], d + b.cost);
          scratch.ends.push_back({t, i, j, d + b.cost});
        }
      }
    }

  // The abstract search, with the grid's heuristic at each transition's node.
  scratch.per_goal.clear();
  for (std::size_t i = 0; i < goals.size(); ++i)
    scratch.per_goal.push_back(grid_.heuristic(ws.goal_arcs[i], goals[i]));
  const auto h = [&](search::NodeId n) {
    if (n >= transitions) return 0.0;
    double best = infinity;
    for (const OccupancyGrid::Estimate& e : scratch.per_goal) best = std::min(best, e(cells_[n]));
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

  // Refinement: each abstract arc into grid nodes, by A* inside its cluster.
  bool refined = true;
  const auto leg = [&](search::NodeId from, search::NodeId to, const ClusterView& view) {
    if (!out.nodes.empty() && out.nodes.back() == from) out.nodes.pop_back();
    if (from == to) {
      out.nodes.push_back(to);
      return;
    }
    const Attachment target{to, 0.0};
    search::SearchOptions plain;
    local.search(view, from, std::span<const search::NodeId>(&to, 1),
                 grid_.heuristic(std::span<const Attachment>(&target, 1), Point{}), plain,
                 scratch.leg);
    count(scratch.leg.stats);
    if (scratch.leg.status != search::SearchStatus::found) {
      refined = false;
      return;
    }
    out.nodes.insert(out.nodes.end(), scratch.leg.path.begin(), scratch.leg.path.end());
  };
  const std::vector<search::NodeId>& path = result.path;
  for (std::size_t k = 1; k < path.size() && refined; ++k) {
    const search::NodeId from = path[k - 1], to = path[k];
    // The cheapest of the recorded arcs that the search took.
    if (from == s) {
      const HpaScratch::StartArc* best = nullptr;
      for (const HpaScratch::StartArc& a : scratch.starts)
        if (a.to == to && (best == nullptr || a.cost < best->cost)) best = &a;
      const search::NodeId begin = ws.from[best->from].node;
      if (to < transitions) {
        leg(begin, cells_[to], cluster_view(cluster_of(begin)));
      } else {
        const search::NodeId end = ws.goal_arcs[to - s - 1][best->into].node;
        const std::uint32_t c = cluster_of(begin), d = cluster_of(end);
        leg(begin, end, c == d ? cluster_view(c) : pair_view(c, d));
      }
    } else if (to >= transitions) {
      const HpaScratch::GoalArc* best = nullptr;
      for (const HpaScratch::GoalArc& a : scratch.ends)
        if (a.from == from && a.goal == to - s - 1 && (best == nullptr || a.cost < best->cost))
          best = &a;
      leg(cells_[from], ws.goal_arcs[best->goal][best->into].node,
          cluster_view(cluster_of(cells_[from])));
    } else if (cluster_of(cells_[from]) == cluster_of(cells_[to])) {
      leg(cells_[from], cells_[to], cluster_view(cluster_of(cells_[from])));
    } else {  // a move between clusters
      if (out.nodes.empty()) out.nodes.push_back(cells_[from]);
      out.nodes.push_back(cells_[to]);
    }
  }
  out.stats.expanded += local_stats.expanded;
  out.stats.generated += local_stats.generated;
  if (!refined) {  // never expected: every abstract arc stands for a path inside its cluster
    out.status = search::SearchStatus::no_path;
    out.message = "grid.search=hpa could not refine an abstract arc into grid moves";
    out.nodes.clear();
    return out;
  }
  Point goal;
  if (out.status == search::SearchStatus::found) {
    reached_goal = path.back() - s - 1;
    goal = goals[reached_goal];
  }
  if (path.empty()) return out;
  detail::trace_points(grid_, start, goal, ws, out);
  detail::set_corridor(grid_, options, out);
  return out;
}

}  // namespace polynav
