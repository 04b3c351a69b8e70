#pragma once
/// @file
/// Theta* (Daniel, Nash, Koenig and Felner, "Theta*: Any-Angle Path Planning on Grids", JAIR 39,
/// 2010): A* over a graph whose nodes have positions, where a node's parent may be any node in
/// line of sight rather than only the neighbour it was reached from. When a node s is expanded,
/// each neighbour s' is offered two parents: s itself (path 1, A*'s arc) and s's own parent, when
/// it sees s' (path 2, the straight segment parent(s) -> s'). The path is the chain of parents,
/// so it bends only where the line of sight broke.
///
/// The search knows nothing of geometry: a Geometry object answers for it, by node id,
///   - `cost(a, b)`: the cost of the straight motion from a to b (no check),
///   - `visible(a, b)`: whether that straight motion is valid,
///   - `turn_allowed(before, at, after)`: whether a path arriving at `at` from `before` may leave
///     towards `after` (`before` is no_node at the start, where nothing arrives).
/// The graph gives only adjacency: path 1 also costs `cost(s, s')`, so that every g is the
/// exact cost of the chain of straight segments it stands for.
///
/// Both paths are tried and the cheaper kept (ties: path 2, fewer bends). In the paper path 2
/// replaces path 1 whenever the line of sight holds, which is the same choice when costs obey
/// the triangle inequality (plain length); where they do not (regions with cost multipliers) the
/// cheaper one is the better parent. A node's g never exceeds its cost on the graph's own arcs
/// when the heuristic is consistent with those arcs: the first open node of a cheapest graph path
/// to an expanded node s was offered its graph predecessor, so the usual A* argument bounds g(s)
/// at expansion (see the grid method's tests: never longer than A* on the same grid).

#include <algorithm>
#include <bit>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "polynav/search/astar.hpp"
#include "polynav/search/d_ary_heap.hpp"
#include "polynav/search/graph.hpp"
#include "polynav/search/search_result.hpp"

namespace polynav::search {

/// What Theta* asks of positions (see the file comment).
template <class G>
concept AnyAngleGeometry = requires(const G& g, NodeId a, NodeId b, NodeId c) {
  { g.cost(a, b) } -> std::convertible_to<double>;
  { g.visible(a, b) } -> std::convertible_to<bool>;
  { g.turn_allowed(a, b, c) } -> std::convertible_to<bool>;
};

/// Theta* search state, reusable across queries and graphs (like BasicAStar: stamped records,
/// an indexed 4-ary heap keyed on (f, -g)). Not thread-safe: one object per thread.
class ThetaStar {
 public:
  /// Searches from start to the first goal taken from the open list. Honours weight, max_cost,
  /// max_expansions, max_time and partial_fallback of `options`; beam_width and reopen_closed do
  /// not apply (a closed node's g is final here, as in the paper). result.path is the chain of
  /// parents (start .. goal), result.cost its cost by geometry.cost.
  template <SearchGraph Graph, AnyAngleGeometry Geometry, Heuristic H>
  void search(const Graph& graph, NodeId start, std::span<const NodeId> goals,
              const Geometry& geometry, H&& h, const SearchOptions& options, SearchResult& out) {
    const SearchBudget budget = budget_of(options);
    out.reset();
    out.start = start;
    out.node_count = graph.node_count();
    if (start >= out.node_count || goals.empty() || !(options.weight >= 1.0)) {
      out.status = SearchStatus::invalid_query;
      out.note = start >= out.node_count ? SearchNote::start_out_of_range
                 : goals.empty()         ? SearchNote::no_goals
                                         : SearchNote::bad_weight;
      return;
    }
    if (!budget.valid(out)) return;
    for (const NodeId goal : goals)
      if (goal >= out.node_count) {
        out.status = SearchStatus::invalid_query;
        out.note = SearchNote::goal_out_of_range;
        out.limit_value = goal;
        return;
      }
    begin(graph.node_count());
    for (const NodeId goal : goals) touch(goal, h).goal = true;
    Record& rs = touch(start, h);
    rs.g = 0.0;
    rs.parent = no_node;
    rs.state = State::open;
    heap_.push(start, key(options.weight * rs.h, 0.0));
    ++out.stats.heap_pushes;
    NodeId best = start;
    bool pruned = false;
    NodeId found = no_node;
    SearchLimit stop = SearchLimit::none;
    while (!heap_.empty()) {
      const NodeId s = heap_.pop();
      ++out.stats.heap_pops;
      Record& r = records_[s];
      r.state = State::closed;
      if (r.goal) {
        found = s;
        break;
      }
      stop = budget.before_expansion(out.stats.expanded);
      if (stop != SearchLimit::none) break;
      ++out.stats.expanded;
      const NodeId parent = r.parent;
      const double g_s = r.g;
      const double g_parent = parent == no_node ? 0.0 : records_[parent].g;
      const NodeId grandparent = parent == no_node ? no_node : records_[parent].parent;
      graph.for_each_neighbour(s, [&](NodeId to, double) {
        ++out.stats.generated;
        Record& t = touch(to, h);
        if (t.state == State::closed) return;
        // Path 2: straight from s's parent, bending at the parent instead of at s.
        double g = std::numeric_limits<double>::infinity();
        NodeId via = no_node;
        if (parent != no_node && geometry.visible(parent, to) &&
            geometry.turn_allowed(grandparent, parent, to)) {
          g = g_parent + geometry.cost(parent, to);
          via = parent;
        }
        // Path 1: A*'s arc, bending at s.
        const double g1 = g_s + geometry.cost(s, to);
        if (g1 < g && geometry.turn_allowed(parent, s, to)) {
          g = g1;
          via = s;
        }
        if (!(g < t.g)) return;
        if (budget.beyond_cost(g + t.h)) {
          pruned = true;
          return;
        }
        t.g = g;
        t.parent = via;
        const Key k = key(g + options.weight * t.h, g);
        if (t.state == State::open) {
          heap_.update(to, k);
          ++out.stats.heap_decreases;
        } else {
          t.state = State::open;
          heap_.push(to, k);
          ++out.stats.heap_pushes;
        }
        const Record& b = records_[best];
        if (t.h < b.h || (t.h == b.h && g < b.g)) best = to;
      });
    }
    out.stats.elapsed = budget.elapsed();
    if (found != no_node) {
      out.status = SearchStatus::found;
      finish_path(found, out);
      return;
    }
    budget.finish_unreached(stop, pruned, false, options.partial_fallback, out);
    if (options.partial_fallback) finish_path(best, out);
  }

