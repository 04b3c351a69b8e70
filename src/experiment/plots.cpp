// The experiment's SVG figure. For each scene a panel with one row per configuration, labelled
// by its name: box plots of length / optimum beside box plots of search + smoothing time. Then
// small multiples, one per configuration, of time against path length over every found path,
// drawn as a density where there are too many points to see one by one. Drawn in pixels on an
// SvgCanvas whose world is its own pixel box.

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "polynav/experiment/results.hpp"
#include "polynav/io/canvas.hpp"
#include "polynav/io/theme.hpp"
#include "statistics.hpp"

namespace polynav::experiment {
using detail::nearest_rank;

namespace {

using theme::chart::series_colour;

// "Nice" tick values covering [low, high]: steps of 1, 2 or 5 times a power of ten.
std::vector<double> ticks(double low, double high, int wanted) {
  const double raw = (high - low) / std::max(wanted, 1);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = power;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) {
      step = m * power;
      break;
    }
  std::vector<double> out;
  for (double t = std::ceil(low / step) * step; t <= high + 1e-9 * step; t += step)
    out.push_back(std::abs(t) < 1e-12 * step ? 0.0 : t);
  return out;
}

std::string label(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

// `s` cut to fit `width` pixels, ending in an ellipsis when cut.
std::string fit(const std::string& s, double width, double size) {
  if (svg_text_width(s, size) <= width) return s;
  std::string out;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80 && svg_text_width(out + "..", size) > width) break;
    out += char(c);
  }
  while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
  return out + "\u2026";
}

using Points = std::vector<std::pair<double, double>>;

struct Config {
  std::string name;
  Points points;     // (length, microseconds) of found paths
  Points clearance;  // (length / optimum, least clearance) of found paths with both
};

// One configuration's values on one scene.
struct Series {
  std::vector<double> ratios;  // sorted
  std::vector<double> times;   // search + smoothing of every run, microseconds, sorted
};

double run_time_us(const Row& r) {
  const double us =
      (std::isnan(r.search_us) ? 0.0 : r.search_us) + (std::isnan(r.smooth_us) ? 0.0 : r.smooth_us);
  return std::max(us, 0.01);
}

struct Styles {
  SvgStyle axis = theme::chart::axis_line(), grid = theme::chart::grid_line(),
           stripe = theme::chart::row_stripe();
  SvgTextStyle text, heading = theme::chart::heading(), small = theme::chart::small(), tick_end,
                     tick_middle;
  Styles() {
    tick_end = small;
    tick_end.anchor = TextAnchor::end;
    tick_middle = small;
    tick_middle.anchor = TextAnchor::middle;
  }
};

// A horizontal box plot of sorted values at height y: box from the first to the third quartile,
// median line, mean diamond, whiskers from the 5th to the 95th percentile, maximum as a cross (a
// triangle at the axis end when it lies beyond it).
template <class XOf>
void box_plot(SvgCanvas& canvas, const std::vector<double>& v, double y, double half, XOf x_of,
              double axis_high, const char* hue, double right_edge) {
  SvgStyle line;
  line.stroke = hue;
  line.stroke_width = theme::chart::box_line_width;
  SvgStyle box = line;
  box.fill = hue;
  box.fill_opacity = theme::chart::box_fill_opacity;
  const double q1 = nearest_rank(v, 0.25), q2 = nearest_rank(v, 0.5), q3 = nearest_rank(v, 0.75);
  const double p5 = nearest_rank(v, 0.05), p95 = nearest_rank(v, 0.95);
  double mean = 0;
  for (double x : v) mean += x / double(v.size());
  canvas.line_px({x_of(p5), y}, {x_of(q1), y}, line);
  canvas.line_px({x_of(q3), y}, {x_of(p95), y}, line);
  canvas.line_px({x_of(p5), y - half / 2}, {x_of(p5), y + half / 2}, line);
  canvas.line_px({x_of(p95), y - half / 2}, {x_of(p95), y + half / 2}, line);
  canvas.rect_px({{x_of(q1), y - half}, {std::max(x_of(q3), x_of(q1) + 1), y + half}}, box);
  SvgStyle median = line;
  median.stroke_width = theme::chart::median_width;
  canvas.line_px({x_of(q2), y - half}, {x_of(q2), y + half}, median);
  SvgStyle dot;
  dot.fill = theme::colour::white;
  dot.stroke = hue;
  canvas.marker_px({x_of(mean), y}, SvgMarker::diamond, theme::chart::mean_marker_size, dot);
  const double worst = v.back();
  const double worst_size = theme::chart::maximum_marker_size;
  if (worst > axis_high)
    canvas.marker_px({right_edge, y}, SvgMarker::triangle, worst_size, line);
  else
    canvas.marker_px({x_of(worst), y}, SvgMarker::cross, worst_size, line);
}

