// Images for ROS maps (image.hpp). PGM follows the Netpbm specification
// (https://netpbm.sourceforge.net/doc/pgm.html): a magic number (P5 binary, P2 plain), width,
// height and maxval as decimal numbers separated by whitespace, with `#` comments to the end of a
// line anywhere before maxval, then exactly one whitespace character and the raster, one sample
// per pixel, row by row from the top (binary samples are one byte below maxval 256, else two,
// most significant first). PNG and BMP are decoded by stb_image (Sean Barrett, public domain),
// whose implementation is compiled in this file only.

#include "image.hpp"

#include "polynav/error.hpp"
#include "readers.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <system_error>

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_BMP
#define STBI_NO_STDIO
#define STBI_FAILURE_USERMSG
#include <stb/stb_image.h>

namespace polynav::detail {
namespace {

std::string plural(long long n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// The first bytes of a file shown in a message, printable characters as they are.
std::string shown(std::string_view bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size() && i < 8; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return "'" + out + "'";
}

void check_size(long long width, long long height, long long max_pixels, const char* format) {
  if (width <= 0 || height <= 0) {
    throw ImageError(std::string("the ") + format + " image has no pixels (width " +
                     std::to_string(width) + ", height " + std::to_string(height) + ")");
  }
  if (width > max_pixels || height > max_pixels || width * height > max_pixels) {
    throw ImageError(
        std::string("the ") + format + " image is too large: " + std::to_string(width) + " x " +
        std::to_string(height) + " pixels, more than the limit of " + std::to_string(max_pixels));
  }
}

using reader_text::is_space;

class PgmReader {
 public:
  PgmReader(std::string_view bytes, long long max_pixels) : s_(bytes), max_pixels_(max_pixels) {}

  Image read() {
    const bool plain = s_[1] == '2';
    pos_ = 2;
    Image image;
    image.format = plain ? "PGM (P2)" : "PGM (P5)";
    const long long width = header_number("width");
    const long long height = header_number("height");
    check_size(width, height, max_pixels_, image.format.c_str());
    const long long maxval = header_number("maxval");
    if (maxval < 1 || maxval > 65535) {
      throw ImageError("the PGM maxval must be from 1 to 65535, found " + std::to_string(maxval));
    }
    image.width = int(width);
    image.height = int(height);
    image.channels = 1;
    image.max_value = int(maxval);
    const std::size_t count = std::size_t(width) * std::size_t(height);
    image.samples.resize(count);
    if (plain) {
      read_plain(image, count);
    } else {
      read_binary(image, count);
    }
    return image;
  }

 private:
  void skip_space_and_comments() {
    while (pos_ < s_.size()) {
      if (is_space(s_[pos_])) {
        ++pos_;
      } else if (s_[pos_] == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n' && s_[pos_] != '\r') ++pos_;
      } else {
        break;
      }
    }
  }

  long long header_number(const char* what) {
    const std::size_t before = pos_;
    skip_space_and_comments();
    if (pos_ == before && pos_ < s_.size()) {
      throw ImageError(std::string("the PGM header needs whitespace before its ") + what +
                       ", found " + shown(s_.substr(pos_, 8)));
    }
    const std::size_t start = pos_;
    long long value = 0;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      value = value * 10 + (s_[pos_] - '0');
      if (value > std::numeric_limits<int>::max()) {
        throw ImageError(std::string("the PGM ") + what + " is too large");
      }
      ++pos_;
    }
    if (pos_ == start) {
      throw ImageError(std::string("the PGM header ends before its ") + what +
                       (pos_ < s_.size()
                            ? ": expected a decimal number, found " + shown(s_.substr(pos_, 8))
                            : std::string(" (the file is truncated)")));
    }
    if (pos_ < s_.size() && !is_space(s_[pos_]) && s_[pos_] != '#') {
      throw ImageError(std::string("the PGM ") + what + " is not a decimal number: found " +
                       shown(s_.substr(start, 8)));
    }
    return value;
  }

  [[noreturn]] void truncated(std::size_t pixels, const Image& image) const {
    throw ImageError("the image data ends after " +
                     plural(static_cast<long long>(pixels), "pixel") + " of the " +
                     std::to_string(image.width) + " x " + std::to_string(image.height) + " = " +
                     std::to_string(static_cast<long long>(image.width) * image.height) +
                     " the PGM header declares");
  }

  [[noreturn]] void too_bright(std::size_t i, long long value, const Image& image) const {
    throw ImageError("pixel (" + std::to_string(i % std::size_t(image.width)) + ", " +
                     std::to_string(i / std::size_t(image.width)) + ") has the value " +
                     std::to_string(value) + ", above the PGM maxval " +
                     std::to_string(image.max_value));
  }

  void read_binary(Image& image, std::size_t count) {
    // Exactly one whitespace character separates maxval from the raster.
    if (pos_ >= s_.size()) truncated(0, image);
    ++pos_;
    const std::size_t bytes = image.max_value < 256 ? 1 : 2;
    const std::size_t available = (s_.size() - pos_) / bytes;
    if (available < count) truncated(available, image);
    const auto* data = reinterpret_cast<const unsigned char*>(s_.data() + pos_);
    for (std::size_t i = 0; i < count; ++i) {
      const unsigned value = bytes == 1 ? data[i] : (unsigned(data[2 * i]) << 8) | data[2 * i + 1];
      if (value > unsigned(image.max_value)) too_bright(i, value, image);
      image.samples[i] = static_cast<std::uint16_t>(value);
    }
  }

  void read_plain(Image& image, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      skip_space_and_comments();
      if (pos_ >= s_.size()) truncated(i, image);
      const std::size_t start = pos_;
      long long value = 0;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9' && value <= 65535) {
        value = value * 10 + (s_[pos_] - '0');
        ++pos_;
      }
      if (pos_ == start || (pos_ < s_.size() && !is_space(s_[pos_]) && s_[pos_] != '#')) {
        std::size_t end = start;
        while (end < s_.size() && end - start < 8 && !is_space(s_[end])) ++end;
        throw ImageError("pixel (" + std::to_string(i % std::size_t(image.width)) + ", " +
                         std::to_string(i / std::size_t(image.width)) +
                         ") of the plain PGM is not a decimal number: found " +
                         shown(s_.substr(start, end - start)));
      }
      if (value > image.max_value) too_bright(i, value, image);
      image.samples[i] = static_cast<std::uint16_t>(value);
    }
  }

