// A*, Dijkstra, weighted A*, goal sets, limits, reachability, beam search, reopening and tie
// rules on thousands of seeded random graphs, checked against Boost.Graph's
// dijkstra_shortest_paths and, for the order of expansions, a plain reference of each tie rule.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <queue>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "polynav/search/astar.hpp"
#include "search/random_graphs.hpp"

namespace polynav::search {
namespace {

using testing::bgl_distances;
using testing::inf;
using testing::Instance;
using testing::near;
using testing::path_cost;
using testing::random_instance;
using testing::to_bgl;

constexpr std::uint64_t graph_count = 3000;

// The ways a test builds an admissible heuristic for a goal set.
enum class HeuristicKind { zero, scaled_exact, euclid, random_inconsistent };

struct Heuristics {
  const Instance* in;
  std::vector<std::vector<double>> to_goal;  // exact distances to each goal (reversed BGL run)
  std::vector<NodeId> goals;

  // Consistent: alpha times the exact distance to the nearest goal (any alpha in [0, 1]).
  std::vector<double> scaled_exact(double alpha) const {
    std::vector<double> h(in->n, inf);
    for (std::size_t v = 0; v < in->n; ++v) {
      for (const auto& d : to_goal) h[v] = std::min(h[v], d[v]);
      if (h[v] != inf) h[v] *= alpha;
    }
    return h;
  }
  // Consistent when arc costs are at least Euclidean (the geometric cost model).
  std::vector<double> euclid() const {
    std::vector<double> h(in->n, inf);
    for (std::size_t v = 0; v < in->n; ++v) {
      for (const NodeId goal : goals) {
        h[v] = std::min(h[v], in->euclid(static_cast<NodeId>(v), goal));
      }
    }
    return h;
  }
  // Admissible but, in general, inconsistent: an independent random fraction of the exact value.
  std::vector<double> random_inconsistent(std::mt19937_64& rng) const {
    std::vector<double> h = scaled_exact(1.0);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (double& v : h) {
      if (v != inf) v *= u(rng);
    }
    return h;
  }
};

struct Query {
  NodeId start;
  std::vector<NodeId> goals;
  double optimal;  // min over goals of the BGL distance
};

Query random_query(const Instance& in, std::mt19937_64& rng, std::size_t max_goals,
                   Heuristics& hs) {
  std::uniform_int_distribution<NodeId> node(0, static_cast<NodeId>(in.n - 1));
  std::uniform_int_distribution<std::size_t> count(1, max_goals);
  Query q{node(rng), {}, inf};
  const std::size_t k = count(rng);
  for (std::size_t i = 0; i < k; ++i) q.goals.push_back(node(rng));
  const auto forward = bgl_distances(to_bgl(in), q.start);
  const auto reversed = to_bgl(in, true);
  hs.in = &in;
  hs.goals = q.goals;
  hs.to_goal.clear();
  for (const NodeId goal : q.goals) {
    q.optimal = std::min(q.optimal, forward[goal]);
    hs.to_goal.push_back(bgl_distances(reversed, goal));
  }
  return q;
}

// Checks that r is a valid path from q.start to one of q.goals whose cost is r.cost.
void expect_valid_path(const Instance& in, const Query& q, const SearchResult& r) {
  ASSERT_FALSE(r.path.empty());
  EXPECT_EQ(r.path.front(), q.start);
  EXPECT_EQ(r.path.back(), r.reached);
  const double cost = path_cost(in, r.path);
  EXPECT_FALSE(std::isnan(cost)) << "the path uses an arc that does not exist";
  EXPECT_TRUE(near(cost, r.cost)) << cost << " vs reported " << r.cost;
}

void expect_optimal(const Instance& in, const Query& q, const SearchResult& r) {
  if (q.optimal == inf) {
    EXPECT_EQ(r.status, SearchStatus::no_path) << r.explanation();
    EXPECT_TRUE(r.path.empty());
    return;
  }
  ASSERT_EQ(r.status, SearchStatus::found) << r.explanation();
  EXPECT_TRUE(std::find(q.goals.begin(), q.goals.end(), r.reached) != q.goals.end());
  EXPECT_TRUE(near(r.cost, q.optimal)) << "A* " << r.cost << " vs Boost " << q.optimal;
  expect_valid_path(in, q, r);
}

auto table(const std::vector<double>& h) {
  return [&h](NodeId n) { return h[n]; };
}

TEST(AStarRandom, OptimalCostsMatchBoostDijkstra) {
  AStar astar;
  SearchResult r;
  std::uint64_t checked = 0, found = 0, unreachable = 0;
  for (std::uint64_t seed = 0; seed < graph_count && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed);
    std::mt19937_64 rng(seed * 7919 + 1);
    Heuristics hs;
    for (int k = 0; k < 3; ++k) {
      const Query q = random_query(in, rng, 1, hs);
      SCOPED_TRACE(::testing::Message()
                   << "seed " << seed << " start " << q.start << " goal " << q.goals[0]);
      // Dijkstra.
      astar.search(in.graph, q.start, q.goals, ZeroHeuristic{}, {}, r);
      expect_optimal(in, q, r);
      // A* with consistent heuristics of several strengths.
      for (const double alpha : {0.5, 0.9, 1.0}) {
        const auto h = hs.scaled_exact(alpha);
        astar.search(in.graph, q.start, q.goals, table(h), {}, r);
        expect_optimal(in, q, r);
      }
      if (in.model == testing::CostModel::geometric) {
        const auto h = hs.euclid();
        astar.search(in.graph, q.start, q.goals, table(h), {}, r);
        expect_optimal(in, q, r);
      }
      ++checked;
      (q.optimal == inf ? unreachable : found) += 1;
    }
  }
  // The generator must produce both kinds of query, or this test proves little.
  EXPECT_GT(found, checked / 4);
  EXPECT_GT(unreachable, checked / 20);
}

TEST(AStarRandom, MultiGoalFindsTheNearestGoal) {
  AStar astar;
  SearchResult r;
  for (std::uint64_t seed = 0; seed < graph_count && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed + 100000);
    std::mt19937_64 rng(seed);
    Heuristics hs;
    const Query q = random_query(in, rng, 5, hs);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " start " << q.start);
    const auto h = in.model == testing::CostModel::geometric ? hs.euclid() : hs.scaled_exact(0.8);
    astar.search(in.graph, q.start, q.goals, table(h), {}, r);
    expect_optimal(in, q, r);
  }
}