// One axis of the small multiples: linear, or logarithmic (decades from `low` to `high`, given
// as powers of ten).
struct Axis {
  double low = 0, high = 1;
  bool log = false;
  double at(double v) const {
    return log ? (std::log10(v) - low) / (high - low) : (v - low) / (high - low);
  }
};

// The small multiples: for each configuration a panel of its points on shared axes, every point
// where there are few, else their density (darker where more fall). Panels are laid out in
// `columns` columns from `top`.
void small_multiples(SvgCanvas& canvas, const Styles& st, const std::vector<Config>& configs,
                     Points Config::*which, const Axis& x, const Axis& y, double top, double left,
                     double width, double gap, double height, double pitch, std::size_t columns) {
  constexpr int bins_x = 40, bins_y = 24;
  constexpr std::size_t max_dots = 400;
  for (std::size_t c = 0; c < configs.size(); ++c) {
    const double x0 = left + (width + gap) * double(c % columns);
    const double y0 = top + pitch * double(c / columns);
    const double x1 = x0 + width, y1 = y0 + height;
    // Points beyond an axis (the longest ratios) are drawn at its end.
    const auto sx = [&](double v) { return x0 + std::clamp(x.at(v), 0.0, 1.0) * (x1 - x0); };
    const auto sy = [&](double v) { return y1 - std::clamp(y.at(v), 0.0, 1.0) * (y1 - y0); };
    SvgTextStyle name = st.text;
    name.bold = true;
    name.fill = series_colour(c);
    canvas.text_px({x0, y0 - 6}, fit(configs[c].name, width, 11), name);
    if (y.log) {
      for (double e = y.low; e <= y.high; e += 1) {
        canvas.line_px({x0, sy(std::pow(10, e))}, {x1, sy(std::pow(10, e))}, st.grid);
        if (c % columns == 0)
          canvas.text_px({x0 - 5, sy(std::pow(10, e)) + 3}, label(std::pow(10, e)), st.tick_end);
      }
    } else {
      for (double t : ticks(y.low, y.high, 3)) {
        canvas.line_px({x0, sy(t)}, {x1, sy(t)}, st.grid);
        if (c % columns == 0) canvas.text_px({x0 - 5, sy(t) + 3}, label(t), st.tick_end);
      }
    }
    for (double t : ticks(x.low, x.high, 4))
      canvas.text_px({sx(t), y1 + 13}, label(t), st.tick_middle);
    canvas.line_px({x0, y0}, {x0, y1}, st.axis);
    canvas.line_px({x0, y1}, {x1, y1}, st.axis);
    const Points& points = configs[c].*which;
    SvgTextStyle count = st.small;
    count.anchor = TextAnchor::end;
    canvas.text_px({x1, y1 + 26}, std::to_string(points.size()) + " paths", count);
    if (points.size() <= max_dots) {
      SvgStyle dot;
      dot.fill = series_colour(c);
      dot.fill_opacity = theme::chart::dot_opacity;
      for (const auto& [px, py] : points)
        canvas.marker_px({sx(px), sy(py)}, SvgMarker::circle, theme::chart::dot_size, dot);
      continue;
    }
    std::vector<std::size_t> cells(bins_x * bins_y, 0);
    for (const auto& [px, py] : points) {
      const int bx = std::clamp(int(x.at(px) * bins_x), 0, bins_x - 1);
      const int by = std::clamp(int(y.at(py) * bins_y), 0, bins_y - 1);
      ++cells[std::size_t(by) * bins_x + bx];
    }
    const double most = double(*std::max_element(cells.begin(), cells.end()));
    const double cell_w = (x1 - x0) / bins_x, cell_h = (y1 - y0) / bins_y;
    for (int by = 0; by < bins_y; ++by)
      for (int bx = 0; bx < bins_x; ++bx) {
        const std::size_t n = cells[std::size_t(by) * bins_x + bx];
        if (n == 0) continue;
        SvgStyle cell;
        cell.fill = series_colour(c);
        cell.fill_opacity =
            theme::chart::density_low + theme::chart::density_range * std::sqrt(double(n) / most);
        canvas.rect_px({{x0 + cell_w * bx, y1 - cell_h * (by + 1)},
                        {x0 + cell_w * (bx + 1), y1 - cell_h * by}},
                       cell);
      }
  }
}

}  // namespace

