#pragma once
/// @file
/// SVG output: a small canvas that maps scene coordinates to pixels, and the drawing of a scene
/// (bounds, obstacles, the free-space outline, weighted regions, queries, a title and a legend).
///
/// The canvas collects drawing into named groups (`<g id="...">`) so that several parts of the
/// program can contribute layers to one picture in a fixed stacking order: draw_scene() creates
/// the groups listed in scene_layers, and a later stage (a planner drawing its path, say) selects
/// one of them with SvgCanvas::group() and draws into it.
///
/// Typical use:
/// @code
///   FreeSpace space(scene);
///   SvgCanvas canvas = make_scene_canvas(scene, space, {.width = 900});
///   draw_scene(canvas, scene, space);
///   canvas.group("path");
///   canvas.polyline(waypoints, {.stroke = "#0969da", .stroke_width = 2.5});
///   canvas.save("out.svg");
/// @endcode

#include <array>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/discretise/primitives.hpp"
#include "polynav/geometry.hpp"

namespace polynav {

class FreeSpace;
struct Scene;

/// How a shape is painted. Colours are SVG colours ("#4a5560", "none", "url(#pattern)"). Widths
/// and dash lengths are in pixels, so strokes look the same whatever the scale of the scene.
struct SvgStyle {
  std::string fill = "none";
  double fill_opacity = 1.0;  ///< [Limit: 0..1]
  std::string stroke = "none";
  double stroke_width = 1.0;    ///< [Units: px]
  double stroke_opacity = 1.0;  ///< [Limit: 0..1]
  std::vector<double> dash{};   ///< dash and gap lengths; empty = solid. [Units: px]
  bool round_joins = false;     ///< round line joins and caps (for paths), else miter and butt
};

enum class TextAnchor { start, middle, end };

/// How text is set. The font family is set once for the whole document.
struct SvgTextStyle {
  double size = 11.0;  ///< [Units: px]
  std::string fill = "#1f2328";
  TextAnchor anchor = TextAnchor::start;
  bool bold = false;
  /// Draws a white outline under the glyphs so that labels stay legible over drawings.
  bool halo = false;
};

enum class SvgMarker { circle, square, diamond, triangle, cross };

/// The size of the picture. The drawing area keeps the aspect ratio of the world box: its width
/// is `width - 2 * margin` and its height follows, unless that would exceed `max_height`, in
/// which case the drawing is scaled down and centred horizontally.
struct SvgLayout {
  double width = 800.0;     ///< whole image. [Limit: > 2 * margin] [Units: px]
  double margin = 24.0;     ///< blank space around the drawing area. [Units: px]
  double header = 0.0;      ///< band above the top margin, e.g. for a title. [Units: px]
  double footer = 0.0;      ///< band below the bottom margin, e.g. for a legend. [Units: px]
  double max_height = 0.0;  ///< whole image; 0 = no limit. [Units: px]
  int decimals = 2;         ///< digits after the point in pixel coordinates. [Limit: 0..6]
};

/// An SVG document under construction whose drawing area shows the box `world` of the plane,
/// with y pointing up on screen. Drawing functions taking Points take world coordinates; those
/// ending in `_px` take pixel coordinates (origin top-left, y down), for titles and legends.
class SvgCanvas {
 public:
  /// Throws std::invalid_argument when the layout leaves no room to draw. An empty or flat
  /// world box is widened so that the transform stays finite.
  explicit SvgCanvas(Box world, SvgLayout layout = {});

  /// The pixel position of world point p.
  Point to_pixel(Point p) const;
  /// The world point at pixel position px (the inverse of to_pixel).
  Point to_world(Point px) const;
  /// Pixels per world unit.
  double scale() const { return scale_; }
  double width() const { return width_; }
  double height() const { return height_; }
  /// The world box shown by the drawing area (after widening a flat box).
  const Box& world() const { return world_; }
  /// The drawing area in pixels: min is its top-left corner, max its bottom-right.
  Box plot_area() const;
  /// The header and footer bands in pixels (empty boxes of zero height when not requested).
  Box header_area() const;
  Box footer_area() const;
  const SvgLayout& layout() const { return layout_; }

  /// Sets the document's `<title>`.
  void set_title(std::string_view title);
  /// Makes `id` the group that the following drawing calls add to, creating it after all
  /// existing groups when it does not exist yet. The empty id is the document root, which is
  /// written before every group.
  void group(std::string_view id);
  /// Creates group `id` just before group `before` (or last when `before` does not exist)
  /// without selecting it. Nothing happens when `id` exists already.
  void insert_group(std::string_view id, std::string_view before);
  /// Clips everything in group `id` (created if needed) by a clip path from define_clip().
  void clip_group(std::string_view id, std::string_view clip_id);
  bool has_group(std::string_view id) const;
  /// The currently selected group.
  const std::string& current_group() const { return current_; }
  /// Ids of the groups in document order. Groups left empty are not written.
  std::vector<std::string> group_ids() const;

