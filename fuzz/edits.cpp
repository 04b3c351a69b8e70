// Files of timed edits: parse_scene_edits(). Edits that parse are applied in order to a small
// scene (apply_edits), each batch whole or refused with a located error, never a crash; an
// applied batch leaves every obstacle a valid polygon that free space can be built from.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_target.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace polynav;
  const std::string text(fuzz::as_text(data, size));
  fuzz::read_or_refuse("fuzz.yaml", text, [&] {
    const std::vector<TimedEdits> steps = parse_scene_edits(text, "fuzz.yaml");
    Scene scene = parse_native_scene(
        "version: 1\n"
        "bounds: [[0, 0], [20, 0], [20, 10], [0, 10]]\n"
        "obstacles: [[[4, 2], [6, 2], [6, 4], [4, 4]], [[10, 5], [12, 5], [11, 7]]]\n"
        "regions: [{cost: 2, polygon: [[1, 1], [3, 1], [3, 3]]}]\n",
        "scene.yaml");
    SceneIds ids = SceneIds::of(scene);
    for (const TimedEdits& step : steps) {
      const std::size_t before = scene.obstacles.size();
      try {
        apply_edits(scene, ids, step.edits);
      } catch (const InputError& e) {
        fuzz::check_located(e, "fuzz.yaml", text);
        fuzz::check(scene.obstacles.size() == before);  // nothing half-applied
        continue;
      }
      fuzz::check(ids.obstacles.size() == scene.obstacles.size());
      fuzz::check(ids.regions.size() == scene.regions.size());
    }
    if (scene.obstacles.size() <= 16) {
      try {
        const FreeSpace space(scene);
        (void)space.box();
      } catch (const InputError& e) {
        fuzz::check_located(e, "fuzz.yaml", text);
      }
    }
  });
  return 0;
}
