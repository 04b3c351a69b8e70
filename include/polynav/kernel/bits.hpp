#pragma once
/// @file
/// Bytes to bits, eight at a time: the one packing of per-cell bytes (a map's blocked cells, a
/// grid's) into 64-bit words that the raster readers, free space and the grid searches share.
/// In kernel/ because scene/, which traces maps as it reads them, may include only kernel/.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace polynav {

/// Bit i set when byte i of the eight at `bytes` is not zero.
inline std::uint64_t nonzero_byte_bits(const unsigned char* bytes) {
  std::uint64_t x = 0;
  std::memcpy(&x, bytes, 8);
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
  // Each byte's bits folded into its lowest (the shifts bring in bits of the next byte only
  // above the bits still read), then the eight lowest bits gathered into the top byte: byte i
  // times 2^(56 - 7i) lands on bit 56 + i, and no two products share a bit, so nothing carries.
  x |= x >> 4u;
  x |= x >> 2u;
  x |= x >> 1u;
  x &= 0x0101010101010101u;
  return (x * 0x0102040810204080u) >> 56u;
}

/// Writes bit i of `words` (from bit 0 of words[0]) set when bytes[i] is not zero, for i < n,
/// and the rest of the last word clear: (n + 63) / 64 words.
inline void pack_nonzero_bytes(const unsigned char* bytes, std::size_t n, std::uint64_t* words) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    std::uint64_t word = 0;
    for (unsigned k = 0; k < 8; ++k) word |= nonzero_byte_bits(bytes + i + 8 * k) << (8 * k);
    words[i / 64] = word;
  }
  if (i == n) return;
  std::uint64_t word = 0;
  for (std::size_t k = i; k < n; ++k) word |= std::uint64_t(bytes[k] != 0) << (k - i);
  words[i / 64] = word;
}

}  // namespace polynav
