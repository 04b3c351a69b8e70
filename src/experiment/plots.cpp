// The experiment's SVG figure: box plots of length / optimum per configuration, and search plus
// smoothing time against path length. Drawn in pixels on an SvgCanvas whose world is its own
// pixel box.

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "polynav/experiment/results.hpp"
#include "polynav/io/svg.hpp"
#include "statistics.hpp"

namespace polynav::experiment {
using detail::nearest_rank;

namespace {

// Colour-blind-safe categorical colours (Okabe and Ito, 2008; their yellow left out, too pale on
// white), then Paul Tol's "muted" scheme, then grey.
const char* const palette[] = {"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
                               "#000000", "#332288", "#88CCEE", "#44AA99", "#117733", "#999933",
                               "#DDCC77", "#CC6677", "#882255", "#AA4499"};
const char* colour(std::size_t i) {
  return i < std::size(palette) ? palette[i] : "#777777";
}

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

struct Config {
  std::string name;
  std::vector<double> ratios;                   // sorted
  std::vector<std::pair<double, double>> time;  // (length, microseconds)
};

}  // namespace

std::string plot_svg(const std::vector<Row>& rows, const std::string& title) {
  std::vector<Config> configs;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index;
  for (const Row& r : rows) {
    const auto key = std::tuple{r.method, r.options, r.smoother};
    auto [it, inserted] = index.emplace(key, configs.size());
    if (inserted)
      configs.push_back(
          {r.method + (r.options.empty() ? "" : " [" + r.options + "]") + " + " + r.smoother,
           {},
           {}});
    Config& c = configs[it->second];
    if (r.status != "found") continue;
    if (!std::isnan(r.ratio)) c.ratios.push_back(r.ratio);
    const double us = (std::isnan(r.search_us) ? 0.0 : r.search_us) +
                      (std::isnan(r.smooth_us) ? 0.0 : r.smooth_us);
    c.time.push_back({r.length, std::max(us, 0.01)});
  }
  for (Config& c : configs) std::sort(c.ratios.begin(), c.ratios.end());

  const double width = 960, legend_row = 18;
  const double box_height = 300, scatter_height = 320, top = 56, gap = 90;
  const double legend = legend_row * double(configs.size()) + 16;
  const double height = top + box_height + gap + scatter_height + 60 + legend;
  SvgLayout layout;
  layout.width = width;
  layout.margin = 0;
  SvgCanvas canvas(Box{{0, 0}, {width, height}}, layout);
  canvas.set_title(title);
  const double left = 90, right = width - 30;

  SvgStyle axis;
  axis.stroke = "#57606a";
  SvgStyle grid;
  grid.stroke = "#d0d7de";
  grid.dash = {3, 3};
  SvgTextStyle text;
  SvgTextStyle heading;
  heading.size = 15;
  heading.bold = true;
  SvgTextStyle small;
  small.size = 10;
  small.fill = "#57606a";

  canvas.group("titles");
  canvas.text_px({left, 24}, title, heading);

  // Box plots of length / optimum: box from the first to the third quartile, median line, mean
  // diamond, whiskers from the 5th to the 95th percentile, maximum as a cross (a triangle at the
  // top when it lies above the axis, which ends a little above the highest 95th percentile).
  canvas.group("ratio-plot");
  const double y0 = top + 20, y1 = top + box_height;
  double high = 1.0;
  for (const Config& c : configs)
    if (!c.ratios.empty()) high = std::max(high, nearest_rank(c.ratios, 0.95));
  high = 1.0 + std::max(high - 1.0, 0.005) * 1.1;
  double low = 1.0;
  for (const Config& c : configs)
    if (!c.ratios.empty()) low = std::min(low, c.ratios.front());
  const auto y_of = [&](double v) {
    return y1 - (std::clamp(v, low, high) - low) / (high - low) * (y1 - y0);
  };
  canvas.text_px({left, top + 6},
                 "path length / optimum (the visibility graph's; cost / its cost with weighted "
                 "regions), per query",
                 text);
  for (double t : ticks(low, high, 6)) {
    canvas.line_px({left, y_of(t)}, {right, y_of(t)}, grid);
    SvgTextStyle tick = small;
    tick.anchor = TextAnchor::end;
    canvas.text_px({left - 6, y_of(t) + 3}, label(t), tick);
  }
  canvas.line_px({left, y0}, {left, y1}, axis);
  canvas.line_px({left, y1}, {right, y1}, axis);
  const double slot = (right - left) / double(std::max<std::size_t>(configs.size(), 1));
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const Config& c = configs[i];
    const double x = left + slot * (double(i) + 0.5);
    const double half = std::min(slot * 0.3, 30.0);
    SvgTextStyle number = small;
    number.anchor = TextAnchor::middle;
    canvas.text_px({x, y1 + 14}, std::to_string(i + 1), number);
    if (c.ratios.empty()) {
      canvas.text_px({x, y1 - 8}, "no reference", number);
      continue;
    }
    SvgStyle line;
    line.stroke = colour(i);
    line.stroke_width = 1.5;
    SvgStyle box = line;
    box.fill = colour(i);
    box.fill_opacity = 0.25;
    const double q1 = nearest_rank(c.ratios, 0.25), q2 = nearest_rank(c.ratios, 0.5);
    const double q3 = nearest_rank(c.ratios, 0.75);
    const double p5 = nearest_rank(c.ratios, 0.05), p95 = nearest_rank(c.ratios, 0.95);
    double mean = 0;
    for (double v : c.ratios) mean += v / double(c.ratios.size());
    canvas.line_px({x, y_of(p5)}, {x, y_of(q1)}, line);
    canvas.line_px({x, y_of(q3)}, {x, y_of(p95)}, line);
    canvas.line_px({x - half / 2, y_of(p5)}, {x + half / 2, y_of(p5)}, line);
    canvas.line_px({x - half / 2, y_of(p95)}, {x + half / 2, y_of(p95)}, line);
    canvas.rect_px({{x - half, y_of(q3)}, {x + half, std::max(y_of(q1), y_of(q3) + 1)}}, box);
    SvgStyle median = line;
    median.stroke_width = 2.5;
    canvas.line_px({x - half, y_of(q2)}, {x + half, y_of(q2)}, median);
    SvgStyle dot;
    dot.fill = "#ffffff";
    dot.stroke = colour(i);
    canvas.marker_px({x, y_of(mean)}, SvgMarker::diamond, 8, dot);
    const double worst = c.ratios.back();
    canvas.marker_px({x, y_of(worst)}, worst > high ? SvgMarker::triangle : SvgMarker::cross, 7,
                     line);
  }

