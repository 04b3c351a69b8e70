#pragma once
/// @file
/// SearchBudget: the limits of one search (cost, expansions, wall-clock time, the beam width's
/// name in messages) and its clock, one class for every search loop.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "polynav/search/search_result.hpp"

namespace polynav::search {

/// The limits of one search and its clock, asked the same way by every search loop (A*, Theta*,
/// IDA*, Polyanya): expansions and wall-clock time before each expansion, cost before a node is
/// opened, and, when no goal was reached, which limit ended the search and the value its message
/// names. The clock starts when the budget is made, when it has a time limit or measures the
/// search (`measured`: SearchStats::elapsed).
class SearchBudget {
 public:
  using clock = std::chrono::steady_clock;
  /// Expansions between two readings of the clock (a reading costs about as much as expanding a
  /// grid node).
  static constexpr std::uint64_t clock_period = 64;

  SearchBudget(double max_cost, std::uint64_t max_expansions, std::chrono::nanoseconds max_time,
               std::size_t beam_width = std::numeric_limits<std::size_t>::max(),
               bool measured = true)
      : max_cost_(max_cost),
        max_expansions_(max_expansions),
        max_time_(max_time),
        beam_width_(beam_width),
        timed_(max_time != std::chrono::nanoseconds::max()),
        measured_(measured) {
    if (timed_ || measured_) start_ = clock::now();
  }

  /// Whether the limits are in range; else out becomes invalid_query naming the first that is
  /// not (bad_max_cost, bad_max_time) with its value.
  bool valid(SearchResult& out) const {
    const auto invalid = [&](SearchNote note, double value) {
      out.status = SearchStatus::invalid_query;
      out.note = note;
      out.limit_value = value;
      return false;
    };
    if (!(max_cost_ >= 0.0)) return invalid(SearchNote::bad_max_cost, max_cost_);
    if (max_time_.count() < 0) return invalid(SearchNote::bad_max_time, milliseconds(max_time_));
    return true;
  }

  /// Asked before each expansion with the number made so far: expansions when they are used up,
  /// time when the clock (read every clock_period expansions) says the time is up, else none.
  SearchLimit before_expansion(std::uint64_t expanded) const {
    if (expanded >= max_expansions_) return SearchLimit::expansions;
    if (timed_ && expanded % clock_period == 0 && clock::now() - start_ >= max_time_)
      return SearchLimit::time;
    return SearchLimit::none;
  }

  /// Whether a node whose cheapest path through it costs at least f is beyond the cost limit
  /// (it is then never opened).
  bool beyond_cost(double f) const { return f > max_cost_; }
  double max_cost() const { return max_cost_; }

  /// The time since the budget was made; zero when it neither has a time limit nor measures
  /// the search (then the clock is never read).
  clock::duration elapsed() const {
    return timed_ || measured_ ? clock::now() - start_ : clock::duration::zero();
  }

  /// How a search that reached no goal ends: its status and the limit that ended it.
  struct Ending {
    SearchStatus status = SearchStatus::no_path;
    SearchLimit limit = SearchLimit::none;
    double limit_value = 0.0;  ///< value_of(limit)
  };

  /// `stop`: the limit that ended the loop, none when the open list ran empty; then the cost
  /// limit is named when a node was left unopened beyond it (`pruned`), else the beam width when
  /// nodes were dropped from a full open list (`dropped`). no_path when no limit was involved,
  /// else limit_reached.
  Ending unreached(SearchLimit stop, bool pruned, bool dropped) const {
    if (stop == SearchLimit::none)
      stop = pruned ? SearchLimit::cost : dropped ? SearchLimit::beam_width : SearchLimit::none;
    return {stop == SearchLimit::none ? SearchStatus::no_path : SearchStatus::limit_reached, stop,
            value_of(stop)};
  }

  /// unreached() written into out, whose status is partial instead when `partial` (the caller
  /// adds the path to the closest node).
  void finish_unreached(SearchLimit stop, bool pruned, bool dropped, bool partial,
                        SearchResult& out) const {
    const Ending e = unreached(stop, pruned, dropped);
    out.limit = e.limit;
    out.limit_value = e.limit_value;
    out.status = partial ? SearchStatus::partial : e.status;
    if (out.status == SearchStatus::no_path) out.note = SearchNote::exhausted;
  }

  /// The value a message names for a limit: the cost, the expansions, the time in ms, the beam
  /// width; 0 for none.
  double value_of(SearchLimit limit) const {
    switch (limit) {
      case SearchLimit::cost:
        return max_cost_;
      case SearchLimit::expansions:
        return double(max_expansions_);
      case SearchLimit::time:
        return milliseconds(max_time_);
      case SearchLimit::beam_width:
        return double(beam_width_);
      case SearchLimit::none:
        break;
    }
    return 0.0;
  }

 private:
  static double milliseconds(std::chrono::nanoseconds t) {
    return std::chrono::duration<double, std::milli>(t).count();
  }

  clock::time_point start_;
  double max_cost_;
  std::uint64_t max_expansions_;
  std::chrono::nanoseconds max_time_;
  std::size_t beam_width_;
  bool timed_;
  bool measured_;
};

}  // namespace polynav::search
