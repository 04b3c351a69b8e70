#include "polynav/io/svg.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <numbers>

#include <ostream>
#include <stdexcept>
#include <utility>
#include "polynav/error.hpp"

#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {

// ---------------------------------------------------------------------------------------------
// Text and numbers

std::string svg_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 has no way to represent most control characters, even escaped.
        out += (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
    }
  }
  return out;
}

std::string svg_number(double v, int decimals) {
  if (!std::isfinite(v)) return "0";
  decimals = std::clamp(decimals, 0, 17);
  // Fixed notation of the largest double needs about 310 characters before the point.
  char buf[400];
  const auto result = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
  std::string s(buf, result.ptr);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

namespace {

// Up to four significant digits: for labels that people read, not for coordinates.
std::string short_number(double v) {
  char buf[64];
  // Large values (the area of a big map) read better whole than in exponent form.
  const bool whole = std::abs(v) >= 1e4 && std::abs(v) < 1e15;
  std::snprintf(buf, sizeof buf, whole ? "%.0f" : "%.4g", v);
  std::string s = buf;
  return s == "-0" ? "0" : s;
}

std::size_t code_points(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// A rough advance width for the sans-serif document font; only used to lay out legends, where
// being a few pixels off costs nothing.
double text_width(std::string_view s, double size) {
  return 0.6 * size * static_cast<double>(code_points(s));
}

const char* anchor_name(TextAnchor a) {
  switch (a) {
    case TextAnchor::middle:
      return "middle";
    case TextAnchor::end:
      return "end";
    case TextAnchor::start:
      break;
  }
  return "start";
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// SvgCanvas

SvgCanvas::SvgCanvas(Box world, SvgLayout layout) : layout_(layout), world_(world) {
  const bool finite_layout = std::isfinite(layout_.width) && std::isfinite(layout_.margin) &&
                             std::isfinite(layout_.header) && std::isfinite(layout_.footer) &&
                             std::isfinite(layout_.max_height);
  if (!finite_layout || layout_.margin < 0 || layout_.header < 0 || layout_.footer < 0 ||
      layout_.max_height < 0 || !(layout_.width > 2 * layout_.margin)) {
    throw std::invalid_argument("SvgCanvas: the layout leaves no room for the drawing area");
  }
  layout_.decimals = std::clamp(layout_.decimals, 0, 6);

  const bool finite_world = std::isfinite(world_.min.x) && std::isfinite(world_.min.y) &&
                            std::isfinite(world_.max.x) && std::isfinite(world_.max.y);
  if (world_.empty() || !finite_world) world_ = Box{{0, 0}, {1, 1}};
  // A flat box (a single point or a segment) gets the other side's extent, or one unit.
  const double w = world_.width();
  const double h = world_.height();
  if (!(w > 0) || !(h > 0)) {
    const double pad = std::max(std::max(w, h), 1.0) / 2;
    if (!(w > 0)) world_.min.x -= pad, world_.max.x += pad;
    if (!(h > 0)) world_.min.y -= pad, world_.max.y += pad;
  }

  const double plot_width = layout_.width - 2 * layout_.margin;
  scale_ = plot_width / world_.width();
  double plot_height = world_.height() * scale_;
  if (layout_.max_height > 0) {
    const double room = layout_.max_height - layout_.header - layout_.footer - 2 * layout_.margin;
    if (room > 0 && plot_height > room) {
      scale_ = room / world_.height();
      plot_height = room;
    }
  }
  width_ = layout_.width;
  height_ = layout_.header + 2 * layout_.margin + plot_height + layout_.footer;
  origin_ = {layout_.margin + (plot_width - world_.width() * scale_) / 2,
             layout_.header + layout_.margin};
}

Point SvgCanvas::to_pixel(Point p) const {
  return {origin_.x + (p.x - world_.min.x) * scale_, origin_.y + (world_.max.y - p.y) * scale_};
}

Point SvgCanvas::to_world(Point px) const {
  return {world_.min.x + (px.x - origin_.x) / scale_, world_.max.y - (px.y - origin_.y) / scale_};
}

Box SvgCanvas::plot_area() const {
  return {origin_, {origin_.x + world_.width() * scale_, origin_.y + world_.height() * scale_}};
}

Box SvgCanvas::header_area() const {
  return {{0, 0}, {width_, layout_.header}};
}

Box SvgCanvas::footer_area() const {
  return {{0, height_ - layout_.footer}, {width_, height_}};
}

void SvgCanvas::set_title(std::string_view title) {
  title_ = title;
}

SvgCanvas::Group* SvgCanvas::find(std::string_view id) {
  auto it =
      std::find_if(groups_.begin(), groups_.end(), [&](const Group& g) { return g.id == id; });
  return it == groups_.end() ? nullptr : &*it;
}

const SvgCanvas::Group* SvgCanvas::find(std::string_view id) const {
  auto it =
      std::find_if(groups_.begin(), groups_.end(), [&](const Group& g) { return g.id == id; });
  return it == groups_.end() ? nullptr : &*it;
}

void SvgCanvas::group(std::string_view id) {
  if (!id.empty() && !find(id)) groups_.push_back({std::string(id), {}, {}});
  current_ = id;
}

void SvgCanvas::insert_group(std::string_view id, std::string_view before) {
  if (id.empty() || find(id)) return;
  auto it =
      std::find_if(groups_.begin(), groups_.end(), [&](const Group& g) { return g.id == before; });
  groups_.insert(it, {std::string(id), {}, {}});
}

void SvgCanvas::clip_group(std::string_view id, std::string_view clip_id) {
  if (id.empty()) return;
  if (!find(id)) groups_.push_back({std::string(id), {}, {}});
  find(id)->clip = clip_id;
}

bool SvgCanvas::has_group(std::string_view id) const {
  return find(id) != nullptr;
}

std::vector<std::string> SvgCanvas::group_ids() const {
  std::vector<std::string> ids;
  for (const Group& g : groups_) ids.push_back(g.id);
  return ids;
}

std::string& SvgCanvas::body() {
  if (current_.empty()) return root_;
  return find(current_)->body;
}

std::string SvgCanvas::num(double v) const {
  return svg_number(v, layout_.decimals);
}

std::string SvgCanvas::path_data(const std::vector<Ring>& rings) const {
  std::string d;
  for (const Ring& ring : rings) {
    if (ring.empty()) continue;
    for (std::size_t i = 0; i < ring.size(); ++i) {
      const Point p = to_pixel(ring[i]);
      d += i == 0 ? "M" : (i == 1 ? "L" : " ");
      d += num(p.x);
      d += ' ';
      d += num(p.y);
    }
    d += 'Z';
  }
  return d;
}

std::string SvgCanvas::style_attributes(const SvgStyle& style) const {
  std::string a = " fill=\"" + svg_escape(style.fill) + '"';
  if (style.fill != "none" && style.fill_opacity < 1) {
    a += " fill-opacity=\"" + svg_number(style.fill_opacity, 3) + '"';
  }
  if (style.stroke != "none") {
    a += " stroke=\"" + svg_escape(style.stroke) + "\" stroke-width=\"" + num(style.stroke_width) +
         '"';
    if (style.stroke_opacity < 1) {
      a += " stroke-opacity=\"" + svg_number(style.stroke_opacity, 3) + '"';
    }
    if (!style.dash.empty()) {
      a += " stroke-dasharray=\"";
      for (std::size_t i = 0; i < style.dash.size(); ++i) {
        a += (i ? " " : "") + num(style.dash[i]);
      }
      a += '"';
    }
    if (style.round_joins) a += " stroke-linejoin=\"round\" stroke-linecap=\"round\"";
  }
  return a;
}

namespace {
// Closes an element, with a <title> child when there is a tooltip.
std::string close_element(std::string_view name, std::string_view tooltip) {
  if (tooltip.empty()) return "/>\n";
  return "><title>" + svg_escape(tooltip) + "</title></" + std::string(name) + ">\n";
}
}  // namespace

void SvgCanvas::polygon(const Polygon& polygon, const SvgStyle& style, std::string_view tooltip) {
  std::vector<Ring> all{polygon.outer};
  all.insert(all.end(), polygon.holes.begin(), polygon.holes.end());
  rings(all, style, tooltip);
}

void SvgCanvas::rings(const std::vector<Ring>& rings, const SvgStyle& style,
                      std::string_view tooltip) {
  const std::string d = path_data(rings);
  if (d.empty()) return;
  body() += "<path d=\"" + d + "\" fill-rule=\"evenodd\"" + style_attributes(style) +
            close_element("path", tooltip);
}

void SvgCanvas::polyline(const std::vector<Point>& points, const SvgStyle& style) {
  if (points.size() < 2) return;
  std::string pts;
  for (const Point& p : points) {
    const Point q = to_pixel(p);
    if (!pts.empty()) pts += ' ';
    pts += num(q.x) + ',' + num(q.y);
  }
  SvgStyle open = style;
  open.fill = "none";
  body() += "<polyline points=\"" + pts + '"' + style_attributes(open) + "/>\n";
}

void SvgCanvas::line(Point a, Point b, const SvgStyle& style) {
  line_px(to_pixel(a), to_pixel(b), style);
}

void SvgCanvas::line_px(Point a, Point b, const SvgStyle& style) {
  SvgStyle open = style;
  open.fill = "none";
  body() += "<line x1=\"" + num(a.x) + "\" y1=\"" + num(a.y) + "\" x2=\"" + num(b.x) + "\" y2=\"" +
            num(b.y) + '"' + style_attributes(open) + "/>\n";
}

void SvgCanvas::marker(Point p, SvgMarker shape, double size_px, const SvgStyle& style,
                       std::string_view tooltip) {
  marker_at(to_pixel(p), shape, size_px, style, tooltip);
}

void SvgCanvas::marker_px(Point centre, SvgMarker shape, double size_px, const SvgStyle& style) {
  marker_at(centre, shape, size_px, style, {});
}

void SvgCanvas::marker_at(Point c, SvgMarker shape, double size_px, const SvgStyle& style,
                          std::string_view tooltip) {
  const double r = size_px / 2;
  const std::string attrs = style_attributes(style);
  std::string& out = body();
  switch (shape) {
    case SvgMarker::circle:
      out += "<circle cx=\"" + num(c.x) + "\" cy=\"" + num(c.y) + "\" r=\"" + num(r) + '"' + attrs +
             close_element("circle", tooltip);
      return;
    case SvgMarker::square:
      out += "<rect x=\"" + num(c.x - r) + "\" y=\"" + num(c.y - r) + "\" width=\"" + num(size_px) +
             "\" height=\"" + num(size_px) + '"' + attrs + close_element("rect", tooltip);
      return;
    case SvgMarker::diamond: {
      // A diamond looks smaller than a circle of the same width; enlarge it to match.
      const double d = r * 1.25;
      out += "<path d=\"M" + num(c.x) + ' ' + num(c.y - d) + "L" + num(c.x + d) + ' ' + num(c.y) +
             ' ' + num(c.x) + ' ' + num(c.y + d) + ' ' + num(c.x - d) + ' ' + num(c.y) + "Z\"" +
             attrs + close_element("path", tooltip);
      return;
    }
    case SvgMarker::triangle: {
      const double h = r * std::numbers::sqrt3 / 2;
      out += "<path d=\"M" + num(c.x) + ' ' + num(c.y - r) + "L" + num(c.x + r) + ' ' +
             num(c.y + h) + ' ' + num(c.x - r) + ' ' + num(c.y + h) + "Z\"" + attrs +
             close_element("path", tooltip);
      return;
    }
    case SvgMarker::cross: {
      // Drawn with the stroke; the fill of a cross would be invisible anyway.
      SvgStyle lines = style;
      lines.fill = "none";
      if (lines.stroke == "none") lines.stroke = style.fill;
      out += "<path d=\"M" + num(c.x - r) + ' ' + num(c.y - r) + "L" + num(c.x + r) + ' ' +
             num(c.y + r) + "M" + num(c.x + r) + ' ' + num(c.y - r) + "L" + num(c.x - r) + ' ' +
             num(c.y + r) + '"' + style_attributes(lines) + close_element("path", tooltip);
      return;
    }
  }
}

void SvgCanvas::text(Point p, std::string_view text, const SvgTextStyle& style, Point offset_px) {
  const Point px = to_pixel(p);
  text_px({px.x + offset_px.x, px.y + offset_px.y}, text, style);
}

void SvgCanvas::text_px(Point at, std::string_view text, const SvgTextStyle& style) {
  std::string& out = body();
  out += "<text x=\"" + num(at.x) + "\" y=\"" + num(at.y) + "\" font-size=\"" + num(style.size) +
         "\" fill=\"" + svg_escape(style.fill) + '"';
  if (style.anchor != TextAnchor::start) {
    out += std::string(" text-anchor=\"") + anchor_name(style.anchor) + '"';
  }
  if (style.bold) out += " font-weight=\"bold\"";
  if (style.halo) {
    out += " stroke=\"#ffffff\" stroke-width=\"" + num(std::max(2.0, style.size / 4)) +
           "\" stroke-linejoin=\"round\" paint-order=\"stroke\"";
  }
  out += '>' + svg_escape(text) + "</text>\n";
}

void SvgCanvas::rect_px(const Box& box, const SvgStyle& style, double corner_radius) {
  std::string& out = body();
  out += "<rect x=\"" + num(box.min.x) + "\" y=\"" + num(box.min.y) + "\" width=\"" +
         num(box.width()) + "\" height=\"" + num(box.height()) + '"';
  if (corner_radius > 0) out += " rx=\"" + num(corner_radius) + '"';
  out += style_attributes(style) + "/>\n";
}

void SvgCanvas::define_clip(std::string_view id, const std::vector<Ring>& rings) {
  defs_ += "<clipPath id=\"" + svg_escape(id) + "\"><path d=\"" + path_data(rings) +
           "\" clip-rule=\"evenodd\"/></clipPath>\n";
}

void SvgCanvas::define_hatch(std::string_view id, std::string_view colour, double spacing,
                             double line_width, double angle_deg) {
  // One line across a square tile, the tile rotated: the lines meet seamlessly at tile edges.
  defs_ += "<pattern id=\"" + svg_escape(id) + "\" patternUnits=\"userSpaceOnUse\" width=\"" +
           num(spacing) + "\" height=\"" + num(spacing) + "\" patternTransform=\"rotate(" +
           svg_number(-angle_deg, 3) + ")\"><line x1=\"0\" y1=\"" + num(spacing / 2) + "\" x2=\"" +
           num(spacing) + "\" y2=\"" + num(spacing / 2) + "\" stroke=\"" + svg_escape(colour) +
           "\" stroke-width=\"" + num(line_width) + "\"/></pattern>\n";
}

std::string SvgCanvas::str() const {
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width_) +
                  "\" height=\"" + num(height_) + "\" viewBox=\"0 0 " + num(width_) + ' ' +
                  num(height_) + "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
  if (!title_.empty()) s += "<title>" + svg_escape(title_) + "</title>\n";
  if (!defs_.empty()) s += "<defs>\n" + defs_ + "</defs>\n";
  s += root_;
  for (const Group& g : groups_) {
    if (g.body.empty()) continue;
    s += "<g id=\"" + svg_escape(g.id) + '"';
    if (!g.clip.empty()) s += " clip-path=\"url(#" + svg_escape(g.clip) + ")\"";
    s += ">\n" + g.body + "</g>\n";
  }
  s += "</svg>\n";
  return s;
}

void SvgCanvas::write(std::ostream& out) const {
  out << str();
}

void SvgCanvas::save(const std::filesystem::path& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    throw InputError({path.string(), 0, 0, ""},
                     std::string("cannot write: ") + std::strerror(errno));
  out << str();
  out.close();
  if (!out)
    throw InputError({path.string(), 0, 0, ""},
                     std::string("cannot write: ") + std::strerror(errno));
}

// ---------------------------------------------------------------------------------------------
// Scene drawing

namespace {

namespace palette {
constexpr const char* ink = "#1f2328";
constexpr const char* muted = "#59636e";
constexpr const char* outside = "#e9ecef";
constexpr const char* frame_edge = "#c5cbd3";
constexpr const char* ground = "#ffffff";
constexpr const char* wall = "#2d333b";
constexpr const char* obstacle = "#5a6570";
constexpr const char* obstacle_edge = "#363d45";
constexpr const char* clearance = "#f2a23c";
constexpr const char* clearance_edge = "#c76a00";
constexpr const char* hatch = "#6f42c1";
constexpr const char* start = "#0969da";
constexpr const char* goal = "#cf222e";
constexpr const char* link = "#57606a";
constexpr const char* occupied_cell = "#1f2328";
constexpr const char* unknown_cell = "#b4bcc6";
constexpr const char* outline = "#cf222e";
}  // namespace palette

// The cells of one kind as rectangles: the runs of each row, merged with the run below when it
// covers the same columns (a map has far fewer of these than cells).
std::vector<Ring> cell_rectangles(const OccupancyMap& map, OccupancyMap::Cell kind) {
  struct Open {
    int first, last, top;
  };
  std::vector<Ring> out;
  std::vector<Open> above, here;
  const auto close = [&](const Open& r, int bottom_row) {
    const Box a = map.cell_box(r.first, r.top);
    const Box b = map.cell_box(r.last - 1, bottom_row);
    out.push_back({{a.min.x, b.min.y}, {b.max.x, b.min.y}, {b.max.x, a.max.y}, {a.min.x, a.max.y}});
  };
  for (int cy = 0; cy <= map.height; ++cy) {
    here.clear();
    for (int cx = 0; cy < map.height && cx < map.width;) {
      if (map.at(cx, cy) != kind) {
        ++cx;
        continue;
      }
      const int first = cx;
      while (cx < map.width && map.at(cx, cy) == kind) ++cx;
      here.push_back({first, cx, cy});
    }
    // Runs matching one of the row above continue its rectangle; the others above end here.
    std::size_t k = 0;
    for (Open& run : here) {
      while (k < above.size() && above[k].first < run.first) close(above[k++], cy - 1);
      if (k < above.size() && above[k].first == run.first && above[k].last == run.last) {
        run.top = above[k++].top;
      }
    }
    while (k < above.size()) close(above[k++], cy - 1);
    std::swap(above, here);
  }
  return out;
}

struct Rgb {
  double r, g, b;
};

Rgb mix(Rgb a, Rgb b, double t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

std::string hex(Rgb c) {
  char buf[8];
  auto byte = [](double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 255.0))); };
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", byte(c.r), byte(c.g), byte(c.b));
  return buf;
}

// Cheap ground shades towards green, dear ground towards brown; the shade saturates at a
// quarter (green) and at eight times (brown) the ordinary cost, on a log scale so that x2 and
// x0.5 look equally far from ordinary ground.
struct RegionColours {
  std::string fill;
  std::string edge;
  std::string text;
};

RegionColours region_colours(double cost) {
  const Rgb neutral{236, 234, 228};
  const Rgb pale_green{214, 236, 200};
  const Rgb green{92, 163, 74};
  const Rgb pale_brown{238, 222, 196};
  const Rgb brown{143, 96, 50};
  Rgb fill = neutral;
  if (cost < 1) {
    const double t = std::clamp(-std::log2(cost) / 2, 0.0, 1.0);
    fill = mix(pale_green, green, t);
  } else if (cost > 1) {
    const double t = std::clamp(std::log2(cost) / 3, 0.0, 1.0);
    fill = mix(pale_brown, brown, t);
  }
  const Rgb edge = mix(fill, {40, 40, 40}, 0.45);
  const Rgb text = mix(fill, {20, 20, 20}, 0.75);
  return {hex(fill), hex(edge), hex(text)};
}

// A point well inside a ring for its label: the middle of the widest run of the horizontal line
// through the centroid (the centroid itself may lie outside a concave ring).
Point label_point(const Ring& ring) {
  Point c{0, 0};
  const double a2 = signed_area2(ring);
  if (std::abs(a2) > 0) {
    for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
      const Point p = ring[i];
      const Point q = ring[(i + 1) % n];
      const double k = cross(p, q);
      c = c + k * (p + q);
    }
    c = (1.0 / (3.0 * a2)) * c;
  } else {
    for (const Point& p : ring) c = c + p;
    c = (1.0 / static_cast<double>(std::max<std::size_t>(ring.size(), 1))) * c;
  }
  std::vector<double> xs;
  for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
    const Point p = ring[i];
    const Point q = ring[(i + 1) % n];
    if ((p.y <= c.y) != (q.y <= c.y)) xs.push_back(p.x + (c.y - p.y) / (q.y - p.y) * (q.x - p.x));
  }
  std::sort(xs.begin(), xs.end());
  double best = -1;
  for (std::size_t i = 0; i + 1 < xs.size(); i += 2) {
    if (xs[i + 1] - xs[i] > best) {
      best = xs[i + 1] - xs[i];
      c.x = (xs[i] + xs[i + 1]) / 2;
    }
  }
  return c;
}