  // Time against path length, log-scaled time.
  canvas.group("time-plot");
  const double s0 = y1 + gap, s1 = s0 + scatter_height;
  double max_length = 0, min_us = INFINITY, max_us = 0;
  for (const Config& c : configs)
    for (const auto& [length, us] : c.time) {
      max_length = std::max(max_length, length);
      min_us = std::min(min_us, us);
      max_us = std::max(max_us, us);
    }
  if (!(max_length > 0)) max_length = 1;
  if (!(max_us > 0)) min_us = 1, max_us = 10;
  const double log_low = std::floor(std::log10(min_us)), log_high = std::ceil(std::log10(max_us));
  const double log_span = std::max(log_high - log_low, 1.0);
  const auto sx = [&](double length) { return left + length / max_length * (right - left); };
  const auto sy = [&](double us) {
    return s1 - (std::log10(us) - log_low) / log_span * (s1 - s0 - 10);
  };
  canvas.text_px({left, s0 - 14},
                 "search + smoothing time (microseconds, log scale) against path length", text);
  for (double e = log_low; e <= log_low + log_span; e += 1) {
    canvas.line_px({left, sy(std::pow(10, e))}, {right, sy(std::pow(10, e))}, grid);
    SvgTextStyle tick = small;
    tick.anchor = TextAnchor::end;
    canvas.text_px({left - 6, sy(std::pow(10, e)) + 3}, label(std::pow(10, e)), tick);
  }
  for (double t : ticks(0, max_length, 8)) {
    SvgTextStyle tick = small;
    tick.anchor = TextAnchor::middle;
    canvas.text_px({sx(t), s1 + 14}, label(t), tick);
  }
  canvas.line_px({left, s0}, {left, s1}, axis);
  canvas.line_px({left, s1}, {right, s1}, axis);
  SvgTextStyle axis_label = small;
  axis_label.anchor = TextAnchor::middle;
  canvas.text_px({(left + right) / 2, s1 + 30}, "path length (scene units)", axis_label);
  for (std::size_t i = 0; i < configs.size(); ++i) {
    SvgStyle dot;
    dot.fill = colour(i);
    dot.fill_opacity = 0.45;
    // Thinned to at most 400 points per configuration, evenly over the queries.
    const auto& points = configs[i].time;
    const std::size_t step = std::max<std::size_t>(1, (points.size() + 399) / 400);
    for (std::size_t k = 0; k < points.size(); k += step)
      canvas.marker_px({sx(points[k].first), sy(points[k].second)}, SvgMarker::circle, 3.5, dot);
  }

  canvas.group("legend");
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const double y = s1 + 56 + legend_row * double(i);
    SvgStyle swatch;
    swatch.fill = colour(i);
    canvas.rect_px({{left, y - 9}, {left + 12, y + 1}}, swatch);
    canvas.text_px({left + 18, y}, std::to_string(i + 1) + "  " + configs[i].name, text);
  }
  return canvas.str();
}

}  // namespace polynav::experiment
