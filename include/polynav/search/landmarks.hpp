#pragma once
/// @file
/// Landmark distances for the ALT heuristic (A*, Landmarks, Triangle inequality: Goldberg and
/// Harrelson, "Computing the shortest path: A* search meets graph theory", SODA 2005). A few
/// nodes are chosen as landmarks and the cost from each to every node is stored; by the triangle
/// inequality, |d(L, t) - d(L, n)| never exceeds the cost from n to t, which bounds the remaining
/// cost of a search by the graph's own metric instead of straight-line distance.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "polynav/search/astar.hpp"
#include "polynav/search/components.hpp"
#include "polynav/search/graph.hpp"

namespace polynav::search {

/// The bounds towards one target for the landmarks that reach all of it: a target reached through
/// arcs from nodes b with costs c_b (the goal's attachments; one arc of cost 0 for a node) is at
/// cost near = min_b (d(L, b) + c_b) from landmark L, and any node n satisfies
/// cost(n, target) >= near - d(L, n) and cost(n, target) >= d(L, n) - far with
/// far = max_b (d(L, b) - c_b). A landmark that cannot reach every b (a target joined to two
/// components) gives no bound.
struct LandmarkTarget {
  static constexpr std::size_t capacity = 64;
  std::array<double, capacity> near{};
  std::array<double, capacity> far{};
  std::array<std::uint8_t, capacity> landmark{};  // which landmark each entry is
  std::size_t count = 0;
};

/// Costs from a few landmarks to every node of an undirected graph (every arc has its reverse at
/// the same cost), landmark by landmark: a search reads a few landmarks' costs for nodes close
/// in id, which then share cache lines when ids follow the nodes' places.
///
/// Landmarks are chosen by the farthest heuristic of Goldberg and Harrelson, in the largest
/// connected component: the first is the node farthest from an arbitrary one, each next the node
/// whose smallest cost to the landmarks so far is largest. Nodes the landmarks cannot reach have
/// infinite costs; a target outside their component gets no bounds (LandmarkTarget::count 0).
///
/// Build: one Dijkstra search per landmark (plus one), O(k (E + V) log V). Memory: k doubles
/// per node.
class Landmarks {
 public:
  /// No landmarks: every bound is 0.
  Landmarks() = default;

  /// Chooses up to `count` landmarks (at most LandmarkTarget::capacity) and computes their costs.
  /// @pre graph is undirected and labels are its components
  template <SearchGraph G>
  Landmarks(const G& graph, const ComponentLabels& labels, std::size_t count) {
    const std::size_t n = graph.node_count();
    count = std::min(count, LandmarkTarget::capacity);
    if (n == 0 || count == 0) return;
    // The largest component, and a node in it.
    std::vector<std::size_t> size(labels.component_count(), 0);
    for (NodeId v = 0; v < n; ++v) ++size[labels.label(v)];
    const auto largest = std::uint32_t(std::max_element(size.begin(), size.end()) - size.begin());
    NodeId seed = 0;
    while (labels.label(seed) != largest) ++seed;

    AStar astar;
    ReachableSet reached;
    const double inf = std::numeric_limits<double>::infinity();
    // nearest[v]: the smallest cost from v to a landmark chosen so far (from seed at first).
    std::vector<double> nearest(n, inf);
    const auto costs_from = [&](NodeId source, std::vector<double>& out) {
      out.assign(n, inf);
      astar.reachable(graph, source, inf, reached);
      for (const ReachedNode& r : reached.nodes) out[r.node] = r.cost;
    };
    costs_from(seed, nearest);
    std::vector<double> from;
    while (landmarks_.size() < count) {
      NodeId next = no_node;
      double farthest = 0.0;
      for (NodeId v = 0; v < n; ++v) {
        if (std::isfinite(nearest[v]) && nearest[v] > farthest) {
          farthest = nearest[v];
          next = v;
        }
      }
      if (next == no_node) break;  // every reachable node is a landmark already
      costs_from(next, from);
      for (NodeId v = 0; v < n; ++v)
        nearest[v] = landmarks_.empty() ? from[v] : std::min(nearest[v], from[v]);
      costs_.insert(costs_.end(), from.begin(), from.end());
      landmarks_.push_back(next);
    }
    nodes_ = n;
  }

