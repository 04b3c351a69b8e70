// Landmarks (ALT): on seeded random undirected graphs the stored costs are Boost.Graph's Dijkstra
// distances, every bound is admissible and consistent, for whole target sets and for the active
// subset, and A* with the bound returns the same costs as Dijkstra's algorithm.
#include "polynav/search/landmarks.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "search/random_graphs.hpp"

namespace polynav::search {
namespace {

using testing::inf;

struct Arc {
  NodeId node;
  double cost;
};

// Undirected random instances only (landmark bounds need every arc both ways).
std::vector<testing::Instance> undirected_instances(int want) {
  std::vector<testing::Instance> out;
  for (std::uint64_t seed = 1; int(out.size()) < want; ++seed) {
    testing::Instance in = testing::random_instance(seed, 80);
    if (in.undirected && in.n >= 2) out.push_back(std::move(in));
  }
  return out;
}

TEST(Landmarks, CostsAreShortestPathCostsFromTheLargestComponent) {
  std::size_t total = 0;
  for (const testing::Instance& in : undirected_instances(150)) {
    SCOPED_TRACE("seed " + std::to_string(in.seed));
    const ComponentLabels labels(in.graph);
    const Landmarks marks(in.graph, labels, 6);
    ASSERT_LE(marks.count(), 6u);
    total += marks.count();
    std::vector<std::size_t> size(labels.component_count(), 0);
    for (NodeId v = 0; v < in.n; ++v) ++size[labels.label(v)];
    const testing::BglGraph g = testing::to_bgl(in);
    for (std::size_t l = 0; l < marks.count(); ++l) {
      const NodeId mark = marks.nodes()[l];
      EXPECT_EQ(size[labels.label(mark)], *std::max_element(size.begin(), size.end()));
      const std::vector<double> d = testing::bgl_distances(g, mark);
      for (NodeId v = 0; v < in.n; ++v)
        EXPECT_TRUE(testing::near(marks.cost(l, v), d[v])) << "landmark " << l << " node " << v;
    }
  }
  EXPECT_GT(total, 300u);
}

TEST(Landmarks, BoundsAreAdmissibleAndConsistentAndKeepAStarOptimal) {
  std::mt19937 rng(5);
  int searched = 0;
  for (const testing::Instance& in : undirected_instances(150)) {
    SCOPED_TRACE("seed " + std::to_string(in.seed));
    const ComponentLabels labels(in.graph);
    const Landmarks marks(in.graph, labels, 8);
    const testing::BglGraph g = testing::to_bgl(in);
    std::uniform_int_distribution<NodeId> node(0, NodeId(in.n - 1));
    std::uniform_real_distribution<double> extra(0.0, 3.0);
    AStar astar;
    SearchResult result;
    for (int q = 0; q < 5; ++q) {
      // A target reached through up to three arcs, as a goal point attaches to a few nodes, and
      // a source reached from up to three nodes (for the active subset).
      std::vector<Arc> into, from;
      for (int k = 0; k < 3; ++k) into.push_back({node(rng), extra(rng)});
      for (int k = 0; k < 3; ++k) from.push_back({node(rng), extra(rng)});
      // The true cost from every node to the target: min over its arcs.
      std::vector<double> to_target(in.n, inf);
      for (const Arc& a : into) {
        const std::vector<double> d = testing::bgl_distances(g, a.node);  // undirected
        for (NodeId v = 0; v < in.n; ++v) to_target[v] = std::min(to_target[v], d[v] + a.cost);
      }
      for (const std::size_t active : {std::size_t{8}, std::size_t{2}}) {
        const LandmarkTarget t = active == 8 ? marks.target(into) : marks.target(into, from, 2);
        EXPECT_LE(t.count, active);
        for (NodeId v = 0; v < in.n; ++v) {
          const double h = marks.lower_bound(v, t);
          EXPECT_GE(h, 0.0);
          if (to_target[v] == inf) continue;
          EXPECT_LE(h, to_target[v] * (1 + 1e-12) + 1e-12) << "node " << v;
          in.graph.for_each_neighbour(v, [&](NodeId w, double c) {
            EXPECT_LE(h, c + marks.lower_bound(w, t) + 1e-9) << "arc " << v << " -> " << w;
          });
        }
        // A* towards the target's first node (a target of one arc of cost 0) with the bound.
        const NodeId s = from[0].node, goal = into[0].node;
        const std::vector<Arc> at_goal = {{goal, 0.0}};
        const LandmarkTarget one = marks.target(at_goal, from, active);
        const auto h = [&](NodeId v) { return marks.lower_bound(v, one); };
        astar.search(in.graph, s, std::span(&goal, 1), h, SearchOptions{}, result);
        const double expected = testing::bgl_distances(g, s)[goal];
        if (expected == inf) {
          EXPECT_NE(result.status, SearchStatus::found);
        } else {
          ASSERT_EQ(result.status, SearchStatus::found);
          EXPECT_TRUE(testing::near(result.cost, expected)) << result.cost << " vs " << expected;
          ++searched;
        }
      }
    }
  }
  EXPECT_GT(searched, 300);
}

TEST(Landmarks, NoLandmarksMeansNoBound) {
  const testing::Instance in = undirected_instances(1).front();
  const ComponentLabels labels(in.graph);
  const Landmarks none(in.graph, labels, 0);
  EXPECT_EQ(none.count(), 0u);
  const std::vector<Arc> at = {{0, 0.0}};
  const LandmarkTarget t = none.target(at);
  EXPECT_EQ(t.count, 0u);
  for (NodeId v = 0; v < in.n; ++v) EXPECT_EQ(none.lower_bound(v, t), 0.0);
}

}  // namespace
}  // namespace polynav::search
