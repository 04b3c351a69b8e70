#pragma once
/// @file
/// Connected-component labels of a search graph, computed once so that a query whose goal cannot
/// be reached is answered in O(1) instead of by exhausting the start's component.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "polynav/search/graph.hpp"

namespace polynav::search {

/// A label per node such that two nodes have the same label exactly when they are joined by a
/// chain of arcs followed in either direction (weakly connected components).
///
/// Assumption: the graph is undirected (every arc has its reverse), as every discretisation in
/// polynav is. Then equal labels mean "a path exists" and different labels mean "no path". On a
/// directed graph different labels still prove that there is no path, which is all A* relies on
/// (SearchOptions::components), but equal labels no longer promise one.
///
/// Labels are dense (0 .. component_count() - 1), numbered in order of each component's smallest
/// node id, so they are deterministic.
class ComponentLabels {
 public:
  /// The label of a node the labels do not cover.
  static constexpr std::uint32_t no_component = std::numeric_limits<std::uint32_t>::max();

  /// No nodes.
  ComponentLabels() = default;

  /// Labels every node of g. Complexity: O((V + E) log V) time at worst (union-find over every
  /// arc, the smaller root kept, with path halving; near linear on grids and meshes), one
  /// NodeId per node of memory. @pre g does not grow while being labelled
  template <SearchGraph G>
  requires(!GrowingGraph<G>) explicit ComponentLabels(const G& g) {
    label(g.node_count(), [&g](NodeId u, auto&& join) {
      g.for_each_neighbour(u, [&join](NodeId v, double) { join(v); });
    });
  }

  /// Labels nodes 0 .. n - 1 of a graph whose every arc has its reverse, given each arc once:
  /// `earlier(u, join)` calls join(v) for every neighbour v < u of u (a grid names its arcs from
  /// its move masks without their costs, half as many unions as through every arc).
  template <class Earlier>
  ComponentLabels(std::size_t n, Earlier&& earlier) {
    label(n, earlier);
  }

  /// Number of labelled nodes (the graph's node count when built).
  std::size_t size() const noexcept { return labels_.size(); }
  /// Number of components.
  std::size_t component_count() const noexcept { return count_; }
  /// The component of n; no_component when n >= size().
  std::uint32_t label(NodeId n) const noexcept {
    return n < labels_.size() ? labels_[n] : no_component;
  }
  /// Whether a and b are both labelled and in the same component.
  bool same_component(NodeId a, NodeId b) const noexcept {
    return a < labels_.size() && b < labels_.size() && labels_[a] == labels_[b];
  }
  /// All labels, indexed by node.
  const std::vector<std::uint32_t>& labels() const noexcept { return labels_; }

 private:
  // Union-find over the arcs `arcs_of(u, join)` names, in which every component's root is its
  // smallest node and every pointer leads to a smaller node (the larger of two roots joins the
  // smaller; path halving keeps that). One pass in id order then turns the pointers into dense
  // labels in their place, each node's from its parent's: no array beyond the labels' own (on a
  // large grid they are most of a build's peak).
  template <class Arcs>
  void label(std::size_t n, Arcs&& arcs_of) {
    std::vector<NodeId> parent(n);
    std::iota(parent.begin(), parent.end(), NodeId{0});
    const auto find = [&](NodeId x) {
      while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
      }
      return x;
    };
    for (NodeId u = 0; u < n; ++u) {
      NodeId root = find(u);  // u's root, kept up to date across its arcs
      arcs_of(u, [&](NodeId v) {
        const NodeId b = find(v);
        if (b == root) return;
        if (b < root) {
          parent[root] = b;
          root = b;
        } else {
          parent[b] = root;
        }
      });
    }
    for (NodeId u = 0; u < n; ++u) parent[u] = parent[u] == u ? count_++ : parent[parent[u]];
    labels_ = std::move(parent);
  }

  std::vector<std::uint32_t> labels_;
  std::uint32_t count_ = 0;
};

}  // namespace polynav::search
