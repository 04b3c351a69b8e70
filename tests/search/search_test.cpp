// Component labels, IDA*, listeners, state reuse across queries, invalid queries and messages.

#include <gtest/gtest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "polynav/search/astar.hpp"
#include "polynav/search/components.hpp"
#include "polynav/search/ida_star.hpp"
#include "search/random_graphs.hpp"

namespace polynav::search {
namespace {

using testing::bgl_distances;
using testing::inf;
using testing::Instance;
using testing::near;
using testing::random_instance;
using testing::to_bgl;

// Same partition: the labels of one map one-to-one onto the labels of the other.
bool same_partition(const std::vector<std::uint32_t>& a, const std::vector<int>& b) {
  std::map<std::uint32_t, int> ab;
  std::map<int, std::uint32_t> ba;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ab.emplace(a[i], b[i]).first->second != b[i]) return false;
    if (ba.emplace(b[i], a[i]).first->second != a[i]) return false;
  }
  return true;
}

TEST(ComponentLabels, AgreeWithBoostConnectedComponents) {
  using Undirected = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  std::size_t multi = 0;
  for (std::uint64_t seed = 0; seed < 3000 && !HasFailure(); ++seed) {
    SCOPED_TRACE(seed);
    // Directed graphs too: the labels are weak components, i.e. those of the undirected graph.
    const Instance in = random_instance(seed);
    Undirected u(in.n);
    for (const Edge& e : in.arcs) boost::add_edge(e.from, e.to, u);
    std::vector<int> expected(in.n);
    const int count = boost::connected_components(u, expected.data());
    const ComponentLabels labels(in.graph);
    ASSERT_EQ(labels.size(), in.n);
    EXPECT_EQ(labels.component_count(), static_cast<std::size_t>(count));
    EXPECT_TRUE(same_partition(labels.labels(), expected));
    for (std::size_t v = 0; v < in.n; ++v) {
      ASSERT_LT(labels.label(static_cast<NodeId>(v)), labels.component_count());
    }
    // Dense labels numbered in order of each component's smallest node.
    std::uint32_t next = 0;
    for (const std::uint32_t l : labels.labels()) {
      ASSERT_LE(l, next);
      if (l == next) ++next;
    }
    EXPECT_EQ(labels.label(static_cast<NodeId>(in.n)), ComponentLabels::no_component);
    multi += count > 1;
  }
  EXPECT_GT(multi, 300u);
}

TEST(IdaStar, MatchesBoostOnSmallGraphs) {
  IdaStar ida;
  SearchResult r;
  std::uint64_t found = 0, none = 0;
  for (std::uint64_t seed = 0; seed < 2000 && !HasFailure(); ++seed) {
    const Instance in = random_instance(seed + 50000, 14);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<NodeId> node(0, static_cast<NodeId>(in.n - 1));
    const NodeId start = node(rng), goal = node(rng);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " " << start << " -> " << goal);
    const double optimal = bgl_distances(to_bgl(in), start)[goal];
    auto h = bgl_distances(to_bgl(in, true), goal);
    std::uniform_real_distribution<double> fraction(0.6, 1.0);
    for (double& v : h) {
      if (v != inf) v *= fraction(rng);  // admissible, not necessarily consistent
    }
    const NodeId goals[] = {goal};
    ida.search(
        in.graph, start, goals, [&](NodeId n) { return h[n]; }, IdaStarOptions{}, r);
    if (optimal == inf) {
      EXPECT_EQ(r.status, SearchStatus::no_path) << r.explanation();
      ++none;
      continue;
    }
    ASSERT_EQ(r.status, SearchStatus::found) << r.explanation();
    EXPECT_TRUE(near(r.cost, optimal)) << r.cost << " vs " << optimal;
    ASSERT_FALSE(r.path.empty());
    EXPECT_EQ(r.path.front(), start);
    EXPECT_EQ(r.path.back(), goal);
    EXPECT_TRUE(near(testing::path_cost(in, r.path), r.cost));
    ++found;
  }
  EXPECT_GT(found, 500u);
  EXPECT_GT(none, 50u);
}

