// ROS map_server maps (ros_map.hpp).

#include "ros_map.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "document.hpp"
#include "polynav/error.hpp"
#include "polynav/number.hpp"
#include "polynav/text.hpp"
#include "readers.hpp"
#include "vectorise.hpp"

namespace polynav::detail {

OccupancyMap::Cell classify_ros_pixel(const Image& image, std::size_t pixel,
                                      const RosMapParameters& parameters) {
  using Cell = OccupancyMap::Cell;
  const std::uint16_t* s = image.samples.data() + pixel * std::size_t(image.channels);
  const double full = image.max_value;
  // The colour channels' sum and count, grey counting as red, green and blue alike.
  const bool colour = image.channels >= 3;
  const double colour_sum = colour ? double(s[0]) + s[1] + s[2] : 3.0 * s[0];
  const double alpha = image.has_alpha() ? s[image.channels - 1] : full;

  switch (parameters.mode) {
    case RosMapMode::trinary: {
      const double mean = image.has_alpha() ? (colour_sum + alpha) / 4.0 : colour_sum / 3.0;
      const double p = parameters.negate ? mean / full : (full - mean) / full;
      if (p > parameters.occupied_thresh) return Cell::occupied;
      if (p < parameters.free_thresh) return Cell::free;
      return Cell::unknown;
    }
    case RosMapMode::scale: {
      if (alpha < full) return Cell::unknown;
      const double mean = colour_sum / 3.0;
      const double p = parameters.negate ? mean / full : (full - mean) / full;
      if (p > parameters.occupied_thresh) return Cell::occupied;
      // Below free_thresh is free (0); between the thresholds a graded value from 1 to 99.
      return Cell::free;
    }
    case RosMapMode::raw: {
      const double value = std::round(255.0 * (colour_sum / 3.0) / full);
      if (value == 100.0) return Cell::occupied;
      if (value < 100.0) return Cell::free;
      return Cell::unknown;
    }
  }
  return Cell::unknown;
}

namespace {

struct MapFile {
  RosMapParameters parameters;
  InputLocation image_at;
  // One sentence per key map_server does not read (Scene::unused).
  std::vector<std::string> unused;
};

// The keys map_server reads (Nav2's map_io reads the same ones); any other key it ignores.
constexpr std::string_view map_keys[] = {"image",           "resolution",  "origin", "negate",
                                         "occupied_thresh", "free_thresh", "mode"};

class RosMapReader : public DocumentReader {
 public:
  using DocumentReader::DocumentReader;

  MapFile read() const {
    const Item top_item = root();
    if (kind(top_item.node) != Kind::map) {
      fail(top_item,
           "a ROS map file must be a map with image:, resolution:, origin:, negate:, "
           "occupied_thresh:, free_thresh: and optional mode:, got " +
               kind_of(top_item.node));
    }
    // map_server reads the keys it knows and ignores the rest (map_saver's own files carry
    // none, but maps written by hand or by other tools often do), so a map it loads loads here
    // too; each ignored key is reported rather than dropped silently.
    const Fields top = collect(top_item, "a ROS map file");
    MapFile m;
    RosMapParameters& p = m.parameters;
    for (const Entry& e : top.entries) {
      if (is_map_key(e.key)) continue;
      const Item key = child(top, e);
      std::string note =
          InputLocation{file_, doc_[e.key_node].line, doc_[e.key_node].column, key.path}
              .to_string() +
          ": not used by map_server, ignored";
      if (const std::string_view near = closest_name(lower(e.key), map_keys); !near.empty()) {
        note += " (did you mean \"" + std::string(near) + "\"?)";
      }
      m.unused.push_back(std::move(note));
    }

    const Item image = need(top, "image", "the image file, relative to the map file");
    if (kind(image.node) != Kind::scalar || doc_.text(image.node).empty()) {
      fail(image, "expected the image file name, got " + kind_of(image.node));
    }
    p.image = std::string(doc_.text(image.node));
    m.image_at = at(image);

    const Item resolution = need(top, "resolution", "metres per pixel, > 0");
    p.resolution = finite(resolution, "the resolution");
    if (!(p.resolution > 0.0)) {
      fail(resolution,
           "resolution must be > 0 (metres per pixel), found " + describe(resolution.node));
    }

    const Item origin = need(top, "origin", "[x, y, yaw] of the lower-left pixel");
    if (kind(origin.node) != Kind::sequence || doc_.size(origin.node) != 3) {
      fail(origin,
           "origin must be a list of three numbers [x, y, yaw], got " + kind_of(origin.node));
    }
    const Item ox = element(origin, doc_.child(origin.node, 0), 0);
    const Item oy = element(origin, doc_.child(origin.node, 1), 1);
    const Item oyaw = element(origin, doc_.child(origin.node, 2), 2);
    p.origin = {finite(ox, "the origin's x"), finite(oy, "the origin's y")};
    p.yaw = finite(oyaw, "the origin's yaw");

    const Item negate = need(top, "negate", "0 or 1");
    const std::string_view n =
        kind(negate.node) == Kind::scalar && doc_[negate.node].style == Style::plain
            ? doc_.text(negate.node)
            : std::string_view();
    if (n == "0" || n == "false") {
      p.negate = false;
    } else if (n == "1" || n == "true") {
      p.negate = true;
    } else {
      fail(negate, "negate must be 0 or 1 (or false or true), found " + describe(negate.node));
    }

    const Item occupied = need(top, "occupied_thresh", "a probability from 0 to 1");
    p.occupied_thresh = probability(occupied, "occupied_thresh");
    const Item free = need(top, "free_thresh", "a probability from 0 to 1");
    p.free_thresh = probability(free, "free_thresh");
    if (p.free_thresh > p.occupied_thresh) {
      fail(free, "free_thresh must not be above occupied_thresh " + describe(occupied.node) +
                     " (given at " + std::to_string(occupied.line) + ":" +
                     std::to_string(occupied.column) + "), found " + describe(free.node));
    }

    if (const Entry* e = top.find("mode")) {
      const Item mode = child(top, *e);
      const std::string text =
          kind(mode.node) == Kind::scalar ? std::string(doc_.text(mode.node)) : std::string();
      static constexpr std::string_view modes[] = {"trinary", "scale", "raw"};
      if (text == "trinary") {
        p.mode = RosMapMode::trinary;
      } else if (text == "scale") {
        p.mode = RosMapMode::scale;
      } else if (text == "raw") {
        p.mode = RosMapMode::raw;
      } else {
        std::string message = "unknown mode " + describe(mode.node);
        if (const std::string_view near = closest_name(lower(text), modes); !near.empty()) {
          message += " (did you mean \"" + std::string(near) + "\"?)";
        }
        fail(mode, message + "; the modes are trinary (the default), scale and raw");
      }
    }
    return m;
  }

