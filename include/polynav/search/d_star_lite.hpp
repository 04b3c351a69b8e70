#pragma once
/// @file
/// D* Lite (Koenig and Likhachev, "D* Lite", AAAI 2002; the optimised version of its Figure 4):
/// cheapest paths to one goal that are repaired, not searched anew, when arcs change and the
/// start moves. It searches backwards from the goal, so a node's g is its cost to the goal; after
/// a change only the nodes whose g it alters are expanded again.
///
/// The graph is given to each call, so that a caller may hand in a changed graph (the same node
/// ids) and name the nodes whose outgoing arcs changed (arcs_changed). Arcs on cycles must cost
/// more than 0 (self-loops are ignored): around a cycle of zero-cost arcs, nodes can keep
/// supporting each other's costs after their way out is gone. It needs both directions:
/// `g.for_each_neighbour(u, f)` calls f(v, cost) for each arc u -> v, and
/// `g.for_each_predecessor(v, f)` calls f(u, cost) for each arc u -> v.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "polynav/search/graph.hpp"

namespace polynav::search {

/// A SearchGraph whose arcs can also be listed by their target.
template <class G>
concept ReversibleGraph = SearchGraph<G> && requires(const G& g, NodeId n) {
  g.for_each_predecessor(n, [](NodeId, double) {});
};

/// One search's state (per node: cost to the goal, its one-step lookahead rhs, and the queue),
/// kept between compute() calls. Not thread-safe: one per searcher, path() included.
class DStarLite {
 public:
  static constexpr double inf = std::numeric_limits<double>::infinity();

  /// Forgets everything: `nodes` nodes, none searched, and `goal` the goal.
  void reset(std::size_t nodes, NodeId goal) {
    g_.assign(nodes, inf);
    rhs_.assign(nodes, inf);
    queued_.assign(nodes, Key{inf, inf});
    in_queue_.assign(nodes, 0);
    heap_.clear();
    open_ = 0;
    km_ = 0.0;
    goal_ = goal;
    rhs_[goal] = 0.0;
    push(goal, Key{0.0, 0.0});  // its heuristic is added when it is first popped (a stale key)
  }
  std::size_t node_count() const { return g_.size(); }
  NodeId goal() const { return goal_; }

  /// The start moved from one node to another, or the heuristic changed with it: `shift` is at
  /// least how far any node's heuristic fell (for a heuristic measuring from the start, the
  /// heuristic between the old start and the new one), so that the keys already queued stay
  /// lower bounds of their nodes' new keys.
  void start_moved(double shift) { km_ += std::max(shift, 0.0); }

  /// Node u's outgoing arcs changed (added, removed, or their costs): its rhs is taken again
  /// from its arcs in `graph`. Call it for every such node before compute().
  template <ReversibleGraph G>
  void arcs_changed(const G& graph, NodeId u) {
    if (u != goal_) rhs_[u] = best_successor(graph, u);
    update(u);
  }

  /// Repairs the cheapest paths until the start's cost is known (or known to be infinite).
  /// `h(n)` is a consistent lower bound of the cost from the start to n. Returns the nodes
  /// expanded.
  template <ReversibleGraph G, class H>
  std::uint64_t compute(const G& graph, NodeId start, H&& h) {
    std::uint64_t expanded = 0;
    const auto key_of = [&](NodeId n) {
      const double m = std::min(g_[n], rhs_[n]);
      return Key{m + h(n) + km_, m};
    };
    for (;;) {
      drop_stale();
      const Key start_key = key_of(start);
      // Nodes whose key equals the start's are repaired too: with a zero-cost arc out of the
      // start (a query's start on a node), its successor's key can equal the start's.
      if (heap_.empty() || (start_key < heap_.front().key && rhs_[start] == g_[start])) break;
      const Entry top = heap_.front();
      const NodeId u = top.node;
      const Key fresh = key_of(u);
      if (top.key < fresh) {  // its heuristic or km grew since it was queued
        push(u, fresh);
        continue;
      }
      ++expanded;
      if (g_[u] > rhs_[u]) {  // over-consistent: its cost falls to rhs, and its predecessors'
        g_[u] = rhs_[u];
        remove(u);
        graph.for_each_predecessor(u, [&](NodeId s, double cost) {
          if (s != goal_ && cost + g_[u] < rhs_[s]) {
            rhs_[s] = cost + g_[u];
            update(s, key_of(s));
          }
        });
      } else {  // under-consistent: forget its cost; whoever relied on it looks again
        const double old = g_[u];
        g_[u] = inf;
        graph.for_each_predecessor(u, [&](NodeId s, double cost) {
          if (s != goal_ && rhs_[s] == cost + old) {
            rhs_[s] = best_successor(graph, s);
            update(s, key_of(s));
          }
        });
        if (u != goal_) rhs_[u] = best_successor(graph, u);
        update(u, key_of(u));
      }
    }
    return expanded;
  }

