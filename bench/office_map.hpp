#pragma once
// A synthetic office floor as a SLAM map would show it, for benchmarks that need a ROS map of
// about a million cells: rooms and corridors behind walls two to four cells thick, doorways,
// desks and round pillars, walls whose faces are ragged by a cell where the scan was noisy, and
// stray occupied cells, and unknown speckle where the scan was thin (unknown cells are blocked by
// default, so each speckle is a small obstacle, as in real maps). Deterministic for a given seed.
//
//   write_office_map(dir, "office", 1165, 945, 0.05, 7) -> dir/office.yaml + dir/office.pgm

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace bench_office {

enum : unsigned char { kOccupied = 0, kUnknown = 128, kFree = 254 };

inline std::filesystem::path write_office_map(const std::filesystem::path& dir,
                                              const std::string& name, int width, int height,
                                              double resolution, unsigned seed) {
  std::mt19937 rng(seed);
  const auto uniform = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  const auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  std::vector<unsigned char> pixels(std::size_t(width) * height, kUnknown);
  const auto at = [&](int x, int y) -> unsigned char& {
    return pixels[std::size_t(y) * width + x];
  };
  const auto fill = [&](int x0, int y0, int x1, int y1, unsigned char v) {
    for (int y = std::max(0, y0); y < std::min(height, y1); ++y)
      for (int x = std::max(0, x0); x < std::min(width, x1); ++x) at(x, y) = v;
  };

  // The building: free inside a margin of unknown (the scan never saw outside it).
  const int margin = 20;
  fill(margin, margin, width - margin, height - margin, kFree);
  // Rooms on a jittered lattice, walls between them, a doorway in every wall.
  std::vector<int> xs{margin}, ys{margin};
  while (width - margin - xs.back() > 230) xs.push_back(xs.back() + uniform(90, 140));
  xs.push_back(width - margin);
  while (height - margin - ys.back() > 230) ys.push_back(ys.back() + uniform(90, 140));
  ys.push_back(height - margin);
  for (int x : xs) {
    const int t = uniform(2, 4);
    fill(x - t / 2, margin, x + (t + 1) / 2, height - margin, kOccupied);
  }
  for (int y : ys) {
    const int t = uniform(2, 4);
    fill(margin, y - t / 2, width - margin, y + (t + 1) / 2, kOccupied);
  }
  for (std::size_t i = 1; i + 1 < xs.size(); ++i)
    for (std::size_t j = 0; j + 1 < ys.size(); ++j) {
      const int y = uniform(ys[j] + 10, ys[j + 1] - 30);
      fill(xs[i] - 3, y, xs[i] + 3, y + 24, kFree);
    }
  for (std::size_t j = 1; j + 1 < ys.size(); ++j)
    for (std::size_t i = 0; i + 1 < xs.size(); ++i) {
      const int x = uniform(xs[i] + 10, xs[i + 1] - 30);
      fill(x, ys[j] - 3, x + 24, ys[j] + 3, kFree);
    }
  // Furniture: desks (rectangles) and pillars (discs) inside each room.
  for (std::size_t i = 0; i + 1 < xs.size(); ++i)
    for (std::size_t j = 0; j + 1 < ys.size(); ++j) {
      const int x0 = xs[i] + 30, x1 = xs[i + 1] - 30, y0 = ys[j] + 30, y1 = ys[j + 1] - 30;
      for (int k = uniform(1, 4); k > 0; --k) {
        const int w = uniform(16, 32), h = uniform(10, 16);
        const int x = uniform(x0, std::max(x0, x1 - w)), y = uniform(y0, std::max(y0, y1 - h));
        fill(x, y, x + w, y + h, kOccupied);
      }
      if (chance(0.4)) {
        const int r = uniform(3, 6), cx = uniform(x0 + r, x1 - r), cy = uniform(y0 + r, y1 - r);
        for (int y = cy - r; y <= cy + r; ++y)
          for (int x = cx - r; x <= cx + r; ++x)
            if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) at(x, y) = kOccupied;
      }
    }
  // Scan noise: wall faces ragged by a cell, unknown speckle where the scan was thin.
  std::vector<unsigned char> noisy = pixels;
  for (int y = 1; y + 1 < height; ++y)
    for (int x = 1; x + 1 < width; ++x) {
      if (at(x, y) != kFree) continue;
      const bool by_wall = at(x - 1, y) == kOccupied || at(x + 1, y) == kOccupied ||
                           at(x, y - 1) == kOccupied || at(x, y + 1) == kOccupied;
      if (by_wall && chance(0.4))
        noisy[std::size_t(y) * width + x] = kOccupied;
      else if (chance(0.0005))
        noisy[std::size_t(y) * width + x] = kOccupied;
      else if (chance(0.0005))
        noisy[std::size_t(y) * width + x] = kUnknown;
    }
  pixels.swap(noisy);

  std::filesystem::create_directories(dir);
  const std::filesystem::path pgm = dir / (name + ".pgm"), yaml = dir / (name + ".yaml");
  std::ofstream image(pgm, std::ios::binary);
  image << "P5\n" << width << ' ' << height << "\n255\n";
  image.write(reinterpret_cast<const char*>(pixels.data()), std::streamsize(pixels.size()));
  std::ofstream map(yaml);
  map << "image: " << name << ".pgm\nmode: trinary\nresolution: " << resolution
      << "\norigin: [0.0, 0.0, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.25\n";
  return yaml;
}

}  // namespace bench_office
