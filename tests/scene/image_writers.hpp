#pragma once
// Small image writers for tests of the ROS map reader: the same pixels as PGM (P5 and P2), PNG
// (uncompressed deflate blocks, so no compression library is needed) and BMP (8-bit grey
// palette, or 32-bit with alpha).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace polynav::test {

// Pixels row-major from the top, `channels` interleaved values of 0..255 each.
struct TestImage {
  int width = 0;
  int height = 0;
  int channels = 1;  // 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA
  std::vector<std::uint8_t> pixels;
};

inline std::string pgm_p5(const TestImage& im) {
  std::string s =
      "P5\n# test\n" + std::to_string(im.width) + " " + std::to_string(im.height) + "\n255\n";
  s.append(im.pixels.begin(), im.pixels.end());
  return s;
}

// Plain PGM with samples rescaled to `maxval` (exact when maxval divides 255 evenly).
inline std::string pgm_p2(const TestImage& im, int maxval = 255) {
  std::string s = "P2\n" + std::to_string(im.width) + " " + std::to_string(im.height) + "\n" +
                  std::to_string(maxval) + "\n";
  for (int y = 0; y < im.height; ++y) {
    for (int x = 0; x < im.width; ++x) {
      const int v = im.pixels[std::size_t(y) * std::size_t(im.width) + std::size_t(x)];
      s += std::to_string(v * maxval / 255) + (x + 1 < im.width ? " " : "\n");
    }
  }
  return s;
}

namespace detail_writers {

inline std::uint32_t crc32(const std::string& data) {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  std::uint32_t c = 0xFFFFFFFFu;
  for (const char ch : data) c = table[(c ^ static_cast<std::uint8_t>(ch)) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

inline void be32(std::string& s, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) s += char((v >> shift) & 0xFF);
}
inline void le16(std::string& s, std::uint32_t v) {
  s += char(v & 0xFF);
  s += char((v >> 8) & 0xFF);
}
inline void le32(std::string& s, std::uint32_t v) {
  le16(s, v & 0xFFFF);
  le16(s, v >> 16);
}

inline void chunk(std::string& png, const std::string& kind, const std::string& body) {
  be32(png, std::uint32_t(body.size()));
  png += kind + body;
  be32(png, crc32(kind + body));
}

}  // namespace detail_writers

inline std::string png(const TestImage& im) {
  using namespace detail_writers;
  // Raw scanlines, each with filter byte 0.
  std::string raw;
  const std::size_t row = std::size_t(im.width) * std::size_t(im.channels);
  for (int y = 0; y < im.height; ++y) {
    raw += '\0';
    raw.append(im.pixels.begin() + std::ptrdiff_t(std::size_t(y) * row),
               im.pixels.begin() + std::ptrdiff_t(std::size_t(y + 1) * row));
  }
  // A zlib stream of stored (uncompressed) deflate blocks, then the Adler-32 of the data.
  std::string z = "\x78\x01";
  for (std::size_t at = 0; at < raw.size() || at == 0;) {
    const std::size_t n = std::min<std::size_t>(raw.size() - at, 65535);
    const bool last = at + n >= raw.size();
    z += char(last ? 1 : 0);
    le16(z, std::uint32_t(n));
    le16(z, std::uint32_t(~n & 0xFFFF));
    z += raw.substr(at, n);
    at += n;
    if (last) break;
  }
  std::uint32_t a = 1, b = 0;
  for (const char ch : raw) {
    a = (a + static_cast<std::uint8_t>(ch)) % 65521;
    b = (b + a) % 65521;
  }
  be32(z, (b << 16) | a);
  static constexpr char colour_type[] = {0, 0, 4, 2, 6};  // by channel count
  std::string ihdr;
  be32(ihdr, std::uint32_t(im.width));
  be32(ihdr, std::uint32_t(im.height));
  ihdr += char(8);
  ihdr += colour_type[im.channels];
  ihdr += std::string(3, '\0');
  std::string out = "\x89PNG\r\n\x1a\n";
  chunk(out, "IHDR", ihdr);
  chunk(out, "IDAT", z);
  chunk(out, "IEND", "");
  return out;
}

// BMP: 8-bit with a grey palette for grey images, 32-bit BGRA (with an alpha mask) for RGBA.
inline std::string bmp(const TestImage& im) {
  using namespace detail_writers;
  const bool grey = im.channels == 1;
  const std::size_t bytes_per_pixel = grey ? 1 : 4;
  const std::size_t stride = (std::size_t(im.width) * bytes_per_pixel + 3) / 4 * 4;
  std::string pixels;
  for (int y = im.height - 1; y >= 0; --y) {  // bottom-up
    std::string line;
    for (int x = 0; x < im.width; ++x) {
      const std::uint8_t* p =
          im.pixels.data() +
          (std::size_t(y) * std::size_t(im.width) + std::size_t(x)) * std::size_t(im.channels);
      if (grey) {
        line += char(p[0]);
      } else {
        line += char(p[2]);
        line += char(p[1]);
        line += char(p[0]);
        line += char(im.channels == 4 ? p[3] : 255);
      }
    }
    line.resize(stride, '\0');
    pixels += line;
  }
  std::string info;
  const std::uint32_t info_size = grey ? 40 : 108;  // BITMAPV4HEADER carries the alpha mask
  le32(info, info_size);
  le32(info, std::uint32_t(im.width));
  le32(info, std::uint32_t(im.height));
  le16(info, 1);
  le16(info, grey ? 8 : 32);
  le32(info, grey ? 0 : 3);  // BI_RGB, or BI_BITFIELDS
  le32(info, std::uint32_t(pixels.size()));
  le32(info, 2835);
  le32(info, 2835);
  le32(info, grey ? 256 : 0);
  le32(info, 0);
  if (!grey) {
    le32(info, 0x00FF0000);  // red, green, blue and alpha masks
    le32(info, 0x0000FF00);
    le32(info, 0x000000FF);
    le32(info, 0xFF000000);
    info += "BGRs";
    info += std::string(36 + 12, '\0');  // colour space end points, gammas
  }
  std::string palette;
  if (grey) {
    for (int v = 0; v < 256; ++v) palette += {char(v), char(v), char(v), '\0'};
  }
  const std::uint32_t offset = 14 + std::uint32_t(info.size() + palette.size());
  std::string out = "BM";
  le32(out, offset + std::uint32_t(pixels.size()));
  le32(out, 0);
  le32(out, offset);
  return out + info + palette + pixels;
}

}  // namespace polynav::test