Ring box_ring(const Box& b) {
  return {b.min, {b.max.x, b.min.y}, b.max, {b.min.x, b.max.y}};
}

// 1, 2 or 5 times a power of ten, at most x.
double nice_length(double x) {
  if (!(x > 0) || !std::isfinite(x)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(x)));
  const double m = x / p;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

std::string scene_title(const Scene& scene) {
  if (!scene.name.empty()) return scene.name;
  if (!scene.source.empty()) return scene.source.stem().string();
  return "scene";
}

bool direct_free_space(const Scene& scene) {
  return !scene.free_boundary.empty();
}

Box scene_box(const Scene& scene, const FreeSpace& space) {
  Box box = bounding_box(scene.bounds);
  for (const Ring& r : scene.free_boundary) box.expand(bounding_box(r));
  if (box.empty()) box.expand(space.box());
  for (const Query& q : scene.queries) {
    box.expand(q.start);
    box.expand(q.goal);
  }
  return box;
}

std::string query_label(const Query& q, std::size_t i) {
  return q.name.empty() ? "queries[" + std::to_string(i) + "]" : q.name;
}

// The legend: the same list decides the footer's height (make_scene_canvas) and what is drawn
// in it (draw_scene), so both must be built from the same inputs.
struct LegendItem {
  enum class Kind { swatch, marker, crossed } kind = Kind::swatch;
  SvgStyle style;
  SvgMarker shape = SvgMarker::circle;
  std::string label;
};