TEST(AStarRandom, WeightedAStarIsWithinWeightTimesOptimal) {
  AStar astar;
  SearchResult r;
  for (std::uint64_t seed = 0; seed < graph_count && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed + 200000);
    std::mt19937_64 rng(seed);
    Heuristics hs;
    const Query q = random_query(in, rng, 2, hs);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " start " << q.start);
    const auto h = hs.scaled_exact(1.0);
    for (const double w : {1.0, 1.5, 2.0, 5.0}) {
      SearchOptions o;
      o.weight = w;
      astar.search(in.graph, q.start, q.goals, table(h), o, r);
      if (q.optimal == inf) {
        EXPECT_EQ(r.status, SearchStatus::no_path);
        continue;
      }
      ASSERT_EQ(r.status, SearchStatus::found) << r.explanation();
      expect_valid_path(in, q, r);
      EXPECT_GE(r.cost, q.optimal * (1 - 1e-9));
      EXPECT_LE(r.cost, w * q.optimal * (1 + 1e-9) + 1e-12) << "w = " << w;
    }
  }
}

TEST(AStarRandom, ReopeningRestoresOptimalityWithAnInconsistentHeuristic) {
  AStar astar;
  SearchResult r;
  std::uint64_t reopened = 0;
  for (std::uint64_t seed = 0; seed < graph_count && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed + 300000);
    std::mt19937_64 rng(seed);
    Heuristics hs;
    const Query q = random_query(in, rng, 2, hs);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " start " << q.start);
    const auto h = hs.random_inconsistent(rng);
    SearchOptions o;
    o.reopen_closed = true;
    astar.search(in.graph, q.start, q.goals, table(h), o, r);
    expect_optimal(in, q, r);
    reopened += r.stats.reopened;
  }
  // The heuristic must really be inconsistent somewhere, or reopening was never exercised.
  EXPECT_GT(reopened, 0u);
}

