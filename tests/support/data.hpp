#pragma once
// Finding test and benchmark data: the bundled scenes, the reference data (which may be absent),
// MovingAI maps and the scenarios that go with them. Shared by tests/ and bench/ (the
// polynav_test_support target defines POLYNAV_SOURCE_DIR and POLYNAV_SHARED_DATA).

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace polynav::test_support {

namespace fs = std::filesystem;

// The reference data (the POLYNAV_SHARED_DATA cache variable, ../shared/data beside the source
// tree unless configured), or a folder in it. It may not exist: callers skip or say so.
inline fs::path shared_data(const fs::path& folder = {}) {
  const fs::path root = POLYNAV_SHARED_DATA;
  return folder.empty() ? root : root / folder;
}

// The scenes shipped in the source tree (scenes/), or a folder in them.
inline fs::path bundled_scenes(const fs::path& folder = {}) {
  const fs::path root = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  return folder.empty() ? root : root / folder;
}

// The files in `dir` whose extension is `extension` (".map"), sorted; none when `dir` is not a
// folder.
inline std::vector<fs::path> files_in(const fs::path& dir, const std::string& extension) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == extension) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The scenario of a MovingAI map: MAP.scen, else the first (by name) .scen beside the map whose
// name starts with the map's stem; empty when there is none.
inline fs::path find_scenario(const fs::path& map) {
  fs::path scen = map;
  scen += ".scen";
  if (fs::exists(scen)) return scen;
  const std::string stem = map.stem().string();
  for (const fs::path& candidate :
       files_in(map.parent_path().empty() ? fs::path(".") : map.parent_path(), ".scen"))
    if (candidate.filename().string().starts_with(stem)) return candidate;
  return {};
}

// The map a scenario file is for, by its name: NAME.map for NAME.map.scen, else the map NAME
// beside it for NAME-anything.scen; empty when neither exists.
inline fs::path find_map(const fs::path& scen) {
  const fs::path dir = scen.parent_path().empty() ? fs::path(".") : scen.parent_path();
  fs::path map = dir / scen.stem();
  if (map.extension() == ".map") return fs::exists(map) ? map : fs::path();
  const std::string stem = scen.stem().string();
  fs::path found;
  for (const fs::path& candidate : files_in(dir, ".map"))
    if (stem.starts_with(candidate.stem().string() + "-")) found = candidate;
  return found;
}

// A MovingAI map and its scenario (empty when none was found).
struct MapJob {
  fs::path map;
  fs::path scen;
};

// Maps named on a command line, in order: a .map file, a folder (its .map files), or a .scen
// file, which goes with the map named just before it instead of the one find_scenario finds.
// Returns false, with `missing` set to the argument, when a path does not exist.
inline bool add_map_jobs(const std::vector<std::string>& paths, std::vector<MapJob>& jobs,
                         std::string& missing) {
  for (const std::string& arg : paths) {
    const fs::path path = arg;
    if (fs::is_directory(path)) {
      for (const fs::path& map : files_in(path, ".map")) jobs.push_back({map, find_scenario(map)});
    } else if (path.extension() == ".scen" && !jobs.empty()) {
      jobs.back().scen = path;
    } else if (fs::exists(path)) {
      jobs.push_back({path, find_scenario(path)});
    } else {
      missing = arg;
      return false;
    }
  }
  return true;
}

}  // namespace polynav::test_support