constexpr double legend_font = 11;
constexpr double legend_row = 20;
constexpr double legend_swatch_w = 18;
constexpr double legend_swatch_h = 11;
constexpr double legend_gap = 6;
constexpr double legend_spacing = 18;
constexpr double header_height = 46;
constexpr double scale_bar_room = 150;

std::vector<LegendItem> legend_items(const Scene& scene, const FreeSpace& space) {
  std::vector<LegendItem> items;
  items.push_back({LegendItem::Kind::swatch,
                   {.fill = palette::ground, .stroke = palette::frame_edge, .stroke_width = 1},
                   {},
                   "free"});
  if (scene.occupancy) {
    items.push_back(
        {LegendItem::Kind::swatch, {.fill = palette::occupied_cell}, {}, "occupied cell"});
    items.push_back({LegendItem::Kind::swatch,
                     {.fill = palette::unknown_cell},
                     {},
                     scene.occupancy->unknown_free ? "unknown cell (free)" : "unknown cell"});
    items.push_back({LegendItem::Kind::swatch,
                     {.fill = palette::outline,
                      .fill_opacity = 0.2,
                      .stroke = palette::outline,
                      .stroke_width = 1.2},
                     {},
                     "blocked, as vectorised"});
  } else if (direct_free_space(scene)) {
    items.push_back({LegendItem::Kind::swatch, {.fill = palette::obstacle}, {}, "blocked"});
  } else if (!scene.obstacles.empty()) {
    items.push_back(
        {LegendItem::Kind::swatch,
         {.fill = palette::obstacle, .stroke = palette::obstacle_edge, .stroke_width = 0.8},
         {},
         "obstacle"});
  }
  if (space.agent().radius > 0) {
    items.push_back({LegendItem::Kind::swatch,
                     {.fill = palette::clearance,
                      .fill_opacity = 0.25,
                      .stroke = palette::clearance_edge,
                      .stroke_width = 1.2,
                      .dash = {4, 2}},
                     {},
                     "agent radius " + short_number(space.agent().radius)});
  }
  // One entry per cost multiplier, naming the regions that have it.
  std::map<double, std::vector<std::string>> by_cost;
  for (const Region& r : scene.regions) by_cost[r.cost].push_back(r.name);
  // Past a handful of costs a legend stops being read; tooltips carry every region's cost.
  constexpr std::size_t costs_listed = 8;
  std::size_t listed = 0;
  for (const auto& [cost, names] : by_cost) {
    if (listed++ == costs_listed) {
      items.push_back({LegendItem::Kind::swatch,
                       {.fill = "none"},
                       {},
                       "\u2026 " + std::to_string(by_cost.size() - costs_listed) + " more costs"});
      break;
    }
    std::vector<std::string> named;
    for (const std::string& n : names) {
      if (!n.empty() && std::find(named.begin(), named.end(), n) == named.end()) named.push_back(n);
    }
    std::string label;
    if (named.empty() || named.size() > 2) {
      label = "cost \u00d7" + short_number(cost);
      if (names.size() > 1) label += " (" + std::to_string(names.size()) + " regions)";
    } else {
      label =
          named[0] + (named.size() == 2 ? ", " + named[1] : "") + " \u00d7" + short_number(cost);
    }
    const RegionColours colours = region_colours(cost);
    items.push_back({LegendItem::Kind::swatch,
                     {.fill = colours.fill, .stroke = colours.edge, .stroke_width = 0.8},
                     {},
                     label});
  }
  if (space.has_heights()) {
    items.push_back({LegendItem::Kind::swatch,
                     {.fill = "url(#height-hatch)", .stroke = palette::hatch, .stroke_width = 0.8},
                     {},
                     "height h (hatched)"});
  }
  if (!scene.queries.empty()) {
    items.push_back({LegendItem::Kind::marker,
                     {.fill = palette::start, .stroke = "#ffffff", .stroke_width = 1.5},
                     SvgMarker::circle,
                     "start"});
    items.push_back({LegendItem::Kind::marker,
                     {.fill = palette::goal, .stroke = "#ffffff", .stroke_width = 1.5},
                     SvgMarker::diamond,
                     "goal"});
    bool any_blocked = false;
    for (const Query& q : scene.queries) {
      any_blocked = any_blocked || !space.is_free(q.start) || !space.is_free(q.goal);
    }
    if (any_blocked) {
      items.push_back({LegendItem::Kind::crossed,
                       {.fill = palette::muted, .stroke = "#ffffff", .stroke_width = 1.5},
                       SvgMarker::circle,
                       "not in free space"});
    }
  }
  return items;
}