TEST(AStarRandom, ReachabilityMatchesBoostWithinTheBound) {
  AStar astar;
  ReachableSet set;
  for (std::uint64_t seed = 0; seed < graph_count && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed + 400000);
    std::mt19937_64 rng(seed);
    const auto source =
        std::uniform_int_distribution<NodeId>(0, static_cast<NodeId>(in.n - 1))(rng);
    const auto d = bgl_distances(to_bgl(in), source);
    // A bound halfway between two distinct distances, so rounding cannot decide membership.
    std::vector<double> finite;
    for (const double v : d) {
      if (v != inf) finite.push_back(v);
    }
    std::sort(finite.begin(), finite.end());
    double bound = finite.back() + 1.0;
    const std::size_t cut = std::uniform_int_distribution<std::size_t>(0, finite.size() - 1)(rng);
    if (cut + 1 < finite.size() && finite[cut + 1] - finite[cut] > 1e-6) {
      bound = (finite[cut] + finite[cut + 1]) / 2;
    }
    SCOPED_TRACE(::testing::Message()
                 << "seed " << seed << " source " << source << " bound " << bound);
    astar.reachable(in.graph, source, bound, set);
    ASSERT_EQ(set.status, SearchStatus::found);
    std::vector<double> got(in.n, inf);
    double previous = 0.0;
    for (const ReachedNode& rn : set.nodes) {
      EXPECT_EQ(got[rn.node], inf) << "node " << rn.node << " reported twice";
      got[rn.node] = rn.cost;
      EXPECT_GE(rn.cost, previous) << "not in cost order";
      previous = rn.cost;
      if (rn.node == source) {
        EXPECT_EQ(rn.parent, no_node);
      } else {
        ASSERT_LT(rn.parent, in.n);
        EXPECT_NE(got[rn.parent], inf) << "parent listed after its child";
        EXPECT_TRUE(near(got[rn.parent] + in.arc_cost(rn.parent, rn.node), rn.cost));
      }
    }
    for (std::size_t v = 0; v < in.n; ++v) {
      if (d[v] <= bound) {
        EXPECT_TRUE(near(got[v], d[v])) << "node " << v << ": " << got[v] << " vs " << d[v];
      } else {
        EXPECT_EQ(got[v], inf) << "node " << v << " beyond the bound";
      }
    }
  }
}

TEST(AStarRandom, BeamSearchReturnsValidPaths) {
  AStar astar;
  SearchResult r;
  std::uint64_t found = 0, dropped = 0;
  for (std::uint64_t seed = 0; seed < graph_count && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed + 500000);
    std::mt19937_64 rng(seed);
    Heuristics hs;
    const Query q = random_query(in, rng, 2, hs);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " start " << q.start);
    const auto h = hs.scaled_exact(0.7);
    for (const std::size_t width : {1, 2, 4, 16}) {
      SearchOptions o;
      o.beam_width = width;
      astar.search(in.graph, q.start, q.goals, table(h), o, r);
      dropped += r.stats.dropped;
      switch (r.status) {
        case SearchStatus::found:
          ++found;
          expect_valid_path(in, q, r);
          EXPECT_GE(r.cost, q.optimal * (1 - 1e-9));
          break;
        case SearchStatus::no_path:
          EXPECT_EQ(q.optimal, inf) << "beam search claims no path without dropping anything";
          EXPECT_EQ(r.stats.dropped, 0u);
          break;
        case SearchStatus::limit_reached:
          EXPECT_EQ(r.limit, SearchLimit::beam_width);
          EXPECT_GT(r.stats.dropped, 0u);
          break;
        default:
          ADD_FAILURE() << r.explanation();
      }
    }
    // A beam wider than the graph never drops: plain A*.
    SearchOptions wide;
    wide.beam_width = in.n;
    astar.search(in.graph, q.start, q.goals, table(h), wide, r);
    EXPECT_EQ(r.stats.dropped, 0u);
    expect_optimal(in, q, r);
  }
  EXPECT_GT(found, 0u);
  EXPECT_GT(dropped, 0u);
}

