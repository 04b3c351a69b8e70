// Polyanya `.mesh` files (versions 1 to 3): parse_polyanya_mesh(). What lies across each face's
// edge is another face listing that edge. On small meshes the free space is built from the traced
// boundary, and a point strictly inside a traversable face (its vertices' mean, when the exact
// test puts it inside) must be free.

#include <cstddef>
#include <cstdint>
#include <span>
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
    fuzz::check(mesh.across.size() == mesh.corners.size());
    for (std::size_t f = 0; f < mesh.face_count(); ++f) {
      const std::span<const std::uint32_t> face = mesh.face(f);
      // What lies across each edge is another face listing the same two vertices.
      for (std::size_t k = 0; k < face.size(); ++k) {
        const std::int32_t g = mesh.across[mesh.first[f] + k];
        if (g < 0) continue;
        fuzz::check(std::size_t(g) != f && std::size_t(g) < mesh.face_count());
        const std::span<const std::uint32_t> other = mesh.face(std::size_t(g));
        const std::uint32_t a = face[k], b = face[(k + 1) % face.size()];
        bool listed = false;
        for (std::size_t j = 0; j < other.size(); ++j) {
          const std::uint32_t c = other[j], d = other[(j + 1) % other.size()];
          listed = listed || (c == a && d == b) || (c == b && d == a);
        }
        fuzz::check(listed);
      }
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