double legend_item_width(const LegendItem& item) {
  return legend_swatch_w + legend_gap + text_width(item.label, legend_font);
}

// Positions of the items: (row, x) pairs, items flowing left to right and wrapping; the first
// row keeps room on its right for the scale bar.
std::vector<std::pair<int, double>> legend_layout(const std::vector<LegendItem>& items, double left,
                                                  double right) {
  std::vector<std::pair<int, double>> at;
  int row = 0;
  double x = left;
  for (const LegendItem& item : items) {
    const double w = legend_item_width(item);
    const double limit = row == 0 ? right - scale_bar_room : right;
    if (x > left && x + w > limit) {
      ++row;
      x = left;
    }
    at.emplace_back(row, x);
    x += w + legend_spacing;
  }
  return at;
}

double footer_height(const std::vector<LegendItem>& items, double width, double margin) {
  const auto at = legend_layout(items, margin, width - margin);
  const int rows = at.empty() ? 1 : at.back().first + 1;
  return legend_row * rows + 10;
}

constexpr double scene_margin = 22;

void draw_legend(SvgCanvas& canvas, const std::vector<LegendItem>& items) {
  const Box footer = canvas.footer_area();
  const double left = canvas.layout().margin;
  const double right = canvas.width() - canvas.layout().margin;
  const auto at = legend_layout(items, left, right);
  const int rows = at.empty() ? 1 : at.back().first + 1;
  if (footer.height() < legend_row * rows) return;

  canvas.group("legend");
  canvas.line_px({left, footer.min.y}, {right, footer.min.y},
                 {.stroke = "#d0d7de", .stroke_width = 1});
  const SvgTextStyle label_style{.size = legend_font, .fill = palette::ink};
  for (std::size_t i = 0; i < items.size(); ++i) {
    const LegendItem& item = items[i];
    const double baseline = footer.min.y + legend_row * (at[i].first + 1);
    const double x = at[i].second;
    const double mid_y = baseline - 4;
    switch (item.kind) {
      case LegendItem::Kind::swatch:
        canvas.rect_px(
            {{x, mid_y - legend_swatch_h / 2}, {x + legend_swatch_w, mid_y + legend_swatch_h / 2}},
            item.style, 1.5);
        break;
      case LegendItem::Kind::marker:
        canvas.marker_px({x + legend_swatch_w / 2, mid_y}, item.shape, 10, item.style);
        break;
      case LegendItem::Kind::crossed:
        canvas.marker_px({x + legend_swatch_w / 2, mid_y}, item.shape, 13, item.style);
        canvas.marker_px({x + legend_swatch_w / 2, mid_y}, SvgMarker::cross, 6.5,
                         {.stroke = "#ffffff", .stroke_width = 1.8, .round_joins = true});
        break;
    }
    canvas.text_px({x + legend_swatch_w + legend_gap, baseline}, item.label, label_style);
  }

  // Scale bar on the right of the first row: two alternating blocks, like a map's.
  const double length =
      nice_length(std::min(canvas.world().width() / 5, (scale_bar_room - 40) / canvas.scale()));
  const double bar = length * canvas.scale();
  if (bar > 8) {
    const double baseline = footer.min.y + legend_row;
    const double x1 = right;
    const double x0 = right - bar;
    const double y = baseline - 4;
    canvas.rect_px({{x0, y}, {x0 + bar / 2, y + 4}}, {.fill = palette::ink});
    canvas.rect_px({{x0 + bar / 2, y}, {x1, y + 4}},
                   {.fill = "#ffffff", .stroke = palette::ink, .stroke_width = 0.8});
    canvas.rect_px({{x0, y}, {x1, y + 4}}, {.stroke = palette::ink, .stroke_width = 0.8});
    const SvgTextStyle small{.size = 9.5, .fill = palette::muted};
    SvgTextStyle small_mid = small;
    small_mid.anchor = TextAnchor::middle;
    canvas.text_px({x0, y - 3}, "0", small_mid);
    canvas.text_px({x1, y - 3}, short_number(length), small_mid);
    SvgTextStyle small_end = small;
    small_end.anchor = TextAnchor::end;
    canvas.text_px({x0 - 8, baseline}, "scale", small_end);
  }
}

