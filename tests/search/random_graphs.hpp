#pragma once
// Seeded random graphs and Boost.Graph oracles shared by the search tests.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>

#include "polynav/search/graph.hpp"

namespace polynav::search::testing {

inline constexpr double inf = std::numeric_limits<double>::infinity();

enum class CostModel { integer, real, geometric };

// A random graph: arcs (both directions for an undirected graph), node coordinates and, for the
// geometric model, arc costs >= the Euclidean distance between their ends so that the straight
// line distance is a consistent heuristic.
struct Instance {
  std::uint64_t seed = 0;
  std::size_t n = 0;
  bool undirected = false;
  CostModel model = CostModel::integer;
  std::vector<double> x, y;
  std::vector<Edge> arcs;
  CsrGraph graph;
  std::vector<double> min_arc;  // n * n cheapest arc u -> v, inf when there is none

  double arc_cost(NodeId u, NodeId v) const { return min_arc[std::size_t{u} * n + v]; }
  double euclid(NodeId u, NodeId v) const { return std::hypot(x[u] - x[v], y[u] - y[v]); }
};

inline Instance random_instance(std::uint64_t seed, std::size_t max_nodes = 60) {
  std::mt19937_64 rng(seed);
  const auto uniform_int = [&](std::size_t lo, std::size_t hi) {
    return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
  };
  const auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  const auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };

  Instance in;
  in.seed = seed;
  in.n = uniform_int(1, max_nodes);
  in.undirected = chance(0.5);
  in.model = static_cast<CostModel>(uniform_int(0, 2));
  static constexpr double degrees[] = {0.3, 0.8, 1.5, 3.0, 6.0};
  const double degree = degrees[uniform_int(0, 4)];
  // Some graphs are split in two halves with no edge between them: guaranteed disconnected.
  const bool split = in.n >= 4 && chance(0.2);
  for (std::size_t i = 0; i < in.n; ++i) {
    in.x.push_back(uniform(0.0, 10.0));
    in.y.push_back(uniform(0.0, 10.0));
  }
  const auto m = static_cast<std::size_t>(std::lround(degree * static_cast<double>(in.n)));
  for (std::size_t k = 0; k < m; ++k) {
    auto u = static_cast<NodeId>(uniform_int(0, in.n - 1));
    auto v = static_cast<NodeId>(uniform_int(0, in.n - 1));
    if (split && (u < in.n / 2) != (v < in.n / 2)) continue;
    double cost = 0.0;
    switch (in.model) {
      case CostModel::integer:
        cost = static_cast<double>(uniform_int(0, 9));
        break;
      case CostModel::real:
        cost = chance(0.1) ? 0.0 : uniform(0.0, 10.0);
        break;
      case CostModel::geometric:
        cost = in.euclid(u, v) * (1.0 + uniform(0.0, 0.5));
        break;
    }
    in.arcs.push_back(Edge{u, v, cost});
    if (in.undirected) in.arcs.push_back(Edge{v, u, cost});
  }
  in.graph = CsrGraph(in.n, in.arcs);
  in.min_arc.assign(in.n * in.n, inf);
  for (const Edge& e : in.arcs) {
    double& c = in.min_arc[std::size_t{e.from} * in.n + e.to];
    c = std::min(c, e.cost);
  }
  return in;
}

using BglGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                          boost::property<boost::edge_weight_t, double>>;

inline BglGraph to_bgl(const Instance& in, bool reversed = false) {
  BglGraph g(in.n);
  for (const Edge& e : in.arcs) {
    if (reversed) {
      boost::add_edge(e.to, e.from, e.cost, g);
    } else {
      boost::add_edge(e.from, e.to, e.cost, g);
    }
  }
  return g;
}

// Boost.Graph Dijkstra distances from source (or, on the reversed graph, to source); +inf for
// unreachable nodes.
inline std::vector<double> bgl_distances(const BglGraph& g, NodeId source) {
  std::vector<double> d(boost::num_vertices(g));
  boost::dijkstra_shortest_paths(
      g, source,
      boost::distance_map(
          boost::make_iterator_property_map(d.begin(), boost::get(boost::vertex_index, g)))
          .distance_inf(inf));
  return d;
}

// Sum of the cheapest arcs along path; NaN if two consecutive nodes have no arc.
inline double path_cost(const Instance& in, const std::vector<NodeId>& path) {
  double cost = 0.0;
  for (std::size_t i = 1; i < path.size(); ++i) {
    const double c = in.arc_cost(path[i - 1], path[i]);
    if (c == inf) return std::numeric_limits<double>::quiet_NaN();
    cost += c;
  }
  return cost;
}

inline bool near(double a, double b) {
  if (a == b) return true;
  return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

}  // namespace polynav::search::testing
