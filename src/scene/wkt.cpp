// WKT polygons as a scene (polygon_files.hpp). Format: OGC 06-103r4, "Simple Feature Access -
// Part 1: Common Architecture", section 7 (well-known text). The text is split into geometries
// and every position is read as two finite numbers (polynav::parse_number), so that a message can
// point at the line and column at fault (read_wkt reports problems without a position and reads
// "0 0 1" as more than one point). Boost.Geometry's read_wkt then reads the structure (polygons,
// rings) from a copy whose numbers are all 0, and the numbers read here are filled in: its own
// number conversion (boost::lexical_cast) follows the global C++ locale.

#include <boost/geometry/geometries/multi_polygon.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>
#include <boost/geometry/io/wkt/read.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "polygon_files.hpp"
#include "polynav/number.hpp"
#include "polynav/text.hpp"
#include "readers.hpp"
#include "repair.hpp"
#include "strict_json.hpp"
#include "validate.hpp"

namespace polynav::detail {
namespace {

namespace bg = boost::geometry;
using BgPoint = bg::model::d2::point_xy<double>;
// Closed rings, as WKT writes them; the orientation parameter does not matter for reading.
using BgPolygon = bg::model::polygon<BgPoint, false, true>;
using BgMultiPolygon = bg::model::multi_polygon<BgPolygon>;

struct Geometry {
  std::string_view text;
  std::size_t offset = 0;  // of its first character in the file
  bool multi = false;
};

class WktReader {
 public:
  WktReader(std::string_view text, std::string file, bool repair)
      : text_(text), file_(std::move(file)), repair_(repair) {}

  // Adds the obstacles to the scene (and what repairing them changed).
  void read(Scene& scene) {
    std::size_t index = 0;
    for (const Geometry& g : split()) {
      // The structure for read_wkt, and the coordinates in the order it meets them.
      std::string text(g.text);
      const std::vector<double> coordinates = read_positions(g, text);
      const InputLocation where = at(g.offset, "geometries[" + std::to_string(index) + "]");
      std::vector<BgPolygon> polygons;
      // read_wkt separates tokens by spaces only.
      std::replace_if(text.begin(), text.end(), space, ' ');
      try {
        if (g.multi) {
          BgMultiPolygon m;
          bg::read_wkt(text, m);
          polygons.assign(m.begin(), m.end());
        } else {
          BgPolygon p;
          bg::read_wkt(text, p);
          polygons.push_back(std::move(p));
        }
      } catch (const bg::read_wkt_exception& e) {
        throw InputError(where, std::string("not valid WKT: ") + e.what());
      }
      fill_coordinates(polygons, coordinates);
      for (std::size_t k = 0; k < polygons.size(); ++k) {
        std::string path = where.key_path;
        if (g.multi) {
          path += '[';
          path += std::to_string(k);
          path += ']';
        }
        add_obstacle(raw_obstacle(polygons[k], {where.file, where.line, where.column, path}),
                     repair_, scene.obstacles, scene.repairs);
      }
      ++index;
    }
  }

 private:
  InputLocation at(std::size_t offset, std::string path = {}) const {
    const TextPlace place = place_of(text_, offset);
    return {file_, place.line, place.column, std::move(path)};
  }
  [[noreturn]] void fail(std::size_t offset, const std::string& message) const {
    throw InputError(at(offset), message);
  }

  static bool space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
  static bool letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

  std::string found(std::size_t offset) const {
    if (offset >= text_.size()) return "the end of the file";
    std::size_t end = offset;
    while (end < text_.size() && end - offset < 30 && !space(text_[end])) ++end;
    return reader_text::quote(text_.substr(offset, std::max<std::size_t>(end - offset, 1)));
  }

