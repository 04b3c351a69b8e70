#pragma once
/// @file
/// The hybrid method: paths of a car-like agent with a minimum turning radius, planned over
/// (x, y, heading) by hybrid A* (Dolgov, Thrun, Montemerlo and Diebel, "Practical search
/// techniques in path planning for autonomous driving", STAIR 2008; as Nav2's Smac Hybrid-A*
/// planner does). Every path is a chain of straight pieces and arcs of exactly the turning
/// radius, so its curvature never exceeds 1 / radius.
///
/// The search: A* over states with continuous poses, each kept in the key (cell, heading bin)
/// of its position and heading, one state per key (the cheapest found so far; a key once
/// expanded is closed). A state's successors drive one step (`step`) straight, or along an arc
/// of the turning radius to the left or right, forwards, and with `reeds-shepp` backwards too
/// (backward length weighted by `reverse_penalty`). Costs are lengths (times the terrain's cost
/// multipliers in weighted scenes, summed over the densified chords); the heuristic is the
/// straight-line distance times the scene's cheapest multiplier, and, to a goal heading in an
/// unweighted scene, the larger of that and the Dubins distance (forwards only) or the
/// Reeds-Shepp distance (`reeds-shepp`) (curves.hpp; the shortest curve without obstacles, so
/// still a lower bound). Analytic expansion: from the start states and then every few
/// expansions (every one near the goal), the exact Dubins curve (with `reeds-shepp`, the
/// Reeds-Shepp word cheapest with backward length weighted, curves::shortest_reeds_shepp) to
/// the goal pose is checked and, when free, ends the search; with any goal heading, a turn and then
/// straight to the goal (curves::arc_then_line, which can end on the boundary, where no arc can)
/// and the Dubins curves to a few headings (towards the goal from the state, the state's own, and
/// its mirror image about that direction) are tried, the cheapest free one kept.
///
/// Exact collision checks: a straight piece by FreeSpace::line_of_sight; an arc is cut into
/// pieces of at most 45 degrees, each of which lies inside the triangle of its two ends and the
/// intersection of their tangents, and that triangle, grown outwards by a margin far above the
/// rounding of the construction (its sides moved out by it), is decided exactly by
/// FreeSpace::classify. The raw path's points are the pieces' ends and points on the arcs at
/// most `spacing` apart, all inside their piece's checked triangle (straight pieces are not
/// densified), so every chord of the polyline handed out is a valid straight motion as well:
/// the planner's final check and an independent checker accept it. A consequence: an arc never
/// starts or ends on the boundary of free space (its grown triangle would cross it), so a query
/// end on the boundary is left or reached along a straight piece.
///
/// Not optimal (states are pruned per key, the first free analytic curve ends the search, as
/// Dolgov et al. do, and the search is weighted A*, hybrid.heuristic_weight = 3 by default),
/// and complete only up to the lattice and the expansion budget (hybrid.max_expansions):
/// no_path from this method means none was found, not that none exists. The heuristic also
/// counts the 8-connected hops from the state's cell to the goal's through cells with a free
/// point: a path of length l meets at most l / cell + 1 of them, so (hops - 1) x cell is a
/// lower bound that sees walls. Smoothers other than `none`
/// replace the curves by straight shortcuts and lose the curvature bound.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "polynav/discretise/hybrid/curves.hpp"
#include "polynav/discretise/method.hpp"
#include "polynav/enum_names.hpp"

