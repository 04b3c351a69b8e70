// Native YAML scenes: parse_native_scene(). A scene that parses is also written back as a native
// scene (export_native_scene), which must read back without complaint.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_target.hpp"
#include "polynav/scene/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace polynav;
  const std::string text(fuzz::as_text(data, size));
  fuzz::read_or_refuse("fuzz.yaml", text, [&] {
    const Scene scene = parse_native_scene(text, "fuzz.yaml");
    fuzz::check_round_trip(scene);
  });
  return 0;
}