  // The geometries in the file: a keyword, then EMPTY or a balanced list in parentheses.
  std::vector<Geometry> split() const {
    std::vector<Geometry> out;
    std::size_t i = 0;
    while (true) {
      while (i < text_.size() && (space(text_[i]) || text_[i] == ';')) ++i;
      if (i >= text_.size()) break;
      const std::size_t start = i;
      while (i < text_.size() && letter(text_[i])) ++i;
      std::string keyword(text_.substr(start, i - start));
      for (char& c : keyword) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (keyword != "POLYGON" && keyword != "MULTIPOLYGON") {
        fail(start, keyword.empty()
                        ? "expected a WKT geometry (POLYGON or MULTIPOLYGON), found " + found(start)
                        : "only POLYGON and MULTIPOLYGON geometries can be "
                          "obstacles; found " +
                              found(start));
      }
      while (i < text_.size() && space(text_[i])) ++i;
      if (i < text_.size() && letter(text_[i])) {
        std::size_t end = i;
        while (end < text_.size() && letter(text_[end])) ++end;
        std::string word(text_.substr(i, end - i));
        for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (word == "EMPTY") {
          i = end;
          continue;  // holds no polygon
        }
        fail(i, word == "Z" || word == "M" || word == "ZM"
                    ? "only 2D coordinates are read; found the dimension " + found(i)
                    : "expected '(' after " + keyword + ", found " + found(i));
      }
      if (i >= text_.size() || text_[i] != '(') {
        fail(i, "expected '(' after " + keyword + ", found " + found(i));
      }
      int depth = 0;
      for (; i < text_.size(); ++i) {
        if (text_[i] == '(') ++depth;
        if (text_[i] == ')' && --depth == 0) break;
      }
      if (depth != 0) fail(start, "the " + keyword + " starting here has unbalanced parentheses");
      ++i;
      out.push_back({text_.substr(start, i - start), start, keyword == "MULTIPOLYGON"});
    }
    return out;
  }

  // Every position (the comma-separated items of an innermost list) is two finite numbers, and
  // the nesting is as deep as the geometry needs. Returns the numbers in order and overwrites
  // each of them in `shape` (a copy of g.text) with a 0 and spaces.
  std::vector<double> read_positions(const Geometry& g, std::string& shape) const {
    std::vector<double> coordinates;
    const int want = g.multi ? 3 : 2;  // depth of the lists holding positions
    int depth = 0;
    // Inside a list of positions, after its '(' or a ',': a position must come before the next
    // ',' or ')' (read_wkt would make one up for "0 0, , 1 1").
    bool position_due = false;
    std::size_t i = 0;
    while (i < g.text.size() && g.text[i] != '(') ++i;
    for (; i < g.text.size(); ++i) {
      const char c = g.text[i];
      if ((c == ',' || c == ')') && position_due)
        fail(g.offset + i, std::string("expected a position 'x y' before this '") + c + "'");
      if (c == '(') {
        if (++depth > want)
          fail(g.offset + i, "too many '(' for a " + kind(g) + ": " + found(g.offset + i));
        position_due = depth == want;
        continue;
      }
      if (c == ')') {
        --depth;
        continue;
      }
      if (c == ',') {
        position_due = depth == want;
        continue;
      }
      if (space(c)) continue;
      position_due = false;
      if (depth != want) {
        fail(g.offset + i, "expected '(' before the coordinates of a " + kind(g) + ", found " +
                               found(g.offset + i));
      }
      // One position: numbers up to the next ',' or ')'.
      std::size_t end = i;
      while (end < g.text.size() && g.text[end] != ',' && g.text[end] != ')') ++end;
      int numbers = 0;
      std::size_t k = i;
      while (k < end) {
        while (k < end && space(g.text[k])) ++k;
        if (k >= end) break;
        std::size_t token_end = k;
        while (token_end < end && !space(g.text[token_end])) ++token_end;
        const std::string_view token = g.text.substr(k, token_end - k);
        const std::optional<double> value = parse_finite(token);
        if (!value) {
          fail(g.offset + k, "expected a finite number, found " + reader_text::quote(token));
        }
        coordinates.push_back(*value);
        std::fill(shape.begin() + std::ptrdiff_t(k), shape.begin() + std::ptrdiff_t(token_end),
                  ' ');
        shape[k] = '0';
        ++numbers;
        if (numbers > 2) {
          fail(g.offset + k,
               "a position is two numbers 'x y' (only 2D coordinates are read); "
               "found a third, " +
                   reader_text::quote(token));
        }
        k = token_end;
      }
      if (numbers < 2) {
        fail(g.offset + i, "a position is two numbers 'x y', found " + std::to_string(numbers));
      }
      i = end - 1;
    }
    return coordinates;
  }

