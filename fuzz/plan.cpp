// Planning on native YAML scenes (texts of at most 4 KiB): what parses is given a free space
// (closed or open gaps, drawn from the input) and the scene's first queries (or two points of
// its bounds when it has none) are planned with the grid (about 64 cells along the longer side),
// the visibility graph (at most 200 corners), the hexagonal grid (about as fine as the grid), the
// clearance roadmap (at most 2000 nodes) and the waypoint graph (the scene's waypoints or at most
// 200 corners), each raw path smoothed by every smoother. Every
// returned path must start and end at the planned points, have every waypoint free and every
// segment in line of sight; a path the planner itself found invalid (internal_error, or a
// smoother's result replaced by the raw path) is a defect too.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace {

using namespace polynav;

void check_result(const FreeSpace& space, const PlanResult& r) {
  fuzz::check(r.status != search::SearchStatus::internal_error);
  fuzz::check(r.message.find("produced an invalid path") == std::string::npos);
  if (!r.found()) return;
  const std::vector<Point>& w = r.waypoints;
  fuzz::check(!w.empty() && w.front() == r.start && w.back() == r.goal);
  for (const Point p : w) fuzz::check(space.is_free(p));
  for (std::size_t i = 1; i < w.size(); ++i) fuzz::check(space.line_of_sight(w[i - 1], w[i]));
}

void plan_with(const std::shared_ptr<const FreeSpace>& space, const std::string& method,
               const Settings& settings, bool snap, const std::vector<Query>& queries) {
  PlanOptions options;
  options.method = method;
  options.smoother = "none";
  options.also_smooth = {"shortcut", "tentpole", "shortcut-optimal", "funnel"};
  options.settings = settings;
  options.snap_to_free = snap;
  std::unique_ptr<Planner> planner;
  try {
    planner = std::make_unique<Planner>(space, options);
  } catch (const InputError& e) {
    // Over a budget of cells, corners or nodes, a cell side the grid cannot take, or a hand-placed
    // waypoint or link that is not free: refused, with a message.
    fuzz::check(!e.message().empty());
    return;
  }
  for (const Query& q : queries) {
    for (const PlanResult& r : planner->plan_each(q.start, q.goal)) check_result(*space, r);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string text(fuzz::as_text(data, size));
  const std::uint64_t hash = fuzz::input_hash(text);
  Scene scene;
  try {
    scene = parse_native_scene(text, "fuzz.yaml");
  } catch (const InputError& e) {
    fuzz::check_located(e, "fuzz.yaml", text);
    return 0;
  }
  FreeSpaceOptions space_options;
  space_options.open_gaps = hash % 2 == 1;
  std::shared_ptr<const FreeSpace> space;
  try {
    space = std::make_shared<const FreeSpace>(scene, space_options);
  } catch (const InputError& e) {
    fuzz::check_located(e, "fuzz.yaml", text);
    return 0;
  }

  std::vector<Query> queries(
      scene.queries.begin(),
      scene.queries.begin() + std::min<std::ptrdiff_t>(std::ssize(scene.queries), 4));
  const Box box = bounding_box(scene.bounds);
  if (queries.empty()) {
    const Point d = box.max - box.min;
    queries.push_back({"corners", box.min + 0.25 * d, box.min + 0.75 * d, {}, {}});
  }
  const double side = std::max(box.width(), box.height()) / 64.0;
  const bool snap = (hash >> 1) % 2 == 1;

  Settings settings;
  settings.set("search.max_expanded", 100000);
  Settings grid = settings;
  grid.set("grid.resolution", side);
  grid.set("grid.max_cells", 10000);
  plan_with(space, "grid", grid, snap, queries);
  Settings visgraph = settings;
  visgraph.set("visgraph.max_nodes", 200);
  plan_with(space, "visgraph", visgraph, snap, queries);
  Settings hexgrid = settings;
  hexgrid.set("hexgrid.size", 0.6 * side);
  hexgrid.set("hexgrid.max_cells", 10000);
  plan_with(space, "hexgrid", hexgrid, snap, queries);
  Settings clearance = settings;
  clearance.set("clearance.max_nodes", 2000);
  plan_with(space, "clearance", clearance, snap, queries);
  Settings waypoints = settings;
  waypoints.set("waypoints.max_nodes", 200);
  plan_with(space, "waypoints", waypoints, snap, queries);
  return 0;
}
