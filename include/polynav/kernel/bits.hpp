#pragma once
/// @file
/// Bytes to bits, eight at a time: the one packing of per-cell bytes (a map's blocked cells, a
/// grid's) into 64-bit words that the raster readers, free space and the grid searches share.
/// In kernel/ because scene/, which traces maps as it reads them, may include only kernel/.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
#if defined(__SSE2__)
    // Sixteen bytes compared with zero at once, their sixteen answers gathered into a mask (the
    // x86-64 baseline): a quarter of the instructions of the multiply below, on a map's
    // hundreds of thousands of cells.
    for (unsigned k = 0; k < 4; ++k) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i + 16 * k));
      const auto zero = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())));
      word |= std::uint64_t(~zero & 0xffffu) << (16 * k);
    }
#else
    for (unsigned k = 0; k < 8; ++k) word |= nonzero_byte_bits(bytes + i + 8 * k) << (8 * k);
#endif
    words[i / 64] = word;
  }
  if (i == n) return;
  std::uint64_t word = 0;
  for (std::size_t k = i; k < n; ++k) word |= std::uint64_t(bytes[k] != 0) << (k - i);
  words[i / 64] = word;
}

/// Writes bit i of `to` set when bit i of `from` is clear, for i < n, and the rest of the last
/// word clear: (n + 63) / 64 words (`to` may be `from`). A map's free cells from its blocked ones.
inline void complement_bits(const std::uint64_t* from, std::size_t n, std::uint64_t* to) {
  const std::size_t count = (n + 63) / 64;
  for (std::size_t i = 0; i < count; ++i) to[i] = ~from[i];
  if (n % 64 != 0) to[count - 1] &= (std::uint64_t{1} << (n % 64)) - 1;
}

/// The same for the zero bytes: bit i set when bytes[i] is zero (a free cell of a map's blocked
/// bytes), the rest of the last word clear.
inline void pack_zero_bytes(const unsigned char* bytes, std::size_t n, std::uint64_t* words) {
  pack_nonzero_bytes(bytes, n, words);
  complement_bits(words, n, words);
}

namespace detail {
// byte_per_bit's table: entry b holds byte i (in memory order) 1 when bit i of b is set.
inline constexpr std::array<std::uint64_t, 256> bit_byte_table = [] {
  std::array<std::uint64_t, 256> table{};
  for (unsigned b = 0; b < 256; ++b)
    for (unsigned i = 0; i < 8; ++i) {
      const unsigned shift = std::endian::native == std::endian::big ? 8 * (7 - i) : 8 * i;
      table[b] |= std::uint64_t((b >> i) & 1u) << shift;
    }
  return table;
}();
}  // namespace detail

/// Eight bytes for the eight bits of `bits`, to store with memcpy: byte i is 1 when bit i is set,
/// else 0 (nonzero_byte_bits the other way).
inline std::uint64_t byte_per_bit(unsigned bits) {
  return detail::bit_byte_table[bits & 0xffu];
}

/// The first position at or after `from` whose bit among bits 0 .. n - 1 of `words` is `set`,
/// or n when there is none.
inline std::size_t next_bit(const std::uint64_t* words, std::size_t from, std::size_t n, bool set) {
  for (std::size_t i = from / 64; i * 64 < n; ++i) {
    std::uint64_t word = set ? words[i] : ~words[i];
    if (i == from / 64) word &= ~std::uint64_t{0} << (from % 64);
    if (word != 0) return std::min(n, i * 64 + std::size_t(std::countr_zero(word)));
  }
  return n;
}

/// Calls f(first, last) for each maximal run [first, last) of set bits among bits 0 .. n - 1 of
/// `words`, left to right: two bit scans a run, not a test a bit.
template <class F>
void for_each_run_of_set_bits(const std::uint64_t* words, std::size_t n, F&& f) {
  for (std::size_t x = next_bit(words, 0, n, true); x < n;) {
    const std::size_t end = next_bit(words, x, n, false);
    f(x, end);
    x = end < n ? next_bit(words, end, n, true) : n;
  }
}

/// Transposes a 64 x 64 matrix of bits in place: bit t of a[k] and bit k of a[t] change places.
/// Six rounds of swapping the off-diagonal blocks of ever smaller blocks (32, 16, ... 1 wide).
inline void transpose_bits(std::uint64_t (&a)[64]) {
  constexpr std::uint64_t low[6] = {0x00000000ffffffffu, 0x0000ffff0000ffffu, 0x00ff00ff00ff00ffu,
                                    0x0f0f0f0f0f0f0f0fu, 0x3333333333333333u, 0x5555555555555555u};
  unsigned round = 0;
  for (unsigned j = 32; j != 0; j >>= 1u, ++round) {
    // Rows k with bit j clear: their columns with bit j set against row k + j's columns without.
    for (unsigned k = 0; k < 64; k = ((k | j) + 1) & ~j) {
      const std::uint64_t t = ((a[k] >> j) ^ a[k | j]) & low[round];
      a[k] ^= t << j;
      a[k | j] ^= t;
    }
  }
}

/// Writes bits 0 .. n - 1 of `from` to positions at .. at + n - 1 of `to`, leaving its other bits
/// as they are: a word or two of `to` per word of `from`.
inline void copy_bits(const std::uint64_t* from, std::size_t n, std::uint64_t* to, std::size_t at) {
  for (std::size_t i = 0; i < n; i += 64) {
    const std::size_t length = std::min<std::size_t>(64, n - i);
    const std::uint64_t mask = length == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << length) - 1;
    const std::uint64_t bits = from[i / 64] & mask;
    const std::size_t p = at + i, word = p / 64, shift = p % 64;
    to[word] = (to[word] & ~(mask << shift)) | (bits << shift);
    if (shift != 0 && shift + length > 64)
      to[word + 1] = (to[word + 1] & ~(mask >> (64 - shift))) | (bits >> (64 - shift));
  }
}

}  // namespace polynav
