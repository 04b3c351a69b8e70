#pragma once
/// @file
/// What a search returns: a status, the path, its cost, statistics and an explanation.
/// "No path" is an answer, not an exception.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/enum_names.hpp"
#include "polynav/search/graph.hpp"

namespace polynav::search {

/// How a search ended.
enum class SearchStatus : std::uint8_t {
  found,          ///< a goal was reached; `path` ends at it
  no_path,        ///< no goal is reachable from the start (proven, not guessed)
  partial,        ///< no goal was reached; `path` ends at the reached node closest to the goals
  limit_reached,  ///< a limit stopped the search before any goal was reached; `limit` says which
  invalid_query,  ///< the query or the options were malformed; `note` says how
  /// Never produced by a search: the planner's verdict when a path it was about to return failed
  /// the final exact validity check (a defect, reported as one rather than as "no path").
  internal_error,
};

/// Which limit stopped a search (SearchOptions).
enum class SearchLimit : std::uint8_t {
  none,        ///< no limit was involved
  cost,        ///< max_cost: nodes costing more than it were not opened
  expansions,  ///< max_expansions
  time,        ///< max_time
  beam_width,  ///< beam_width: nodes were dropped from the open list
};

/// Why a search ended with no_path or invalid_query.
enum class SearchNote : std::uint8_t {
  none,
  exhausted,             ///< every node reachable from the start was expanded
  different_components,  ///< no goal shares the start's connected component (no search needed)
  start_out_of_range,    ///< start >= node_count
  goal_out_of_range,     ///< some goal >= node_count
  no_goals,              ///< the goal set is empty
  bad_weight,            ///< weight is NaN or < 1
  bad_max_cost,          ///< max_cost is NaN or < 0
  bad_beam_width,        ///< beam_width is 0, or set with TieBreak::binary_heap
  bad_max_time,          ///< max_time is negative
};

inline constexpr auto search_status_names = enum_names(
    SearchStatus::found, "found", SearchStatus::no_path, "no_path", SearchStatus::partial,
    "partial", SearchStatus::limit_reached, "limit_reached", SearchStatus::invalid_query,
    "invalid_query", SearchStatus::internal_error, "internal_error");
inline constexpr auto search_limit_names =
    enum_names(SearchLimit::none, "none", SearchLimit::cost, "cost", SearchLimit::expansions,
               "expansions", SearchLimit::time, "time", SearchLimit::beam_width, "beam_width");

/// "found", "no_path", "partial", "limit_reached", "invalid_query" or "internal_error".
constexpr std::string_view to_string(SearchStatus s) noexcept {
  return name_of(search_status_names, s);
}
/// "none", "cost", "expansions", "time" or "beam_width".
constexpr std::string_view to_string(SearchLimit l) noexcept {
  return name_of(search_limit_names, l);
}

/// Counters of one search. Compare them between runs of the same build; never pin them in tests.
struct SearchStats {
  std::uint64_t expanded = 0;   ///< nodes whose arcs were scanned (a goal popped is not expanded)
  std::uint64_t generated = 0;  ///< arcs scanned while expanding (successors produced)
  std::uint64_t reopened = 0;   ///< closed nodes put back in the open list (reopen_closed)
  std::uint64_t heap_pushes = 0;
  std::uint64_t heap_pops = 0;
  std::uint64_t heap_decreases = 0;
  std::uint64_t dropped = 0;            ///< nodes dropped from a full open list (beam_width)
  std::uint64_t iterations = 0;         ///< depth-first iterations (IDA* only)
  std::chrono::nanoseconds elapsed{0};  ///< wall time of the whole call