TEST(AStarRandom, ExpansionLimitAndPartialFallback) {
  AStar astar;
  SearchResult full, limited, partial;
  std::uint64_t partial_checked = 0;
  for (std::uint64_t seed = 0; seed < graph_count && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed + 600000);
    std::mt19937_64 rng(seed);
    Heuristics hs;
    const Query q = random_query(in, rng, 1, hs);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " start " << q.start);
    const auto h = hs.scaled_exact(0.5);
    astar.search(in.graph, q.start, q.goals, table(h), {}, full);
    const std::uint64_t e = full.stats.expanded;

    // Exactly enough expansions: the goal is still found (popping a goal is not an expansion).
    SearchOptions o;
    o.max_expansions = e;
    astar.search(in.graph, q.start, q.goals, table(h), o, limited);
    EXPECT_EQ(limited.status, full.status);
    EXPECT_EQ(limited.cost, full.cost);
    if (e == 0) continue;

    // One fewer: the e-th pop is not a goal, so the limit stops the search there.
    o.max_expansions = e - 1;
    astar.search(in.graph, q.start, q.goals, table(h), o, limited);
    EXPECT_EQ(limited.status, SearchStatus::limit_reached) << limited.explanation();
    EXPECT_EQ(limited.limit, SearchLimit::expansions);
    EXPECT_EQ(limited.stats.expanded, e - 1);
    EXPECT_TRUE(limited.path.empty());

    // The same with the fallback: a path to the reached node with the smallest h (ties: g).
    struct Reached {
      std::vector<NodeId> nodes;
      void examine(NodeId) {}
      void relax(NodeId, NodeId to, double) { nodes.push_back(to); }
      void finish(NodeId) {}
    } seen;
    seen.nodes.push_back(q.start);
    o.partial_fallback = true;
    astar.search(in.graph, q.start, q.goals, table(h), o, partial, seen);
    ASSERT_EQ(partial.status, SearchStatus::partial) << partial.explanation();
    EXPECT_EQ(partial.limit, SearchLimit::expansions);
    expect_valid_path(in, q, partial);
    double best_h = inf, best_g = inf;
    for (const NodeId n : seen.nodes) {
      const double g = astar.cost_to(n);
      if (h[n] < best_h || (h[n] == best_h && g < best_g)) {
        best_h = h[n];
        best_g = g;
      }
    }
    EXPECT_EQ(partial.reached_h, best_h);
    EXPECT_EQ(h[partial.reached], best_h);
    EXPECT_EQ(partial.cost, best_g);
    ++partial_checked;
  }
  EXPECT_GT(partial_checked, graph_count / 4);
}

TEST(AStarRandom, UnreachableGoalWithFallbackGivesPartial) {
  AStar astar;
  SearchResult r;
  std::uint64_t checked = 0;
  for (std::uint64_t seed = 0; seed < graph_count && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed + 700000);
    if (in.model != testing::CostModel::geometric) continue;
    std::mt19937_64 rng(seed);
    Heuristics hs;
    const Query q = random_query(in, rng, 1, hs);
    if (q.optimal != inf) continue;
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " start " << q.start);
    const auto h = hs.euclid();
    SearchOptions o;
    o.partial_fallback = true;
    astar.search(in.graph, q.start, q.goals, table(h), o, r);
    ASSERT_EQ(r.status, SearchStatus::partial) << r.explanation();
    EXPECT_EQ(r.limit, SearchLimit::none);
    expect_valid_path(in, q, r);
    // Every node reachable from the start was reached, so the closest is the global minimum
    // of h over the start's reachable set.
    const auto d = bgl_distances(to_bgl(in), q.start);
    double best = inf;
    for (std::size_t v = 0; v < in.n; ++v) {
      if (d[v] != inf) best = std::min(best, h[v]);
    }
    EXPECT_EQ(r.reached_h, best);
    ++checked;
  }
  EXPECT_GT(checked, 20u);
}