TEST(IdaStar, ExpansionLimit) {
  const std::vector<Edge> edges{{0, 1, 1.0}, {1, 2, 1.0}};
  const CsrGraph g(3, edges);
  IdaStarOptions o;
  o.max_expansions = 0;
  const SearchResult r = ida_star(g, 0, 2, ZeroHeuristic{}, o);
  EXPECT_EQ(r.status, SearchStatus::limit_reached);
  EXPECT_EQ(r.limit, SearchLimit::expansions);
  EXPECT_EQ(r.stats.expanded, 0u);
  // Thresholds 0, 1, 2 expand {0}, {0, 1}, {0, 1}: five expansions in all.
  o.max_expansions = 5;
  const SearchResult enough = ida_star(g, 0, 2, ZeroHeuristic{}, o);
  EXPECT_EQ(enough.status, SearchStatus::found);
  EXPECT_EQ(enough.stats.expanded, 5u);
  EXPECT_EQ(enough.stats.iterations, 3u);
  o.max_expansions = 4;
  EXPECT_EQ(ida_star(g, 0, 2, ZeroHeuristic{}, o).status, SearchStatus::limit_reached);
}

// Counts events and checks their order.
struct CountingListener {
  std::uint64_t examined = 0, finished = 0, relaxed = 0;
  NodeId open = no_node;
  bool nested = false;
  std::vector<NodeId> examined_nodes;
  void examine(NodeId n) {
    ++examined;
    nested |= open != no_node;
    open = n;
    examined_nodes.push_back(n);
  }
  void relax(NodeId from, NodeId, double) {
    ++relaxed;
    nested |= from != open;
  }
  void finish(NodeId n) {
    ++finished;
    nested |= n != open;
    open = no_node;
  }
};

TEST(Listener, SeesExactlyTheCountedExpansions) {
  AStar astar;
  SearchResult r;
  for (std::uint64_t seed = 0; seed < 1000 && !HasFailure(); ++seed) {
    SCOPED_TRACE(seed);
    const Instance in = random_instance(seed + 60000);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<NodeId> node(0, static_cast<NodeId>(in.n - 1));
    const NodeId start = node(rng), goal = node(rng);
    const auto exact = bgl_distances(to_bgl(in), start);
    for (const bool reopen : {false, true}) {
      CountingListener l;
      SearchOptions o;
      o.reopen_closed = reopen;
      const NodeId goals[] = {goal};
      astar.search(in.graph, start, goals, ZeroHeuristic{}, o, r, l);
      EXPECT_EQ(l.examined, r.stats.expanded);
      EXPECT_EQ(l.finished, r.stats.expanded);
      EXPECT_FALSE(l.nested);
      // Each relax opens a node (a push after the start's) or improves an open one.
      EXPECT_EQ(l.relaxed, r.stats.heap_pushes - 1 + r.stats.heap_decreases);
      EXPECT_EQ(r.stats.heap_pops, r.stats.expanded + (r.status == SearchStatus::found ? 1 : 0));
      // Dijkstra expands each node once, at its exact distance, in nondecreasing order.
      std::vector<bool> seen(in.n, false);
      double previous = 0.0;
      for (const NodeId n : l.examined_nodes) {
        EXPECT_FALSE(seen[n]) << "node " << n << " expanded twice";
        seen[n] = true;
        EXPECT_TRUE(near(astar.cost_to(n), exact[n]));
        EXPECT_GE(exact[n], previous - 1e-9);
        previous = exact[n];
      }
    }
    // Reachability reports one node per examine.
    CountingListener l;
    ReachableSet set;
    astar.reachable(in.graph, start, inf, set, l);
    EXPECT_EQ(l.examined, set.nodes.size());
    EXPECT_EQ(l.examined, set.stats.expanded);
  }
}

// A search object reused across graphs of different sizes answers like a fresh one, including
// across wraps of a small generation counter.
template <class Search>
void expect_reuse_matches_fresh(std::uint64_t queries) {
  Search reused;
  SearchResult a;
  for (std::uint64_t q = 0; q < queries && !::testing::Test::HasFailure(); ++q) {
    SCOPED_TRACE(q);
    const Instance in = random_instance(q % 97, 40 + q % 3 * 30);
    std::mt19937_64 rng(q);
    std::uniform_int_distribution<NodeId> node(0, static_cast<NodeId>(in.n - 1));
    const NodeId start = node(rng), goal = node(rng);
    const auto h = bgl_distances(to_bgl(in, true), goal);
    const auto heuristic = [&](NodeId n) { return h[n] == inf ? 0.0 : 0.5 * h[n]; };
    const NodeId goals[] = {goal};
    reused.search(in.graph, start, goals, heuristic, SearchOptions{}, a);
    Search fresh;
    SearchResult b;
    fresh.search(in.graph, start, goals, heuristic, SearchOptions{}, b);
    ASSERT_EQ(a.status, b.status);
    EXPECT_EQ(a.cost, b.cost);
    EXPECT_EQ(a.path, b.path);
    EXPECT_EQ(a.stats.expanded, b.stats.expanded);
    EXPECT_EQ(a.stats.generated, b.stats.generated);
    for (NodeId n = 0; n < in.n; ++n) {
      ASSERT_EQ(reused.cost_to(n), fresh.cost_to(n)) << "node " << n;
      ASSERT_EQ(reused.parent_of(n), fresh.parent_of(n)) << "node " << n;
    }
  }
}