  /// Defines a clip path from rings in world coordinates (even-odd rule).
  void define_clip(std::string_view id, const std::vector<Ring>& rings);
  /// Defines a fill pattern of parallel lines, usable as `fill = "url(#id)"`.
  /// @param spacing distance between lines [Units: px]
  /// @param angle_deg direction of the lines, counter-clockwise from the x axis
  void define_hatch(std::string_view id, std::string_view colour, double spacing, double line_width,
                    double angle_deg);

  /// A polygon with holes, filled with the even-odd rule. `tooltip` becomes a `<title>`.
  void polygon(const Polygon& polygon, const SvgStyle& style, std::string_view tooltip = {});
  /// Several rings as one shape with the even-odd rule: a point is painted when it lies inside
  /// an odd number of rings, whatever their orientation.
  void rings(const std::vector<Ring>& rings, const SvgStyle& style, std::string_view tooltip = {});
  /// An open polyline.
  void polyline(const std::vector<Point>& points, const SvgStyle& style);
  void line(Point a, Point b, const SvgStyle& style);
  /// A marker centred on p whose size in pixels does not depend on the scale.
  void marker(Point p, SvgMarker shape, double size_px, const SvgStyle& style,
              std::string_view tooltip = {});
  /// Text anchored at p, shifted by `offset_px` (x right, y down, in pixels).
  void text(Point p, std::string_view text, const SvgTextStyle& style, Point offset_px = {});

  void rect_px(const Box& box, const SvgStyle& style, double corner_radius = 0.0);
  void line_px(Point a, Point b, const SvgStyle& style);
  void marker_px(Point centre, SvgMarker shape, double size_px, const SvgStyle& style);
  void text_px(Point at, std::string_view text, const SvgTextStyle& style);

  /// The whole document.
  std::string str() const;
  void write(std::ostream& out) const;
  /// Writes the document to a file; throws std::runtime_error naming the file on failure.
  void save(const std::filesystem::path& path) const;

  /// An SVG path `d` attribute for closed rings in world coordinates.
  std::string path_data(const std::vector<Ring>& rings) const;
  /// A pixel coordinate or length, printed with layout().decimals digits at most.
  std::string num(double v) const;

 private:
  struct Group {
    std::string id;
    std::string clip;
    std::string body;
  };
  std::string& body();
  Group* find(std::string_view id);
  const Group* find(std::string_view id) const;
  std::string style_attributes(const SvgStyle& style) const;
  void marker_at(Point centre, SvgMarker shape, double size_px, const SvgStyle& style,
                 std::string_view tooltip);

  SvgLayout layout_;
  Box world_;
  double scale_ = 1.0;
  double width_ = 0.0;
  double height_ = 0.0;
  Point origin_;  // pixel position of world (min.x, max.y)
  std::string title_;
  std::string defs_;
  std::string root_;
  std::vector<Group> groups_;
  std::string current_;
};

/// Escapes text for XML character data and attribute values (`&`, `<`, `>`, `"`, `'`); control
/// characters, which XML 1.0 forbids, become spaces.
std::string svg_escape(std::string_view text);

/// `v` with at most `decimals` digits after the point, trailing zeros dropped ("12.5", "3",
/// "-0.25"); never "-0".
std::string svg_number(double v, int decimals);

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
/// - regions shaded by cost (cheaper than 1 green, dearer brown, darker the further from 1),
///   regions with a height hatched and labelled;
/// - queries: start (circle) and goal (diamond) markers, a thin line between them and the
///   query's name; an end point that is not free is crossed out in red;
/// - a title and a legend with the cost multipliers and a scale bar, when the canvas has a
///   header and footer (make_scene_canvas() sizes them).
void draw_scene(SvgCanvas& canvas, const Scene& scene, const FreeSpace& space);

/// Draws a discretisation's structure (Discretisation::primitives()) into the canvas's current
/// group: blocked cells shaded, node regions outlined, the lattice and graph edges thin and
/// light, nodes as small dots.
void draw_primitives(SvgCanvas& canvas, const Primitives& primitives);

/// Shades regions (e.g. the cells reached within a cost), the darker the lower their value in
/// [0, 1]; points without a region are drawn as dots.
void draw_shaded(SvgCanvas& canvas, const std::vector<Ring>& regions,
                 const std::vector<double>& shade, const std::vector<Point>& points,
                 const std::vector<double>& point_shade);

}  // namespace polynav