  /// The cost from n to the goal, as far as compute() has repaired it (exact at its start).
  double cost(NodeId n) const { return g_[n]; }

  /// The cheapest path from start to the goal, both included, into `path`: each step to a
  /// successor of least arc cost plus cost to the goal (the smaller cost to the goal first
  /// among ties), never back to a node already taken, so that zero-cost cycles do not trap it.
  /// Empty when the goal cannot be reached.
  template <ReversibleGraph G>
  void path(const G& graph, NodeId start, std::vector<NodeId>& path) const {
    path.clear();
    if (!(g_[start] < inf)) return;
    // Marks of the nodes taken, set and then cleared node by node: a path is short beside the
    // graph, and clearing the whole array would cost more than the walk.
    std::vector<std::uint8_t>& taken = taken_;
    std::vector<NodeId>& marked = marked_;
    taken.resize(g_.size(), 0);
    marked.clear();
    const auto take = [&](NodeId n) {
      taken[n] = 1;
      marked.push_back(n);
    };
    path.push_back(start);
    take(start);
    while (!path.empty() && path.back() != goal_) {
      const NodeId u = path.back();
      const double best = best_successor(graph, u);
      NodeId next = no_node;
      graph.for_each_neighbour(u, [&](NodeId v, double cost) {
        if (cost + g_[v] == best && best < inf && !taken[v] &&
            (next == no_node || g_[v] < g_[next]))
          next = v;
      });
      if (next == no_node) {
        path.pop_back();  // every step of least cost from here is taken: back to choose another
      } else {
        take(next);
        path.push_back(next);
      }
    }
    for (const NodeId n : marked) taken[n] = 0;
  }

 private:
  struct Key {
    double first, second;
    bool operator<(const Key& o) const {
      return first < o.first || (first == o.first && second < o.second);
    }
    bool operator==(const Key& o) const = default;
  };
  struct Entry {
    Key key;
    NodeId node;
    bool operator>(const Entry& o) const { return o.key < key; }
  };

  template <class G>
  double best_successor(const G& graph, NodeId u) const {
    double best = inf;
    graph.for_each_neighbour(u, [&](NodeId v, double cost) {
      if (v != u) best = std::min(best, cost + g_[v]);
    });
    return best;
  }
  void push(NodeId n, Key key) {
    queued_[n] = key;
    if (!in_queue_[n]) ++open_;
    in_queue_[n] = 1;
    heap_.push_back({key, n});
    std::push_heap(heap_.begin(), heap_.end(), std::greater<Entry>());
  }
  void remove(NodeId n) {
    if (in_queue_[n]) --open_;
    in_queue_[n] = 0;
  }
  // UpdateVertex: queued with `key` when inconsistent, out of the queue when consistent.
  void update(NodeId n, Key key) {
    if (g_[n] != rhs_[n])
      push(n, key);
    else
      remove(n);
  }
  void update(NodeId n) {
    const double m = std::min(g_[n], rhs_[n]);
    // Outside compute() the heuristic is not known: the key's first part without it is still
    // a lower bound, and compute() raises it when the node comes up (a stale key).
    update(n, Key{m + km_, m});
  }
  // Whether a heap entry is no longer its node's: the node left the queue, or was queued again
  // with another key.
  bool stale(const Entry& e) const { return !in_queue_[e.node] || !(e.key == queued_[e.node]); }
  // Pops the stale entries off the top.
  void drop_stale() {
    while (!heap_.empty() && stale(heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<Entry>());
      heap_.pop_back();
    }
    // Stale entries pile up where keys change often: the heap is rebuilt from the live ones.
    if (heap_.size() > 4 * open_ + 1024) {
      std::erase_if(heap_, [&](const Entry& e) { return stale(e); });
      std::make_heap(heap_.begin(), heap_.end(), std::greater<Entry>());
    }
  }

  std::vector<double> g_, rhs_;
  std::vector<Key> queued_;
  std::vector<std::uint8_t> in_queue_;
  std::vector<Entry> heap_;  // a binary min-heap on the key (std::push_heap), stale entries left
  std::size_t open_ = 0;
  double km_ = 0.0;
  mutable std::vector<std::uint8_t> taken_;  // path()'s marks, all clear between calls
  mutable std::vector<NodeId> marked_;
  NodeId goal_ = no_node;
};

}  // namespace polynav::search