void draw_title(SvgCanvas& canvas, const Scene& scene, const FreeSpace& space) {
  const Box header = canvas.header_area();
  if (header.height() < 36) return;
  canvas.group("title");
  const double left = canvas.layout().margin;
  const double right = canvas.width() - canvas.layout().margin;
  canvas.text_px({left, 22}, scene_title(scene), {.size = 16, .fill = palette::ink, .bold = true});
  if (!scene.source.empty()) {
    canvas.text_px({right, 22}, scene.source.filename().string(),
                   {.size = 10.5, .fill = palette::muted, .anchor = TextAnchor::end});
  }
  const Box b = scene.bounds.empty() ? space.box() : bounding_box(scene.bounds);
  std::string details = short_number(b.width()) + " \u00d7 " + short_number(b.height());
  details += space.agent().radius > 0
                 ? "  \u00b7  agent radius " + short_number(space.agent().radius)
                 : "  \u00b7  point agent";
  auto count = [](std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  if (!direct_free_space(scene)) {
    details += "  \u00b7  " + count(scene.obstacles.size(), "obstacle", "obstacles");
  }
  if (!scene.regions.empty()) {
    details += "  \u00b7  " + count(scene.regions.size(), "region", "regions");
  }
  details += "  \u00b7  " + count(scene.queries.size(), "query", "queries");
  details += "  \u00b7  free area " + short_number(space.area());
  canvas.text_px({left, 38}, details, {.size = 11, .fill = palette::muted});
}

}  // namespace

