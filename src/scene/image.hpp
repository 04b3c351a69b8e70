#pragma once
// Raster images for ROS map_server maps: PGM (Netpbm, binary P5 and plain P2) read here, PNG and
// BMP through stb_image. The format is told by the file's first bytes, not by its name. PGM is
// read here rather than by stb_image because stb_image reads no plain (P2) data and keeps samples
// as they are instead of scaling them by the maxval; here the maxval is the full intensity.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace polynav::detail {

struct Image {
  int width = 0;
  int height = 0;
  /// 1 grey, 2 grey and alpha, 3 red green blue, 4 red green blue alpha.
  int channels = 1;
  /// The value of full intensity (and of an opaque alpha): 255, or a PGM's maxval (1 to 65535).
  int max_value = 255;
  /// Row-major from the top row, channels interleaved: samples[(y * width + x) * channels + c].
  std::vector<std::uint16_t> samples;
  std::string format;  ///< for messages: "PGM (P5)", "PNG", ...

  bool has_alpha() const { return channels == 2 || channels == 4; }
};

/// What is wrong with an image, as a message without location (the map file's reader says where
/// the image was named).
class ImageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Decodes an image held in memory; `max_pixels` bounds width * height, checked before the
/// pixels are allocated. Throws ImageError.
Image decode_image(std::string_view bytes, long long max_pixels);

/// Reads and decodes an image file (at most `max_bytes` long). Throws ImageError.
Image read_image(const std::filesystem::path& path, std::size_t max_bytes, long long max_pixels);

}  // namespace polynav::detail