TEST(Reuse, ManyQueriesMatchFreshSearches) {
  expect_reuse_matches_fresh<AStar>(1500);
}

// An 8-bit tag keeps its stamp in the 5 bits above its 3 flags (state, goal): the stamps wrap
// every 31 queries.
constexpr std::uint64_t uint8_cycle = 255 >> 3;

TEST(Reuse, GenerationCounterWrapsSafely) {
  expect_reuse_matches_fresh<BasicAStar<std::uint8_t>>(1000);
}

// The adversarial case for stamping: a node last touched exactly one full counter cycle ago
// carries the current stamp again, so the wrap must really clear the stamps. Queries on a large
// graph every 31st query (the 8-bit counter's cycle), small ones in between.
TEST(Reuse, StampsFromTheLastCycleDoNotLeakIntoTheNext) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> cost(0.5, 2.0);
  // A connected ring of 300 nodes with chords, and a 3-node path.
  std::vector<Edge> big_edges, small_edges{{0, 1, 1.0}, {1, 2, 1.0}};
  for (NodeId i = 0; i < 300; ++i) {
    big_edges.push_back({i, static_cast<NodeId>((i + 1) % 300), cost(rng)});
    big_edges.push_back({i, static_cast<NodeId>((i * 7 + 3) % 300), cost(rng)});
  }
  const CsrGraph big(300, big_edges, Direction::undirected);
  const CsrGraph small(3, small_edges, Direction::undirected);
  BasicAStar<std::uint8_t> reused;
  SearchResult a, b;
  std::uint64_t compared = 0;
  for (std::uint64_t q = 0; q < 5 * uint8_cycle && !HasFailure(); ++q) {
    const CsrGraph& g = q % uint8_cycle == 0 ? big : small;
    std::uniform_int_distribution<NodeId> node(0, static_cast<NodeId>(g.node_count() - 1));
    const NodeId start = node(rng), goal = node(rng);
    const NodeId goals[] = {goal};
    reused.search(g, start, goals, ZeroHeuristic{}, SearchOptions{}, a);
    BasicAStar<std::uint8_t> fresh;
    fresh.search(g, start, goals, ZeroHeuristic{}, SearchOptions{}, b);
    SCOPED_TRACE(q);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.cost, b.cost);
    EXPECT_EQ(a.path, b.path);
    EXPECT_EQ(a.stats.expanded, b.stats.expanded);
    compared += &g == &big;
  }
  EXPECT_EQ(compared, 5u);
}

// Nodes 1 and 2 both have f = 2; node 2 is deeper (g = 2), so it is expanded first.
TEST(AStarOrder, TiesOnFExpandTheLargerGFirst) {
  const std::vector<Edge> edges{{0, 1, 1.0}, {0, 2, 2.0}, {1, 3, 5.0}, {2, 3, 5.0}};
  const CsrGraph g(4, edges);
  const double h[] = {0.0, 1.0, 0.0, 0.0};
  for (const bool swapped : {false, true}) {
    // The same graph with the arcs out of 0 in the other order: insertion order must not matter.
    const std::vector<Edge> other{{0, 2, 2.0}, {0, 1, 1.0}, {1, 3, 5.0}, {2, 3, 5.0}};
    const CsrGraph g2(4, other);
    CountingListener l;
    const NodeId goals[] = {3};
    AStar astar;
    SearchResult r;
    astar.search(
        swapped ? g2 : g, 0, goals, [&](NodeId n) { return h[n]; }, SearchOptions{}, r, l);
    ASSERT_GE(l.examined_nodes.size(), 3u);
    EXPECT_EQ(l.examined_nodes[0], 0u);
    EXPECT_EQ(l.examined_nodes[1], 2u);
    EXPECT_EQ(l.examined_nodes[2], 1u);
  }
}

