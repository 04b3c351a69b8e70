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

  /// Labels the cells of a width x height grid, node y * width + x, whose arcs join exactly the
  /// free cells that share a side (`is_free(x, y)`); a blocked cell is a component of its own.
  /// The labels are those the constructors above give over these arcs, found by union-find over
  /// each row's runs of free cells instead of its cells: a few operations per run, not per cell.
  template <class IsFree>
  static ComponentLabels of_cells_joined_through_sides(int width, int height, IsFree&& is_free) {
    struct Run {
      int x0, x1;  // the run's cells [x0, x1) of its row
      NodeId first;
    };
    std::vector<Run> runs;
    std::vector<NodeId> parent;  // per run; every pointer leads to an earlier run
    const auto find = [&](NodeId x) {
      while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
      }
      return x;
    };
    std::size_t row_begin = 0;  // the previous row's runs: [row_begin, row_end)
    for (int y = 0; y < height; ++y) {
      const std::size_t row_end = runs.size();
      std::size_t below = row_begin;
      for (int x = 0; x < width;) {
        if (!is_free(x, y)) {
          ++x;
          continue;
        }
        const int x0 = x;
        while (x < width && is_free(x, y)) ++x;
        const auto r = NodeId(runs.size());
        runs.push_back({x0, x, NodeId(std::size_t(y) * std::size_t(width) + std::size_t(x0))});
        parent.push_back(r);
        // The runs of the row below sharing a column; one reaching past x may meet the next run.
        while (below < row_end && runs[below].x1 <= x0) ++below;
        NodeId root = r;
        for (std::size_t b = below; b < row_end && runs[b].x0 < x; ++b) {
          const NodeId other = find(NodeId(b));
          if (other < root) {
            parent[root] = other;
            root = other;
          } else if (other > root) {
            parent[other] = root;
          }
        }
      }
      row_begin = row_end;
    }
    // Dense labels in node order: a blocked cell takes the next label, as does a run whose root
    // it is (its first cell is its component's smallest node); other runs take their root's.
    ComponentLabels out;
    const std::size_t n = std::size_t(width) * std::size_t(height);
    out.labels_.resize(n);
    std::vector<std::uint32_t>& label = out.labels_;
    std::size_t next = 0;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      for (; next < runs[r].first; ++next) label[next] = out.count_++;
      const NodeId root = find(NodeId(r));
      const std::uint32_t l = root == r ? out.count_++ : label[runs[root].first];
      const std::size_t end = runs[r].first + std::size_t(runs[r].x1 - runs[r].x0);
      std::fill(label.begin() + std::ptrdiff_t(next), label.begin() + std::ptrdiff_t(end), l);
      next = end;
    }
    for (; next < n; ++next) label[next] = out.count_++;
    return out;
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