 private:
  static bool is_map_key(std::string_view key) {
    return std::find(std::begin(map_keys), std::end(map_keys), key) != std::end(map_keys);
  }

  // A required key; when missing, the message names it as the key path, and points at a key
  // map_server would ignore that looks like a misspelling of it (such a key is otherwise only a
  // note, and the missing key would seem to come from nowhere).
  Item need(const Fields& top, std::string_view key, std::string_view what) const {
    const Entry* e = top.find(key);
    if (e == nullptr) {
      Item where = top.item;
      where.path = std::string(key);
      std::string message =
          "missing required key \"" + std::string(key) + "\" (" + std::string(what) + ")";
      const std::string_view wanted[] = {key};
      for (const Entry& other : top.entries) {
        if (is_map_key(other.key) || closest_name(lower(other.key), wanted).empty()) continue;
        std::string written;
        append_one_line(written, other.key, 200);
        const Node& k = doc_[other.key_node];
        message += "; did you mean \"" + std::string(key) + "\" where \"" + written +
                   "\" is written (" + std::to_string(k.line) + ":" + std::to_string(k.column) +
                   ")?";
        break;
      }
      fail(where, message);
    }
    return child(top, *e);
  }

  double probability(const Item& item, const char* key) const {
    const double v = finite(item, std::string("the ") + key);
    if (v < 0.0 || v > 1.0) {
      fail(item, std::string(key) + " must be from 0 to 1, found " + describe(item.node));
    }
    return v;
  }
};

std::string cells_name(const CellRectangle& r) {
  const auto span = [](int from, int to) {
    return from == to ? std::to_string(from) : std::to_string(from) + "-" + std::to_string(to);
  };
  return "map cells (row " + span(r.row, r.row + r.rows - 1) + ", column " +
         span(r.first, r.last - 1) + ")";
}

}  // namespace

Scene occupancy_scene(OccupancyMap map, const LoadOptions& options, const std::string& file) {
  map.unknown_free = options.unknown == UnknownCells::free;
  const std::size_t count = map.cells.size();
  CellMap mask;
  mask.width = map.width;
  mask.height = map.height;
  mask.blocked.resize(count);
  for (std::size_t i = 0; i < count; ++i)
    mask.blocked[i] = map.cells[i] == OccupancyMap::Cell::occupied ||
                      (map.cells[i] == OccupancyMap::Cell::unknown && !map.unknown_free);

  // Every point the scene gets from the map's cells goes through to_scene() (the identity when
  // the yaw is 0), so the outline, the bounds and the rectangles share their corners.
  const Rotation rotation = map.rotation();
  VectorisedCells v = vectorise_cells(mask, map.origin, map.resolution, options.simplify, rotation);

  Scene scene;
  const double x0 = map.origin.x;
  const double y0 = map.origin.y;
  const double x1 = map.origin.x + map.resolution * map.width;
  const double y1 = map.origin.y + map.resolution * map.height;
  scene.bounds = {map.to_scene({x0, y0}), map.to_scene({x1, y0}), map.to_scene({x1, y1}),
                  map.to_scene({x0, y1})};
  scene.native_cell_size = map.resolution;
  scene.free_boundary = std::move(v.free_boundary);
  const std::vector<CellRectangle> rectangles = blocked_rectangles(mask);
  std::vector<Ring> turned;
  if (!rotation.identity())
    turned = turned_rectangle_rings(mask, rectangles, map.origin, map.resolution, rotation);
  const std::string cells_source = map.image.empty() ? file : map.image.string();
  for (std::size_t i = 0; i < rectangles.size(); ++i) {
    Obstacle obstacle;
    obstacle.shape.outer = rotation.identity()
                               ? rectangle_ring(mask, rectangles[i], map.origin, map.resolution)
                               : std::move(turned[i]);
    obstacle.where = {cells_source, 0, 0, cells_name(rectangles[i])};
    scene.obstacles.push_back(std::move(obstacle));
  }
  for (std::size_t i = 0; i < v.fills.size(); ++i) {
    Obstacle obstacle;
    obstacle.shape.outer = std::move(v.fills[i]);
    obstacle.where = {file, 0, 0, "simplification fill " + std::to_string(i)};
    scene.obstacles.push_back(std::move(obstacle));
  }
  scene.occupancy = std::move(map);
  scene.vectorisation = v.report;
  return scene;
}

Scene read_ros_map(std::string_view text, const std::filesystem::path& path,
                   const LoadOptions& options) {
  const std::string file = path.string();
  const Document doc = parse_document(text, file, "map file");
  if (doc[doc.root].kind == Kind::null) {
    throw InputError({file, 0, 0, ""}, "the map file is empty");
  }
  const MapFile m = RosMapReader(doc, file).read();
  const RosMapParameters& p = m.parameters;

  std::filesystem::path image_path = p.image;
  if (image_path.is_relative()) image_path = path.parent_path() / image_path;
  Image image;
  try {
    image = read_image(image_path, max_ros_image_bytes, max_ros_map_pixels);
  } catch (const ImageError& e) {
    std::string name = reader_text::quote(p.image);
    if (image_path.string() != p.image) name += " (" + image_path.string() + ")";
    throw InputError(m.image_at, "cannot read the image " + name + ": " + e.what());
  }

  OccupancyMap map;
  map.width = image.width;
  map.height = image.height;
  map.resolution = p.resolution;
  map.origin = p.origin;
  map.yaw = p.yaw;
  map.image = image_path;
  const std::size_t count = std::size_t(map.width) * std::size_t(map.height);
  map.cells.resize(count);
  for (std::size_t i = 0; i < count; ++i) map.cells[i] = classify_ros_pixel(image, i, p);
  Scene scene = occupancy_scene(std::move(map), options, file);
  scene.name = valid_utf8(path.stem().string());
  scene.unused = m.unused;
  return scene;
}

}  // namespace polynav::detail

