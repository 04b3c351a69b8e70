// D* Lite against Boost.Graph Dijkstra: on random graphs (directed and undirected, integer, real
// and geometric costs, > 0 as D* Lite needs on cycles, self-loops included, some disconnected,
// starts of their own joined by zero-cost arcs), after every round of random arc changes (costs up
// and down, arcs removed and added) and start moves, the repaired cost from the start equals the
// cheapest cost to the goal, and the path it gives is a path of that cost; and on a grid, a
// repair after a small change expands fewer nodes than searching again from scratch.
#include "polynav/search/d_star_lite.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "search/random_graphs.hpp"

namespace polynav::search {
namespace {

using testing::inf;

// A graph held as a list of arcs, with both directions indexed.
struct ArcList {
  std::size_t n = 0;
  std::vector<Edge> arcs;
  std::vector<std::vector<std::size_t>> out, in;  // arc indices by source, by target

  void index() {
    out.assign(n, {});
    in.assign(n, {});
    for (std::size_t i = 0; i < arcs.size(); ++i) {
      out[arcs[i].from].push_back(i);
      in[arcs[i].to].push_back(i);
    }
  }
  std::size_t node_count() const { return n; }
  template <class F>
  void for_each_neighbour(NodeId u, F&& f) const {
    for (const std::size_t i : out[u]) f(arcs[i].to, arcs[i].cost);
  }
  template <class F>
  void for_each_predecessor(NodeId v, F&& f) const {
    for (const std::size_t i : in[v]) f(arcs[i].from, arcs[i].cost);
  }
  // The cheapest cost to `goal` from every node (Dijkstra on the reversed arcs).
  std::vector<double> to_goal(NodeId goal) const {
    testing::BglGraph g(n);
    for (const Edge& e : arcs) boost::add_edge(e.to, e.from, e.cost, g);
    return testing::bgl_distances(g, goal);
  }
  double cheapest(NodeId u, NodeId v) const {
    double c = inf;
    for (const std::size_t i : out[u])
      if (arcs[i].to == v) c = std::min(c, arcs[i].cost);
    return c;
  }
};

static_assert(ReversibleGraph<ArcList>);

// On odd seeds the start is a node of the graph that moves; on even seeds it is a node of its
// own, joined by zero-cost arcs to one to three nodes that change when it moves, as a query's
// start joins a grid (Replanner).
TEST(DStarLite, RepairedCostsEqualDijkstraAfterRandomChangesAndMoves) {
  int checked = 0, unreachable = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const testing::Instance instance = testing::random_instance(seed, 40);
    std::mt19937_64 rng(seed * 7919);
    const auto node = [&] { return NodeId(rng() % instance.n); };
    const bool joined = seed % 2 == 0;
    ArcList graph{instance.n + (joined ? 1 : 0), instance.arcs, {}, {}};
    for (Edge& e : graph.arcs)
      if (e.from != e.to) e.cost = std::max(e.cost, 0.25);  // arcs on cycles must cost > 0
    const bool geometric = instance.model == testing::CostModel::geometric;
    const NodeId goal = node();
    NodeId start = joined ? NodeId(instance.n) : node();
    std::vector<NodeId> targets;  // a joined start's
    const auto join = [&] {
      std::erase_if(graph.arcs, [&](const Edge& e) { return e.from == start; });
      targets.clear();
      for (int k = 1 + int(rng() % 3); k > 0; --k) targets.push_back(node());
      for (const NodeId t : targets) graph.arcs.push_back({start, t, 0.0});
    };
    if (joined) join();
    graph.index();
    // Costs >= the straight distance on geometric graphs: the distance from the start (from
    // the nearest of a joined start's targets) is a consistent heuristic there, and it falls by
    // at most the distance between two starts (its old value at a new target).
    const auto distance = [&](NodeId a, NodeId b) {
      return geometric ? instance.euclid(a, b) : 0.0;
    };
    const auto heuristic = [&](NodeId n) {
      if (!joined) return distance(start, n);
      if (n == start) return 0.0;
      double h = inf;
      for (const NodeId t : targets) h = std::min(h, distance(t, n));
      return h;
    };
    DStarLite search;
    search.reset(graph.n, goal);
    for (int round = 0; round < 8; ++round) {
      search.compute(graph, start, heuristic);
      const double expected = graph.to_goal(goal)[start];
      ASSERT_TRUE(testing::near(search.cost(start), expected))
          << "seed " << seed << " round " << round << ": " << search.cost(start) << " against "
          << expected;
      std::vector<NodeId> path;
      search.path(graph, start, path);
      if (expected == inf) {
        EXPECT_TRUE(path.empty());
        ++unreachable;
      } else {
        ASSERT_FALSE(path.empty()) << "seed " << seed;
        EXPECT_EQ(path.front(), start);
        EXPECT_EQ(path.back(), goal);
        double cost = 0.0;
        for (std::size_t k = 1; k < path.size(); ++k) cost += graph.cheapest(path[k - 1], path[k]);
        EXPECT_TRUE(testing::near(cost, expected)) << "seed " << seed << " round " << round;
        ++checked;
      }
      // Change some arcs (not a joined start's): costs up or down, arcs removed, arcs added.
      std::set<NodeId> changed;
      const int changes = 1 + int(rng() % 4);
      for (int k = 0; k < changes; ++k) {
        const int kind = int(rng() % 3);
        const std::size_t i = graph.arcs.empty() ? 0 : rng() % graph.arcs.size();
        if (kind < 2 && (graph.arcs.empty() || graph.arcs[i].from == start)) continue;
        if (kind == 0) {
          Edge& e = graph.arcs[i];
          const double factor = std::uniform_real_distribution<double>(0.5, 3.0)(rng);
          e.cost = std::max({distance(e.from, e.to), 0.25, e.cost * factor});
          changed.insert(e.from);
        } else if (kind == 1) {
          changed.insert(graph.arcs[i].from);
          graph.arcs.erase(graph.arcs.begin() + std::ptrdiff_t(i));
        } else {
          const NodeId u = node(), v = node();
          const double cost = std::max(0.25, geometric ? distance(u, v) * 1.2 : double(rng() % 10));
          graph.arcs.push_back({u, v, cost});
          changed.insert(u);
        }
      }
      if (joined) {
        const std::vector<NodeId> before = targets;
        join();
        double shift = 0.0;
        for (const NodeId t : targets) {
          double h = inf;
          for (const NodeId b : before) h = std::min(h, distance(b, t));
          shift = std::max(shift, h);
        }
        search.start_moved(shift);
        changed.insert(start);
      }
      graph.index();
      for (const NodeId u : changed) search.arcs_changed(graph, u);
      if (!joined) {
        const NodeId next = node();
        search.start_moved(distance(start, next));
        start = next;
      }
    }
  }
  EXPECT_GT(checked, 1000);
  EXPECT_GT(unreachable, 10);
}

// An 8-connected grid of unit and diagonal arcs, cells blocked by a flag.
struct Grid {
  int side = 0;
  std::vector<std::uint8_t> blocked;
  std::size_t node_count() const { return blocked.size(); }
  template <class F>
  void for_each_neighbour(NodeId n, F&& f) const {
    const int x = int(n) % side, y = int(n) / side;
    if (blocked[n]) return;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int tx = x + dx, ty = y + dy;
        if ((dx == 0 && dy == 0) || tx < 0 || ty < 0 || tx >= side || ty >= side) continue;
        const auto to = NodeId(ty * side + tx);
        if (!blocked[to]) f(to, dx != 0 && dy != 0 ? 1.5 : 1.0);
      }
  }
  template <class F>
  void for_each_predecessor(NodeId n, F&& f) const {
    for_each_neighbour(n, f);  // arcs run both ways
  }
};

