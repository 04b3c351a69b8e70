// The plan picture: a discretisation's structure, expanded nodes, raw and smoothed paths, and
// the shading of what `reach` reached.

#include "polynav/io/plan_picture.hpp"

#include <algorithm>
#include <utility>

#include "polynav/io/theme.hpp"

namespace polynav {

void draw_discretisation(SvgCanvas& canvas, Primitives p) {
  // Cells in the "grid" layer, graph-like structure (regions, arcs, nodes) in the "graph" layer.
  canvas.group("grid");
  draw_primitives(canvas, {std::move(p.blocked), {}, std::move(p.lattice), {}, {}});
  canvas.group("graph");
  draw_primitives(canvas, {{}, std::move(p.regions), {}, std::move(p.arcs), std::move(p.nodes)});
}

void draw_paths(SvgCanvas& canvas, std::span<const PathDrawing> paths) {
  canvas.group("expanded");
  const SvgStyle expanded = theme::expanded();
  for (const PathDrawing& d : paths)
    for (const Point& p : d.expanded)
      canvas.marker(p, SvgMarker::square, theme::expanded_size, expanded);
  canvas.group("raw-path");
  const SvgStyle raw = theme::raw_path();
  for (const PathDrawing& d : paths)
    if (d.raw_waypoints.size() > 1) canvas.polyline(d.raw_waypoints, raw);
  canvas.group("path");
  const SvgStyle path = theme::path();
  const SvgStyle waypoint = theme::waypoint();
  for (const PathDrawing& d : paths) {
    if (d.waypoints.size() < 2) continue;
    canvas.polyline(d.waypoints, path);
    for (const Point& p : d.waypoints)
      canvas.marker(p, SvgMarker::circle, theme::waypoint_size, waypoint);
  }
}

SvgCanvas plan_picture(const Scene& scene, const FreeSpace& space, Primitives primitives,
                       std::span<const PathDrawing> paths, const SceneCanvasOptions& options) {
  SvgCanvas canvas = make_scene_canvas(scene, space, options);
  draw_scene(canvas, scene, space);
  draw_discretisation(canvas, std::move(primitives));
  draw_paths(canvas, paths);
  return canvas;
}

void draw_shaded(SvgCanvas& canvas, const std::vector<Ring>& regions,
                 const std::vector<double>& shade, const std::vector<Point>& points,
                 const std::vector<double>& point_shade) {
  SvgStyle style = theme::reach();
  for (std::size_t i = 0; i < regions.size(); ++i) {
    style.fill_opacity = theme::reach_region_low +
                         theme::reach_region_range * (1.0 - std::clamp(shade[i], 0.0, 1.0));
    canvas.rings({regions[i]}, style);
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    style.fill_opacity = theme::reach_point_low +
                         theme::reach_point_range * (1.0 - std::clamp(point_shade[i], 0.0, 1.0));
    canvas.marker(points[i], SvgMarker::circle, theme::reach_point_size, style);
  }
}

}  // namespace polynav
