#pragma once
/// @file
/// Iterative-deepening A* (Korf 1985): optimal with an admissible heuristic, in memory linear in
/// the depth of the search instead of in the number of nodes.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "polynav/search/astar.hpp"
#include "polynav/search/budget.hpp"
#include "polynav/search/graph.hpp"
#include "polynav/search/search_result.hpp"

namespace polynav::search {

/// Limits of an IDA* search. Both end the search with limit_reached.
struct IdaStarOptions {
  /// Most expansions over all iterations. [Limit: >= 0] [Default: no limit]
  std::uint64_t max_expansions = std::numeric_limits<std::uint64_t>::max();
  /// Wall-clock budget, checked every SearchBudget::clock_period expansions. [Limit: >= 0]
  /// [Units: ns]
  /// [Default: no limit]
  std::chrono::nanoseconds max_time = std::chrono::nanoseconds::max();
};

/// IDA*: repeated depth-first searches, each bounded by f = g + h <= threshold, the threshold
/// rising each time to the smallest f that exceeded it (Korf 1985). The first goal found under a
/// threshold is optimal when h is admissible, consistent or not.
///
/// Memory: the current path and the unexplored arcs of its nodes, O(depth × branching); no
/// per-node arrays. Nodes are not remembered between branches, so graphs with many
/// transpositions (grids) are re-expanded exponentially often: IDA* suits tree-like spaces with
/// small branching and an informed heuristic (sliding-tile puzzles), not the discretisations.
/// With real-valued costs every distinct f value can cost an iteration.
///
/// Cycles are cut by not revisiting a node already on the current path (O(depth) per arc).
/// Goals are tested by a linear scan of the goal set. Buffers are kept across queries.
class IdaStar {
 public:
  /// Searches from start to the cheapest goal; writes into out (path memory reused). Status:
  /// found, no_path, limit_reached, or invalid_query (start or a goal >= node_count, no goals).
  /// stats.iterations counts thresholds tried; stats.expanded counts nodes over all of them.
  /// The listener's examine/finish bracket each expansion; relax(from, to, g) reports every arc
  /// followed within the threshold.
  template <SearchGraph G, Heuristic H, SearchListener L = NullListener>
  void search(const G& graph, NodeId start, std::span<const NodeId> goals, H&& h,
              const IdaStarOptions& options, SearchResult& out, L&& listener = L{}) {
    const SearchBudget budget(std::numeric_limits<double>::infinity(), options.max_expansions,
                              options.max_time);
    out.reset();
    out.start = start;
    out.node_count = graph.node_count();
    const auto finish_stats = [&] { out.stats.elapsed = budget.elapsed(); };
    if (start >= out.node_count) {
      out.note = SearchNote::start_out_of_range;
      out.limit_value = start;
      return finish_stats();
    }
    if (goals.empty()) {
      out.note = SearchNote::no_goals;
      return finish_stats();
    }
    for (const NodeId goal : goals) {
      if (goal >= out.node_count) {
        out.note = SearchNote::goal_out_of_range;
        out.limit_value = goal;
        return finish_stats();
      }
    }
    if (!budget.valid(out)) return finish_stats();
    const auto is_goal = [&](NodeId n) {
      return std::find(goals.begin(), goals.end(), n) != goals.end();
    };
    SearchStats& st = out.stats;

    if (is_goal(start)) {
      out.status = SearchStatus::found;
      out.path.push_back(start);
      out.cost = 0.0;
      out.reached = start;
      out.reached_h = static_cast<double>(h(start));
      return finish_stats();
    }

    // Checked before every expansion; on a hit, closes the open frames for the listener.
    const auto limit_hit = [&] {
      const SearchLimit stop = budget.before_expansion(st.expanded);
      if (stop == SearchLimit::none) return false;
      budget.finish_unreached(stop, false, false, false, out);
      for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) listener.finish(it->node);
      return true;
    };

    constexpr double inf = std::numeric_limits<double>::infinity();
    double threshold = static_cast<double>(h(start));
    for (;;) {
      ++st.iterations;
      double next_threshold = inf;
      frames_.clear();
      arcs_.clear();
      if (limit_hit()) return finish_stats();
      expand(graph, start, 0.0, listener, st);
      while (!frames_.empty()) {
        Frame& top = frames_.back();
        if (top.next == top.end) {
          listener.finish(top.node);
          arcs_.resize(top.begin);
          frames_.pop_back();
          continue;
        }
        const Arc arc = arcs_[top.next++];
        const double g = top.g + arc.cost;
        if (on_path(arc.to)) continue;
        const double f = g + static_cast<double>(h(arc.to));
        if (f > threshold) {
          next_threshold = std::min(next_threshold, f);
          continue;
        }
        listener.relax(top.node, arc.to, g);
        if (is_goal(arc.to)) {
          out.status = SearchStatus::found;
          for (const Frame& frame : frames_) out.path.push_back(frame.node);
          out.path.push_back(arc.to);
          out.cost = g;
          out.reached = arc.to;
          out.reached_h = static_cast<double>(h(arc.to));
          for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) listener.finish(it->node);
          return finish_stats();
        }
        if (limit_hit()) return finish_stats();
        expand(graph, arc.to, g, listener, st);
      }
      if (next_threshold == inf) {
        out.status = SearchStatus::no_path;
        out.note = SearchNote::exhausted;
        return finish_stats();
      }
      threshold = next_threshold;
    }
  }

  /// Single-goal search returning a new result.
  template <SearchGraph G, Heuristic H, SearchListener L = NullListener>
  SearchResult search(const G& graph, NodeId start, NodeId goal, H&& h,
                      const IdaStarOptions& options = {}, L&& listener = L{}) {
    SearchResult out;
    search(graph, start, std::span<const NodeId>(&goal, 1), h, options, out, listener);
    return out;
  }

 private:
  // One node of the current path; its unexplored arcs are arcs_[next, end).
  struct Frame {
    NodeId node;
    double g;
    std::size_t begin;
    std::size_t next;
    std::size_t end;
  };

  template <class G, class L>
  void expand(const G& graph, NodeId n, double g, L& listener, SearchStats& st) {
    listener.examine(n);
    ++st.expanded;
    const std::size_t begin = arcs_.size();
    graph.for_each_neighbour(n, [&](NodeId to, double cost) { arcs_.push_back(Arc{to, cost}); });
    st.generated += arcs_.size() - begin;
    frames_.push_back(Frame{n, g, begin, begin, arcs_.size()});
  }

  bool on_path(NodeId n) const noexcept {
    return std::any_of(frames_.begin(), frames_.end(), [n](const Frame& f) { return f.node == n; });
  }

  std::vector<Frame> frames_;
  std::vector<Arc> arcs_;
};

/// One-off IDA* from start to goal.
template <SearchGraph G, Heuristic H>
SearchResult ida_star(const G& graph, NodeId start, NodeId goal, H&& h,
                      const IdaStarOptions& options = {}) {
  IdaStar search;
  return search.search(graph, start, goal, h, options);
}

}  // namespace polynav::search
