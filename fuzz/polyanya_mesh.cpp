// Polyanya `.mesh` files (versions 1 to 3): parse_polyanya_mesh(). On small meshes the free space
// is built from the traced boundary, and a point strictly inside a traversable face (its vertices'
// mean, when the exact test puts it inside) must be free.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_target.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace polynav;
  const std::string text(fuzz::as_text(data, size));
  fuzz::read_or_refuse("fuzz.mesh", text, [&] {
    const Scene scene = parse_polyanya_mesh(text, "fuzz.mesh");
    fuzz::check(scene.mesh != nullptr);
    const MeshFaces& mesh = *scene.mesh;
    if (mesh.vertices.size() > 2000) return;
    const FreeSpace space(scene);
    for (const std::vector<std::uint32_t>& face : mesh.faces) {
      Ring ring;
      Point sum;
      for (const std::uint32_t v : face) {
        fuzz::check(v < mesh.vertices.size());
        ring.push_back(mesh.vertices[v]);
        sum = sum + mesh.vertices[v];
      }
      const Point mean = (1.0 / double(face.size())) * sum;
      if (exact::side_of_ring(ring, mean) == exact::Side::inside) {
        fuzz::check(space.is_free(mean));
      }
    }
  });
  return 0;
}
