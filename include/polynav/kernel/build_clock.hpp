#pragma once
/// @file
/// The wall-clock budget of one build: free space from a scene, or a discretisation over it.

#include <chrono>
#include <cmath>
#include <sstream>
#include <string>
#include <string_view>

#include "polynav/error.hpp"

namespace polynav {

/// The budget of each build unless set: free space and a discretisation over it get 300 s each.
inline constexpr double default_max_build_seconds = 300.0;

/// Started when a build starts and checked between steps of its work, so that a scene too large
/// for the machine ends in an error naming the option (`space.max_build_seconds`) rather than in
/// hours of computing. Steps that cannot be interrupted (the exact union of the obstacles, a
/// triangulation) have budgets on their input sizes instead; this one bounds the loops around
/// them. A check costs one read of the steady clock.
class BuildClock {
 public:
  /// `seconds`: the budget; infinity for none.
  explicit BuildClock(double seconds) : seconds_(seconds), start_(Clock::now()) {}

  /// Throws InputError once more than the budget has passed since construction. `what` names
  /// the work for the message ("the visibility graph").
  void check(std::string_view what) const {
    if (!std::isfinite(seconds_)) return;
    const double spent = std::chrono::duration<double>(Clock::now() - start_).count();
    if (spent <= seconds_) return;
    std::ostringstream message;
    message << "building " << what << " took more than the budget of " << seconds_
            << " s (stopped after " << spent
            << " s); raise it with --set space.max_build_seconds=S, or use a coarser method or "
               "resolution";
    throw InputError({"", 0, 0, "space.max_build_seconds"}, message.str());
  }

 private:
  using Clock = std::chrono::steady_clock;
  double seconds_;
  Clock::time_point start_;
};

}  // namespace polynav