  /// elapsed in milliseconds.
  double elapsed_ms() const noexcept {
    return std::chrono::duration<double, std::milli>(elapsed).count();
  }
};

/// Why a search stopped short, for messages: "no goal within the cost limit 5", "the time
/// limit 20 ms ran out", ...; "no goal is reachable from the start" for none. `value` is the
/// limit's (SearchBudget::value_of).
inline std::string limit_reason(SearchLimit limit, double value, const SearchStats& stats) {
  std::ostringstream s;
  s.precision(6);
  switch (limit) {
    case SearchLimit::cost:
      s << "no goal within the cost limit " << value;
      break;
    case SearchLimit::expansions:
      s << "the expansion limit " << static_cast<std::uint64_t>(value) << " was hit";
      break;
    case SearchLimit::time:
      s << "the time limit " << value << " ms ran out";
      break;
    case SearchLimit::beam_width:
      s << "the beam width " << static_cast<std::uint64_t>(value) << " dropped " << stats.dropped
        << " nodes";
      break;
    case SearchLimit::none:
      s << "no goal is reachable from the start";
      break;
  }
  return s.str();
}

/// The message of a search that a limit stopped before any goal: "limit reached: <limit_reason>
/// before any goal was reached (expanded N nodes)".
inline std::string limit_reached_explanation(SearchLimit limit, double value,
                                             const SearchStats& stats) {
  return "limit reached: " + limit_reason(limit, value, stats) +
         " before any goal was reached (expanded " + std::to_string(stats.expanded) + " nodes)";
}

/// The answer to one query. Reuse one object across queries to avoid allocating: a search
/// overwrites every field and reuses the path's memory.
struct SearchResult {
  SearchStatus status = SearchStatus::invalid_query;
  /// The limit that stopped the search (limit_reached, or partial after a limit); else none.
  SearchLimit limit = SearchLimit::none;
  /// Why no_path or invalid_query; none otherwise.
  SearchNote note = SearchNote::none;
  /// Start .. goal (found) or start .. closest node (partial); empty otherwise.
  std::vector<NodeId> path;
  /// Sum of the arc costs along path; +infinity when there is no path.
  double cost = std::numeric_limits<double>::infinity();
  /// The query's start node.
  NodeId start = no_node;
  /// The last node of path: the goal reached (found) or the closest node (partial).
  NodeId reached = no_node;
  /// The heuristic value of `reached` (0 for a goal with an admissible heuristic).
  double reached_h = std::numeric_limits<double>::infinity();
  /// The value of the limit named by `limit`, or the offending value for invalid_query.
  double limit_value = 0.0;
  /// Nodes in the graph when the search started.
  std::size_t node_count = 0;
  SearchStats stats;

  /// Whether path holds a path (found or partial).
  bool has_path() const noexcept {
    return status == SearchStatus::found || status == SearchStatus::partial;
  }

  /// Resets every field; keeps the path's memory.
  void reset() noexcept {
    status = SearchStatus::invalid_query;
    limit = SearchLimit::none;
    note = SearchNote::none;
    path.clear();
    cost = std::numeric_limits<double>::infinity();
    start = no_node;
    reached = no_node;
    reached_h = std::numeric_limits<double>::infinity();
    limit_value = 0.0;
    node_count = 0;
    stats = SearchStats{};
  }

  /// One line saying what happened, e.g. "found: path of 12 nodes from 0 to goal 41, cost 17.3
  /// (expanded 88 nodes)". Built on demand so that searching never formats text.
  std::string explanation() const {
    std::ostringstream out;
    out.precision(6);
    const auto limit_text = [&] { return limit_reason(limit, limit_value, stats); };
    switch (status) {
      case SearchStatus::found:
        out << "found: path of " << path.size() << " nodes from " << start << " to goal " << reached
            << ", cost " << cost << " (expanded " << stats.expanded << " nodes)";
        break;
      case SearchStatus::no_path:
        if (note == SearchNote::different_components) {
          out << "no path: no goal is in the connected component of start " << start
              << " (answered without searching)";
        } else {
          out << "no path: no goal is reachable from start " << start << " (expanded "
              << stats.expanded << " nodes, all that are reachable)";
        }
        break;
      case SearchStatus::partial:
        out << "partial: " << limit_text() << "; path of " << path.size() << " nodes from " << start
            << " to node " << reached << ", the closest reached (heuristic " << reached_h
            << "), cost " << cost;
        break;
      case SearchStatus::limit_reached:
        out << limit_reached_explanation(limit, limit_value, stats);
        break;
      case SearchStatus::internal_error:
        out << "internal error";
        break;
      case SearchStatus::invalid_query:
        out << "invalid query: ";
        switch (note) {
          case SearchNote::start_out_of_range:
            out << "start node " << start << " is not in the graph (" << node_count << " nodes)";
            break;
          case SearchNote::goal_out_of_range:
            out << "goal node " << static_cast<std::uint64_t>(limit_value)
                << " is not in the graph (" << node_count << " nodes)";
            break;
          case SearchNote::no_goals:
            out << "the goal set is empty";
            break;
          case SearchNote::bad_weight:
            out << "heuristic weight " << limit_value << " is not >= 1";
            break;
          case SearchNote::bad_max_cost:
            out << "max_cost " << limit_value << " is not >= 0";
            break;
          case SearchNote::bad_beam_width:
            out << (limit_value == 0.0 ? "beam_width must be at least 1"
                                       : "beam search does not apply to the binary_heap tie rule "
                                         "(grid.ties=central64): unset search.beam_width or "
                                         "choose another rule");
            break;
          case SearchNote::bad_max_time:
            out << "max_time " << limit_value << " ms is negative";
            break;
          default:
            out << "not searched";
            break;
        }
        break;
    }
    return out.str();
  }
};

}  // namespace polynav::search
