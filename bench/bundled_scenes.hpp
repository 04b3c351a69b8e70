#pragma once
// The bundled native scenes (scenes/*.yaml), loaded, in name order: what the benchmarks of
// building free space and of editing scenes run over.

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "polynav/scene/scene.hpp"

namespace bench_scenes {

// Each scene with its name (the file's stem).
inline std::vector<std::pair<std::string, polynav::Scene>> bundled_native_scenes() {
  namespace fs = std::filesystem;
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(fs::path(POLYNAV_SOURCE_DIR) / "scenes"))
    if (entry.path().extension() == ".yaml") paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  std::vector<std::pair<std::string, polynav::Scene>> scenes;
  for (const fs::path& path : paths)
    scenes.emplace_back(path.stem().string(), polynav::load_scene(path));
  return scenes;
}

}  // namespace bench_scenes
