// The plan picture: a discretisation's structure, expanded nodes, raw and smoothed paths, and
// the shading of what `reach` reached.

#include "polynav/io/plan_picture.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
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

void draw_threats(SvgCanvas& canvas, std::span<const Point> threats, double distance) {
  canvas.group("threats");
  // The circles reach past the picture's world; what lies beyond it is cut off.
  const Box w = canvas.world();
  canvas.define_clip("world-clip", {{w.min, {w.max.x, w.min.y}, w.max, {w.min.x, w.max.y}}});
  canvas.clip_group("threats", "world-clip");
  // Enough chords that the circle looks round at any size a picture gives it.
  constexpr int chords = 180;
  for (const Point& t : threats) {
    std::vector<Point> circle;
    for (int k = 0; k <= chords; ++k) {
      const double a = 2 * std::numbers::pi * k / chords;
      circle.push_back({t.x + distance * std::cos(a), t.y + distance * std::sin(a)});
    }
    if (distance > 0) canvas.polyline(circle, theme::threat_circle());
    canvas.marker(t, SvgMarker::cross, theme::threat_size, theme::threat());
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