TEST(AStarRandom, CostLimit) {
  AStar astar;
  SearchResult r;
  std::uint64_t below = 0;
  for (std::uint64_t seed = 0; seed < graph_count && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed + 800000);
    std::mt19937_64 rng(seed);
    Heuristics hs;
    const Query q = random_query(in, rng, 1, hs);
    if (q.optimal == inf) continue;
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " start " << q.start);
    const auto h = hs.scaled_exact(0.9);
    SearchOptions o;
    o.max_cost = q.optimal * (1 + 1e-9);
    astar.search(in.graph, q.start, q.goals, table(h), o, r);
    expect_optimal(in, q, r);
    if (q.optimal > 0) {
      o.max_cost = q.optimal * (1 - 1e-6);
      astar.search(in.graph, q.start, q.goals, table(h), o, r);
      EXPECT_EQ(r.status, SearchStatus::limit_reached) << r.explanation();
      EXPECT_EQ(r.limit, SearchLimit::cost);
      EXPECT_EQ(r.limit_value, o.max_cost);
      ++below;
    }
  }
  EXPECT_GT(below, graph_count / 4);
}

TEST(AStarRandom, ComponentLabelsAnswerUnreachableGoalsWithoutSearching) {
  AStar astar;
  SearchResult plain, labelled;
  std::uint64_t shortcut = 0;
  for (std::uint64_t seed = 0; seed < graph_count && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed + 900000);
    const ComponentLabels labels(in.graph);
    std::mt19937_64 rng(seed);
    Heuristics hs;
    const Query q = random_query(in, rng, 3, hs);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " start " << q.start);
    SearchOptions o;
    o.components = &labels;
    astar.search(in.graph, q.start, q.goals, ZeroHeuristic{}, o, labelled);
    // Directed or not, the labels must never turn a reachable goal into no_path.
    expect_optimal(in, q, labelled);
    if (labelled.note == SearchNote::different_components) {
      EXPECT_EQ(labelled.stats.expanded, 0u);
      ++shortcut;
    }
    // On undirected graphs the shortcut must be taken whenever no goal is reachable.
    if (in.undirected && q.optimal == inf) {
      EXPECT_EQ(labelled.note, SearchNote::different_components);
    }
  }
  EXPECT_GT(shortcut, graph_count / 20);
}

TEST(AStarRandom, TimeLimitZeroStopsBeforeExpanding) {
  AStar astar;
  SearchResult r;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const Instance in = random_instance(seed + 1000000);
    std::mt19937_64 rng(seed);
    Heuristics hs;
    const Query q = random_query(in, rng, 1, hs);
    SearchOptions o;
    o.max_time = std::chrono::nanoseconds(0);
    astar.search(in.graph, q.start, q.goals, ZeroHeuristic{}, o, r);
    if (q.start == q.goals[0]) {
      EXPECT_EQ(r.status, SearchStatus::found);
    } else {
      EXPECT_EQ(r.status, SearchStatus::limit_reached) << r.explanation();
      EXPECT_EQ(r.limit, SearchLimit::time);
      EXPECT_EQ(r.stats.expanded, 0u);
    }
  }
}

// A heuristic that also ranks ties (TieBreak::rank): a seeded permutation of the nodes, so that
// ranks are unique and the expansion order is fully decided.
struct RankedHeuristic {
  const std::vector<double>* h;
  const std::vector<std::uint64_t>* ranks;
  double operator()(NodeId n) const { return (*h)[n]; }
  std::uint64_t tie_rank(NodeId n) const { return (*ranks)[n]; }
};