SvgCanvas make_scene_canvas(const Scene& scene, const FreeSpace& space,
                            const SceneCanvasOptions& options) {
  SvgLayout layout{.width = options.width, .margin = scene_margin};
  if (!options.bare) {
    layout.header = header_height;
    layout.footer = footer_height(legend_items(scene, space), options.width, scene_margin);
  }
  // Very tall scenes are shrunk rather than producing a picture no screen can show.
  layout.max_height = std::max(3 * options.width, 600.0);
  return SvgCanvas(scene_box(scene, space), layout);
}

void draw_scene(SvgCanvas& canvas, const Scene& scene, const FreeSpace& space) {
  for (std::string_view id : scene_layers) {
    if (!canvas.has_group(id)) canvas.group(id);
  }
  canvas.set_title(scene_title(scene));
  const bool direct = direct_free_space(scene);
  const Box plot_world = canvas.world();
  const double radius = space.agent().radius;

  canvas.group("frame");
  canvas.rect_px(canvas.plot_area(), {.fill = direct ? palette::ground : palette::outside,
                                      .stroke = palette::frame_edge,
                                      .stroke_width = 0.75});

  if (scene.occupancy) {
    canvas.group("cells");
    canvas.rings(cell_rectangles(*scene.occupancy, OccupancyMap::Cell::unknown),
                 {.fill = palette::unknown_cell});
    canvas.rings(cell_rectangles(*scene.occupancy, OccupancyMap::Cell::occupied),
                 {.fill = palette::occupied_cell});
  }

  // What lies outside the bounds is ignored, so obstacles, regions and the clearance band are
  // clipped to them: the picture shows what the planner sees.
  const bool clip = !scene.bounds.empty();
  if (clip) canvas.define_clip("bounds-clip", {scene.bounds});

  if (!direct && !scene.bounds.empty()) {
    canvas.group("bounds");
    canvas.rings({scene.bounds}, {.fill = palette::ground}, "bounds");
  }

  if (!scene.regions.empty()) {
    canvas.group("regions");
    if (clip) canvas.clip_group("regions", "bounds-clip");
    // In file order: a later region covers an earlier one, as it does for costs.
    for (const Region& r : scene.regions) {
      const RegionColours colours = region_colours(r.cost);
      std::string tip = (r.name.empty() ? std::string("region") : r.name) + ": cost \u00d7" +
                        short_number(r.cost);
      if (r.height) tip += ", height " + short_number(*r.height);
      canvas.rings({r.polygon}, {.fill = colours.fill, .stroke = colours.edge, .stroke_width = 0.9},
                   tip);
    }
  }

  if (space.has_heights()) {
    canvas.define_hatch("height-hatch", palette::hatch, 6, 1, 45);
    canvas.group("heights");
    if (clip) canvas.clip_group("heights", "bounds-clip");
    for (const Region& r : scene.regions) {
      if (r.height) canvas.rings({r.polygon}, {.fill = "url(#height-hatch)", .fill_opacity = 0.55});
    }
  }

  std::vector<Ring> free_rings;
  for (const BoundaryRing& b : space.boundary()) free_rings.push_back(b.points);

  if (radius > 0) {
    // Everything outside free space, lightly tinted; the obstacles drawn over it leave the band
    // that the agent's radius adds around them and along the walls.
    std::vector<Ring> blocked{box_ring(plot_world)};
    blocked.insert(blocked.end(), free_rings.begin(), free_rings.end());
    canvas.group("clearance");
    if (clip) canvas.clip_group("clearance", "bounds-clip");
    canvas.rings(blocked, {.fill = palette::clearance, .fill_opacity = 0.22});
  }

  // Scenes that give free space directly may list obstacles too (a map's blocked cells); the
  // blocked area below already shows them, without thousands of cell outlines.
  if (!direct && !scene.obstacles.empty()) {
    canvas.group("obstacles");
    if (clip) canvas.clip_group("obstacles", "bounds-clip");
    for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
      const Obstacle& o = scene.obstacles[i];
      const std::string tip =
          o.where.key_path.empty() ? "obstacles[" + std::to_string(i) + "]" : o.where.key_path;
      canvas.polygon(o.shape,
                     {.fill = palette::obstacle,
                      .stroke = palette::obstacle_edge,
                      .stroke_width = 0.8,
                      .round_joins = true},
                     tip);
    }
  }

  if (direct) {
    // The source gives free space itself; paint its complement within the picture. Over a map's
    // cells it is translucent and edged, to show the outline against the cells it came from.
    std::vector<Ring> blocked{box_ring(plot_world)};
    blocked.insert(blocked.end(), scene.free_boundary.begin(), scene.free_boundary.end());
    canvas.group("blocked");
    if (scene.occupancy) {
      canvas.rings(blocked, {.fill = palette::outline, .fill_opacity = 0.2});
      canvas.rings(scene.free_boundary,
                   {.stroke = palette::outline, .stroke_width = 0.9, .round_joins = true});
    } else {
      canvas.rings(blocked, {.fill = palette::obstacle});
    }
  }

  if (!direct && !scene.bounds.empty()) {
    // The wall on top of obstacles that touch it, so it reads as one continuous line.
    canvas.group("walls");
    canvas.rings({scene.bounds},
                 {.stroke = palette::wall, .stroke_width = 1.6, .round_joins = true});
  }

  if (radius > 0) {
    canvas.group("inflated");
    canvas.rings(free_rings, {.stroke = palette::clearance_edge,
                              .stroke_width = 1.1,
                              .dash = {5, 3},
                              .round_joins = true});
  }

  if (!scene.regions.empty()) {
    canvas.group("labels");
    for (const Region& r : scene.regions) {
      const Box world_box = bounding_box(r.polygon);
      const double width_px = world_box.width() * canvas.scale();
      const double height_px = world_box.height() * canvas.scale();
      const std::string cost = "\u00d7" + short_number(r.cost);
      const std::string height = r.height ? "h " + short_number(*r.height) : "";
      // The longest label that fits; regions too small for any are explained by the legend
      // and their tooltips.
      std::vector<std::string> candidates;
      std::string full = r.name.empty() ? cost : r.name + " " + cost;
      if (r.height) full += "  " + height;
      candidates.push_back(full);
      candidates.push_back(r.height ? height : cost);
      for (const std::string& label : candidates) {
        if (width_px < text_width(label, 10) + 4 || height_px < 12) continue;
        canvas.text(label_point(r.polygon), label,
                    {.size = 10,
                     .fill = region_colours(r.cost).text,
                     .anchor = TextAnchor::middle,
                     .halo = true},
                    {0, 3.5});
        break;
      }
    }
  }

  if (!scene.queries.empty()) {
    canvas.group("queries");
    // Past a few dozen queries (a benchmark scenario, say) names would only clutter.
    const bool crowded = scene.queries.size() > 40;
    const double size = crowded ? 6 : 10;
    for (const Query& q : scene.queries) {
      canvas.line(q.start, q.goal,
                  {.stroke = palette::link,
                   .stroke_width = crowded ? 0.5 : 1,
                   .stroke_opacity = crowded ? 0.45 : 0.75,
                   .dash = {3, 3}});
    }
    // Queries often share an end point; one label lists them all instead of overprinting.
    std::vector<std::pair<Point, std::string>> start_labels;
    std::vector<std::pair<Point, std::string>> goal_labels;
    auto add_label = [](std::vector<std::pair<Point, std::string>>& labels, Point p,
                        const std::string& name) {
      auto it =
          std::find_if(labels.begin(), labels.end(), [&](const auto& l) { return l.first == p; });
      if (it == labels.end()) {
        labels.emplace_back(p, name);
      } else {
        it->second += ", " + name;
      }
    };
    auto end_point = [&](Point p, bool is_start, const std::string& name) {
      const SvgMarker shape = is_start ? SvgMarker::circle : SvgMarker::diamond;
      const char* colour = is_start ? palette::start : palette::goal;
      std::string tip = name + (is_start ? ": start " : ": goal ") + "(" + short_number(p.x) +
                        ", " + short_number(p.y) + ")";
      if (space.is_free(p)) {
        canvas.marker(p, shape, size, {.fill = colour, .stroke = "#ffffff", .stroke_width = 1.5},
                      tip);
        return;
      }
      // Not in free space: a larger marker crossed out, keeping its colour (start or goal).
      tip += " is " + space.explain_blocked(p);
      canvas.marker(p, shape, size + 4, {.fill = colour, .stroke = "#ffffff", .stroke_width = 1.5},
                    tip);
      canvas.marker(p, SvgMarker::cross, (size + 4) * 0.5,
                    {.stroke = "#ffffff", .stroke_width = 1.8, .round_joins = true});
    };
    for (std::size_t i = 0; i < scene.queries.size(); ++i) {
      const Query& q = scene.queries[i];
      const std::string name = query_label(q, i);
      end_point(q.start, true, name);
      end_point(q.goal, false, name);
      add_label(start_labels, q.start, name);
      add_label(goal_labels, q.goal, name);
    }
    if (!crowded) {
      // Start names above and goal names below their point, so the two never collide.
      auto label = [&](Point p, const std::string& text, const char* colour, double dy) {
        // Right of the point unless that runs off the picture, then left of it.
        const bool fits = canvas.to_pixel(p).x + 9 + text_width(text, 11) < canvas.width() - 2;
        canvas.text(p, text,
                    {.size = 11,
                     .fill = colour,
                     .anchor = fits ? TextAnchor::start : TextAnchor::end,
                     .halo = true},
                    {fits ? 9.0 : -9.0, dy});
      };
      for (const auto& [p, text] : start_labels) label(p, text, "#0a3069", -7);
      for (const auto& [p, text] : goal_labels) label(p, text, "#82071e", 15);
    }
  }

  draw_title(canvas, scene, space);
  draw_legend(canvas, legend_items(scene, space));
  canvas.group("");
}

