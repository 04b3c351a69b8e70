#pragma once
/// @file
/// The artificial potential field: a local planner that walks down the gradient of an
/// attractive potential towards the goal plus a repulsive potential near the obstacles
/// (Khatib, "Real-time obstacle avoidance for manipulators and mobile robots", IJRR 5(1), 1986),
/// with a global planner to fall back on where the walk stops in a local minimum of the field
/// (Koren and Borenstein, "Potential field methods and their inherent limitations for mobile
/// robot navigation", ICRA 1991, list the traps: local minima before U-shaped obstacles, no
/// passage between close obstacles, oscillation in narrow passages).
///
/// The field, at a free point p with goal g (lengths below are in units of the influence
/// distance rho0, so the gains are pure numbers and a scene scaled as a whole plans the same):
///
/// - attraction: conic, F = zeta (g - p) / |g - p| (a pull of constant strength zeta), or
///   quadratic, F = zeta (g - p) / rho0 (a spring, weaker near the goal);
/// - repulsion, Khatib's FIRAS function U = eta / 2 (1/rho - 1/rho0)^2 for rho < rho0, 0 beyond,
///   taken per obstacle piece: F = eta (rho0/rho - 1) (rho0/rho)^2 (p - q) / rho, where q is the
///   nearest point of the piece and rho = |p - q|. A piece is a run of consecutive edges of one
///   boundary ring of free space that all come within rho0 of p (two walls of a corridor are
///   two pieces; a staircase of raster cells along one wall is one).
///
/// A walk from the start takes steps of fixed length `step` along the field's direction (its
/// strength does not matter: the steps are kinematic, as in Koren and Borenstein's robot). Each
/// step is a valid straight motion (FreeSpace::traversable, and FreeSpace::turn_is_free where it
/// leaves the previous step); a blocked step is halved up to four times and then counts as
/// stuck. Where the goal lies within one step and in sight, the walk ends straight on it.
///
/// Local minimum detection: the walk is stuck when no step can be taken (blocked at a sixteenth
/// of a step, or the field vanishes), when `window` steps in a row bring it no closer to the
/// goal by a quarter step than the closest it has been (a trap or an oscillation), or when it
/// has taken `max_steps`. Then the rest of the path is planned from where it stopped by the
/// fall-back method (another registry method, built once over the same free space), and the
/// two are joined; when that fails (or the join would turn through a blocked corner), the
/// fall-back plans from the start instead, so that a path is found whenever the fall-back
/// finds one from the start.
///
/// The field ignores terrain costs and heights other than through traversable(): in weighted
/// scenes its path is not the cheapest, and its cost is the exact cost of the path it takes.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "polynav/discretise/method.hpp"
#include "polynav/enum_names.hpp"

namespace polynav {

class FreeSpace;

/// The shape of the attractive potential.
enum class PotentialAttraction : std::uint8_t {
  conic,      ///< U = zeta |g - p|: a pull of constant strength
  quadratic,  ///< U = zeta |g - p|^2 / (2 rho0): a spring
};

inline constexpr auto potential_attraction_names =
    enum_names(PotentialAttraction::conic, "conic", PotentialAttraction::quadratic, "quadratic");

struct PotentialOptions {
  /// Length of one step of the walk. 0 = the longest side of free space's box / 256.
  /// [Limit: >= 0, finite] [Units: scene units]
  double step = 0.0;
  /// Distance rho0 beyond which an obstacle does not repel. 0 = 6 steps.
  /// [Limit: >= 0, finite] [Units: scene units]
  double influence = 0.0;
  /// Gain zeta of the attraction. [Limit: > 0]
  double attraction = 1.0;
  /// Gain eta of the repulsion (at a distance of rho0 / 2 the repulsion is 4 eta). [Limit: >= 0]
  double repulsion = 1.0;
  PotentialAttraction attraction_shape = PotentialAttraction::conic;
  /// Most steps of one walk; 0 = 8 times the straight distance to the goal in steps, plus 64.
  std::size_t max_steps = 0;
  /// Steps without progress (a quarter step closer than ever before) after which the walk is
  /// stuck in a local minimum. [Limit: >= 1]
  std::size_t window = 24;
  /// The registry method planning the rest from a local minimum, or "none". Resolved by the
  /// registry (plan/registry.cpp), which builds it with its default options.
  std::string fallback = "navmesh";
};

/// The messages of a potential query, one fixed wording (docs: README, "potential"):
///
/// - `potential field reached the goal on its own in N steps`
/// - `potential field fell back at (x, y) after N steps: local minimum (WHY); the rest follows
///   the M path` (WHY: `no progress in W steps`, `step blocked`, `step budget spent`), or `...;
///   the M path from there failed, so the whole path is the M path from the start`, or `...; the
///   M found no path: ...` when the fall-back fails too
/// - either found wording followed by `; that costs more than search.max_cost, so the whole path
///   is the M path from the start` when the walk's path costs more than the limit
/// - `potential field stopped at (x, y) after N steps: local minimum (WHY); no fall-back
///   (potential.fallback=none)`
///
/// Every query that used the fall-back has a message starting with this prefix.
inline constexpr std::string_view potential_fell_back_prefix = "potential field fell back";

/// The potential field method over space (which must outlive it). `fallback` is the method that
/// plans from a local minimum, built over the same space, or null for none (then a local minimum
/// is no_path, or partial, with the steps taken, under search.partial). Goal sets: each goal is
/// planned on its own (walk, then fall-back) and the cheapest path found is returned. reach() is
/// the fall-back's (none without one). The discretisation it reports is named "potential" and
/// otherwise answers as the fall-back's (its nodes, primitives and summary).
/// @throws InputError naming potential.step, potential.influence, potential.attraction,
///         potential.repulsion or potential.window for a value out of its limits
std::unique_ptr<Method> make_potential_method(const FreeSpace& space,
                                              const PotentialOptions& options,
                                              std::unique_ptr<Method> fallback);

}  // namespace polynav
