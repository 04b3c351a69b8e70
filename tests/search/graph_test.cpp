// CsrGraph, AugmentedGraph and the indexed d-ary heap.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "polynav/search/astar.hpp"
#include "polynav/search/d_ary_heap.hpp"
#include "polynav/search/graph.hpp"
#include "search/random_graphs.hpp"

namespace polynav::search {
namespace {

static_assert(SearchGraph<CsrGraph>);
static_assert(!GrowingGraph<CsrGraph>);
static_assert(SearchGraph<AugmentedGraph<CsrGraph>>);
static_assert(SearchGraph<AugmentedGraph<AugmentedGraph<CsrGraph>>>);
static_assert(PrefetchingGraph<CsrGraph>);
static_assert(PrefetchingGraph<AugmentedGraph<CsrGraph>>);

template <SearchGraph G>
std::vector<std::multiset<std::pair<NodeId, double>>> adjacency(const G& g) {
  std::vector<std::multiset<std::pair<NodeId, double>>> out(g.node_count());
  for (NodeId n = 0; n < g.node_count(); ++n) {
    g.for_each_neighbour(n, [&](NodeId to, double cost) { out[n].emplace(to, cost); });
  }
  return out;
}

TEST(CsrGraph, KeepsArcsPerNodeInInputOrder) {
  const std::vector<Edge> edges{{2, 0, 1.5}, {0, 1, 1.0}, {2, 1, 0.0}, {0, 2, 3.0}};
  const CsrGraph g(4, edges);
  EXPECT_EQ(g.node_count(), 4u);
  EXPECT_EQ(g.arc_count(), 4u);
  ASSERT_EQ(g.arcs(0).size(), 2u);
  EXPECT_EQ(g.arcs(0)[0].to, 1u);
  EXPECT_EQ(g.arcs(0)[1].to, 2u);
  EXPECT_EQ(g.arcs(1).size(), 0u);
  ASSERT_EQ(g.arcs(2).size(), 2u);
  EXPECT_EQ(g.arcs(2)[0].to, 0u);
  EXPECT_EQ(g.arcs(2)[0].cost, 1.5);
  EXPECT_EQ(g.arcs(2)[1].to, 1u);
  EXPECT_EQ(g.arcs(3).size(), 0u);
}

TEST(CsrGraph, UndirectedBuilderEqualsBothArcs) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    std::mt19937_64 rng(seed);
    const std::size_t n = std::uniform_int_distribution<std::size_t>(1, 30)(rng);
    std::uniform_int_distribution<NodeId> node(0, static_cast<NodeId>(n - 1));
    std::vector<Edge> edges, both;
    for (int k = 0; k < 40; ++k) {
      const Edge e{node(rng), node(rng), std::uniform_real_distribution<double>(0, 5)(rng)};
      edges.push_back(e);
      both.push_back(e);
      both.push_back(Edge{e.to, e.from, e.cost});
    }
    EXPECT_EQ(adjacency(CsrGraph(n, edges, Direction::undirected)), adjacency(CsrGraph(n, both)));
  }
}

TEST(CsrGraph, RejectsBadEdges) {
  const std::vector<Edge> out_of_range{{0, 3, 1.0}};
  EXPECT_THROW(CsrGraph(3, out_of_range), std::invalid_argument);
  const std::vector<Edge> negative{{0, 1, -1.0}};
  EXPECT_THROW(CsrGraph(3, negative), std::invalid_argument);
  const std::vector<Edge> nan{{0, 1, std::numeric_limits<double>::quiet_NaN()}};
  EXPECT_THROW(CsrGraph(3, nan), std::invalid_argument);
  const std::vector<Edge> infinite{{0, 1, testing::inf}};
  EXPECT_THROW(CsrGraph(3, infinite), std::invalid_argument);
  EXPECT_EQ(CsrGraph().node_count(), 0u);
}

// The adaptor must behave exactly like the graph with the extra nodes and arcs copied in.
TEST(AugmentedGraph, EqualsTheMaterialisedGraph) {
  for (std::uint64_t seed = 0; seed < 500 && !HasFailure(); ++seed) {
    SCOPED_TRACE(seed);
    const testing::Instance in = testing::random_instance(seed, 50);
    std::mt19937_64 rng(seed);
    AugmentedGraph<CsrGraph> aug(in.graph);
    std::vector<Edge> all = in.arcs;
    const std::size_t extra = std::uniform_int_distribution<std::size_t>(0, 4)(rng);
    for (std::size_t i = 0; i < extra; ++i) {
      EXPECT_EQ(aug.add_node(), in.n + i);
    }
    const std::size_t total = aug.node_count();
    EXPECT_EQ(total, in.n + extra);
    std::uniform_int_distribution<NodeId> node(0, static_cast<NodeId>(total - 1));
    // Up to 200 arcs between any nodes, base and extra alike: base nodes with added arcs make
    // the adaptor's table grow several times.
    const std::size_t arcs = std::uniform_int_distribution<std::size_t>(0, 200)(rng);
    for (std::size_t k = 0; k < arcs; ++k) {
      const Edge e{node(rng), node(rng), std::uniform_real_distribution<double>(0, 5)(rng)};
      aug.add_arc(e.from, e.to, e.cost);
      all.push_back(e);
    }
    const CsrGraph materialised(total, all);
    EXPECT_EQ(adjacency(aug), adjacency(materialised));

    AStar astar;
    for (int q = 0; q < 5; ++q) {
      const NodeId s = node(rng), t = node(rng);
      const SearchResult a = astar.search(aug, s, t, ZeroHeuristic{});
      const SearchResult b = astar.search(materialised, s, t, ZeroHeuristic{});
      EXPECT_EQ(a.status, b.status);
      EXPECT_EQ(a.cost, b.cost);
    }

    // clear() forgets the extras; the base shows through unchanged.
    aug.clear();
    EXPECT_EQ(aug.node_count(), in.n);
    EXPECT_EQ(adjacency(aug), adjacency(in.graph));
  }
}

