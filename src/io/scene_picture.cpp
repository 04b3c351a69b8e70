// The scene picture: layers, queries, title and legend; drawing Primitives.

#include "polynav/io/scene_picture.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

#include "polynav/io/theme.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "polynav/text.hpp"

namespace polynav {

namespace {

// The cells of one kind as rectangles: the runs of each row, merged with the run below when it
// covers the same columns (a map has far fewer of these than cells).
std::vector<Ring> cell_rectangles(const OccupancyMap& map, OccupancyMap::Cell kind) {
  struct Open {
    int first, last, top;
  };
  std::vector<Ring> out;
  std::vector<Open> above, here;
  // Corners in the map's frame, placed in the scene by to_scene (turned on a rotated map).
  const auto close = [&](const Open& r, int bottom_row) {
    const Box a = map.cell_box(r.first, r.top);
    const Box b = map.cell_box(r.last - 1, bottom_row);
    out.push_back({map.to_scene({a.min.x, b.min.y}), map.to_scene({b.max.x, b.min.y}),
                   map.to_scene({b.max.x, a.max.y}), map.to_scene({a.min.x, a.max.y})});
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

using theme::Rgb;

Rgb mix(Rgb a, Rgb b, double t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

std::string hex(Rgb c) {
  char buf[8];
  auto byte = [](double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 255.0))); };
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", byte(c.r), byte(c.g), byte(c.b));
  return buf;
}

}  // namespace

RegionColours region_colours(double cost) {
  namespace region = theme::region;
  Rgb fill = region::neutral;
  if (cost < 1) {
    const double t = std::clamp(-std::log2(cost) / region::cheap_doublings, 0.0, 1.0);
    fill = mix(region::pale_green, region::green, t);
  } else if (cost > 1) {
    const double t = std::clamp(std::log2(cost) / region::dear_doublings, 0.0, 1.0);
    fill = mix(region::pale_brown, region::brown, t);
  }
  const Rgb edge = mix(fill, region::edge_towards, region::edge_mix);
  const Rgb text = mix(fill, region::text_towards, region::text_mix);
  return {hex(fill), hex(edge), hex(text)};
}

namespace {

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
  if (!scene.source.empty()) return valid_utf8(scene.source.stem().string());
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

// The pattern regions with a height are hatched with (defined once per picture).
constexpr const char* height_hatch_id = "height-hatch";
constexpr const char* height_hatch_url = "url(#height-hatch)";

constexpr double legend_row = 20;
constexpr double legend_swatch_w = 18;
constexpr double legend_swatch_h = 11;
constexpr double legend_gap = 6;
constexpr double legend_spacing = 18;
constexpr double header_height = 46;
constexpr double scale_bar_room = 150;

// How far a clearance band's cost lies from 1 towards the nearest band's (0 to 1).
double band_share(const FreeSpace& space, double cost) {
  const double nearest = space.clearance_bands().front().cost;
  return nearest > 1.0 ? (cost - 1.0) / (nearest - 1.0) : 1.0;
}

std::vector<LegendItem> legend_items(const Scene& scene, const FreeSpace& space) {
  std::vector<LegendItem> items;
  items.push_back({LegendItem::Kind::swatch, theme::legend_free(), {}, "free"});
  if (scene.occupancy) {
    items.push_back({LegendItem::Kind::swatch, theme::occupied_cells(), {}, "occupied cell"});
    items.push_back({LegendItem::Kind::swatch,
                     theme::unknown_cells(),
                     {},
                     scene.occupancy->unknown_free ? "unknown cell (free)" : "unknown cell"});
    items.push_back(
        {LegendItem::Kind::swatch, theme::legend_outline(), {}, "blocked, as vectorised"});
  } else if (direct_free_space(scene)) {
    items.push_back({LegendItem::Kind::swatch, theme::blocked(), {}, "blocked"});
  } else if (!scene.obstacles.empty()) {
    items.push_back({LegendItem::Kind::swatch, theme::legend_obstacle(), {}, "obstacle"});
  }
  if (space.agent().radius > 0) {
    items.push_back({LegendItem::Kind::swatch,
                     theme::legend_clearance(),
                     {},
                     "agent radius " + svg_short_number(space.agent().radius)});
  }
  if (space.has_clearance_cost()) {
    const std::vector<ClearanceBand> bands = space.clearance_bands();
    items.push_back({LegendItem::Kind::swatch,
                     theme::clearance_band(band_share(space, bands.front().cost)),
                     {},
                     "clearance cost x" + svg_short_number(bands.front().cost) + " to x" +
                         svg_short_number(bands.back().cost) + " near obstacles"});
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
                       theme::legend_empty(),
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
      label = "cost \u00d7" + svg_short_number(cost);
      if (names.size() > 1) label += " (" + std::to_string(names.size()) + " regions)";
    } else {
      label = named[0] + (named.size() == 2 ? ", " + named[1] : "") + " \u00d7" +
              svg_short_number(cost);
    }
    const RegionColours colours = region_colours(cost);
    items.push_back(
        {LegendItem::Kind::swatch, theme::legend_region(colours.fill, colours.edge), {}, label});
  }
  if (space.has_heights()) {
    items.push_back({LegendItem::Kind::swatch,
                     theme::legend_height(height_hatch_url),
                     {},
                     "height h (hatched)"});
  }
  if (!scene.queries.empty()) {
    items.push_back({LegendItem::Kind::marker, theme::end_marker(theme::colour::start),
                     SvgMarker::circle, "start"});
    items.push_back({LegendItem::Kind::marker, theme::end_marker(theme::colour::goal),
                     SvgMarker::diamond, "goal"});
    bool any_blocked = false;
    for (const Query& q : scene.queries) {
      any_blocked = any_blocked || !space.is_free(q.start) || !space.is_free(q.goal);
    }
    if (any_blocked) {
      items.push_back({LegendItem::Kind::crossed, theme::end_marker(theme::colour::muted),
                       SvgMarker::circle, "not in free space"});
    }
  }
  return items;
}

double legend_item_width(const LegendItem& item) {
  return legend_swatch_w + legend_gap + svg_text_width(item.label, theme::legend_font_size);
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
  canvas.line_px({left, footer.min.y}, {right, footer.min.y}, theme::legend_rule());
  const SvgTextStyle label_style = theme::legend_label();
  for (std::size_t i = 0; i < items.size(); ++i) {
    const LegendItem& item = items[i];
    const double baseline = footer.min.y + legend_row * (at[i].first + 1);
    const double x = at[i].second;
    const double mid_y = baseline - 4;
    switch (item.kind) {
      case LegendItem::Kind::swatch:
        canvas.rect_px(
            {{x, mid_y - legend_swatch_h / 2}, {x + legend_swatch_w, mid_y + legend_swatch_h / 2}},
            item.style, theme::legend_swatch_radius);
        break;
      case LegendItem::Kind::marker:
        canvas.marker_px({x + legend_swatch_w / 2, mid_y}, item.shape, theme::legend_marker_size,
                         item.style);
        break;
      case LegendItem::Kind::crossed:
        canvas.marker_px({x + legend_swatch_w / 2, mid_y}, item.shape, theme::legend_crossed_size,
                         item.style);
        canvas.marker_px({x + legend_swatch_w / 2, mid_y}, SvgMarker::cross,
                         theme::legend_cross_size, theme::cross_out());
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
    canvas.rect_px({{x0, y}, {x0 + bar / 2, y + 4}}, theme::scale_bar_filled());
    canvas.rect_px({{x0 + bar / 2, y}, {x1, y + 4}}, theme::scale_bar_open());
    canvas.rect_px({{x0, y}, {x1, y + 4}}, theme::scale_bar_frame());
    const SvgTextStyle small_mid = theme::scale_bar_text(TextAnchor::middle);
    canvas.text_px({x0, y - 3}, "0", small_mid);
    canvas.text_px({x1, y - 3}, svg_short_number(length), small_mid);
    canvas.text_px({x0 - 8, baseline}, "scale", theme::scale_bar_text(TextAnchor::end));
  }
}

void draw_title(SvgCanvas& canvas, const Scene& scene, const FreeSpace& space) {
  const Box header = canvas.header_area();
  if (header.height() < 36) return;
  canvas.group("title");
  const double left = canvas.layout().margin;
  const double right = canvas.width() - canvas.layout().margin;
  canvas.text_px({left, 22}, scene_title(scene), theme::title());
  if (!scene.source.empty()) {
    canvas.text_px({right, 22}, scene.source.filename().string(), theme::title_source());
  }
  const Box b = scene.bounds.empty() ? space.box() : bounding_box(scene.bounds);
  std::string details = svg_short_number(b.width()) + " \u00d7 " + svg_short_number(b.height());
  details += space.agent().radius > 0
                 ? "  \u00b7  agent radius " + svg_short_number(space.agent().radius)
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
  details += "  \u00b7  free area " + svg_short_number(space.area());
  canvas.text_px({left, 38}, details, theme::title_details());
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
  canvas.rect_px(canvas.plot_area(), theme::frame(direct));

  if (scene.occupancy) {
    canvas.group("cells");
    canvas.rings(cell_rectangles(*scene.occupancy, OccupancyMap::Cell::unknown),
                 theme::unknown_cells());
    canvas.rings(cell_rectangles(*scene.occupancy, OccupancyMap::Cell::occupied),
                 theme::occupied_cells());
  }

  // What lies outside the bounds is ignored, so obstacles, regions and the clearance band are
  // clipped to them: the picture shows what the planner sees.
  const bool clip = !scene.bounds.empty();
  if (clip) canvas.define_clip("bounds-clip", {scene.bounds});

  if (!direct && !scene.bounds.empty()) {
    canvas.group("bounds");
    canvas.rings({scene.bounds}, theme::bounds(), "bounds");
  }

  if (!scene.regions.empty()) {
    canvas.group("regions");
    if (clip) canvas.clip_group("regions", "bounds-clip");
    // In file order: a later region covers an earlier one, as it does for costs.
    for (const Region& r : scene.regions) {
      const RegionColours colours = region_colours(r.cost);
      std::string tip = (r.name.empty() ? std::string("region") : r.name) + ": cost \u00d7" +
                        svg_short_number(r.cost);
      if (r.height) tip += ", height " + svg_short_number(*r.height);
      canvas.rings({r.polygon}, theme::region_area(colours.fill, colours.edge), tip);
    }
  }

  if (space.has_heights()) {
    canvas.define_hatch(height_hatch_id, theme::colour::hatch, theme::hatch_spacing,
                        theme::hatch_line_width, theme::hatch_angle_deg);
    canvas.group("heights");
    if (clip) canvas.clip_group("heights", "bounds-clip");
    for (const Region& r : scene.regions) {
      if (r.height) canvas.rings({r.polygon}, theme::height_hatch(height_hatch_url));
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
    canvas.rings(blocked, theme::clearance());
  }

  if (space.has_clearance_cost()) {
    // Each band of the clearance cost between its two edges (even-odd fill of both), in the
    // colour a region of its cost has: darkest next to the obstacles.
    canvas.group("clearance-cost");
    if (clip) canvas.clip_group("clearance-cost", "bounds-clip");
    std::vector<Ring> inner = free_rings;
    for (const ClearanceBand& band : space.clearance_bands()) {
      std::vector<Ring> rings = inner;
      inner.clear();
      if (band.beyond)
        for (const BoundaryRing& b : *band.beyond) inner.push_back(b.points);
      rings.insert(rings.end(), inner.begin(), inner.end());
      canvas.rings(rings, theme::clearance_band(band_share(space, band.cost)),
                   "clearance cost x" + svg_short_number(band.cost));
      if (!band.beyond) break;
    }
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
      canvas.polygon(o.shape, theme::obstacle(), tip);
    }
  }

  if (direct) {
    // The source gives free space itself; paint its complement within the picture. Over a map's
    // cells it is translucent and edged, to show the outline against the cells it came from.
    std::vector<Ring> blocked{box_ring(plot_world)};
    blocked.insert(blocked.end(), scene.free_boundary.begin(), scene.free_boundary.end());
    canvas.group("blocked");
    if (scene.occupancy) {
      canvas.rings(blocked, theme::outline_area());
      canvas.rings(scene.free_boundary, theme::outline_edge());
    } else {
      canvas.rings(blocked, theme::blocked());
    }
  }

  if (!direct && !scene.bounds.empty()) {
    // The wall on top of obstacles that touch it, so it reads as one continuous line.
    canvas.group("walls");
    canvas.rings({scene.bounds}, theme::wall());
  }

  if (radius > 0) {
    canvas.group("inflated");
    canvas.rings(free_rings, theme::inflated_edge());
  }

  if (!scene.regions.empty()) {
    canvas.group("labels");
    for (const Region& r : scene.regions) {
      const Box world_box = bounding_box(r.polygon);
      const double width_px = world_box.width() * canvas.scale();
      const double height_px = world_box.height() * canvas.scale();
      const std::string cost = "\u00d7" + svg_short_number(r.cost);
      const std::string height = r.height ? "h " + svg_short_number(*r.height) : "";
      // The longest label that fits; regions too small for any are explained by the legend
      // and their tooltips.
      std::vector<std::string> candidates;
      std::string full = r.name.empty() ? cost : r.name + " " + cost;
      if (r.height) full += "  " + height;
      candidates.push_back(full);
      candidates.push_back(r.height ? height : cost);
      for (const std::string& label : candidates) {
        if (width_px < svg_text_width(label, theme::region_label_size) + 4 || height_px < 12) {
          continue;
        }
        canvas.text(label_point(r.polygon), label, theme::region_label(region_colours(r.cost).text),
                    {0, 3.5});
        break;
      }
    }
  }

  if (!scene.queries.empty()) {
    canvas.group("queries");
    // Past a few dozen queries (a benchmark scenario, say) names would only clutter.
    const bool crowded = scene.queries.size() > theme::crowded_queries;
    const double size = theme::query_marker_size(crowded);
    for (const Query& q : scene.queries) canvas.line(q.start, q.goal, theme::query_link(crowded));
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
      const SvgStyle style =
          theme::end_marker(is_start ? theme::colour::start : theme::colour::goal);
      std::string tip = name + (is_start ? ": start " : ": goal ") + "(" + svg_short_number(p.x) +
                        ", " + svg_short_number(p.y) + ")";
      if (space.is_free(p)) {
        canvas.marker(p, shape, size, style, tip);
        return;
      }
      // Not in free space: a larger marker crossed out, keeping its colour (start or goal).
      tip += " is " + space.explain_blocked(p);
      const double blocked_size = size + theme::blocked_marker_growth;
      canvas.marker(p, shape, blocked_size, style, tip);
      canvas.marker(p, SvgMarker::cross, blocked_size * theme::cross_ratio, theme::cross_out());
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
        const bool fits = canvas.to_pixel(p).x + 9 + svg_text_width(text, theme::query_label_size) <
                          canvas.width() - 2;
        canvas.text(p, text, theme::query_label(colour, fits ? TextAnchor::start : TextAnchor::end),
                    {fits ? 9.0 : -9.0, dy});
      };
      for (const auto& [p, text] : start_labels) label(p, text, theme::colour::start_label, -7);
      for (const auto& [p, text] : goal_labels) label(p, text, theme::colour::goal_label, 15);
    }
  }

  draw_title(canvas, scene, space);
  draw_legend(canvas, legend_items(scene, space));
  canvas.group("");
}

void draw_primitives(SvgCanvas& canvas, const Primitives& primitives) {
  if (!primitives.blocked.empty()) canvas.rings(primitives.blocked, theme::blocked_cells());
  const SvgStyle region = theme::node_region();
  for (const Ring& r : primitives.regions) canvas.rings({r}, region);
  const SvgStyle lattice = theme::lattice();
  for (const Segment& s : primitives.lattice) canvas.line(s.a, s.b, lattice);
  const SvgStyle arc = theme::arc();
  for (const Segment& s : primitives.arcs) canvas.line(s.a, s.b, arc);
  const SvgStyle node = theme::node();
  for (const Point& p : primitives.nodes)
    canvas.marker(p, SvgMarker::circle, theme::node_size, node);
}

}  // namespace polynav