TEST(InvalidQuery, IsReportedNotThrown) {
  const std::vector<Edge> edges{{0, 1, 1.0}, {1, 2, 1.0}};
  const CsrGraph g(3, edges);
  AStar astar;
  SearchResult r;
  const auto run = [&](NodeId start, std::vector<NodeId> goals, SearchOptions o = {}) {
    astar.search(g, start, goals, ZeroHeuristic{}, o, r);
    EXPECT_EQ(r.status, SearchStatus::invalid_query);
    EXPECT_TRUE(r.path.empty());
    EXPECT_EQ(r.explanation().rfind("invalid query: ", 0), 0u) << r.explanation();
    return r.note;
  };
  EXPECT_EQ(run(3, {1}), SearchNote::start_out_of_range);
  EXPECT_EQ(run(0, {}), SearchNote::no_goals);
  EXPECT_EQ(run(0, {1, 7}), SearchNote::goal_out_of_range);
  EXPECT_NE(r.explanation().find('7'), std::string::npos);
  SearchOptions o;
  o.weight = 0.5;
  EXPECT_EQ(run(0, {2}, o), SearchNote::bad_weight);
  o.weight = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(run(0, {2}, o), SearchNote::bad_weight);
  o = {};
  o.max_cost = -1.0;
  EXPECT_EQ(run(0, {2}, o), SearchNote::bad_max_cost);
  o = {};
  o.beam_width = 0;
  EXPECT_EQ(run(0, {2}, o), SearchNote::bad_beam_width);
  o = {};
  o.max_time = std::chrono::nanoseconds(-1);
  EXPECT_EQ(run(0, {2}, o), SearchNote::bad_max_time);

  ReachableSet set;
  astar.reachable(g, 5, 1.0, set);
  EXPECT_EQ(set.status, SearchStatus::invalid_query);
  astar.reachable(g, 0, -1.0, set);
  EXPECT_EQ(set.status, SearchStatus::invalid_query);
}

TEST(SearchResult, ExplainsEachStatus) {
  const std::vector<Edge> edges{{0, 1, 1.0}, {1, 2, 1.5}};
  const CsrGraph g(4, edges);
  const SearchResult found = dijkstra(g, 0, 2);
  EXPECT_EQ(found.status, SearchStatus::found);
  EXPECT_EQ(found.path, (std::vector<NodeId>{0, 1, 2}));
  EXPECT_EQ(found.cost, 2.5);
  EXPECT_EQ(found.explanation().rfind("found: path of 3 nodes", 0), 0u) << found.explanation();

  const SearchResult none = dijkstra(g, 0, 3);
  EXPECT_EQ(none.status, SearchStatus::no_path);
  EXPECT_EQ(none.note, SearchNote::exhausted);
  EXPECT_EQ(none.explanation().rfind("no path:", 0), 0u);

  SearchOptions o;
  o.max_cost = 2.0;
  const SearchResult limited = dijkstra(g, 0, 2, o);
  EXPECT_EQ(limited.status, SearchStatus::limit_reached);
  EXPECT_NE(limited.explanation().find("cost limit 2"), std::string::npos) << limited.explanation();

  o.partial_fallback = true;
  const SearchResult partial = dijkstra(g, 0, 2, o);
  EXPECT_EQ(partial.status, SearchStatus::partial);
  EXPECT_EQ(partial.explanation().rfind("partial:", 0), 0u);

  const SearchResult self = dijkstra(g, 3, 3);
  EXPECT_EQ(self.status, SearchStatus::found);
  EXPECT_EQ(self.path, (std::vector<NodeId>{3}));
  EXPECT_EQ(self.cost, 0.0);

  EXPECT_EQ(to_string(SearchStatus::found), "found");
  EXPECT_EQ(to_string(SearchStatus::no_path), "no_path");
  EXPECT_EQ(to_string(SearchStatus::partial), "partial");
  EXPECT_EQ(to_string(SearchStatus::limit_reached), "limit_reached");
  EXPECT_EQ(to_string(SearchStatus::invalid_query), "invalid_query");
  EXPECT_EQ(to_string(SearchLimit::beam_width), "beam_width");
}