// One adaptor reused across many queries: each sees only its own extras.
TEST(AugmentedGraph, ClearServesQueryAfterQuery) {
  const CsrGraph base(50, std::vector<Edge>{});
  AugmentedGraph<CsrGraph> reused(base);
  for (int q = 0; q < 100; ++q) {
    reused.clear();
    const NodeId start = reused.add_node();
    const NodeId goal = reused.add_node();
    reused.add_arc(start, static_cast<NodeId>(q % 50), 1.0);
    reused.add_arc(static_cast<NodeId>(q % 50), goal, 2.0);
    const auto adj = adjacency(reused);
    std::size_t arcs = 0;
    for (const auto& s : adj) arcs += s.size();
    EXPECT_EQ(arcs, 2u);
    EXPECT_EQ(dijkstra(reused, start, goal).cost, 3.0);
  }
}

TEST(AugmentedGraph, RejectsBadArcs) {
  const CsrGraph base(3, std::vector<Edge>{});
  AugmentedGraph<CsrGraph> aug(base);
  const NodeId s = aug.add_node();
  EXPECT_EQ(s, 3u);
  EXPECT_TRUE(aug.is_extra(s));
  EXPECT_FALSE(aug.is_extra(2));
  EXPECT_THROW(aug.add_arc(s, 4, 1.0), std::invalid_argument);
  EXPECT_THROW(aug.add_arc(0, s, -0.5), std::invalid_argument);
  EXPECT_NO_THROW(aug.add_arc(0, s, 0.0));
}

struct MinKey {
  double f;
  double g;
};
struct MinKeyLess {
  bool operator()(const MinKey& a, const MinKey& b) const {
    return a.f < b.f || (a.f == b.f && a.g > b.g);
  }
};

template <class Heap>
void expect_heap_property(const Heap& heap, std::size_t arity) {
  const auto keys = heap.keys();
  const auto ids = heap.ids();
  ASSERT_EQ(keys.size(), heap.size());
  ASSERT_EQ(ids.size(), heap.size());
  MinKeyLess less;
  for (std::size_t i = 1; i < keys.size(); ++i) {
    ASSERT_FALSE(less(keys[i], keys[(i - 1) / arity])) << "entry " << i;
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    ASSERT_TRUE(heap.contains(ids[i]));
    ASSERT_EQ(heap.key(ids[i]).f, keys[i].f);
    ASSERT_EQ(heap.key(ids[i]).g, keys[i].g);
  }
}

// Random operations against a brute-force model, for several arities.
template <std::size_t Arity>
void heap_against_model() {
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    SCOPED_TRACE(seed);
    std::mt19937_64 rng(seed);
    DAryHeap<MinKey, MinKeyLess, Arity> heap;
    const NodeId ids = 64;
    heap.reserve_ids(ids);
    std::map<NodeId, MinKey> model;
    MinKeyLess less;
    std::uniform_int_distribution<int> small(0, 20);  // small keys: plenty of ties
    for (int step = 0; step < 2000; ++step) {
      const NodeId id = std::uniform_int_distribution<NodeId>(0, ids - 1)(rng);
      const int op = std::uniform_int_distribution<int>(0, 5)(rng);
      const MinKey key{static_cast<double>(small(rng)), static_cast<double>(small(rng))};
      if (op <= 1) {
        if (!model.count(id)) {
          heap.push(id, key);
          model[id] = key;
        }
      } else if (op == 2) {
        if (model.count(id) && !less(model[id], key)) {
          heap.decrease(id, key);
          model[id] = key;
        }
      } else if (op == 3) {
        if (model.count(id)) {
          heap.update(id, key);
          model[id] = key;
        }
      } else if (op == 4) {
        if (!model.empty()) {
          const MinKey top = heap.top_key();
          const NodeId top_id = heap.top();
          const NodeId popped = heap.pop();
          ASSERT_EQ(popped, top_id);
          ASSERT_TRUE(model.count(popped));
          EXPECT_EQ(model[popped].f, top.f);
          for (const auto& [other, k] : model) ASSERT_FALSE(less(k, top)) << "not the minimum";
          model.erase(popped);
        }
      } else {
        if (!model.empty()) {
          const NodeId worst = heap.worst();
          ASSERT_TRUE(model.count(worst));
          for (const auto& [other, k] : model) ASSERT_FALSE(less(model[worst], k)) << "not worst";
          heap.erase(worst);
          model.erase(worst);
        }
      }
      ASSERT_EQ(heap.size(), model.size());
      for (NodeId n = 0; n < ids; ++n) ASSERT_EQ(heap.contains(n), model.count(n) == 1);
      expect_heap_property(heap, Arity);
    }
    heap.clear();
    EXPECT_TRUE(heap.empty());
    for (NodeId n = 0; n < ids; ++n) EXPECT_FALSE(heap.contains(n));
  }
}

TEST(DAryHeap, MatchesABruteForceModel) {
  heap_against_model<2>();
  heap_against_model<4>();
  heap_against_model<5>();
}

TEST(DAryHeap, TiesGoToTheLargerG) {
  DAryHeap<MinKey, MinKeyLess> heap;
  heap.reserve_ids(3);
  heap.push(0, {5.0, 1.0});
  heap.push(1, {5.0, 3.0});
  heap.push(2, {5.0, 2.0});
  EXPECT_EQ(heap.pop(), 1u);
  EXPECT_EQ(heap.pop(), 2u);
  EXPECT_EQ(heap.pop(), 0u);
}

}  // namespace
}  // namespace polynav::search
