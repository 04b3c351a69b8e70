#pragma once
/// @file
/// The one theme of polynav's pictures: every colour, stroke width, opacity, dash, marker size
/// and font size that the scene picture (io/scene_picture.hpp), the plan picture
/// (io/plan_picture.hpp) and the experiment's plots (experiment/plots.hpp) paint with. The
/// drawing code names what it draws (`theme::obstacle()`, `theme::path()`) and never spells a
/// colour. Widths, sizes and dashes are in pixels, so they look the same at any scale.
///
/// The canvas itself (io/canvas.hpp) keeps two neutral defaults of its own: text is `#1f2328`
/// unless a style says otherwise (theme::colour::ink is the same), and a text halo is white.

#include <cstddef>
#include <iterator>
#include <string>

#include "polynav/io/canvas.hpp"

namespace polynav::theme {

/// Colours, by what they paint.
namespace colour {
// Text and furniture.
inline constexpr const char* ink = "#1f2328";    ///< titles, legend labels, the scale bar
inline constexpr const char* muted = "#59636e";  ///< secondary text
inline constexpr const char* white = "#ffffff";  ///< marker outlines, crossings-out
inline constexpr const char* rule = "#d0d7de";   ///< the line above the legend

// The scene.
inline constexpr const char* outside = "#e9ecef";     ///< the picture outside the bounds
inline constexpr const char* frame_edge = "#c5cbd3";  ///< the drawing area's edge
inline constexpr const char* ground = "#ffffff";      ///< free ground inside the bounds
inline constexpr const char* wall = "#2d333b";        ///< the bounds' outline
inline constexpr const char* obstacle = "#5a6570";    ///< obstacles; blocked area
inline constexpr const char* obstacle_edge = "#363d45";
inline constexpr const char* clearance = "#f2a23c";       ///< the band an agent's radius adds
inline constexpr const char* clearance_edge = "#c76a00";  ///< the inflated outline
inline constexpr const char* dear_terrain = "#8f6032";    ///< clearance-cost bands (region brown)
inline constexpr const char* hatch = "#6f42c1";           ///< regions with a height
inline constexpr const char* occupied_cell = "#1f2328";   ///< ROS maps' occupied cells
inline constexpr const char* unknown_cell = "#b4bcc6";    ///< ROS maps' unknown cells
inline constexpr const char* outline = "#cf222e";         ///< a map's vectorised outline
inline constexpr const char* start = "#0969da";           ///< start markers
inline constexpr const char* goal = "#cf222e";            ///< goal markers
inline constexpr const char* start_label = "#0a3069";
inline constexpr const char* goal_label = "#82071e";
inline constexpr const char* link = "#57606a";  ///< the dashed line from a start to its goal

// A discretisation's structure (Primitives).
inline constexpr const char* structure = "#5b6270";       ///< blocked cells, nodes
inline constexpr const char* structure_line = "#8a93a3";  ///< node regions, lattice, arcs

// Plans.
inline constexpr const char* expanded = "#e8a33d";  ///< nodes the search expanded
inline constexpr const char* raw_path = "#8250df";  ///< the path as searched
inline constexpr const char* path = "#0969da";      ///< the smoothed path and its waypoints
inline constexpr const char* reach = "#2f81f7";     ///< what `reach` reached, shaded by cost
inline constexpr const char* threat = "#cf222e";    ///< a flee query's threats and their circles
}  // namespace colour

/// A colour as red, green and blue in 0..255, for colours computed by mixing.
struct Rgb {
  double r, g, b;
};

/// Region shading by cost multiplier: cheap ground towards green, dear ground towards brown,
/// saturating `cheap_doublings` halvings below and `dear_doublings` doublings above the
/// ordinary cost (a log scale, so that x2 and x0.5 look equally far from ordinary ground). The
/// edge and the label are the fill mixed towards near-black.
namespace region {
inline constexpr Rgb neutral{236, 234, 228};  ///< cost 1
inline constexpr Rgb pale_green{214, 236, 200};
inline constexpr Rgb green{92, 163, 74};
inline constexpr Rgb pale_brown{238, 222, 196};
inline constexpr Rgb brown{143, 96, 50};
inline constexpr double cheap_doublings = 2;  ///< green at a quarter of the ordinary cost
inline constexpr double dear_doublings = 3;   ///< brown at eight times
inline constexpr Rgb edge_towards{40, 40, 40};
inline constexpr double edge_mix = 0.45;
inline constexpr Rgb text_towards{20, 20, 20};
inline constexpr double text_mix = 0.75;
}  // namespace region

// ---------------------------------------------------------------------------------------------
// The scene

inline SvgStyle frame(bool direct_free_space) {
  return {.fill = direct_free_space ? colour::ground : colour::outside,
          .stroke = colour::frame_edge,
          .stroke_width = 0.75};
}
inline SvgStyle bounds() {
  return {.fill = colour::ground};
}
inline SvgStyle wall() {
  return {.stroke = colour::wall, .stroke_width = 1.6, .round_joins = true};
}
inline SvgStyle occupied_cells() {
  return {.fill = colour::occupied_cell};
}
inline SvgStyle unknown_cells() {
  return {.fill = colour::unknown_cell};
}
inline SvgStyle obstacle() {
  return {.fill = colour::obstacle,
          .stroke = colour::obstacle_edge,
          .stroke_width = 0.8,
          .round_joins = true};
}
/// Everything outside free space where the source gives free space directly (maps, meshes).
inline SvgStyle blocked() {
  return {.fill = colour::obstacle};
}
/// A ROS map's blocked area as vectorised, translucent over the cells, and its outline.
inline SvgStyle outline_area() {
  return {.fill = colour::outline, .fill_opacity = 0.2};
}
inline SvgStyle outline_edge() {
  return {.stroke = colour::outline, .stroke_width = 0.9, .round_joins = true};
}
/// The band the agent's radius adds, and the inflated outline of free space.
inline SvgStyle clearance() {
  return {.fill = colour::clearance, .fill_opacity = 0.22};
}
inline SvgStyle inflated_edge() {
  return {
      .stroke = colour::clearance_edge, .stroke_width = 1.1, .dash = {5, 3}, .round_joins = true};
}

/// A band of the clearance cost, `share` of the way from cost 1 (0) to the factor (1): dear
/// terrain's brown, more opaque the dearer, without edges (the bands meet along the inflated
/// outlines).
inline SvgStyle clearance_band(double share) {
  return {.fill = colour::dear_terrain, .fill_opacity = 0.1 + 0.5 * share};
}

/// A region, in the colours region_colours() (io/scene_picture.hpp) gives its cost.
inline SvgStyle region_area(const std::string& fill, const std::string& edge) {
  return {.fill = fill, .stroke = edge, .stroke_width = 0.9};
}

/// Regions with a height: a hatch pattern of lines `hatch_spacing` apart.
inline constexpr double hatch_spacing = 6;     ///< [Units: px]
inline constexpr double hatch_line_width = 1;  ///< [Units: px]
inline constexpr double hatch_angle_deg = 45;
inline SvgStyle height_hatch(const std::string& pattern_url) {
  return {.fill = pattern_url, .fill_opacity = 0.55};
}

/// A region label, with a halo over the shading.
inline constexpr double region_label_size = 10;  ///< [Units: px]
inline SvgTextStyle region_label(const std::string& fill) {
  return {.size = region_label_size, .fill = fill, .anchor = TextAnchor::middle, .halo = true};
}

/// Queries: past `crowded_queries` of them the markers shrink, the links fade and names go.
inline constexpr std::size_t crowded_queries = 40;
inline double query_marker_size(bool crowded) {
  return crowded ? 6 : 10;
}  ///< [Units: px]
/// An end point that is not free: a marker this much larger, crossed out.
inline constexpr double blocked_marker_growth = 4;  ///< [Units: px]
inline constexpr double cross_ratio = 0.5;          ///< the cross's size over the marker's
inline SvgStyle query_link(bool crowded) {
  return {.stroke = colour::link,
          .stroke_width = crowded ? 0.5 : 1,
          .stroke_opacity = crowded ? 0.45 : 0.75,
          .dash = {3, 3}};
}
inline SvgStyle end_marker(const char* fill) {
  return {.fill = fill, .stroke = colour::white, .stroke_width = 1.5};
}
inline SvgStyle cross_out() {
  return {.stroke = colour::white, .stroke_width = 1.8, .round_joins = true};
}
inline constexpr double query_label_size = 11;  ///< [Units: px]
inline SvgTextStyle query_label(const char* fill, TextAnchor anchor) {
  return {.size = query_label_size, .fill = fill, .anchor = anchor, .halo = true};
}

// ---------------------------------------------------------------------------------------------
// Title and legend

inline SvgTextStyle title() {
  return {.size = 16, .fill = colour::ink, .bold = true};
}
inline SvgTextStyle title_source() {
  return {.size = 10.5, .fill = colour::muted, .anchor = TextAnchor::end};
}
inline SvgTextStyle title_details() {
  return {.size = 11, .fill = colour::muted};
}

inline constexpr double legend_font_size = 11;  ///< [Units: px]
inline SvgTextStyle legend_label() {
  return {.size = legend_font_size, .fill = colour::ink};
}
inline SvgStyle legend_rule() {
  return {.stroke = colour::rule, .stroke_width = 1};
}
inline constexpr double legend_swatch_radius = 1.5;  ///< swatches' rounded corners [Units: px]
inline constexpr double legend_marker_size = 10;     ///< [Units: px]
inline constexpr double legend_crossed_size = 13;    ///< [Units: px]
inline constexpr double legend_cross_size = 6.5;     ///< [Units: px]
/// Legend swatches: what the scene draws, at the size of a swatch (edges a little heavier
/// where a thin edge would vanish).
inline SvgStyle legend_free() {
  return {.fill = colour::ground, .stroke = colour::frame_edge, .stroke_width = 1};
}
inline SvgStyle legend_outline() {
  return {
      .fill = colour::outline, .fill_opacity = 0.2, .stroke = colour::outline, .stroke_width = 1.2};
}
inline SvgStyle legend_obstacle() {
  return {.fill = colour::obstacle, .stroke = colour::obstacle_edge, .stroke_width = 0.8};
}
inline SvgStyle legend_clearance() {
  return {.fill = colour::clearance,
          .fill_opacity = 0.25,
          .stroke = colour::clearance_edge,
          .stroke_width = 1.2,
          .dash = {4, 2}};
}
inline SvgStyle legend_region(const std::string& fill, const std::string& edge) {
  return {.fill = fill, .stroke = edge, .stroke_width = 0.8};
}
inline SvgStyle legend_height(const std::string& pattern_url) {
  return {.fill = pattern_url, .stroke = colour::hatch, .stroke_width = 0.8};
}
inline SvgStyle legend_empty() {
  return {.fill = "none"};
}

/// The scale bar: two blocks, one filled, one white, with a thin frame.
inline SvgStyle scale_bar_filled() {
  return {.fill = colour::ink};
}
inline SvgStyle scale_bar_open() {
  return {.fill = colour::white, .stroke = colour::ink, .stroke_width = 0.8};
}
inline SvgStyle scale_bar_frame() {
  return {.stroke = colour::ink, .stroke_width = 0.8};
}
inline SvgTextStyle scale_bar_text(TextAnchor anchor) {
  return {.size = 9.5, .fill = colour::muted, .anchor = anchor};
}

// ---------------------------------------------------------------------------------------------
// A discretisation's structure (Primitives)

inline SvgStyle blocked_cells() {
  return {.fill = colour::structure, .fill_opacity = 0.28};
}
inline SvgStyle node_region() {
  return {.stroke = colour::structure_line, .stroke_width = 0.5, .stroke_opacity = 0.7};
}
inline SvgStyle lattice() {
  return {.stroke = colour::structure_line, .stroke_width = 0.3, .stroke_opacity = 0.5};
}
inline SvgStyle arc() {
  return {.stroke = colour::structure_line, .stroke_width = 0.4, .stroke_opacity = 0.45};
}
inline SvgStyle node() {
  return {.fill = colour::structure};
}
inline constexpr double node_size = 3;  ///< [Units: px]

// ---------------------------------------------------------------------------------------------
// Plans

inline SvgStyle expanded() {
  return {.fill = colour::expanded, .fill_opacity = 0.22};
}
inline constexpr double expanded_size = 1.6;  ///< a square per expanded node [Units: px]
/// A flee query's threat (a cross) and the circle of the distance to get from it (dashed).
inline SvgStyle threat() {
  return {.stroke = colour::threat, .stroke_width = 2.0};
}
inline SvgStyle threat_circle() {
  return {.stroke = colour::threat, .stroke_width = 1.2, .stroke_opacity = 0.8, .dash = {6, 4}};
}
inline constexpr double threat_size = 9.0;  ///< [Units: px]
inline SvgStyle raw_path() {
  return {.stroke = colour::raw_path, .stroke_width = 1.4, .dash = {4, 3}, .round_joins = true};
}
inline SvgStyle path() {
  return {.stroke = colour::path, .stroke_width = 2.6, .round_joins = true};
}
inline SvgStyle waypoint() {
  return {.fill = colour::white, .stroke = colour::path, .stroke_width = 1.2};
}
inline constexpr double waypoint_size = 5;  ///< [Units: px]

/// What `reach` reached, shaded by cost: opacity from `low` (at the bound) to `low + range`
/// (at the start), for node regions and for nodes drawn as dots.
inline constexpr double reach_region_low = 0.15, reach_region_range = 0.45;
inline constexpr double reach_point_low = 0.3, reach_point_range = 0.6;
inline constexpr double reach_point_size = 6;  ///< [Units: px]
inline SvgStyle reach() {
  return {.fill = colour::reach};
}

// ---------------------------------------------------------------------------------------------
// Charts (the experiment's plots)

namespace chart {
inline constexpr const char* axis = "#57606a";    ///< axes, ticks, secondary text, the key
inline constexpr const char* grid = "#d0d7de";    ///< grid lines (dashed)
inline constexpr const char* stripe = "#f3f4f6";  ///< every other row

/// Sixteen colours chosen from the Okabe-Ito, Paul Tol, Kelly and Tableau palettes, none paler
/// than L* 72 (they must show on white), to be as far apart as possible: the least CIEDE2000
/// difference between any two is 21 (CIE76: 26). Ordered so that each is the farthest from
/// those before it, so fewer series get even more distinct ones. Past sixteen they repeat;
/// every series is labelled by name anyway.
inline constexpr const char* series[] = {
    "#0072B2", "#8DB600", "#CC3311", "#2B3D26", "#882255", "#E69F00", "#44AA99", "#9467BD",
    "#F99379", "#654522", "#332288", "#848482", "#56B4E9", "#EE3377", "#228833", "#000000"};
inline const char* series_colour(std::size_t i) {
  return series[i % std::size(series)];
}

inline SvgStyle axis_line() {
  return {.stroke = axis};
}
inline SvgStyle grid_line() {
  return {.stroke = grid, .dash = {3, 3}};
}
inline SvgStyle row_stripe() {
  return {.fill = stripe};
}
inline SvgTextStyle heading() {
  return {.size = 15, .bold = true};
}
inline constexpr double scene_heading_size = 13;  ///< [Units: px]
inline SvgTextStyle small() {
  return {.size = 10, .fill = axis};
}

/// Box plots, drawn in a series' colour: whiskers and box edge, the box's fill, the median.
inline constexpr double box_line_width = 1.5;  ///< [Units: px]
inline constexpr double box_fill_opacity = 0.3;
inline constexpr double median_width = 2.5;       ///< [Units: px]
inline constexpr double mean_marker_size = 8;     ///< a white diamond [Units: px]
inline constexpr double maximum_marker_size = 7;  ///< a cross, or a triangle past the axis
/// Time against length: dots where there are few paths, else density cells whose opacity
/// grows with the square root of their count from `density_low` to `density_low + density_range`.
inline constexpr double dot_size = 3;  ///< [Units: px]
inline constexpr double dot_opacity = 0.5;
inline constexpr double density_low = 0.12, density_range = 0.88;
}  // namespace chart

}  // namespace polynav::theme