  /// Number of landmarks.
  std::size_t count() const noexcept { return landmarks_.size(); }
  /// The landmarks' nodes.
  std::span<const NodeId> nodes() const noexcept { return landmarks_; }
  /// Cost from landmark l to n (infinite when unreachable).
  /// @pre l < count() and n < the graph's node count
  double cost(std::size_t l, NodeId n) const noexcept { return costs_[l * nodes_ + n]; }

  /// The bounds towards a target reached through these arcs (node, cost), from every landmark
  /// that reaches it.
  template <class Arcs>
  LandmarkTarget target(const Arcs& arcs) const {
    LandmarkTarget t;
    for (std::size_t l = 0; l < count(); ++l) add(t, arcs, l);
    return t;
  }

  /// The bounds from the first `active` landmarks in `ranking` (landmark indices, best first; for
  /// instance ranked by the caller's cheap estimate of their bounds for this query) that reach
  /// the whole target. Reads only those landmarks' costs.
  template <class Arcs>
  LandmarkTarget target(const Arcs& arcs, std::span<const std::uint8_t> ranking,
                        std::size_t active) const {
    LandmarkTarget t;
    for (std::size_t i = 0; i < ranking.size() && t.count < active; ++i) add(t, arcs, ranking[i]);
    return t;
  }

  /// The same, keeping only the `active` landmarks whose bounds are largest from a source
  /// reached through `starts` (the "active landmarks" of Goldberg and Harrelson): a bound from
  /// fewer landmarks costs less per node, and those that matter for this query are kept. Still
  /// admissible and consistent (a fixed subset of admissible, consistent bounds).
  template <class Arcs, class StartArcs>
  LandmarkTarget target(const Arcs& arcs, const StartArcs& starts, std::size_t active) const {
    LandmarkTarget t = target(arcs);
    if (t.count <= active || starts.empty()) return t;
    // The bound from the source through each start arc, per landmark.
    std::array<double, LandmarkTarget::capacity> at_start{};
    std::array<std::uint8_t, LandmarkTarget::capacity> order{};
    for (std::size_t i = 0; i < t.count && i < LandmarkTarget::capacity; ++i) {
      double best = std::numeric_limits<double>::infinity();
      for (const auto& arc : starts) {
        const double d = cost(t.landmark[i], arc.node);
        best = std::min(best, arc.cost + std::max(t.near[i] - d, d - t.far[i]));
      }
      at_start[i] = best;
      order[i] = std::uint8_t(i);
    }
    std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(active),
                      order.begin() + std::ptrdiff_t(t.count),
                      [&](std::uint8_t a, std::uint8_t b) { return at_start[a] > at_start[b]; });
    LandmarkTarget kept;
    for (std::size_t i = 0; i < active; ++i) {
      kept.near[i] = t.near[order[i]];
      kept.far[i] = t.far[order[i]];
      kept.landmark[i] = t.landmark[order[i]];
    }
    kept.count = active;
    return kept;
  }

  /// A lower bound on the cost from n to the target: the largest landmark bound, 0 when there is
  /// none, +infinity when n cannot reach the target. Admissible and consistent, whichever
  /// landmarks the target holds.
  double lower_bound(NodeId n, const LandmarkTarget& t) const noexcept {
    double h = 0.0;
    for (std::size_t i = 0; i < t.count; ++i) {
      const double dn = cost(t.landmark[i], n);
      h = std::max(h, std::max(t.near[i] - dn, dn - t.far[i]));
    }
    return h;
  }

 private:
  // Appends landmark l's bounds to t when its component holds every arc into the target: a node
  // outside that component (infinite cost from the landmark) then cannot reach the target at all.
  template <class Arcs>
  void add(LandmarkTarget& t, const Arcs& arcs, std::size_t l) const {
    double near = std::numeric_limits<double>::infinity();
    double far = -std::numeric_limits<double>::infinity();
    bool whole = !arcs.empty();
    for (const auto& arc : arcs) {
      const double d = cost(l, arc.node);
      whole = whole && std::isfinite(d);
      near = std::min(near, d + arc.cost);
      far = std::max(far, d - arc.cost);
    }
    if (!whole || t.count == LandmarkTarget::capacity) return;
    t.near[t.count] = near;
    t.far[t.count] = far;
    t.landmark[t.count] = std::uint8_t(l);
    ++t.count;
  }

  std::size_t nodes_ = 0;
  std::vector<double> costs_;  // costs_[landmark * nodes_ + node]
  std::vector<NodeId> landmarks_;
};

}  // namespace polynav::search
