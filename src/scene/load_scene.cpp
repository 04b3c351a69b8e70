// load_scene: one entry point for every scene file, choosing the reader by extension.

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

#include "polygon_files.hpp"
#include "polynav/number.hpp"
#include "polynav/scene/scene.hpp"
#include "readers.hpp"
#include "ros_map.hpp"
#include "validate.hpp"
#include "vectorise.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& path, const std::string& message) {
  throw InputError({path.string(), 0, 0, ""}, message);
}

// The whole file, refusing anything larger than `limit` bytes before reading it.
std::string read_text(const fs::path& path, std::size_t limit) {
  return reader_text::read_file(path, limit);
}

// ROS map_server maps are YAML too. Map files are written in block style, one key per line; a
// file whose top-level keys include one of a map file's and not the `version` every native scene
// has is read as a map file (so that a map file missing a key is told which).
bool looks_like_ros_map(std::string_view text) {
  static constexpr std::string_view map_keys[] = {
      "image", "resolution", "origin", "negate", "occupied_thresh", "free_thresh", "mode"};
  bool map_key = false;
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t to = text.find('\n', from);
    if (to == std::string_view::npos) to = text.size();
    std::string_view line = text.substr(from, to - from);
    from = to + 1;
    // A top-level key: at the start of the line, plain or double-quoted, then a colon.
    const bool quoted = line.starts_with('"');
    if (quoted) line.remove_prefix(1);
    std::size_t end = 0;
    while (end < line.size() &&
           (std::isalnum(static_cast<unsigned char>(line[end])) != 0 || line[end] == '_')) {
      ++end;
    }
    const std::string_view key = line.substr(0, end);
    std::string_view rest = line.substr(end);
    if (quoted) {
      if (!rest.starts_with('"')) continue;
      rest.remove_prefix(1);
    }
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (key.empty() || !rest.starts_with(':')) continue;
    if (key == "version") return false;
    map_key =
        map_key || std::find(std::begin(map_keys), std::end(map_keys), key) != std::end(map_keys);
  }
  return map_key;
}

Scene read_native(const fs::path& path, const LoadOptions& options) {
  const std::string text = read_text(path, detail::max_native_scene_bytes);
  if (looks_like_ros_map(text)) return detail::read_ros_map(text, path, options);
  return parse_native_scene(text, path.string(), options.max_points, options.repair);
}

Scene read_map(const fs::path& path, const LoadOptions& options) {
  Scene scene = read_movingai_map(path);
  detail::simplify_scene_boundary(scene, options.simplify, path.string());
  return scene;
}

Scene read_mesh(const fs::path& path, const LoadOptions&) {
  return read_polyanya_mesh(path);
}

Scene read_wkt(const fs::path& path, const LoadOptions& options) {
  return detail::parse_wkt_scene(read_text(path, detail::max_native_scene_bytes), path.string(),
                                 options.repair);
}

Scene read_geojson(const fs::path& path, const LoadOptions& options) {
  return detail::parse_geojson_scene(read_text(path, detail::max_native_scene_bytes), path.string(),
                                     options.repair);
}

struct Reader {
  std::string_view extension;  // lower case, with the dot
  std::string_view format;
  Scene (*read)(const fs::path&, const LoadOptions&);
};

// Readers for other formats (MovingAI .map, Polyanya .mesh, declared in readers.hpp) are added
// to this table; the error for an unknown extension lists whatever it holds.
constexpr Reader readers[] = {
    {".yaml", "native scene or ROS map", read_native},
    {".yml", "native scene or ROS map", read_native},
    {".json", "native scene", read_native},
    {".map", "MovingAI grid map", read_map},
    {".mesh", "Polyanya navigation mesh", read_mesh},
    {".wkt", "WKT polygons", read_wkt},
    {".geojson", "GeoJSON polygons", read_geojson},
};

std::string supported_extensions() {
  std::string s;
  for (const Reader& r : readers) {
    if (!s.empty()) s += ", ";
    s += std::string(r.extension) + " (" + std::string(r.format) + ")";
  }
  return s;
}

// The file's extension in lower case, with the dot ("" when it has none).
std::string lower_extension(const fs::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

// The reader of the file's extension, or nullptr.
const Reader* reader_of(const fs::path& path) {
  const std::string extension = lower_extension(path);
  const auto reader = std::find_if(std::begin(readers), std::end(readers),
                                   [&](const Reader& r) { return r.extension == extension; });
  return reader == std::end(readers) ? nullptr : reader;
}

}  // namespace

bool has_scene_extension(const fs::path& path) {
  return reader_of(path) != nullptr;
}

UnknownCells parse_unknown_cells(std::string_view name, std::string_view key) {
  return from_name(unknown_cells_names, name, key, "reading of unknown cells");
}

void check_load_options(const LoadOptions& options, std::string_view simplify_key,
                        std::string_view max_points_key) {
  if (!(options.simplify >= 0.0) || !std::isfinite(options.simplify)) {
    throw InputError({"", 0, 0, std::string(simplify_key)},
                     "the simplification tolerance must be a finite number >= 0, found " +
                         shortest_text(options.simplify));
  }
  if (options.max_points < 1) {
    throw InputError({"", 0, 0, std::string(max_points_key)},
                     "the most points a native scene may hold must be at least 1, found " +
                         std::to_string(options.max_points));
  }
}

void check_agent_radius(double radius, std::string_view key) {
  if (!(radius >= 0.0) || !std::isfinite(radius)) {
    throw InputError(
        {"", 0, 0, std::string(key)},
        "the agent radius must be a finite number >= 0, found " + shortest_text(radius));
  }
  if (radius > ScaleLimits::max_coordinate) {
    throw InputError({"", 0, 0, std::string(key)},
                     "the radius " + shortest_text(radius) +
                         " is beyond the largest magnitude polynav plans in (2^50)");
  }
}

Scene load_scene(const fs::path& path, const LoadOptions& options) {
  check_load_options(options);
  const Reader* reader = reader_of(path);
  if (reader == nullptr) {
    const std::string extension = lower_extension(path);
    fail(path, (extension.empty() ? std::string("the file name has no extension")
                                  : "unknown scene file extension \"" + extension + "\"") +
                   "; supported: " + supported_extensions());
  }
  Scene scene = reader->read(path, options);
  scene.source = path;
  check_scale(scene);
  return scene;
}

}  // namespace polynav
