// WKT polygon files: detail::parse_wkt_scene(). A scene that parses is also written as a native
// scene (export_native_scene), which must read back with the same obstacles.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_target.hpp"
#include "polynav/scene/scene.hpp"
#include "scene/polygon_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace polynav;
  const std::string text(fuzz::as_text(data, size));
  fuzz::read_or_refuse("fuzz.wkt", text, [&] {
    const Scene scene = detail::parse_wkt_scene(text, "fuzz.wkt");
    fuzz::check(!scene.obstacles.empty() || !scene.bounds.empty());
    fuzz::check_round_trip(scene);
  });
  return 0;
}