namespace polynav {

class FreeSpace;

/// Which way the agent may drive.
enum class HybridMotion : std::uint8_t {
  dubins,       ///< forwards only (Dubins 1957)
  reeds_shepp,  ///< forwards and backwards (Reeds and Shepp 1990)
};
inline constexpr auto hybrid_motion_names =
    enum_names(HybridMotion::dubins, "dubins", HybridMotion::reeds_shepp, "reeds-shepp");

/// The hybrid method's options (the registry's `hybrid.*`).
struct HybridOptions {
  /// The minimum turning radius. 0 = auto: the longest side of free space's box / 64 (a
  /// 20 x 20 scene: 0.3125). [Limit: > 0] [Units: scene units]
  double turning_radius = 0.0;
  HybridMotion motion = HybridMotion::dubins;
  /// Cost per unit of backward length (reeds-shepp). [Limit: >= 1]
  double reverse_penalty = 2.0;
  /// Heading bins of the search's keys. [Limit: 4 to 3600]
  std::uint32_t headings = 72;
  /// Start and goal headings in degrees; NaN (the option's `auto`) = any: the search starts in
  /// every heading bin, or the goal is reached in any heading.
  double start_heading = std::numeric_limits<double>::quiet_NaN();
  double goal_heading = std::numeric_limits<double>::quiet_NaN();
  /// Length of one motion primitive; 0 = auto: the turning radius x pi / 6 (30-degree arcs).
  /// Cells of the search's keys are step / 1.5 wide, so every primitive leaves its cell.
  /// [Limit: > 0] [Units: scene units]
  double step = 0.0;
  /// Largest distance between consecutive raw waypoints on an arc; 0 = auto: step / 4.
  /// [Limit: > 0] [Units: scene units]
  double spacing = 0.0;
  /// The search is weighted A*: states are ordered by g + w h with w this weight times
  /// search.weight. Over continuous poses plain A* (1) expands every state cheaper than the
  /// best path, tens of thousands on a cluttered 20 x 20 scene; 3 finds most paths within a few
  /// hundred (measured on the validity sweep's scenes: paths 7% longer than the shortest
  /// without a turning radius on average, as with 2, at two thirds of the time), each at most
  /// w times the cheapest the lattice holds. [Limit: >= 1]
  double heuristic_weight = 3.0;
  /// Most states expanded before the search gives up (no_path, the message naming this
  /// option and the turning radius). [Limit: >= 1]
  std::uint64_t max_expansions = 5000;
};

/// Most cells of the hybrid search's lattice (cells of step / 1.5 over free space's box): each
/// is classified once at build (whether it has a free point, for the heuristic) and searched
/// breadth first once per query.
inline constexpr std::size_t max_hybrid_cells = std::size_t{1} << 22;

/// The options with every `auto` resolved for a free space.
struct HybridSettings {
  double radius = 0.0;
  double step = 0.0;
  double cell = 0.0;
  double spacing = 0.0;
  std::uint32_t headings = 72;
  bool reverse = false;
  double reverse_penalty = 1.0;
  double heuristic_weight = 1.0;
  double start_heading = std::numeric_limits<double>::quiet_NaN();  ///< radians, or NaN: any
  double goal_heading = std::numeric_limits<double>::quiet_NaN();   ///< radians, or NaN: any
  std::uint64_t max_expansions = 0;
};

/// Resolves the options for space. @throws InputError naming the option (hybrid.turning_radius
/// not > 0, hybrid.headings < 4, hybrid.step or hybrid.spacing not > 0 or a step giving more than
/// max_hybrid_cells cells, a heading not finite, hybrid.reverse_penalty or hybrid.heuristic_weight
/// < 1, hybrid.max_expansions 0)
HybridSettings resolve_hybrid(const FreeSpace& space, const HybridOptions& options);

/// Whether the closed arc driven from p (steering s, signed length, radius r) lies in free space,
/// by the exact triangle checks described above; `samples` (if given) receives the densified
/// points after p (the arc's end last) at most `spacing` apart, and `headings` their headings.
bool hybrid_arc_is_free(const FreeSpace& space, curves::Pose p, curves::Steer s, double length,
                        double r, double spacing, std::vector<Point>* samples = nullptr,
                        std::vector<double>* headings = nullptr);

/// The hybrid method over space (which must outlive it). find_path plans from the start pose
/// (start, start_heading) to the goal pose; RawPath::headings holds the heading (radians) at
/// every raw waypoint. reach() is not offered (invalid_query, saying so).
/// @throws InputError as resolve_hybrid
std::unique_ptr<Method> make_hybrid_method(const FreeSpace& space, const HybridOptions& options);

}  // namespace polynav