TEST(DStarLite, RepairingASmallChangeExpandsLessThanSearchingAgain) {
  Grid grid{80, std::vector<std::uint8_t>(80 * 80, 0)};
  const NodeId goal = 5 * 80 + 5, start = 74 * 80 + 74;
  const auto octile = [&](NodeId n) {
    const int dx = std::abs(int(n % 80) - 74), dy = std::abs(int(n / 80) - 74);
    return 1.0 * std::abs(dx - dy) + 1.5 * std::min(dx, dy);
  };
  DStarLite live;
  live.reset(grid.node_count(), goal);
  live.compute(grid, start, octile);
  std::mt19937_64 rng(3);
  std::uint64_t repaired = 0, fresh = 0;
  for (int k = 0; k < 20; ++k) {
    // Block or free one cell near the middle: its own arcs and its neighbours' change.
    const NodeId cell = NodeId((30 + int(rng() % 20)) * 80 + 30 + int(rng() % 20));
    if (cell == start || cell == goal) continue;
    grid.blocked[cell] ^= 1;
    const int x = int(cell % 80), y = int(cell / 80);
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) live.arcs_changed(grid, NodeId((y + dy) * 80 + x + dx));
    repaired += live.compute(grid, start, octile);
    DStarLite again;
    again.reset(grid.node_count(), goal);
    fresh += again.compute(grid, start, octile);
    ASSERT_EQ(live.cost(start), again.cost(start)) << "change " << k;
  }
  EXPECT_LT(repaired, fresh / 2) << repaired << " expansions repairing, " << fresh << " afresh";
}

}  // namespace
}  // namespace polynav::search