  /// Grows the state arrays to hold n nodes now.
  void reserve(std::size_t n) { grow(n); }

 private:
  enum class State : std::uint8_t { unseen, open, closed };
  struct Record {
    double g = 0.0;
    double h = 0.0;
    NodeId parent = no_node;
    std::uint32_t stamp = 0;
    State state = State::unseen;
    bool goal = false;
  };
  __extension__ using Key = unsigned __int128;
  // (f, -g) as one integer, as in BasicAStar: f's bits on top, the complement of g's below.
  static Key key(double f, double g) {
    return (static_cast<Key>(std::bit_cast<std::uint64_t>(f + 0.0)) << 64) |
           static_cast<Key>(~std::bit_cast<std::uint64_t>(g + 0.0));
  }

  void grow(std::size_t n) {
    if (records_.size() >= n) return;
    records_.resize(std::max(n, records_.size() + records_.size() / 2));
    heap_.reserve_ids(records_.size());
  }
  void begin(std::size_t n) {
    grow(n);
    heap_.clear();
    if (++generation_ == 0) {
      for (Record& r : records_) r.stamp = 0;
      generation_ = 1;
    }
  }
  template <class H>
  Record& touch(NodeId n, H& h) {
    Record& r = records_[n];
    if (r.stamp != generation_) {
      r = Record{std::numeric_limits<double>::infinity(),
                 static_cast<double>(h(n)),
                 no_node,
                 generation_,
                 State::unseen,
                 false};
    }
    return r;
  }
  void finish_path(NodeId end, SearchResult& out) const {
    for (NodeId n = end; n != no_node; n = records_[n].parent) out.path.push_back(n);
    std::reverse(out.path.begin(), out.path.end());
    out.cost = records_[end].g;
    out.reached = end;
    out.reached_h = records_[end].h;
  }

  std::vector<Record> records_;
  DAryHeap<Key, std::less<Key>, 4> heap_;
  std::uint32_t generation_ = 0;
};

}  // namespace polynav::search
