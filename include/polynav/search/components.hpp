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

#include "polynav/kernel/bits.hpp"
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
  /// free cells that share a side (`free_row(y)`, row y's free cells as bits: free_cell_runs);
  /// a blocked cell is a component of its own. The labels are those the constructors above give
  /// over these arcs, from the grid's runs of free cells: a few operations per run, not per cell.
  template <class FreeRow>
  static ComponentLabels of_cells_joined_through_sides(int width, int height, FreeRow&& free_row);

  /// Number of labelled nodes (the graph's node count when built).
  std::size_t size() const noexcept { return by_runs_ ? nodes_ : labels_.size(); }
  /// Number of components.
  std::size_t component_count() const noexcept { return count_; }
  /// The component of n; no_component when n >= size(). O(1), or O(log runs) for labels of a
  /// grid's cells (of_cells_joined_through_sides).
  std::uint32_t label(NodeId n) const noexcept {
    if (!by_runs_) return n < labels_.size() ? labels_[n] : no_component;
    return n < nodes_ ? run_label(n) : no_component;
  }
  /// Whether a and b are both labelled and in the same component.
  bool same_component(NodeId a, NodeId b) const noexcept {
    const std::uint32_t la = label(a);
    return la != no_component && la == label(b);
  }
  /// All labels, indexed by node (a copy: for checks and tools, not for searches).
  std::vector<std::uint32_t> labels() const {
    if (!by_runs_) return labels_;
    std::vector<std::uint32_t> all(nodes_);
    for (std::size_t n = 0; n < nodes_; ++n) all[n] = run_label(NodeId(n));
    return all;
  }

 private:
  // The labels of a grid's cells as runs of consecutive free nodes [first, last), each with its
  // label and the number of labels given to nodes before `last`; every other node (a blocked
  // cell) is a component of its own, numbered in node order after the labels before it. 16
  // bytes a run instead of 4 a cell: a map has far fewer runs than cells.
  struct NodeRun {
    NodeId first = 0, last = 0;
    std::uint32_t label = 0, labels_to_last = 0;
  };
  std::uint32_t run_label(NodeId n) const noexcept {
    auto run = std::upper_bound(runs_.begin(), runs_.end(), n,
                                [](NodeId v, const NodeRun& r) { return v < r.first; });
    if (run == runs_.begin()) return std::uint32_t(n);  // only blocked cells before n
    --run;
    return n < run->last ? run->label : run->labels_to_last + std::uint32_t(n - run->last);
  }

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
  bool by_runs_ = false;  // labelled by runs (runs_, nodes_) rather than per node (labels_)
  std::vector<NodeRun> runs_;
  std::size_t nodes_ = 0;
};

/// A run of free cells of a grid: cells x0 .. x1 - 1 of row y, and the first run of the
/// component it lies in (free cells joined through shared sides).
struct CellRun {
  int x0 = 0, x1 = 0, y = 0;
  std::uint32_t root = 0;
};

/// The runs of free cells of a width x height grid, row after row from y = 0, left to right, each
/// with its component's first run: union-find over runs, each joined with the runs of the row
/// before that share a column with it. `free_row(y)` gives row y's cells as bits (bit x of the
/// words from the pointer, set when cell x is free), asked once per row in order and read
/// before the next is asked. O(cells / 64) word reads, O(runs) unions.
template <class FreeRow>
std::vector<CellRun> free_cell_runs(int width, int height, FreeRow&& free_row) {
  std::vector<CellRun> runs;
  // While labelling, root holds a run's parent: every pointer leads to an earlier run.
  const auto find = [&](std::uint32_t x) {
    while (runs[x].root != x) {
      runs[x].root = runs[runs[x].root].root;
      x = runs[x].root;
    }
    return x;
  };
  std::size_t row_begin = 0;  // the previous row's runs: [row_begin, row_end)
  for (int y = 0; y < height; ++y) {
    const std::size_t row_end = runs.size();
    std::size_t before = row_begin;
    const std::uint64_t* bits = free_row(y);
    for_each_run_of_set_bits(bits, std::size_t(width), [&](std::size_t first, std::size_t last) {
      const int x0 = int(first), x = int(last);
      auto root = std::uint32_t(runs.size());
      runs.push_back({x0, x, y, root});
      // The previous row's runs sharing a column; one reaching past x may meet the next run too.
      while (before < row_end && runs[before].x1 <= x0) ++before;
      for (std::size_t b = before; b < row_end && runs[b].x0 < x; ++b) {
        const std::uint32_t other = find(std::uint32_t(b));
        if (other < root) {
          runs[root].root = other;
          root = other;
        } else if (other > root) {
          runs[other].root = root;
        }
      }
    });
    row_begin = row_end;
  }
  for (CellRun& run : runs) run.root = runs[run.root].root;  // earlier runs are final already
  return runs;
}

template <class FreeRow>
ComponentLabels ComponentLabels::of_cells_joined_through_sides(int width, int height,
                                                               FreeRow&& free_row) {
  const std::vector<CellRun> runs = free_cell_runs(width, height, free_row);
  // Dense labels in node order: a blocked cell takes the next label, as does a run that is its
  // component's first (its first cell is the component's smallest node); other runs take their
  // first run's.
  ComponentLabels out;
  out.by_runs_ = true;
  out.nodes_ = std::size_t(width) * std::size_t(height);
  out.runs_.reserve(runs.size());
  std::uint32_t count = 0;
  std::size_t next = 0;  // the first node after the runs so far
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const std::size_t first = std::size_t(runs[r].y) * std::size_t(width) + std::size_t(runs[r].x0);
    count += std::uint32_t(first - next);
    const std::uint32_t label = runs[r].root == r ? count++ : out.runs_[runs[r].root].label;
    next = first + std::size_t(runs[r].x1 - runs[r].x0);
    out.runs_.push_back({NodeId(first), NodeId(next), label, count});
  }
  out.count_ = count + std::uint32_t(out.nodes_ - next);
  return out;
}

}  // namespace polynav::search