// The order of expansions a tie rule prescribes, computed by a deliberately plain reference: the
// open list as a std::set of (f, rank, node) with erase-and-insert on improvement (fifo, lifo,
// rank), or as a std::priority_queue on f alone with one entry per improvement (binary_heap), as
// TieBreak documents them. Stops when a goal is taken from the open list.
template <class H>
std::vector<NodeId> reference_expansions(const Instance& in, NodeId start,
                                         const std::vector<NodeId>& goals, const H& h,
                                         TieBreak ties) {
  std::vector<double> g(in.n, inf);
  std::vector<bool> closed(in.n, false);
  std::vector<std::uint64_t> rank_of(in.n, 0);
  std::uint64_t order = 0;
  const auto rank = [&](NodeId n) -> std::uint64_t {
    if (ties == TieBreak::fifo) return order++;
    if (ties == TieBreak::lifo) return ~order++;
    return h.tie_rank(n);
  };
  std::set<std::tuple<double, std::uint64_t, NodeId>> open;
  struct Entry {
    double f;
    NodeId node;
  };
  const auto after = [](const Entry& a, const Entry& b) { return a.f > b.f; };
  std::priority_queue<Entry, std::vector<Entry>, decltype(after)> heap(after);
  const auto push = [&](NodeId n) {
    const double f = g[n] + h(n);
    if (ties == TieBreak::binary_heap) {
      heap.push({f, n});
    } else {
      rank_of[n] = rank(n);
      open.insert({f, rank_of[n], n});
    }
  };
  const auto pop = [&]() -> NodeId {
    if (ties != TieBreak::binary_heap) {
      if (open.empty()) return no_node;
      const NodeId n = std::get<2>(*open.begin());
      open.erase(open.begin());
      return n;
    }
    while (!heap.empty()) {
      const Entry e = heap.top();
      heap.pop();
      if (!closed[e.node] && g[e.node] + h(e.node) == e.f) return e.node;
    }
    return no_node;
  };
  std::vector<NodeId> expanded;
  g[start] = 0.0;
  push(start);
  for (NodeId n = pop(); n != no_node; n = pop()) {
    closed[n] = true;
    if (std::find(goals.begin(), goals.end(), n) != goals.end()) break;
    expanded.push_back(n);
    in.graph.for_each_neighbour(n, [&](NodeId to, double cost) {
      const double next = g[n] + cost;
      if (closed[to] || !(next < g[to])) return;
      if (ties != TieBreak::binary_heap && g[to] != inf)
        open.erase({g[to] + h(to), rank_of[to], to});
      g[to] = next;
      push(to);
    });
  }
  return expanded;
}

struct ExpansionLog {
  std::vector<NodeId>* out;
  void examine(NodeId n) { out->push_back(n); }
  void relax(NodeId, NodeId, double) {}
  void finish(NodeId) {}
};

TEST(AStarRandom, TieRulesExpandInTheOrderTheyDeclare) {
  // Integer costs and exact heuristics make whole plateaus of equal f: the rule alone orders
  // them. fifo, lifo, rank and binary_heap decide every tie, so the expansions are one sequence.
  AStar astar;
  SearchResult r;
  std::uint64_t compared = 0, with_ties = 0;
  for (std::uint64_t seed = 0; seed < graph_count / 3 && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed);
    if (in.model != testing::CostModel::integer) continue;
    std::mt19937_64 rng(seed * 31 + 7);
    Heuristics hs;
    const Query q = random_query(in, rng, 1, hs);
    std::vector<std::uint64_t> ranks(in.n);
    std::iota(ranks.begin(), ranks.end(), std::uint64_t{0});
    std::shuffle(ranks.begin(), ranks.end(), rng);
    for (const double alpha : {0.0, 1.0}) {
      const std::vector<double> h = hs.scaled_exact(alpha);
      const RankedHeuristic ranked{&h, &ranks};
      for (const TieBreak ties :
           {TieBreak::fifo, TieBreak::lifo, TieBreak::rank, TieBreak::binary_heap}) {
        SCOPED_TRACE(::testing::Message()
                     << "seed " << seed << " alpha " << alpha << " rule " << int(ties));
        SearchOptions options;
        options.ties = ties;
        std::vector<NodeId> expanded;
        astar.search(in.graph, q.start, q.goals, ranked, options, r, ExpansionLog{&expanded});
        const std::vector<NodeId> expected =
            reference_expansions(in, q.start, q.goals, ranked, ties);
        EXPECT_EQ(expanded, expected);
        if (q.optimal != inf) {
          ASSERT_EQ(r.status, SearchStatus::found);
          EXPECT_EQ(r.cost, q.optimal);  // integer costs: exact
        }
        ++compared;
        with_ties += expanded.size() > 2 && alpha == 1.0;
      }
    }
  }
  EXPECT_GT(compared, 1000u);
  EXPECT_GT(with_ties, 100u);
}

