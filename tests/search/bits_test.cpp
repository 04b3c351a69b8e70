// The word-at-a-time bit helpers (kernel/bits.hpp) against bit-by-bit definitions, on random
// bytes and words: packing bytes, spreading bits, scanning runs, copying ranges of bits and
// transposing 64 x 64 blocks.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "polynav/kernel/bits.hpp"

namespace polynav {
namespace {

bool bit(const std::vector<std::uint64_t>& words, std::size_t i) {
  return ((words[i / 64] >> (i % 64)) & 1u) != 0;
}

TEST(Bits, PackingSetsABitForEveryNonZeroByte) {
  std::mt19937 rng(7);
  for (std::size_t n = 0; n <= 200; ++n) {
    std::vector<unsigned char> bytes(n + 8);
    // Mostly 0 and 1, as maps give, and any other value now and then.
    for (unsigned char& b : bytes) b = (rng() % 4 == 0) ? (unsigned char)(rng() % 256) : rng() % 2;
    std::vector<std::uint64_t> words((n + 63) / 64, ~std::uint64_t{0});
    pack_nonzero_bytes(bytes.data(), n, words.data());
    for (std::size_t i = 0; i < words.size() * 64; ++i)
      ASSERT_EQ(bit(words, i), i < n && bytes[i] != 0) << "n " << n << " bit " << i;
  }
}

TEST(Bits, PackingZeroBytesSetsTheOthersBits) {
  std::mt19937 rng(9);
  for (std::size_t n = 0; n <= 200; ++n) {
    std::vector<unsigned char> bytes(n + 8);
    for (unsigned char& b : bytes) b = (unsigned char)(rng() % 3);
    std::vector<std::uint64_t> words((n + 63) / 64, 0);
    pack_zero_bytes(bytes.data(), n, words.data());
    for (std::size_t i = 0; i < words.size() * 64; ++i)
      ASSERT_EQ(bit(words, i), i < n && bytes[i] == 0) << "n " << n << " bit " << i;
  }
}

// Into another array, from words whose bits past n are set too (a row's padding is ignored).
TEST(Bits, ComplementSetsTheClearBitsBeforeN) {
  std::mt19937_64 rng(4);
  for (std::size_t n = 0; n <= 200; ++n) {
    std::vector<std::uint64_t> from((n + 63) / 64 + 1);
    for (std::uint64_t& w : from) w = rng();
    std::vector<std::uint64_t> to((n + 63) / 64 + 1, 0x5555555555555555u);
    complement_bits(from.data(), n, to.data());
    for (std::size_t i = 0; i < ((n + 63) / 64) * 64; ++i)
      ASSERT_EQ(bit(to, i), i < n && !bit(from, i)) << "n " << n << " bit " << i;
    EXPECT_EQ(to.back(), 0x5555555555555555u) << "n " << n << ": a word past the last written";
  }
}

TEST(Bits, BytePerBitUndoesPacking) {
  for (unsigned b = 0; b < 256; ++b) {
    const std::uint64_t spread = byte_per_bit(b);
    unsigned char bytes[8];
    std::memcpy(bytes, &spread, 8);
    for (unsigned i = 0; i < 8; ++i) ASSERT_EQ(bytes[i], (b >> i) & 1u) << b;
    EXPECT_EQ(nonzero_byte_bits(bytes), b);
  }
}

TEST(Bits, RunsOfSetBitsAreTheMaximalRuns) {
  std::mt19937 rng(11);
  for (int round = 0; round < 300; ++round) {
    const std::size_t n = rng() % 300;
    std::vector<std::uint64_t> words((n + 63) / 64 + 1);
    // Long runs and short ones; bits past n set too, which must not count.
    const auto density = unsigned(1 + rng() % 3);
    for (std::uint64_t& w : words)
      for (unsigned k = 0; k < density; ++k) w |= std::uint64_t(rng()) << (rng() % 32);
    std::vector<std::pair<std::size_t, std::size_t>> expected, found;
    for (std::size_t i = 0; i < n; ++i) {
      if (!bit(words, i)) continue;
      if (i > 0 && bit(words, i - 1)) {
        expected.back().second = i + 1;
      } else {
        expected.emplace_back(i, i + 1);
      }
    }
    for_each_run_of_set_bits(words.data(), n,
                             [&](std::size_t a, std::size_t b) { found.emplace_back(a, b); });
    ASSERT_EQ(found, expected) << "n " << n;
    for (std::size_t from = 0; from <= n; ++from) {
      std::size_t set = from, clear = from;
      while (set < n && !bit(words, set)) ++set;
      while (clear < n && bit(words, clear)) ++clear;
      ASSERT_EQ(next_bit(words.data(), from, n, true), set);
      ASSERT_EQ(next_bit(words.data(), from, n, false), clear);
    }
  }
}

TEST(Bits, CopyBitsWritesOnlyItsRange) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 500; ++round) {
    const std::size_t n = rng() % 200, at = rng() % 130;
    std::vector<std::uint64_t> from((n + 63) / 64 + 1), to((at + n + 63) / 64 + 2);
    for (std::uint64_t& w : from) w = rng();
    for (std::uint64_t& w : to) w = rng();
    const std::vector<std::uint64_t> before = to;
    copy_bits(from.data(), n, to.data(), at);
    for (std::size_t i = 0; i < to.size() * 64; ++i) {
      const bool expected = i >= at && i < at + n ? bit(from, i - at) : bit(before, i);
      ASSERT_EQ(bit(to, i), expected) << "n " << n << " at " << at << " bit " << i;
    }
  }
}

TEST(Bits, TransposeSwapsRowsAndColumns) {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 20; ++round) {
    std::uint64_t a[64], before[64];
    for (std::uint64_t& w : a) w = rng() & rng();
    std::memcpy(before, a, sizeof a);
    transpose_bits(a);
    for (unsigned k = 0; k < 64; ++k)
      for (unsigned t = 0; t < 64; ++t)
        ASSERT_EQ((a[t] >> k) & 1u, (before[k] >> t) & 1u) << "row " << k << " column " << t;
  }
}

}  // namespace
}  // namespace polynav
