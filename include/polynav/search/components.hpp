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

  /// Labels every node of g. Complexity: O(V + E α(V)) time (union-find with union by size and
  /// path halving over every arc), O(V) memory. @pre g does not grow while being labelled
  template <SearchGraph G>
  requires(!GrowingGraph<G>) explicit ComponentLabels(const G& g) {
    const std::size_t n = g.node_count();
    std::vector<NodeId> parent(n);
    std::vector<NodeId> size(n, 1);
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
      g.for_each_neighbour(u, [&](NodeId v, double) {
        NodeId b = find(v);
        if (root == b) return;
        NodeId a = root;
        if (size[a] < size[b]) std::swap(a, b);
        parent[b] = a;
        size[a] += size[b];
        root = a;
      });
    }
    // Every node straight to its root, then each root's label in place of the pointer: the
    // labels take over the parents' memory (on a large grid the arrays are most of a build's
    // peak).
    for (NodeId u = 0; u < n; ++u) parent[u] = find(u);
    std::vector<std::uint32_t>& root_label = size;  // reused: sizes are no longer needed
    std::fill(root_label.begin(), root_label.end(), no_component);
    for (NodeId u = 0; u < n; ++u) {
      std::uint32_t& label = root_label[parent[u]];
      if (label == no_component) label = count_++;
      parent[u] = label;
    }
    labels_ = std::move(parent);
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
  std::vector<std::uint32_t> labels_;
  std::uint32_t count_ = 0;
};

}  // namespace polynav::search
