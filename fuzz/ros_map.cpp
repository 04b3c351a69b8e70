// ROS map_server maps: read_ros_map() on a map file and its image. The input is the map file's
// text, optionally followed by a line `#image` and the image's bytes (PGM, PNG or BMP), which are
// written to `map.img` next to where the map file would be; without that line `map.img` is a
// small fixed PGM. Load options (unknown cells, simplification) are drawn from the input. On
// small maps the free space is built and checked against the classified cells: a blocked cell's
// centre (turned into the scene by the map's yaw) is never free, and without simplification a
// free cell's centre always is.
//
// The map file may name any image; so that the fuzzer reads nothing but `map.img` and its own
// directory, texts with '/' or '\' (absolute paths, escapes in quoted strings) are skipped.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "fuzz_target.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/ros_map.hpp"

namespace {

namespace fs = std::filesystem;

// A 4 x 3 binary PGM: free, occupied and unknown pixels.
constexpr std::string_view fixed_image(
    "P5\n4 3\n255\n"
    "\xfe\xfe\xfe\xfe"
    "\xfe\x00\x00\xfe"
    "\xfe\xcd\xfe\xfe",
    23);

// A directory of this process's own, removed at exit.
struct Directory {
  fs::path path = fs::temp_directory_path() / ("polynav-fuzz-ros-" + std::to_string(getpid()));
  Directory() { fs::create_directories(path); }
  ~Directory() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void write(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace polynav;
  static const Directory directory;
  const std::string_view input = fuzz::as_text(data, size);
  constexpr std::string_view marker = "\n#image\n";
  const std::size_t split = input.find(marker);
  const std::string text(
      input.substr(0, split == std::string_view::npos ? input.size() : split + 1));
  if (text.find_first_of("/\\") != std::string::npos) return 0;
  write(directory.path / "map.img",
        split == std::string_view::npos ? fixed_image : input.substr(split + marker.size()));

  const std::uint64_t hash = fuzz::input_hash(input);
  LoadOptions options;
  options.unknown = hash % 2 == 0 ? UnknownCells::blocked : UnknownCells::free;
  constexpr double tolerances[] = {0.0, 0.0, 0.1, 0.5};
  options.simplify = tolerances[(hash >> 1) % 4];
  const fs::path file = directory.path / "fuzz.yaml";
  fuzz::read_or_refuse(file.string(), text, [&] {
    const Scene scene = detail::read_ros_map(text, file, options);
    fuzz::check(scene.occupancy.has_value());
    const OccupancyMap& map = *scene.occupancy;
    if (std::size_t(map.width) * std::size_t(map.height) > 16384) return;
    const FreeSpace space(scene);
    for (int cy = 0; cy < map.height; ++cy) {
      for (int cx = 0; cx < map.width; ++cx) {
        const Box box = map.cell_box(cx, cy);
        const Point middle = 0.5 * (box.min + box.max);
        if (!(box.min.x < middle.x && middle.x < box.max.x && box.min.y < middle.y &&
              middle.y < box.max.y)) {
          continue;  // a cell too small for its coordinates to have an inside
        }
        // The cell's centre in the scene: a map with a yaw is turned about its origin.
        const Point centre = map.to_scene(middle);
        const OccupancyMap::Cell cell = map.at(cx, cy);
        const bool blocked = cell == OccupancyMap::Cell::occupied ||
                             (cell == OccupancyMap::Cell::unknown && !map.unknown_free);
        const bool free = space.is_free(centre);
        fuzz::check(blocked ? !free : (free || options.simplify > 0.0));
      }
    }
  });
  return 0;
}