void draw_primitives(SvgCanvas& canvas, const Primitives& primitives) {
  SvgStyle blocked_style;
  blocked_style.fill = "#5b6270";
  blocked_style.fill_opacity = 0.28;
  if (!primitives.blocked.empty()) canvas.rings(primitives.blocked, blocked_style);
  SvgStyle region_style;
  region_style.stroke = "#8a93a3";
  region_style.stroke_width = 0.5;
  region_style.stroke_opacity = 0.7;
  for (const Ring& r : primitives.regions) canvas.rings({r}, region_style);
  SvgStyle lattice_style;
  lattice_style.stroke = "#8a93a3";
  lattice_style.stroke_width = 0.3;
  lattice_style.stroke_opacity = 0.5;
  for (const Segment& s : primitives.lattice) canvas.line(s.a, s.b, lattice_style);
  SvgStyle arc_style;
  arc_style.stroke = "#8a93a3";
  arc_style.stroke_width = 0.4;
  arc_style.stroke_opacity = 0.45;
  for (const Segment& s : primitives.arcs) canvas.line(s.a, s.b, arc_style);
  SvgStyle node_style;
  node_style.fill = "#5b6270";
  for (const Point& p : primitives.nodes) canvas.marker(p, SvgMarker::circle, 3.0, node_style);
}

void draw_shaded(SvgCanvas& canvas, const std::vector<Ring>& regions,
                 const std::vector<double>& shade, const std::vector<Point>& points,
                 const std::vector<double>& point_shade) {
  SvgStyle style;
  style.fill = "#2f81f7";
  for (std::size_t i = 0; i < regions.size(); ++i) {
    style.fill_opacity = 0.15 + 0.45 * (1.0 - std::clamp(shade[i], 0.0, 1.0));
    canvas.rings({regions[i]}, style);
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    style.fill_opacity = 0.3 + 0.6 * (1.0 - std::clamp(point_shade[i], 0.0, 1.0));
    canvas.marker(points[i], SvgMarker::circle, 6.0, style);
  }
}

}  // namespace polynav