// The one budget every search loop asks: expansions before each expansion, the clock only every
// clock_period expansions, and the ending it names when no goal was reached.
TEST(SearchBudget, CountsExpansionsAndReadsTheClockEveryPeriod) {
  const SearchBudget by_count(inf, 3, std::chrono::nanoseconds::max());
  EXPECT_EQ(by_count.before_expansion(2), SearchLimit::none);
  EXPECT_EQ(by_count.before_expansion(3), SearchLimit::expansions);
  EXPECT_EQ(by_count.value_of(SearchLimit::expansions), 3.0);

  const SearchBudget no_time(inf, 1000, std::chrono::nanoseconds(0));
  EXPECT_EQ(no_time.before_expansion(0), SearchLimit::time);  // the clock is read at 0
  EXPECT_EQ(no_time.before_expansion(1), SearchLimit::none);  // and not again before 64
  EXPECT_EQ(no_time.before_expansion(SearchBudget::clock_period), SearchLimit::time);
}

// A search that does not measure its time reads no clock and reports no time, finds what a
// measured one finds, and still keeps a time limit (whose clock it then reads).
TEST(SearchBudget, AnUnmeasuredSearchReportsNoTimeButKeepsItsTimeLimit) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Instance inst = random_instance(seed);
    AStar measured, unmeasured;
    SearchOptions off;
    off.measure_time = false;
    const NodeId goal = NodeId(inst.graph.node_count() - 1);
    const SearchResult a = measured.search(inst.graph, 0, goal, ZeroHeuristic{});
    const SearchResult b = unmeasured.search(inst.graph, 0, goal, ZeroHeuristic{}, off);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.path, b.path);
    EXPECT_EQ(b.stats.elapsed.count(), 0);
  }
  const SearchBudget unmeasured(inf, 1000, std::chrono::nanoseconds(0),
                                std::numeric_limits<std::size_t>::max(), false);
  EXPECT_EQ(unmeasured.before_expansion(0), SearchLimit::time);
  const SearchBudget idle(inf, 1000, std::chrono::nanoseconds::max(),
                          std::numeric_limits<std::size_t>::max(), false);
  EXPECT_EQ(idle.elapsed().count(), 0);
}

TEST(SearchBudget, NamesTheLimitThatEndedASearchWithoutAGoal) {
  const SearchBudget b(5.0, 100, std::chrono::milliseconds(20), 8);
  EXPECT_EQ(b.unreached(SearchLimit::none, false, false).status, SearchStatus::no_path);
  const SearchBudget::Ending cost = b.unreached(SearchLimit::none, true, true);
  EXPECT_EQ(cost.status, SearchStatus::limit_reached);
  EXPECT_EQ(cost.limit, SearchLimit::cost);  // a pruned node names the cost before the beam
  EXPECT_EQ(cost.limit_value, 5.0);
  EXPECT_EQ(b.unreached(SearchLimit::none, false, true).limit, SearchLimit::beam_width);
  EXPECT_EQ(b.unreached(SearchLimit::time, true, true).limit, SearchLimit::time);
  EXPECT_EQ(b.value_of(SearchLimit::time), 20.0);
  EXPECT_EQ(b.value_of(SearchLimit::beam_width), 8.0);

  SearchResult out;
  b.finish_unreached(SearchLimit::none, false, false, false, out);
  EXPECT_EQ(out.status, SearchStatus::no_path);
  EXPECT_EQ(out.note, SearchNote::exhausted);
  b.finish_unreached(SearchLimit::expansions, false, false, true, out);
  EXPECT_EQ(out.status, SearchStatus::partial);
  EXPECT_EQ(out.limit, SearchLimit::expansions);
  EXPECT_EQ(limit_reached_explanation(SearchLimit::expansions, 100.0, out.stats),
            "limit reached: the expansion limit 100 was hit before any goal was reached "
            "(expanded 0 nodes)");
}

TEST(SearchBudget, RefusesLimitsOutOfRange) {
  SearchResult out;
  EXPECT_FALSE(SearchBudget(-1.0, 10, std::chrono::nanoseconds::max()).valid(out));
  EXPECT_EQ(out.note, SearchNote::bad_max_cost);
  EXPECT_FALSE(SearchBudget(inf, 10, std::chrono::nanoseconds(-1)).valid(out));
  EXPECT_EQ(out.note, SearchNote::bad_max_time);
  EXPECT_TRUE(SearchBudget(0.0, 0, std::chrono::nanoseconds(0)).valid(out));
}

}  // namespace
}  // namespace polynav::search