  std::string_view s_;
  long long max_pixels_;
  std::size_t pos_ = 0;
};

// stb_image reads zeros past the end of a BMP, so a file cut short decoded as a whole image (a
// file of 1,971 bytes declaring 524350 x 56 pixels gave 29 million). The rows of an uncompressed
// BMP start at the offset its header gives, each padded to a multiple of 4 bytes (the last row's
// padding may be missing); a file too short for them is refused, as a short PGM raster is.
// Called after stb_image has read the header and the size has been checked.
void check_bmp_length(std::string_view bytes, long long width, long long height) {
  const auto byte = [&](std::size_t at) { return std::uint32_t(std::uint8_t(bytes[at])); };
  const auto u16 = [&](std::size_t at) { return byte(at) | byte(at + 1) << 8; };
  const auto u32 = [&](std::size_t at) { return u16(at) | u16(at + 2) << 16; };
  if (bytes.size() < 34) return;  // headers too short for these fields are stb_image's to refuse
  const std::uint32_t offset = u32(10);
  const bool core = u32(14) == 12;  // BITMAPCOREHEADER: 16-bit sizes, no compression field
  const long long bits = core ? u16(24) : u16(28);
  const std::uint32_t compression = core ? 0 : u32(30);
  // Uncompressed, or bit fields (3, 6); stb_image refuses run-length encoding.
  if (compression != 0 && compression != 3 && compression != 6) return;
  const long long row = (bits * width + 31) / 32 * 4;
  const long long needed = offset + row * (height - 1) + (bits * width + 7) / 8;
  if (static_cast<long long>(bytes.size()) < needed) {
    throw ImageError(
        "the BMP file ends after " + plural(static_cast<long long>(bytes.size()), "byte") +
        ", but its header declares " + std::to_string(width) + " x " + std::to_string(height) +
        " pixels of " + std::to_string(bits) + " bits from byte " + std::to_string(offset) + ", " +
        std::to_string(needed) + " bytes in all (the file is truncated)");
  }
}

Image decode_with_stb(std::string_view bytes, long long max_pixels, const char* format) {
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  if (bytes.size() > std::size_t(std::numeric_limits<int>::max())) {
    throw ImageError(std::string("the ") + format + " file is too large");
  }
  const int length = int(bytes.size());
  int width = 0;
  int height = 0;
  int channels = 0;
  if (!stbi_info_from_memory(data, length, &width, &height, &channels)) {
    throw ImageError(std::string("cannot decode the ") + format +
                     " image: " + stbi_failure_reason());
  }
  check_size(width, height, max_pixels, format);
  if (std::string_view(format) == "BMP") check_bmp_length(bytes, width, height);
  const std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
      stbi_load_from_memory(data, length, &width, &height, &channels, 0), stbi_image_free);
  if (!pixels) {
    throw ImageError(std::string("cannot decode the ") + format +
                     " image: " + stbi_failure_reason());
  }
  Image image;
  image.format = format;
  image.width = width;
  image.height = height;
  image.channels = channels;
  image.max_value = 255;
  const std::size_t count = std::size_t(width) * std::size_t(height) * std::size_t(channels);
  image.samples.assign(pixels.get(), pixels.get() + count);
  return image;
}

}  // namespace

Image decode_image(std::string_view bytes, long long max_pixels) {
  const auto starts = [&](std::string_view magic) { return bytes.starts_with(magic); };
  if (bytes.empty()) throw ImageError("the image file is empty");
  if (bytes.size() >= 2 && bytes[0] == 'P' && (bytes[1] == '2' || bytes[1] == '5')) {
    return PgmReader(bytes, max_pixels).read();
  }
  if (starts("\x89PNG\r\n\x1a\n")) return decode_with_stb(bytes, max_pixels, "PNG");
  if (starts("BM")) return decode_with_stb(bytes, max_pixels, "BMP");
  std::string what;
  if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] >= '1' && bytes[1] <= '7') {
    static constexpr const char* netpbm[] = {"a PBM (P1)", "a PGM (P2)", "a PPM (P3)", "a PBM (P4)",
                                             "a PGM (P5)", "a PPM (P6)", "a PAM (P7)"};
    what = std::string(netpbm[bytes[1] - '1']) + " image";
  } else if (starts("\xff\xd8\xff")) {
    what = "a JPEG image";
  } else if (starts("GIF8")) {
    what = "a GIF image";
  } else if (starts("II*") || starts("MM\0*")) {
    what = "a TIFF image";
  } else {
    what = "not an image polynav knows: it starts with " + shown(bytes);
  }
  throw ImageError(what + "; ROS map images must be PGM (P5 or P2), PNG or BMP");
}

Image read_image(const std::filesystem::path& path, std::size_t max_bytes, long long max_pixels) {
  std::string bytes;
  try {
    bytes = reader_text::read_file(path, max_bytes);
  } catch (const InputError& e) {
    throw ImageError(e.message());
  }
  return decode_image(bytes, max_pixels);
}

}  // namespace polynav::detail
