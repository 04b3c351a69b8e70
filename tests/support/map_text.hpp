#pragma once
// Grid-map tests' scenes written as MovingAI map text, read as a user's map file is read.

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "polynav/scene/scene.hpp"

namespace polynav::test_support {

// A scene read from MovingAI map text (rows top to bottom, '.' free, '@' or 'T' blocked), through
// a temporary file removed again.
inline Scene map_scene(const std::vector<std::string>& rows) {
  static std::atomic<int> counter{0};
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("polynav-map-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".map");
  {
    std::ofstream out(path);
    out << "type octile\nheight " << rows.size() << "\nwidth " << rows[0].size() << "\nmap\n";
    for (const std::string& row : rows) out << row << "\n";
  }
  Scene scene = load_scene(path);
  std::filesystem::remove(path);
  return scene;
}

}  // namespace polynav::test_support
