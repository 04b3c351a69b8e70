// The plan picture on its own: a discretisation's structure and paths as plain data go into the
// scene's layers, drawn with the theme; and the text helpers the pictures share. The whole
// picture is exercised end to end through `polynav plan --svg` and python/tests/test_pictures.py.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli/xml_check.hpp"
#include "polynav/io/plan_picture.hpp"
#include "polynav/io/theme.hpp"

namespace polynav {
namespace {

// The text of group `id`, from its opening tag to its closing one; empty when it is not written.
std::string group_text(const std::string& svg, const std::string& id) {
  const std::size_t open = svg.find("<g id=\"" + id + "\"");
  if (open == std::string::npos) return {};
  return svg.substr(open, svg.find("</g>", open) - open);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

SvgCanvas layered_canvas() {
  SvgCanvas canvas(Box{{0, 0}, {10, 10}});
  for (std::string_view id : scene_layers) canvas.group(id);
  return canvas;
}

TEST(PlanPicture, PathsGoIntoTheirLayers) {
  SvgCanvas canvas = layered_canvas();
  const std::vector<PathDrawing> paths = {
      {{{1, 1}, {5, 5}, {9, 1}}, {{1, 1}, {5, 6}, {9, 1}}, {{2, 2}, {3, 3}}},
      {{{4, 4}}, {}, {{6, 6}}},  // a single point draws no path, but its expanded nodes
  };
  draw_paths(canvas, paths);
  const std::string svg = canvas.str();
  ASSERT_EQ(test::check_xml(svg).problem, "");

  const std::string path = group_text(svg, "path");
  EXPECT_EQ(count(path, "<polyline"), 1u);
  EXPECT_EQ(count(path, "<circle"), 3u);  // the waypoints
  EXPECT_NE(path.find(std::string("stroke=\"") + theme::colour::path + '"'), std::string::npos);
  const std::string raw = group_text(svg, "raw-path");
  EXPECT_EQ(count(raw, "<polyline"), 1u);
  EXPECT_NE(raw.find("stroke-dasharray"), std::string::npos);
  EXPECT_EQ(count(group_text(svg, "expanded"), "<rect"), 3u);
}

TEST(PlanPicture, StructureSplitsIntoGridAndGraph) {
  SvgCanvas canvas = layered_canvas();
  Primitives p;
  p.blocked = {{{0, 0}, {1, 0}, {1, 1}, {0, 1}}};
  p.lattice = {{{0, 2}, {10, 2}}, {{0, 3}, {10, 3}}};
  p.regions = {{{2, 2}, {4, 2}, {4, 4}}};
  p.arcs = {{{5, 5}, {6, 6}}};
  p.nodes = {{5, 5}, {6, 6}};
  draw_discretisation(canvas, p);
  const std::string svg = canvas.str();
  ASSERT_EQ(test::check_xml(svg).problem, "");
  const std::string grid = group_text(svg, "grid");
  EXPECT_EQ(count(grid, "<path"), 1u);
  EXPECT_EQ(count(grid, "<line"), 2u);
  const std::string graph = group_text(svg, "graph");
  EXPECT_EQ(count(graph, "<path"), 1u);
  EXPECT_EQ(count(graph, "<line"), 1u);
  EXPECT_EQ(count(graph, "<circle"), 2u);
}

TEST(PlanPicture, ShadingIsDarkerNearerTheStart) {
  SvgCanvas canvas = layered_canvas();
  canvas.group("expanded");
  draw_shaded(canvas, {{{0, 0}, {1, 0}, {1, 1}}, {{2, 2}, {3, 2}, {3, 3}}}, {0.0, 1.0}, {{5, 5}},
              {0.5});
  const std::string svg = canvas.str();
  ASSERT_EQ(test::check_xml(svg).problem, "");
  EXPECT_NE(svg.find("fill-opacity=\"0.6\""), std::string::npos);   // at the start
  EXPECT_NE(svg.find("fill-opacity=\"0.15\""), std::string::npos);  // at the bound
  EXPECT_EQ(count(svg, "<circle"), 1u);
}

TEST(SvgText, ShortNumbersForLabels) {
  EXPECT_EQ(svg_short_number(0.25), "0.25");
  EXPECT_EQ(svg_short_number(3.14159), "3.142");
  EXPECT_EQ(svg_short_number(12500.4), "12500");
  EXPECT_EQ(svg_short_number(-0.0), "0");
  EXPECT_EQ(svg_short_number(2), "2");
}

TEST(SvgText, WidthCountsCharactersNotBytes) {
  EXPECT_DOUBLE_EQ(svg_text_width("abc", 10), 18);
  EXPECT_DOUBLE_EQ(svg_text_width("\u00d72", 10), 12);  // two characters, three bytes
  EXPECT_DOUBLE_EQ(svg_text_width("", 10), 0);
}

}  // namespace
}  // namespace polynav
