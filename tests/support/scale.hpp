#pragma once
// How much of its sampling a long test does: its random queries, scenes and offsets. The
// sanitizer runs (scripts/sanitize.sh) set POLYNAV_TEST_SCALE below 1, since code under
// AddressSanitizer runs several times slower and their purpose is to catch memory and undefined
// behaviour on every path, which a smaller sample of the same kinds of queries reaches; the plain
// run, the default, samples in full.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <vector>

namespace polynav::test {

/// POLYNAV_TEST_SCALE when set to a number in (0, 1], else 1.
inline double test_scale() {
  const char* text = std::getenv("POLYNAV_TEST_SCALE");
  if (text == nullptr) return 1.0;
  char* end = nullptr;
  const double scale = std::strtod(text, &end);
  return end != text && scale > 0.0 && scale <= 1.0 ? scale : 1.0;
}

/// n scaled by test_scale(), rounded up, and never below `at_least` (nor above n).
inline std::size_t scaled(std::size_t n, std::size_t at_least = 1) {
  const auto count = std::size_t(std::ceil(double(n) * test_scale()));
  return std::min(n, std::max(count, at_least));
}

/// An even sample of `items` of at least `at_most` (and fewer than twice as many) when it holds
/// more, every (size / at_most)-th from the first; else all of them.
template <class T>
std::vector<T> evenly(const std::vector<T>& items, std::size_t at_most) {
  if (items.size() <= at_most) return items;
  std::vector<T> sample;
  for (std::size_t i = 0; i < items.size(); i += items.size() / at_most) sample.push_back(items[i]);
  return sample;
}

}  // namespace polynav::test
