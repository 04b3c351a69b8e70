#pragma once
/// @file
/// Random scenes, random queries and every registered method and smoother, each found path held
/// to the independent checker (exact_checker.hpp). Shared by the validity test (a few thousand
/// queries) and bench/validity_sweep.cpp (a hundred thousand and more).

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "polynav/plan/options.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav::validity {

/// A scene for the sweep, the same for a given seed: a 20 x 20 square (sometimes a non-convex
/// outline), sometimes far from the origin, with boxes, convex and star-shaped (non-convex)
/// polygons, obstacles with holes, obstacles sharing an edge, touching at a corner or at a vertex
/// on an edge, overlapping, touching or crossing the bounds, and narrow gaps a little wider and
/// a little narrower than the agent's diameter (0 included, for a point agent: touching). The
/// radius is 0 in about 40% of scenes, else one of 0.02, 0.1, 0.25, 0.5. A `far_fraction` of
/// the scenes is moved by (1024, -2048), where a double's spacing is 2^-42 to 2^-41 instead of
/// 2^-49 at most. Validated as a loader validates (it is read back from its native text).
Scene random_scene(std::uint64_t seed, double far_fraction = 0.0);

/// Whether zero-width gaps are open in the sweep's scene of this seed (a quarter of them).
bool random_open_gaps(std::uint64_t seed);

/// Free start and goal pairs: 70% uniform points of the bounds' box, the others at free
/// space's boundary vertices and corners or, for a point agent, the obstacles' own vertices
/// (places where paths touch the boundary). Only points free both in `space` and for `free`
/// (the independent checker) are kept; `disputed` (if given) counts the distinct points `space`
/// calls free that `free` does not.
std::vector<std::pair<Point, Point>> random_queries(const Scene& scene, const FreeSpace& space,
                                                    const std::function<bool(Point)>& free,
                                                    std::size_t count, std::uint64_t seed,
                                                    std::uint64_t* disputed = nullptr);

/// A method with some of its options: the registry's defaults, or one declared choice changed.
struct MethodVariant {
  std::string label;  ///< "grid", "navmesh nodes=portals"
  std::string method;
  Settings settings;
};

/// Every registered method with its defaults, plus, when `every_choice`, each method once per
/// other value of each of its choice, flag and fixed-value integer options. Without it, the
/// choices that pick another algorithm or other graph nodes are still added, each a method in
/// effect: grid.search (JPS, JPS+, Theta*), grid.paths (central), quadtree.nodes,
/// visgraph.attach, navmesh.nodes and navmesh.search (navmesh.search=auto is Polyanya on
/// small scenes and the graph on others).
std::vector<MethodVariant> method_variants(bool every_choice);

struct SweepOptions {
  std::uint64_t seed = 1;
  std::size_t queries = 1000;  ///< start-goal pairs, each planned by every variant
  std::size_t queries_per_scene = 50;
  double far_fraction = 0.0;  ///< random_scene()
  std::vector<MethodVariant> variants;
  std::vector<std::string> smoothers;  ///< empty = every registered smoother
  /// Every this many checked paths, check again with rationals only (CheckerOptions::filtered
  /// false) and count disagreements; 0 = never.
  std::size_t cross_check_every = 0;
};

/// Counts for one method variant and one smoother (smoother "raw" = the raw path).
struct Tally {
  std::string variant;
  std::string smoother;
  std::uint64_t queries = 0;
  std::uint64_t found = 0;
  std::uint64_t no_path = 0;
  std::uint64_t unattached = 0;  ///< invalid_query: a free end the method cannot attach
  std::uint64_t other = 0;       ///< any other status (internal_error, limit_reached, ...)
  std::string other_example;     ///< the first of them: status, message, scene seed, query
  std::uint64_t invalid = 0;     ///< found paths the checker rejects
  /// Of those, the ones whose Verdict::depth is positive and at most rounding_depth(): the
  /// signature of a constructed vertex rounded into an obstacle, which FreeSpace avoids.
  std::uint64_t invalid_by_rounding = 0;
  double max_depth = 0.0;       ///< the largest Verdict::depth among the invalid paths
  std::uint64_t fell_back = 0;  ///< the planner replaced an invalid smoothed path by the raw
  std::uint64_t refused = 0;    ///< scenes on which the variant could not be built
  std::uint64_t no_path_but_found = 0;  ///< no_path where another variant found a valid path
  std::string no_path_example;          ///< the first of them: scene seed, query, who found it
  double plan_seconds = 0.0;            ///< CPU: build and plan (the search once for all smoothers)
  double check_seconds = 0.0;           ///< CPU: the independent checker
};

struct Rejection {
  std::string variant;
  std::string smoother;
  std::uint64_t scene_seed = 0;
  Point start;
  Point goal;
  std::string reason;
  double depth = 0.0;        ///< Verdict::depth
  bool by_rounding = false;  ///< Tally::invalid_by_rounding
  std::vector<Point> path;
};

struct SweepResult {
  std::vector<Tally> tallies;  ///< one per variant and smoother, plus "raw" per variant
  std::uint64_t scenes = 0;
  std::uint64_t queries = 0;
  /// Query ends FreeSpace calls free that the checker does not (they are not used).
  std::uint64_t disputed_points = 0;
  std::uint64_t cross_checked = 0;           ///< paths checked again with rationals only
  std::uint64_t cross_check_mismatches = 0;  ///< and given another verdict (must be 0)
  std::uint64_t exact_signs = 0;             ///< signs the checker decided with rationals
  std::uint64_t filtered_signs = 0;          ///< and with intervals
  double seconds = 0.0;                      ///< CPU, everything
};

/// Runs the sweep on the scenes of seeds seed, seed + 1, ...; calls on_failure for every
/// rejected path (and on_scene, if given, after each scene, for progress).
SweepResult run_sweep(const SweepOptions& options,
                      const std::function<void(const Rejection&)>& on_failure,
                      const std::function<void(const SweepResult&)>& on_scene = {});

/// How far rounding to the nearest double could move a boundary into the blocked side: a
/// constructed vertex moves by at most half a unit in the last place (ulp) in each coordinate,
/// so by at most 0.71 ulp, and every point of an edge between two such vertices by no more; two
/// ulps of the scene's largest coordinate bound that. FreeSpace rounds into free space instead,
/// so an invalid path this shallow points at that rounding.
double rounding_depth(const Scene& scene);

/// CPU time of the calling thread, in seconds.
double thread_cpu_seconds();

}  // namespace polynav::validity
