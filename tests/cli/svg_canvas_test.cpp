// The SVG canvas on its own: the world-to-pixel transform, escaping, numbers, groups, and
// well-formed output. Scene drawing is exercised end to end through `polynav render`.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "cli/xml_check.hpp"
#include "polynav/io/svg.hpp"

namespace polynav {
namespace {

constexpr double eps = 1e-9;

void expect_point(Point actual, Point expected) {
  EXPECT_NEAR(actual.x, expected.x, eps);
  EXPECT_NEAR(actual.y, expected.y, eps);
}

TEST(SvgCanvas, MapsWorldCornersToTheMarginsWithYUp) {
  const Box world{{-10, 5}, {30, 25}};  // 40 x 20
  const SvgLayout layout{.width = 440, .margin = 20};
  const SvgCanvas canvas(world, layout);
  const double scale = (layout.width - 2 * layout.margin) / world.width();
  EXPECT_NEAR(canvas.scale(), scale, eps);
  EXPECT_NEAR(canvas.width(), layout.width, eps);
  EXPECT_NEAR(canvas.height(), 2 * layout.margin + world.height() * scale, eps);

  const double left = layout.margin;
  const double right = layout.width - layout.margin;
  const double top = layout.margin;
  const double bottom = canvas.height() - layout.margin;
  // y is flipped: the world's bottom edge is at the bottom of the picture.
  expect_point(canvas.to_pixel(world.min), {left, bottom});
  expect_point(canvas.to_pixel(world.max), {right, top});
  expect_point(canvas.to_pixel({world.min.x, world.max.y}), {left, top});
  expect_point(canvas.to_pixel({world.max.x, world.min.y}), {right, bottom});
  EXPECT_LT(canvas.to_pixel({0, 10}).y, canvas.to_pixel({0, 9}).y);
}

TEST(SvgCanvas, HeaderAndFooterShiftTheDrawingArea) {
  const Box world{{0, 0}, {10, 10}};
  const SvgLayout layout{.width = 300, .margin = 10, .header = 40, .footer = 30};
  const SvgCanvas canvas(world, layout);
  const Box plot = canvas.plot_area();
  expect_point(canvas.to_pixel({0, 10}), {layout.margin, layout.header + layout.margin});
  expect_point(canvas.to_pixel({10, 0}),
               {layout.width - layout.margin, canvas.height() - layout.footer - layout.margin});
  expect_point(plot.min, canvas.to_pixel({0, 10}));
  expect_point(plot.max, canvas.to_pixel({10, 0}));
  EXPECT_NEAR(canvas.header_area().height(), layout.header, eps);
  EXPECT_NEAR(canvas.footer_area().height(), layout.footer, eps);
  EXPECT_NEAR(canvas.footer_area().max.y, canvas.height(), eps);
}

TEST(SvgCanvas, ToWorldInvertsToPixel) {
  const SvgCanvas canvas({{3, -7}, {11, 2}}, {.width = 517, .margin = 13, .header = 9});
  for (const Point p : {Point{3, -7}, Point{11, 2}, Point{4.25, 0.5}, Point{-100, 100}}) {
    expect_point(canvas.to_world(canvas.to_pixel(p)), p);
  }
}

TEST(SvgCanvas, KeepsAspectRatioAndCentresWhenHeightIsLimited) {
  const Box tall{{0, 0}, {10, 100}};
  const SvgLayout layout{.width = 400, .margin = 20, .max_height = 440};
  const SvgCanvas canvas(tall, layout);
  EXPECT_NEAR(canvas.height(), layout.max_height, eps);
  const Box plot = canvas.plot_area();
  // Same scale along both axes.
  EXPECT_NEAR(plot.width() / tall.width(), plot.height() / tall.height(), eps);
  EXPECT_NEAR(plot.min.y, layout.margin, eps);
  EXPECT_NEAR(plot.max.y, layout.max_height - layout.margin, eps);
  // Centred horizontally between the margins.
  EXPECT_NEAR(plot.min.x - layout.margin, layout.width - layout.margin - plot.max.x, eps);
}

TEST(SvgCanvas, FlatOrEmptyWorldBoxesStayFinite) {
  for (const Box& b : {Box{}, Box{{2, 3}, {2, 3}}, Box{{0, 1}, {10, 1}}, Box{{4, 0}, {4, 8}}}) {
    const SvgCanvas canvas(b);
    EXPECT_TRUE(std::isfinite(canvas.scale()) && canvas.scale() > 0);
    EXPECT_TRUE(std::isfinite(canvas.height()) && canvas.height() > 0);
    const Point p = canvas.to_pixel(b.empty() ? Point{0, 0} : b.min);
    EXPECT_TRUE(std::isfinite(p.x) && std::isfinite(p.y));
  }
}

TEST(SvgCanvas, RejectsLayoutsWithoutRoom) {
  EXPECT_THROW(SvgCanvas({{0, 0}, {1, 1}}, {.width = 40, .margin = 20}), std::invalid_argument);
  EXPECT_THROW(SvgCanvas({{0, 0}, {1, 1}}, {.width = NAN}), std::invalid_argument);
  EXPECT_THROW(SvgCanvas({{0, 0}, {1, 1}}, {.width = 100, .margin = -1}), std::invalid_argument);
}

TEST(SvgEscape, EscapesMarkupCharacters) {
  EXPECT_EQ(svg_escape("a<b>&\"c'd"), "a&lt;b&gt;&amp;&quot;c&apos;d");
  EXPECT_EQ(svg_escape("&amp;"), "&amp;amp;");
  EXPECT_EQ(svg_escape("plain text"), "plain text");
}

TEST(SvgEscape, ReplacesControlCharactersAndKeepsUtf8) {
  EXPECT_EQ(svg_escape("a\tb\nc\x01"), "a b c ");
  EXPECT_EQ(svg_escape("cost \u00d72 \u2014 r\u00e9gion"), "cost \u00d72 \u2014 r\u00e9gion");
}

// Names taken from file names need not be UTF-8; XML must be (polynav/text.hpp: U+FFFD).
TEST(SvgEscape, ReplacesWhatIsNotUtf8OrAnXmlCharacter) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(svg_escape("bad\xFF.yaml"), "bad" + fffd + ".yaml");
  EXPECT_EQ(svg_escape("cut \xE2\x82<"), "cut " + fffd + "&lt;");
  EXPECT_EQ(svg_escape("\xED\xA0\x80"), fffd + fffd + fffd);
  EXPECT_EQ(svg_escape("no\xEF\xBF\xBEn\xEF\xBF\xBF"), "no" + fffd + "n" + fffd);
}

TEST(SvgCanvas, TextThatIsNotUtf8GivesWellFormedXml) {
  SvgCanvas canvas(Box{{0, 0}, {10, 10}});
  canvas.set_title("bad\xFF\x01");
  canvas.group("labels\xC3");
  canvas.text({5, 5}, "a\xF0\x9F\x98 & \xFE", {});
  canvas.polygon(Polygon{{{0, 0}, {1, 0}, {1, 1}}, {}}, {.fill = "#000"}, "tip\xC0\xAF");
  const auto check = test::check_xml(canvas.str());
  EXPECT_EQ(check.problem, "");
}

TEST(SvgNumber, IsCompactAndRounded) {
  EXPECT_EQ(svg_number(2.0, 2), "2");
  EXPECT_EQ(svg_number(1.5, 2), "1.5");
  EXPECT_EQ(svg_number(1234.5678, 2), "1234.57");
  EXPECT_EQ(svg_number(0.125, 3), "0.125");
  EXPECT_EQ(svg_number(-0.001, 2), "0");
  EXPECT_EQ(svg_number(-3.25, 2), "-3.25");
  EXPECT_EQ(svg_number(100.0, 0), "100");
  EXPECT_EQ(svg_number(1e6, 2), "1000000");
  EXPECT_EQ(svg_number(NAN, 2), "0");
}

TEST(SvgCanvas, TextIsEscapedInTheDocument) {
  SvgCanvas canvas(Box{{0, 0}, {10, 10}});
  canvas.set_title("A & B");
  canvas.group("labels");
  canvas.text({5, 5}, "<b>fish & \"chips\"</b>", {});
  const std::string svg = canvas.str();
  EXPECT_NE(svg.find("&lt;b&gt;fish &amp; &quot;chips&quot;&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(svg.find("<title>A &amp; B</title>"), std::string::npos);
  const auto check = test::check_xml(svg);
  EXPECT_EQ(check.problem, "");
}

TEST(SvgCanvas, GroupsKeepTheirOrderAndEmptyOnesAreLeftOut) {
  SvgCanvas canvas(Box{{0, 0}, {10, 10}});
  canvas.group("below");
  canvas.line({0, 0}, {10, 10}, {.stroke = "#000"});
  canvas.group("above");
  canvas.line({0, 10}, {10, 0}, {.stroke = "#000"});
  canvas.group("empty");
  canvas.insert_group("middle", "above");
  canvas.group("middle");
  canvas.marker({5, 5}, SvgMarker::circle, 8, {.fill = "#f00"});
  canvas.group("below");  // selecting an existing group appends to it
  canvas.marker({1, 1}, SvgMarker::square, 8, {.fill = "#00f"});

  EXPECT_EQ(canvas.group_ids(), (std::vector<std::string>{"below", "middle", "above", "empty"}));
  const auto check = test::check_xml(canvas.str());
  ASSERT_EQ(check.problem, "");
  EXPECT_EQ(check.root, "svg");
  EXPECT_EQ(check.group_ids, (std::vector<std::string>{"below", "middle", "above"}));
}

TEST(SvgCanvas, StrokeWidthsArePixelsWhateverTheScale) {
  for (const double size : {1.0, 1000.0}) {
    SvgCanvas canvas(Box{{0, 0}, {size, size}});
    canvas.line({0, 0}, {size, size}, {.stroke = "#000", .stroke_width = 1.5});
    EXPECT_NE(canvas.str().find("stroke-width=\"1.5\""), std::string::npos) << size;
  }
}

TEST(SvgCanvas, PolygonsWithHolesUseEvenOdd) {
  SvgCanvas canvas({{0, 0}, {10, 10}}, {.width = 120, .margin = 10});
  const Polygon square{{{0, 0}, {10, 0}, {10, 10}, {0, 10}}, {{{4, 4}, {4, 6}, {6, 6}, {6, 4}}}};
  canvas.group("shapes");
  canvas.polygon(square, {.fill = "#888"}, "a square with a hole");
  const std::string svg = canvas.str();
  EXPECT_NE(svg.find("fill-rule=\"evenodd\""), std::string::npos);
  // Two subpaths, each closed; scale 10 and margin 10 put the world origin at (10, 110).
  EXPECT_NE(svg.find("M10 110L110 110 110 10 10 10Z"), std::string::npos) << svg;
  EXPECT_EQ(std::count(svg.begin(), svg.end(), 'Z'), 2);
  EXPECT_NE(svg.find("<title>a square with a hole</title>"), std::string::npos);
  EXPECT_EQ(test::check_xml(svg).problem, "");
}

TEST(SvgCanvas, DefinitionsAndClipsAreWellFormed) {
  SvgCanvas canvas(Box{{0, 0}, {10, 10}});
  canvas.define_clip("clip", {{{0, 0}, {10, 0}, {10, 10}}});
  canvas.define_hatch("hatch", "#333", 6, 1, 45);
  canvas.clip_group("shapes", "clip");
  canvas.group("shapes");
  canvas.rings({{{1, 1}, {9, 1}, {5, 9}}}, {.fill = "url(#hatch)"});
  canvas.polyline({{0, 0}, {5, 5}, {10, 0}}, {.stroke = "#000", .dash = {4, 2}});
  for (const SvgMarker m : {SvgMarker::circle, SvgMarker::square, SvgMarker::diamond,
                            SvgMarker::triangle, SvgMarker::cross}) {
    canvas.marker({5, 5}, m, 10, {.fill = "#123456", .stroke = "#fff"}, "marker");
  }
  const std::string svg = canvas.str();
  EXPECT_NE(svg.find("<g id=\"shapes\" clip-path=\"url(#clip)\">"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray=\"4 2\""), std::string::npos);
  EXPECT_EQ(test::check_xml(svg).problem, "");
}

}  // namespace
}  // namespace polynav
