// MovingAI `.scen` files: parse_scenario() against a small fixed map (points at cell centres or
// at cell corners) or against a native scene (points as written), chosen by the input. On the
// map every start and goal must be free: the reader refuses blocked cells.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_target.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/readers.hpp"

namespace {

// tests/corpus/bad_maps/small.map, which the seed scenarios name.
constexpr const char* small_map =
    "type octile\nheight 4\nwidth 5\nmap\n.....\n.@...\n..@..\n.....\n";

struct Fixed {
  polynav::Scene map = polynav::parse_movingai_map(small_map, "small.map");
  polynav::FreeSpace map_space{map};
  polynav::Scene plain = polynav::parse_native_scene(
      "version: 1\nbounds: [[0, 0], [5, 0], [5, 4], [0, 4]]\n", "plain.yaml");
};

const Fixed& fixed() {
  static const Fixed f;
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace polynav;
  const std::string text(fuzz::as_text(data, size));
  const std::uint64_t pick = fuzz::input_hash(text) % 3;
  const Fixed& f = fixed();
  fuzz::read_or_refuse("fuzz.scen", text, [&] {
    if (pick == 2) {
      parse_scenario(text, "fuzz.scen", f.plain);
      return;
    }
    const ScenarioPoints points = pick == 0 ? ScenarioPoints::centres : ScenarioPoints::corners;
    const std::vector<Query> queries = parse_scenario(text, "fuzz.scen", f.map, points);
    for (const Query& q : queries) {
      fuzz::check(f.map_space.is_free(q.start));
      fuzz::check(f.map_space.is_free(q.goal));
    }
  });
  return 0;
}
