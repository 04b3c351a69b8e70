#pragma once
// ROS map_server maps: a YAML map file naming an image, read with map_server's semantics
// (http://wiki.ros.org/map_server, "YAML format" and "Value Interpretation"; Nav2's
// nav2_map_server, which reads the same files, for the modes). docs/scene-format.md describes
// what polynav makes of them.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "image.hpp"
#include "polynav/scene/scene.hpp"

namespace polynav::detail {

enum class RosMapMode { trinary, scale, raw };

// The map file's keys, checked.
struct RosMapParameters {
  std::string image;
  double resolution = 0.0;
  Point origin;
  double yaw = 0.0;  // radians, counter-clockwise about the origin
  bool negate = false;
  double occupied_thresh = 0.65;
  double free_thresh = 0.196;
  RosMapMode mode = RosMapMode::trinary;
};

// How map_server reads pixel `pixel` of `image` (row-major from the top), as the cell value it
// publishes would be read by a planner: occupied (100), free (0, and the graded values 1 to 99 of
// the scale and raw modes, which Nav2's static costmap layer treats as free with its defaults) or
// unknown (-1).
//
// The pixel's shade is the mean of its channels over the image's full intensity (grey counts as
// red, green and blue alike); in trinary mode an alpha channel is averaged in as a fourth
// channel. Its occupancy is p = 1 - shade, or shade with `negate`. Trinary: p > occupied_thresh
// is occupied, p < free_thresh free, anything else unknown. Scale: a pixel that is not fully
// opaque is unknown; otherwise as trinary but between the thresholds graded. Raw: the value is
// round(255 * shade) (negate does not apply, as in Nav2); 100 is occupied, 0 to 99 free, above
// 100 unknown.
OccupancyMap::Cell classify_ros_pixel(const Image& image, std::size_t pixel,
                                      const RosMapParameters& parameters);

// Reads a ROS map file whose text is `text` (the file is `path`; its image is found relative to
// it). Throws InputError with file:line:column and the key for problems in the map file, and at
// the `image` key for an image that is missing, unreadable, of an unknown format or of a bad size.
Scene read_ros_map(std::string_view text, const std::filesystem::path& path,
                   const LoadOptions& options);

// The scene of an occupancy map whose cells are classified (map.unknown_free is set from
// options.unknown): its bounds, the blocked cells as rectangles (located in map.image, else in
// `file`) plus the simplification's fills, and the traced free boundary. The map's fields are
// taken as valid (read_ros_map and scene_from_occupancy check them).
Scene occupancy_scene(OccupancyMap map, const LoadOptions& options, const std::string& file);

// The largest image accepted, in pixels (as for MovingAI maps: 8192 x 8192).
inline constexpr long long max_ros_map_pixels = max_occupancy_cells;
inline constexpr std::size_t max_ros_image_bytes = std::size_t{1} << 30;

}  // namespace polynav::detail
