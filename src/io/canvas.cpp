#include "polynav/io/canvas.hpp"

#include "polynav/io/output_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <ostream>
#include <stdexcept>

#include "polynav/error.hpp"
#include "polynav/number.hpp"
#include "polynav/text.hpp"

namespace polynav {

// ---------------------------------------------------------------------------------------------
// Text and numbers

std::string svg_escape(std::string_view raw) {
  // Names come from input, file names too: XML must be well-formed UTF-8 (polynav/text.hpp).
  const std::string text = valid_utf8(raw);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // U+FFFE and U+FFFF are not XML characters either.
    if (c == '\xEF' && text.compare(i, 2, "\xEF\xBF") == 0 && i + 2 < text.size() &&
        (text[i + 2] == '\xBE' || text[i + 2] == '\xBF')) {
      out += "\xEF\xBF\xBD";
      i += 2;
      continue;
    }
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
  return tidy_fixed(std::string(buf, result.ptr));
}

std::string svg_short_number(double v) {
  char buf[64];
  // Large values (the area of a big map) read better whole than in exponent form.
  const bool whole = std::abs(v) >= 1e4 && std::abs(v) < 1e15;
  std::snprintf(buf, sizeof buf, whole ? "%.0f" : "%.4g", v);
  std::string s = buf;
  return s == "-0" ? "0" : s;
}

double svg_text_width(std::string_view s, double size) {
  const auto code_points = std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
  return 0.6 * size * static_cast<double>(code_points);
}

namespace {

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
  write_output_file(path, str());
}

}  // namespace polynav