  // The coordinates read_positions returned, into the points read_wkt made of the same text:
  // each polygon's outer ring, then its inner rings, points in the order written.
  static void fill_coordinates(std::vector<BgPolygon>& polygons,
                               const std::vector<double>& coordinates) {
    std::size_t next = 0;
    const auto fill = [&](auto& ring) {
      for (BgPoint& p : ring) {
        if (next + 2 > coordinates.size()) throw std::logic_error("WKT: more points than read");
        p.x(coordinates[next]);
        p.y(coordinates[next + 1]);
        next += 2;
      }
    };
    for (BgPolygon& polygon : polygons) {
      fill(polygon.outer());
      for (auto& inner : polygon.inners()) fill(inner);
    }
    if (next != coordinates.size()) throw std::logic_error("WKT: fewer points than read");
  }

  static std::string kind(const Geometry& g) { return g.multi ? "MULTIPOLYGON" : "POLYGON"; }

  static RawRing raw_ring(const std::vector<BgPoint>& points, InputLocation where) {
    RawRing r;
    r.where = std::move(where);
    for (const BgPoint& p : points) r.points.push_back({p.x(), p.y()});
    return r;
  }

  RawObstacle raw_obstacle(const BgPolygon& p, const InputLocation& where) const {
    const auto closed = [&](const RawRing& r) {
      if (r.points.size() < 4) {
        throw InputError(r.where,
                         "a ring needs at least 4 points (the last repeating the "
                         "first), found " +
                             std::to_string(r.points.size()));
      }
      if (!(r.points.front() == r.points.back())) {
        throw InputError(r.where, "the ring is not closed: its last point must equal its first");
      }
      return r;
    };
    const RawRing outer = closed(
        raw_ring(p.outer(), {where.file, where.line, where.column, where.key_path + ".exterior"}));
    std::vector<RawRing> holes;
    for (std::size_t h = 0; h < p.inners().size(); ++h) {
      holes.push_back(closed(
          raw_ring(p.inners()[h], {where.file, where.line, where.column,
                                   where.key_path + ".interiors[" + std::to_string(h) + "]"})));
    }
    return {outer, std::move(holes), where};
  }

  std::string_view text_;
  std::string file_;
  bool repair_;
};

}  // namespace

Scene parse_wkt_scene(std::string_view text, const std::string& file_name, bool repair) {
  if (text.size() > max_native_scene_bytes) {
    throw InputError({file_name, 0, 0, ""}, "the file is " + std::to_string(text.size() >> 20) +
                                                " MiB; WKT files may be at most " +
                                                std::to_string(max_native_scene_bytes >> 20) +
                                                " MiB");
  }
  Scene scene;
  scene.name = valid_utf8(std::filesystem::path(file_name).stem().string());
  WktReader(text, file_name, repair).read(scene);
  Box box;
  for (const Obstacle& o : scene.obstacles) box.expand(bounding_box(o.shape.outer));
  if (box.empty()) {
    throw InputError({file_name, 0, 0, ""},
                     "the file holds no polygons: expected POLYGON or MULTIPOLYGON geometries");
  }
  const double m = polygon_margin(box);
  scene.bounds = {{box.min.x - m, box.min.y - m},
                  {box.max.x + m, box.min.y - m},
                  {box.max.x + m, box.max.y + m},
                  {box.min.x - m, box.max.y + m}};
  return scene;
}

}  // namespace polynav::detail