// The same graph declared sparse (SparseSearchGraph): A* keeps its records only for the nodes a
// search reaches.
struct SparseView {
  static constexpr bool sparse_search = true;
  const CsrGraph* graph;
  std::size_t node_count() const { return graph->node_count(); }
  template <class F>
  void for_each_neighbour(NodeId n, F&& f) const {
    graph->for_each_neighbour(n, f);
  }
};
static_assert(SparseSearchGraph<SparseView> && !SparseSearchGraph<CsrGraph>);
static_assert(SparseSearchGraph<AugmentedGraph<SparseView>> &&
              !SparseSearchGraph<AugmentedGraph<CsrGraph>>);

TEST(AStarRandom, SparseRecordsGiveTheDenseSearchsAnswers) {
  // One A* alternates dense and sparse searches of each graph, so that every layout starts from
  // the other's leftovers; with the same options the two must agree on everything: status, cost,
  // path, expansions, every node's cost and parent, and reachability.
  AStar astar;
  SearchResult dense, sparse;
  ReachableSet dense_set, sparse_set;
  std::uint64_t compared = 0, partial = 0, dropped = 0;
  for (std::uint64_t seed = 0; seed < graph_count && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed + 900000);
    const SparseView view{&in.graph};
    std::mt19937_64 rng(seed);
    Heuristics hs;
    const Query q = random_query(in, rng, 3, hs);
    const std::vector<double> h = hs.scaled_exact(seed % 2 == 0 ? 1.0 : 0.5);
    SearchOptions options;
    switch (seed % 5) {
      case 0:
        break;
      case 1:
        options.ties = static_cast<TieBreak>(seed / 5 % 6);
        break;
      case 2:
        options.max_expansions = seed / 5 % 4;
        options.partial_fallback = true;
        break;
      case 3:
        options.beam_width = 1 + seed / 5 % 3;
        break;
      case 4:
        options.max_cost = q.optimal == inf ? 3.0 : q.optimal / 2;
        break;
    }
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " start " << q.start);
    std::vector<NodeId> dense_order, sparse_order;
    astar.search(in.graph, q.start, q.goals, table(h), options, dense, ExpansionLog{&dense_order});
    std::vector<double> cost(in.n);
    std::vector<NodeId> parent(in.n);
    for (NodeId v = 0; v < in.n; ++v) {
      cost[v] = astar.cost_to(v);
      parent[v] = astar.parent_of(v);
    }
    astar.search(view, q.start, q.goals, table(h), options, sparse, ExpansionLog{&sparse_order});
    EXPECT_EQ(sparse.status, dense.status) << sparse.explanation();
    EXPECT_EQ(sparse.cost, dense.cost);
    EXPECT_EQ(sparse.path, dense.path);
    EXPECT_EQ(sparse.reached, dense.reached);
    EXPECT_EQ(sparse.stats.expanded, dense.stats.expanded);
    EXPECT_EQ(sparse.stats.dropped, dense.stats.dropped);
    EXPECT_EQ(sparse_order, dense_order);
    for (NodeId v = 0; v < in.n; ++v) {
      EXPECT_EQ(astar.cost_to(v), cost[v]) << "node " << v;
      EXPECT_EQ(astar.parent_of(v), parent[v]) << "node " << v;
      EXPECT_EQ(astar.reached(v), cost[v] != inf) << "node " << v;
    }
    EXPECT_FALSE(astar.reached(static_cast<NodeId>(in.n)));  // beyond the graph

    const double bound = q.optimal == inf ? 5.0 : q.optimal;
    astar.reachable(in.graph, q.start, bound, dense_set);
    astar.reachable(view, q.start, bound, sparse_set);
    ASSERT_EQ(sparse_set.nodes.size(), dense_set.nodes.size());
    for (std::size_t i = 0; i < dense_set.nodes.size(); ++i) {
      EXPECT_EQ(sparse_set.nodes[i].node, dense_set.nodes[i].node);
      EXPECT_EQ(sparse_set.nodes[i].cost, dense_set.nodes[i].cost);
      EXPECT_EQ(sparse_set.nodes[i].parent, dense_set.nodes[i].parent);
    }
    ++compared;
    partial += sparse.status == SearchStatus::partial;
    dropped += sparse.stats.dropped > 0;
  }
  EXPECT_EQ(compared, graph_count);
  EXPECT_GT(partial, graph_count / 20);
  EXPECT_GT(dropped, graph_count / 50);
}