namespace polynav {

Scene scene_from_occupancy(OccupancyMap map, const LoadOptions& options, const std::string& name) {
  check_load_options(options);
  const auto refuse = [&](const char* key, const std::string& message) {
    throw InputError({"", 0, 0, key}, message);
  };
  if (map.width <= 0 || map.height <= 0)
    refuse("grid", "the grid is empty: " + std::to_string(map.width) + " x " +
                       std::to_string(map.height) + " cells");
  if (static_cast<long long>(map.width) * map.height > max_occupancy_cells)
    refuse("grid",
           "the grid has " + std::to_string(static_cast<long long>(map.width) * map.height) +
               " cells, more than the " + std::to_string(max_occupancy_cells) + " a map may have");
  if (map.cells.size() != std::size_t(map.width) * std::size_t(map.height))
    refuse("grid", "the grid has " + std::to_string(map.cells.size()) + " cells, not " +
                       std::to_string(map.width) + " x " + std::to_string(map.height));
  if (!std::isfinite(map.resolution) || !(map.resolution > 0.0))
    refuse("resolution",
           "must be a finite number > 0 (metres per cell), found " + shortest_text(map.resolution));
  if (!std::isfinite(map.origin.x) || !std::isfinite(map.origin.y))
    refuse("origin", "must be finite, found (" + shortest_text(map.origin.x) + ", " +
                         shortest_text(map.origin.y) + ")");
  if (!std::isfinite(map.yaw)) refuse("yaw", "must be finite, found " + shortest_text(map.yaw));
  map.image.clear();
  Scene scene = detail::occupancy_scene(std::move(map), options, name);
  scene.name = name;
  check_scale(scene);
  return scene;
}

}  // namespace polynav
