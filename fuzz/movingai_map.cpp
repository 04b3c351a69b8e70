// MovingAI `.map` files: parse_movingai_map(), then the simplification load_scene() applies (with
// a tolerance drawn from the input). On small maps the free space is built from the traced
// boundary and checked against the cells: a blocked cell's centre is never free, and without
// simplification a free cell's centre always is.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_target.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/readers.hpp"
#include "scene/vectorise.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace polynav;
  const std::string text(fuzz::as_text(data, size));
  constexpr double tolerances[] = {0.0, 0.0, 0.5, 1.5};
  const double tolerance = tolerances[fuzz::input_hash(text) % 4];
  fuzz::read_or_refuse("fuzz.map", text, [&] {
    Scene scene = parse_movingai_map(text, "fuzz.map");
    detail::simplify_scene_boundary(scene, tolerance, "fuzz.map");
    fuzz::check(scene.cell_map.has_value());
    const CellMap& cells = *scene.cell_map;
    if (std::size_t(cells.width) * std::size_t(cells.height) > 4096) return;
    const FreeSpace space(scene);
    for (int cy = 0; cy < cells.height; ++cy) {
      for (int cx = 0; cx < cells.width; ++cx) {
        const bool free = space.is_free(cells.cell_centre(cx, cy));
        fuzz::check(cells.is_blocked(cx, cy) ? !free : (free || tolerance > 0.0));
      }
    }
  });
  return 0;
}
