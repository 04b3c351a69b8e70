#pragma once
/// @file
/// An SVG document under construction: a canvas that maps scene coordinates to pixels, the
/// styles shapes and text are painted with, its layout, and the text helpers pictures share.
///
/// The canvas collects drawing into named groups (`<g id="...">`) so that several parts of the
/// program can contribute layers to one picture in a fixed stacking order: draw_scene()
/// (io/scene_picture.hpp) creates the groups listed in scene_layers, and a later stage (a planner
/// drawing its path, io/plan_picture.hpp) selects one of them with SvgCanvas::group() and draws
/// into it. What the pictures paint with (colours, widths, marker sizes, dashes) is io/theme.hpp.

#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/geometry.hpp"

namespace polynav {

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
/// characters, which XML 1.0 forbids, become spaces, and bytes that are not UTF-8 (a file name's)
/// and the non-characters U+FFFE and U+FFFF become U+FFFD (polynav/text.hpp).
std::string svg_escape(std::string_view text);

/// `v` with at most `decimals` digits after the point, trailing zeros dropped ("12.5", "3",
/// "-0.25"); never "-0".
std::string svg_number(double v, int decimals);

/// A rough advance width of `text` set at `size` pixels in the document's sans-serif font (0.6 em
/// per character); for laying out labels and legends, where a few pixels off costs nothing.
/// [Units: px]
double svg_text_width(std::string_view text, double size);

/// Up to four significant digits, for labels that people read rather than coordinates ("0.25",
/// "1.5e-05"); values from 10^4 to 10^15 whole ("12500"); never "-0".
std::string svg_short_number(double v);

}  // namespace polynav