std::string plot_svg(const std::vector<Row>& rows, const std::string& title) {
  // Configurations and scenes in order of first appearance.
  std::vector<Config> configs;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> config_index;
  std::vector<std::string> scenes;
  std::map<std::string, std::size_t> scene_index;
  for (const Row& r : rows) {
    const bool plain = r.options.empty() || r.options == default_options;
    auto [it, inserted] =
        config_index.emplace(std::tuple{r.method, r.options, r.smoother}, configs.size());
    if (inserted)
      configs.push_back(
          {r.method + (plain ? "" : " [" + r.options + "]") + " + " + r.smoother, {}, {}});
    if (scene_index.emplace(r.scene, scenes.size()).second) scenes.push_back(r.scene);
  }
  // series[scene][config]
  std::vector<std::vector<Series>> series(scenes.size(), std::vector<Series>(configs.size()));
  std::vector<std::size_t> scene_queries(scenes.size(), 0);
  for (const Row& r : rows) {
    const std::size_t c = config_index.at({r.method, r.options, r.smoother});
    const std::size_t s = scene_index.at(r.scene);
    Series& one = series[s][c];
    scene_queries[s] = std::max(scene_queries[s], r.query + 1);
    if (!std::isnan(r.search_us)) one.times.push_back(run_time_us(r));
    if (r.status != "found") continue;
    if (!std::isnan(r.ratio)) one.ratios.push_back(r.ratio);
    configs[c].points.push_back({r.length, run_time_us(r)});
    if (!std::isnan(r.ratio) && !std::isnan(r.clearance) && std::isfinite(r.clearance))
      configs[c].clearance.push_back({r.ratio, r.clearance});
  }
  for (auto& per_scene : series)
    for (Series& one : per_scene) {
      std::sort(one.ratios.begin(), one.ratios.end());
      std::sort(one.times.begin(), one.times.end());
    }

  const Styles st;
  const double width = 1200, left = 16, right = width - 24;
  double label_width = 120;
  for (const Config& c : configs)
    label_width = std::max(label_width, svg_text_width(c.name, 11) + 30);
  label_width = std::min(label_width, 460.0);
  const double plots_left = left + label_width, panel_gap = 48;
  const double panel_width = (right - plots_left - panel_gap) / 2;
  const double row_height = 20, top = 84;
  const double scene_height = 30 + 20 + row_height * double(configs.size()) + 40;

  // The density section: a grid of small panels sharing their axes.
  const std::size_t columns = std::min<std::size_t>(4, std::max<std::size_t>(configs.size(), 1));
  const std::size_t grid_rows = (configs.size() + columns - 1) / columns;
  const double small_left = left + 56, small_gap = 24, small_height = 130;
  const double small_width =
      (right - small_left - small_gap * double(columns - 1)) / double(columns);
  const double small_pitch = 20 + small_height + 34;
  const double density_top = top + scene_height * double(scenes.size()) + 24;
  // The clearance section, when any path has both a ratio and a clearance.
  bool clearances = false;
  for (const Config& c : configs) clearances = clearances || !c.clearance.empty();
  const double clearance_top = density_top + 44 + small_pitch * double(grid_rows) + 16;
  const double height =
      clearances ? clearance_top + 44 + small_pitch * double(grid_rows) + 16 : clearance_top;

  SvgLayout layout;
  layout.width = width;
  layout.margin = 0;
  SvgCanvas canvas(Box{{0, 0}, {width, height}}, layout);
  canvas.set_title(title);

  canvas.group("titles");
  canvas.text_px({left, 26}, title, st.heading);
  canvas.text_px({left, 46},
                 std::to_string(configs.size()) +
                     " configurations (method [options] + smoother) "
                     "on " +
                     std::to_string(scenes.size()) + " scene" + (scenes.size() == 1 ? "" : "s") +
                     ", " + std::to_string(rows.size()) + " runs",
                 st.small);

  // The key to the box plots.
  canvas.group("legend");
  {
    const double y = 66, x = left;
    const std::vector<double> sample = {1, 2, 3, 3.5, 4, 5, 6, 7, 9};
    const auto x_of = [&](double v) { return x + 10 + v * 9; };
    box_plot(canvas, sample, y, 6, x_of, 100, theme::chart::axis, 0);
    canvas.text_px({x + 110, y + 4},
                   "box: quartiles, bar: median, diamond: mean, whiskers: 5th to 95th "
                   "percentile, cross: maximum (a triangle when it lies beyond the axis)",
                   st.small);
  }

  for (std::size_t s = 0; s < scenes.size(); ++s) {
    const double y_top = top + scene_height * double(s);
    const double rows_top = y_top + 50;
    const double rows_bottom = rows_top + row_height * double(configs.size());
    const auto row_y = [&](std::size_t c) { return rows_top + row_height * (double(c) + 0.5); };

    canvas.group("titles");
    SvgTextStyle scene_heading = st.heading;
    scene_heading.size = theme::chart::scene_heading_size;
    canvas.text_px({left, y_top + 18},
                   "scene " + scenes[s] + " (" + std::to_string(scene_queries[s]) + " queries)",
                   scene_heading);

    // Row stripes and names.
    canvas.group("labels");
    for (std::size_t c = 0; c < configs.size(); ++c) {
      if (c % 2 == 0)
        canvas.rect_px({{left, row_y(c) - row_height / 2}, {right, row_y(c) + row_height / 2}},
                       st.stripe);
      SvgStyle swatch;
      swatch.fill = series_colour(c);
      canvas.rect_px({{left, row_y(c) - 5}, {left + 10, row_y(c) + 5}}, swatch);
      canvas.text_px({left + 16, row_y(c) + 4}, fit(configs[c].name, label_width - 20, 11),
                     st.text);
    }

    // Length / optimum.
    canvas.group("ratio-plot");
    const double r0 = plots_left, r1 = plots_left + panel_width;
    double high = 1.0, low = 1.0;
    bool any_ratio = false;
    for (const Series& one : series[s])
      if (!one.ratios.empty()) {
        any_ratio = true;
        high = std::max(high, nearest_rank(one.ratios, 0.95));
        low = std::min(low, one.ratios.front());
      }
    high = 1.0 + std::max(high - 1.0, 0.005) * 1.1;
    const auto rx = [&](double v) {
      return r0 + (std::clamp(v, low, high) - low) / (high - low) * (r1 - r0);
    };
    canvas.text_px({r0, rows_top - 8},
                   "path length / optimum (cost / optimal cost with weighted regions)", st.text);
    for (double t : ticks(low, high, 6)) {
      canvas.line_px({rx(t), rows_top}, {rx(t), rows_bottom}, st.grid);
      canvas.text_px({rx(t), rows_bottom + 14}, label(t), st.tick_middle);
    }
    canvas.line_px({r0, rows_top}, {r0, rows_bottom}, st.axis);
    canvas.line_px({r0, rows_bottom}, {r1, rows_bottom}, st.axis);
    for (std::size_t c = 0; c < configs.size(); ++c) {
      const Series& one = series[s][c];
      if (one.ratios.empty()) {
        canvas.text_px({r0 + 6, row_y(c) + 4},
                       any_ratio ? "no path with a reference"
                                 : "no "
                                   "reference",
                       st.small);
        continue;
      }
      box_plot(canvas, one.ratios, row_y(c), 6, rx, high, series_colour(c), r1);
    }

    // Search + smoothing time, log scale.
    canvas.group("time-plot");
    const double t0 = r1 + panel_gap, t1 = right;
    double min_us = INFINITY, max_us = 0;
    for (const Series& one : series[s])
      if (!one.times.empty()) {
        min_us = std::min(min_us, one.times.front());
        max_us = std::max(max_us, one.times.back());
      }
    if (!(max_us > 0)) min_us = 1, max_us = 10;
    const double log_low = std::floor(std::log10(min_us));
    const double log_high = std::max(std::ceil(std::log10(max_us)), log_low + 1);
    const auto tx = [&](double us) {
      return t0 + (std::log10(us) - log_low) / (log_high - log_low) * (t1 - t0);
    };
    canvas.text_px({t0, rows_top - 8}, "search + smoothing time per run (microseconds, log scale)",
                   st.text);
    for (double e = log_low; e <= log_high; e += 1) {
      canvas.line_px({tx(std::pow(10, e)), rows_top}, {tx(std::pow(10, e)), rows_bottom}, st.grid);
      canvas.text_px({tx(std::pow(10, e)), rows_bottom + 14}, label(std::pow(10, e)),
                     st.tick_middle);
    }
    canvas.line_px({t0, rows_top}, {t0, rows_bottom}, st.axis);
    canvas.line_px({t0, rows_bottom}, {t1, rows_bottom}, st.axis);
    for (std::size_t c = 0; c < configs.size(); ++c)
      if (!series[s][c].times.empty())
        box_plot(canvas, series[s][c].times, row_y(c), 6, tx, max_us * 2, series_colour(c), t1);
  }

  // Time against path length, one small panel per configuration on shared axes: every point
  // where there are few, else their density (darker where more paths fall).
  canvas.group("time-length-plot");
  canvas.text_px({left, density_top + 14},
                 "search + smoothing time (microseconds, log scale) against path length (scene "
                 "units), every found path of every scene; darker where more paths fall",
                 st.text);
  double max_length = 0, min_us = INFINITY, max_us = 0;
  for (const Config& c : configs)
    for (const auto& [length, us] : c.points) {
      max_length = std::max(max_length, length);
      min_us = std::min(min_us, us);
      max_us = std::max(max_us, us);
    }
  if (!(max_length > 0)) max_length = 1;
  if (!(max_us > 0)) min_us = 1, max_us = 10;
  const double log_low = std::floor(std::log10(min_us));
  const Axis length_axis{0, max_length, false};
  const Axis time_axis{log_low, std::max(std::ceil(std::log10(max_us)), log_low + 1), true};
  small_multiples(canvas, st, configs, &Config::points, length_axis, time_axis, density_top + 44,
                  small_left, small_width, small_gap, small_height, small_pitch, columns);

  // Least clearance against length / optimum: what a path gives up in length for its distance
  // from the obstacles (the clearance roadmap's trade, and every smoother's the other way).
  if (clearances) {
    canvas.group("clearance-length-plot");
    canvas.text_px(
        {left, clearance_top + 14},
        "least clearance (scene units: the path's nearest approach to the inflated "
        "obstacles) against length / optimum up to its 99th percentile, every found path "
        "with a reference",
        st.text);
    // The ratio axis ends at the 99th percentile: a few very long detours (short queries) would
    // squeeze every other path against the left edge.
    double min_ratio = 1, max_clearance = 0;
    std::vector<double> ratios;
    for (const Config& c : configs)
      for (const auto& [ratio, clearance] : c.clearance) {
        min_ratio = std::min(min_ratio, ratio);
        ratios.push_back(ratio);
        max_clearance = std::max(max_clearance, clearance);
      }
    std::sort(ratios.begin(), ratios.end());
    const double max_ratio = std::max(nearest_rank(ratios, 0.99), min_ratio + 0.01);
    if (!(max_clearance > 0)) max_clearance = 1;
    small_multiples(canvas, st, configs, &Config::clearance, Axis{min_ratio, max_ratio, false},
                    Axis{0, max_clearance, false}, clearance_top + 44, small_left, small_width,
                    small_gap, small_height, small_pitch, columns);
  }
  return canvas.str();
}

}  // namespace polynav::experiment