// The same graph asking, at every expansion, for the node's parent the way jump point search
// does (ParentReadingGraph); Sparse picks the sparse records as well.
template <bool Sparse>
struct ParentReadingView {
  static constexpr bool sparse_search = Sparse;
  static constexpr bool reads_parent = true;
  const CsrGraph* graph;
  const AStar* astar;
  std::vector<std::pair<NodeId, NodeId>>* asked;  // (parent_of_expanded, parent_of) per expansion
  std::size_t node_count() const { return graph->node_count(); }
  template <class F>
  void for_each_neighbour(NodeId n, F&& f) const {
    asked->emplace_back(astar->parent_of_expanded(n), astar->parent_of(n));
    graph->for_each_neighbour(n, f);
  }
};
static_assert(ParentReadingGraph<ParentReadingView<true>> && !ParentReadingGraph<CsrGraph>);
static_assert(ParentReadingGraph<AugmentedGraph<ParentReadingView<false>>> &&
              !ParentReadingGraph<AugmentedGraph<CsrGraph>>);

TEST(AStarRandom, TheParentOfTheExpandedNodeIsItsParent) {
  // Read without a look-up during the expansion, parent_of_expanded must be parent_of at every
  // expansion of dense and sparse searches and, after a search, for every node (the latest
  // expanded one included); the searches alternate so each starts from the other's leftovers.
  AStar astar;
  SearchResult out;
  std::uint64_t expansions = 0, with_parent = 0;
  for (std::uint64_t seed = 0; seed < graph_count / 3 && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed + 950000);
    std::mt19937_64 rng(seed);
    Heuristics hs;
    const Query q = random_query(in, rng, 2, hs);
    const std::vector<double> h = hs.scaled_exact(1.0);
    std::vector<std::pair<NodeId, NodeId>> asked;
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " start " << q.start);
    if (seed % 2 == 0) {
      astar.search(ParentReadingView<false>{&in.graph, &astar, &asked}, q.start, q.goals, table(h),
                   {}, out);
    } else {
      astar.search(ParentReadingView<true>{&in.graph, &astar, &asked}, q.start, q.goals, table(h),
                   {}, out);
    }
    EXPECT_EQ(asked.size(), out.stats.expanded);
    for (const auto& [read, parent] : asked) {
      EXPECT_EQ(read, parent);
      with_parent += parent != no_node;
    }
    for (NodeId v = 0; v < in.n; ++v) EXPECT_EQ(astar.parent_of_expanded(v), astar.parent_of(v));
    expansions += asked.size();
  }
  EXPECT_GT(with_parent, expansions / 2);
}

TEST(AStarRandom, BeamSearchIsRefusedWithTheBinaryHeapRule) {
  const Instance in = random_instance(3);
  SearchOptions options;
  options.ties = TieBreak::binary_heap;
  options.beam_width = 4;
  AStar astar;
  SearchResult r;
  astar.search(in.graph, 0, std::vector<NodeId>{0}, ZeroHeuristic{}, options, r);
  EXPECT_EQ(r.status, SearchStatus::invalid_query);
  EXPECT_NE(r.explanation().find("binary_heap"), std::string::npos) << r.explanation();
}

}  // namespace
}  // namespace polynav::search
