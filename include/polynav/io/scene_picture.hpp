#pragma once
/// @file
/// The picture of a scene: bounds, obstacles, the free-space outline, weighted regions,
/// queries, a title and a legend, drawn into the layers of an SvgCanvas, and the drawing of a
/// discretisation's structure (Primitives). Colours and sizes come from io/theme.hpp.
///
/// Typical use:
/// @code
///   FreeSpace space(scene);
///   SvgCanvas canvas = make_scene_canvas(scene, space, {.width = 900});
///   draw_scene(canvas, scene, space);
///   canvas.group("path");
///   canvas.polyline(waypoints, theme::path());
///   canvas.save("out.svg");
/// @endcode
/// io/plan_picture.hpp draws a planner's results over it.

#include <array>
#include <string>
#include <string_view>

#include "polynav/discretise/primitives.hpp"
#include "polynav/io/canvas.hpp"

namespace polynav {

class FreeSpace;
struct Scene;

/// The groups draw_scene() creates, bottom to top. The empty ones in the middle are there for
/// later stages: "grid" (cells), "graph" (edges), "expanded" (search nodes), "raw-path" (the
/// path as searched) and "path" (the smoothed path) all lie above the scene and below the
/// query markers.
inline constexpr std::array<std::string_view, 19> scene_layers = {
    "frame",    "cells", "bounds",   "regions", "heights", "clearance", "obstacles",
    "blocked",  "walls", "inflated", "labels",  "grid",    "graph",     "expanded",
    "raw-path", "path",  "queries",  "title",   "legend"};

/// Options of make_scene_canvas().
struct SceneCanvasOptions {
  double width = 800.0;  ///< [Units: px]
  /// Leave out the title band and the legend (then the picture is only the drawing area).
  bool bare = false;
};

/// A canvas sized for `scene`: its world box covers the bounds, the free space and every query
/// point (so a query outside the bounds is still visible), with bands for the title and legend
/// that draw_scene() fills.
SvgCanvas make_scene_canvas(const Scene& scene, const FreeSpace& space,
                            const SceneCanvasOptions& options = {});

/// Draws the scene into the groups of scene_layers:
/// - native scenes: the bounds as a wall, obstacles filled, and when the agent has a radius the
///   configuration-space obstacles (FreeSpace::boundary()) as a tinted band with a dashed edge;
/// - scenes whose free space is given directly (Scene::free_boundary, e.g. maps and meshes):
///   everything that is not free space filled as blocked, plus the dashed edge for a radius;
/// - ROS maps (Scene::occupancy): the map's occupied and unknown cells in the "cells" layer, and
///   over them the blocked area as read (the vectorised outline) translucent with its edge drawn,
///   so that the outline can be checked against the cells;
/// - regions shaded by cost (region_colours()), regions with a height hatched and labelled;
/// - queries: start (circle) and goal (diamond) markers, a thin line between them and the
///   query's name; an end point that is not free is crossed out;
/// - a title and a legend with the cost multipliers and a scale bar, when the canvas has a
///   header and footer (make_scene_canvas() sizes them).
void draw_scene(SvgCanvas& canvas, const Scene& scene, const FreeSpace& space);

/// Draws a discretisation's structure (Discretisation::primitives()) into the canvas's current
/// group: blocked cells shaded, node regions outlined, the lattice and graph edges thin and
/// light, nodes as small dots.
void draw_primitives(SvgCanvas& canvas, const Primitives& primitives);

/// The colours of a region with cost multiplier `cost`: cheaper than 1 green, dearer brown,
/// darker the further from 1 (theme::region), its edge and its label darker still.
struct RegionColours {
  std::string fill;
  std::string edge;
  std::string text;
};
RegionColours region_colours(double cost);

}  // namespace polynav
