#pragma once
/// @file
/// The picture of a plan: a discretisation's structure and a planner's paths drawn over a scene
/// picture (io/scene_picture.hpp), into its "grid", "graph", "expanded", "raw-path" and "path"
/// layers. It takes plain data, so that io/ needs nothing from plan/: the caller turns each
/// PlanResult into a PathDrawing and passes Discretisation::primitives().
///
/// Typical use (plan/ on the caller's side):
/// @code
///   std::vector<PathDrawing> paths;
///   for (const PlanResult& r : results)
///     paths.push_back({r.waypoints, r.raw_waypoints, r.expanded});
///   SvgCanvas picture = plan_picture(scene, planner.free_space(),
///                                    planner.discretisation().primitives(), paths);
///   picture.save("plan.svg");
/// @endcode

#include <span>
#include <vector>

#include "polynav/discretise/primitives.hpp"
#include "polynav/geometry.hpp"
#include "polynav/io/canvas.hpp"
#include "polynav/io/scene_picture.hpp"

namespace polynav {

/// One planned path as drawn: PlanResult's points, nothing else.
struct PathDrawing {
  std::vector<Point> waypoints;      ///< the path returned (smoothed); drawn with its waypoints
  std::vector<Point> raw_waypoints;  ///< the path as searched, dashed
  std::vector<Point> expanded;       ///< nodes the search expanded (when recorded), small squares
};

/// Draws a discretisation's structure into the scene's layers: blocked cells and the lattice
/// into "grid", node regions, arcs and nodes into "graph".
void draw_discretisation(SvgCanvas& canvas, Primitives primitives);

/// Draws every path's expanded nodes into "expanded", its raw path into "raw-path" and its path
/// with its waypoints into "path". Paths of fewer than two points are left out.
void draw_paths(SvgCanvas& canvas, std::span<const PathDrawing> paths);

/// Draws a flee query's threats (crosses) and the circle of radius `distance` round each (the
/// path ends outside all of them) into the "threats" layer.
void draw_threats(SvgCanvas& canvas, std::span<const Point> threats, double distance);

/// The whole plan picture: make_scene_canvas(), draw_scene(), draw_discretisation() and
/// draw_paths(). `space` is the free space the paths were planned in.
SvgCanvas plan_picture(const Scene& scene, const FreeSpace& space, Primitives primitives,
                       std::span<const PathDrawing> paths, const SceneCanvasOptions& options = {});

/// Shades regions (e.g. the cells reached within a cost), the darker the lower their value in
/// [0, 1]; points without a region are drawn as dots. Draws into the current group.
void draw_shaded(SvgCanvas& canvas, const std::vector<Ring>& regions,
                 const std::vector<double>& shade, const std::vector<Point>& points,
                 const std::vector<double>& point_shade);

}  // namespace polynav
