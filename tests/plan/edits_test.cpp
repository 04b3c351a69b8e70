// A scene that changes: EditablePlanner's answers after any sequence of random edits equal a
// planner's built from scratch on the scene the edits describe (kept independently here, by id);
// a version's grid and quadtree, updated only around the edit, equal those built whole; a batch
// that fails changes nothing; a query whose start an edit covers answers invalid_query; a planner
// taken before an edit keeps answering for the scene before it; files of timed edits are read with
// located errors; an edit grows only the obstacles it adds or moves; a Replanner's repaired answers
// cost what each version's planner finds, and repairs expand less than fresh searches; a mesh's
// corridor, followed, is as short as each version's own search and gives way where an edit could
// shorten or block it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <tuple>

#include "polynav/discretise/grid/grid_methods.hpp"
#include "polynav/discretise/grid/jump_point_grid.hpp"
#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/discretise/quadtree/quadtree.hpp"
#include "polynav/discretise/query.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/editable_planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/plan/replanner.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

Scene warehouse() {
  return load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.yaml");
}

// The InputError f throws (a failure when it throws none).
template <class F>
InputError caught(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError thrown";
  return InputError({}, "");
}

Ring box(Point lo, Point hi) {
  return {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
}

Ring moved(Ring r, Point by) {
  for (Point& p : r) p = p + by;
  return r;
}

// The scene the edits describe, kept by id apart from apply_edits: ids grow, so a map ordered by
// id lists them in the order they were added.
struct Model {
  Scene base;
  std::map<std::size_t, Polygon> obstacles;
  std::map<std::size_t, Region> regions;
  std::size_t next_obstacle = 0, next_region = 0;

  explicit Model(const Scene& scene) : base(scene) {
    for (const Obstacle& o : scene.obstacles) obstacles[next_obstacle++] = o.shape;
    for (const Region& r : scene.regions) regions[next_region++] = r;
  }
  Scene scene() const {
    Scene s = base;
    s.obstacles.clear();
    s.regions.clear();
    for (const auto& [id, shape] : obstacles) s.obstacles.push_back({shape, {}});
    for (const auto& [id, region] : regions) s.regions.push_back(region);
    return s;
  }
};

// A random batch of 1 to 3 edits of every kind (of obstacles only, without `regions`), applied
// to the model as it is made.
std::vector<SceneEdit> random_batch(Model& m, std::mt19937_64& rng, bool regions = true) {
  std::uniform_real_distribution<double> x(2, 36), y(2, 18), size(0.5, 3), shift(-2, 2);
  std::vector<SceneEdit> batch;
  const int n = 1 + int(rng() % 3);
  for (int k = 0; k < n; ++k) {
    SceneEdit e;
    const Point lo{x(rng), y(rng)};
    const Point hi = lo + Point{size(rng), size(rng)};
    const auto pick = [&](const auto& map) {
      auto it = map.begin();
      std::advance(it, std::ptrdiff_t(rng() % map.size()));
      return it->first;
    };
    switch (rng() % (regions ? 6 : 4)) {
      case 0:
      case 1:
        e.kind = SceneEdit::Kind::add_obstacle;
        e.shape.outer = box(lo, hi);
        m.obstacles[m.next_obstacle++] = e.shape;
        break;
      case 2:
        if (m.obstacles.empty()) continue;
        e.kind = SceneEdit::Kind::remove_obstacle;
        e.id = pick(m.obstacles);
        m.obstacles.erase(e.id);
        break;
      case 3:
        if (m.obstacles.empty()) continue;
        e.kind = SceneEdit::Kind::move_obstacle;
        e.id = pick(m.obstacles);
        e.by = {shift(rng), shift(rng)};
        m.obstacles[e.id].outer = moved(m.obstacles[e.id].outer, e.by);
        for (Ring& h : m.obstacles[e.id].holes) h = moved(h, e.by);
        break;
      case 4:
        e.kind = SceneEdit::Kind::add_region;
        e.region.cost = 0.5 + size(rng);
        e.region.polygon = box(lo, hi + Point{3, 3});
        m.regions[m.next_region++] = e.region;
        break;
      default:
        if (m.regions.empty()) continue;
        e.kind = SceneEdit::Kind::remove_region;
        e.id = pick(m.regions);
        m.regions.erase(e.id);
        break;
    }
    batch.push_back(e);
  }
  return batch;
}

TEST(EditablePlanner, RandomEditsAnswerAsAPlannerBuiltFromScratch) {
  const std::vector<std::pair<Point, Point>> queries = {
      {{2, 1.5}, {30, 20}}, {{5, 18}, {38, 2}}, {{12, 3}, {20, 21}}};
  for (const std::string& method : method_names()) {
    std::mt19937_64 rng(std::hash<std::string>()(method) ^ 42);
    PlanOptions options;
    options.method = method;
    const Scene scene = warehouse();
    Model model(scene);
    EditablePlanner live(scene, options);
    for (int step = 1; step <= 4; ++step) {
      const std::vector<SceneEdit> batch = random_batch(model, rng);
      const EditablePlanner::Applied applied = live.apply(batch);
      EXPECT_EQ(applied.version, std::uint64_t(step));
      EXPECT_EQ(live.version(), std::uint64_t(step));
      const Planner scratch(model.scene(), options);
      for (const auto& [s, g] : queries) {
        const PlanResult a = live.plan(s, g), b = scratch.plan(s, g);
        EXPECT_EQ(a.status, b.status) << method << " step " << step;
        EXPECT_EQ(a.waypoints, b.waypoints) << method << " step " << step;
        EXPECT_EQ(a.cost, b.cost) << method << " step " << step;
      }
      // The ids are the model's.
      const SceneIds ids = live.ids();
      std::vector<std::size_t> expected;
      for (const auto& [id, shape] : model.obstacles) expected.push_back(id);
      EXPECT_EQ(ids.obstacles, expected) << method;
    }
  }
}

// On a scene of overlapping walls, a version joins the grown walls again only around the one
// an edit moves (the rest of the union kept from the version before), and still answers as a
// planner built from the edited scene.
TEST(EditablePlanner, EditsToAMazeJoinOnlyAroundWhatMovedAndAnswerAsFromScratch) {
  const Scene scene = load_scene(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "maze.yaml");
  for (const std::string method : {"grid", "visgraph", "navmesh"}) {
    std::mt19937_64 rng(std::hash<std::string>()(method) ^ 7);
    std::uniform_int_distribution<int> shift(-2, 2);
    PlanOptions options;
    options.method = method;
    Model model(scene);
    EditablePlanner live(scene, options);
    std::size_t local = 0;
    for (int step = 1; step <= 3; ++step) {
      SceneEdit e;
      e.kind = SceneEdit::Kind::move_obstacle;
      e.id = rng() % model.obstacles.size();
      e.by = {0.25 * shift(rng), 0.25 * shift(rng)};
      model.obstacles[e.id].outer = moved(model.obstacles[e.id].outer, e.by);
      local += live.apply(std::span(&e, 1)).joined_locally;
      const Planner scratch(model.scene(), options);
      for (const Query& q : scene.queries) {
        const PlanResult a = live.plan(q.start, q.goal), b = scratch.plan(q.start, q.goal);
        EXPECT_EQ(a.status, b.status) << method << " step " << step;
        EXPECT_EQ(a.waypoints, b.waypoints) << method << " step " << step;
        EXPECT_EQ(a.cost, b.cost) << method << " step " << step;
      }
    }
    EXPECT_EQ(local, 3u) << method;
  }
}

TEST(EditablePlanner, AnEditGrowsOnlyTheObstaclesItAddsOrMoves) {
  const Scene scene = warehouse();
  ASSERT_GT(scene.agent.radius, 0.0);
  const std::size_t n = scene.obstacles.size();
  EditablePlanner live(scene);
  SceneEdit move;
  move.kind = SceneEdit::Kind::move_obstacle;
  move.id = 3;
  move.by = {0.5, 0.0};
  EditablePlanner::Applied applied = live.apply(std::span(&move, 1));
  EXPECT_EQ(applied.grown, 1u);
  EXPECT_EQ(applied.reused, n);  // the other obstacles and the outside of the bounds
  SceneEdit add;
  add.shape.outer = box({20, 10}, {22, 12});
  applied = live.apply(std::span(&add, 1));
  EXPECT_EQ(applied.grown, 1u);
  EXPECT_EQ(applied.reused, n + 1);
  SceneEdit remove;
  remove.kind = SceneEdit::Kind::remove_obstacle;
  remove.id = 0;
  applied = live.apply(std::span(&remove, 1));
  EXPECT_EQ(applied.grown, 0u);
  EXPECT_EQ(applied.reused, n + 1);
  // Moved back where it was before the first edit: that sum was let go when it moved.
  move.by = {-0.5, 0.0};
  applied = live.apply(std::span(&move, 1));
  EXPECT_EQ(applied.grown, 1u);
}

// The grid a planner of the grid method searches.
const OccupancyGrid& grid_of(const Planner& planner) {
  const Discretisation& d = planner.discretisation();
  if (const auto* jumps = dynamic_cast<const JumpPointGrid*>(&d)) return jumps->grid();
  return dynamic_cast<const OccupancyGrid&>(d);
}

using Settings = std::vector<std::pair<const char*, const char*>>;

// The grid method with these settings; `name` says which.
PlanOptions grid_options(const Settings& settings, std::string& name) {
  PlanOptions options;
  name = "grid";
  for (const auto& [key, value] : settings) {
    options.settings.set(key, value);
    name += std::string(" ") + key + "=" + value;
  }
  return options;
}

// The nodes of two discretisations of as many nodes whose places or arcs (targets and costs)
// differ.
template <class D>
std::size_t nodes_joined_differently(const D& a, const D& b) {
  std::vector<std::pair<search::NodeId, double>> arcs_a, arcs_b;
  std::size_t differ = 0;
  for (search::NodeId n = 0; n < a.node_count(); ++n) {
    arcs_a.clear();
    arcs_b.clear();
    a.for_each_neighbour(n, [&](search::NodeId to, double cost) { arcs_a.push_back({to, cost}); });
    b.for_each_neighbour(n, [&](search::NodeId to, double cost) { arcs_b.push_back({to, cost}); });
    if (a.node_position(n) != b.node_position(n) || arcs_a != arcs_b) ++differ;
  }
  return differ;
}

// Two grids alike node for node: cells blocked and their costs, every node's arcs (targets and
// costs, knight moves and climb limits included) and the component labels.
void expect_same_grid(const OccupancyGrid& a, const OccupancyGrid& b, const std::string& what) {
  ASSERT_EQ(a.width(), b.width()) << what;
  ASSERT_EQ(a.height(), b.height()) << what;
  ASSERT_EQ(a.node_count(), b.node_count()) << what;
  std::size_t differ = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x)
      if (a.blocked(x, y) != b.blocked(x, y) || a.cell_cost(x, y) != b.cell_cost(x, y)) ++differ;
  EXPECT_EQ(differ, 0u) << what << ": cells blocked or costed differently";
  EXPECT_EQ(nodes_joined_differently(a, b), 0u) << what << ": nodes with different arcs";
  ASSERT_EQ(a.components() != nullptr, b.components() != nullptr) << what;
  if (a.components()) {
    EXPECT_EQ(a.components()->labels(), b.components()->labels()) << what;
  }
}

// The scene with a plateau higher than its climb limit (its last region): moves onto it are one
// way.
Scene with_plateau(Scene scene) {
  Region plateau;
  plateau.polygon = box({24, 12}, {27, 15});
  plateau.height = 2 * scene.agent.max_climb;
  scene.regions.push_back(plateau);
  return scene;
}

// A random batch (random_batch) that also moves with_plateau's plateau, while it is there.
std::vector<SceneEdit> plateau_batch(Model& m, std::mt19937_64& rng, int step) {
  const std::size_t plateau_id = m.base.regions.size() - 1;
  std::vector<SceneEdit> batch = random_batch(m, rng);
  if (m.regions.contains(plateau_id)) {
    SceneEdit e;
    e.kind = SceneEdit::Kind::move_region;
    e.id = plateau_id;
    e.by = {step % 2 == 0 ? 1.5 : -1.0, 0.5};
    m.regions[plateau_id].polygon = moved(m.regions[plateau_id].polygon, e.by);
    batch.push_back(e);
  }
  return batch;
}

// A version's grid, updated from the version before away from the edit, equals the grid built
// whole from the edited scene, after random edits of obstacles and regions (added, removed,
// moved), on grids of every connectivity and alignment, with a plateau above the climb limit
// (one-way moves), a clearance cost, and the searches built over the grid; most updates classify a
// small share of the cells.
TEST(EditablePlanner, GridsUpdatedAroundAnEditEqualGridsBuiltWhole) {
  const std::vector<Settings> variants = {
      {},
      {{"grid.connectivity", "4"}},
      {{"grid.connectivity", "16"}},
      {{"grid.align", "corner"}},
      {{"grid.align", "corner"}, {"grid.connectivity", "16"}},
      {{"space.clearance_distance", "1.5"}},
      {{"grid.search", "jps+"}},
      {{"grid.search", "hpa"}, {"grid.resolution", "0.25"}},
  };
  for (const auto& variant : variants) {
    std::string name;
    const PlanOptions options = grid_options(variant, name);
    std::mt19937_64 rng(std::hash<std::string>()(name) ^ 5);
    Scene scene = with_plateau(warehouse());
    // Corner-aligned grids and HPA* take no climb limit (its moves must run both ways).
    if (options.settings.has("grid.align") || options.settings.has("grid.search"))
      scene.agent.max_climb = INFINITY;
    Model model(scene);
    EditablePlanner live(scene, options);
    std::size_t local = 0;
    for (int step = 1; step <= 5; ++step) {
      const EditablePlanner::Applied applied = live.apply(plateau_batch(model, rng, step));
      const std::string what = name + " step " + std::to_string(step);
      const Planner scratch(model.scene(), options);
      const OccupancyGrid* updated = occupancy_grid_of(live.planner()->discretisation());
      const OccupancyGrid* whole = occupancy_grid_of(scratch.discretisation());
      ASSERT_TRUE(updated && whole) << what;
      expect_same_grid(*updated, *whole, what);
      EXPECT_EQ(whole->classified_cells(), applied.grid_cells) << what;
      EXPECT_EQ(updated->classified_cells(), applied.classified_cells) << what;
      if (2 * applied.classified_cells < applied.grid_cells) ++local;
    }
    EXPECT_GE(local, 3u) << name;
  }
}

// JPS+: a version's jump table, updated from the version before where the grids differ, equals
// the table built whole from the edited scene, entry by entry, after random obstacle edits (added,
// removed, moved) on the warehouse without its terrain (jumping needs one cost throughout), at
// the grid's default cells and finer ones; most updates compute under half the entries.
TEST(EditablePlanner, JumpTablesUpdatedAroundAnEditEqualTablesBuiltWhole) {
  const std::vector<Settings> variants = {
      {{"grid.search", "jps+"}},
      {{"grid.search", "jps+"}, {"grid.resolution", "0.2"}},
  };
  for (const auto& variant : variants) {
    std::string name;
    const PlanOptions options = grid_options(variant, name);
    std::mt19937_64 rng(std::hash<std::string>()(name) ^ 11);
    Scene scene = warehouse();
    scene.regions.clear();
    Model model(scene);
    EditablePlanner live(scene, options);
    std::size_t local = 0;
    for (int step = 1; step <= 6; ++step) {
      live.apply(random_batch(model, rng, false));
      const std::string what = name + " step " + std::to_string(step);
      const Planner scratch(model.scene(), options);
      const auto* updated = dynamic_cast<const JumpPointGrid*>(&live.planner()->discretisation());
      const auto* whole = dynamic_cast<const JumpPointGrid*>(&scratch.discretisation());
      ASSERT_TRUE(updated && whole) << what;
      ASSERT_TRUE(updated->jumps() && whole->jumps()) << what << ": " << whole->fallback();
      expect_same_grid(updated->grid(), whole->grid(), what);
      std::size_t differ = 0;
      for (search::NodeId n = 0; n < whole->node_count(); ++n)
        for (int k = 0; k < 8; ++k)
          differ += updated->jump_distance(n, k) != whole->jump_distance(n, k);
      EXPECT_EQ(differ, 0u) << what << ": table entries differ";
      EXPECT_EQ(whole->table_entries_computed(), 8 * whole->node_count()) << what;
      if (2 * updated->table_entries_computed() < whole->table_entries_computed()) ++local;
    }
    EXPECT_GE(local, 4u) << name;
  }
}

// Two quadtrees alike: leaves (place, size, freedom), nodes (places), arcs (targets and costs)
// and component labels.
void expect_same_tree(const Quadtree& a, const Quadtree& b, const std::string& what) {
  ASSERT_EQ(a.leaves().size(), b.leaves().size()) << what;
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.leaves().size(); ++i) {
    const QuadtreeLeaf &p = a.leaves()[i], &q = b.leaves()[i];
    if (p.x != q.x || p.y != q.y || p.level != q.level || p.free != q.free) ++differ;
  }
  EXPECT_EQ(differ, 0u) << what << ": leaves differ";
  ASSERT_EQ(a.node_count(), b.node_count()) << what;
  EXPECT_EQ(nodes_joined_differently(a, b), 0u) << what << ": nodes placed or joined differently";
  ASSERT_EQ(a.components() != nullptr, b.components() != nullptr) << what;
  if (a.components()) {
    EXPECT_EQ(a.components()->labels(), b.components()->labels()) << what;
  }
}

// A version's quadtree, its nodes away from the edit taken from the version before, equals the
// tree built whole from the edited scene after random edits, with portal and centre nodes,
// corner contacts, a clearance cost and the plateau's one-way moves; most updates classify
// less than half the boxes a whole build does. A balanced tree is built whole, and still equal.
TEST(EditablePlanner, QuadtreesUpdatedAroundAnEditEqualTreesBuiltWhole) {
  const std::vector<Settings> variants = {
      {},
      {{"quadtree.nodes", "centres"}},
      {{"quadtree.corners", "true"}},
      {{"space.clearance_distance", "1.5"}},
      {{"quadtree.min_cell", "0.1"}},
      {{"quadtree.balance", "true"}},
  };
  for (const auto& variant : variants) {
    std::string name;
    PlanOptions options = grid_options(variant, name);
    options.method = "quadtree";
    std::mt19937_64 rng(std::hash<std::string>()(name) ^ 9);
    const Scene scene = with_plateau(warehouse());
    Model model(scene);
    EditablePlanner live(scene, options);
    std::size_t local = 0;
    for (int step = 1; step <= 5; ++step) {
      live.apply(plateau_batch(model, rng, step));
      const std::string what = name + " step " + std::to_string(step);
      const Planner scratch(model.scene(), options);
      const auto& updated = dynamic_cast<const Quadtree&>(live.planner()->discretisation());
      const auto& whole = dynamic_cast<const Quadtree&>(scratch.discretisation());
      expect_same_tree(updated, whole, what);
      if (2 * updated.classified_boxes() < whole.classified_boxes()) ++local;
    }
    if (options.settings.has("quadtree.balance")) {
      EXPECT_EQ(local, 0u) << name;
    } else {
      EXPECT_GE(local, 3u) << name;
    }
  }
}

// Replanning: after random edits of obstacles and regions and moves of the start along the
// path, each repaired answer has the status of the version's own plan() and the cost of a cheapest
// path on its grid (the query driver's A*: an independent search), on grids of every
// connectivity and alignment, with jump point search, and with the warehouse's one-way moves
// (a ramp with a climb limit); the repairs reuse the search (not fresh) and see the edits'
// changed nodes.
TEST(Replanner, RepairedAnswersCostWhatAFreshSearchOfEachVersionFinds) {
  const std::vector<Settings> variants = {{},
                                          {{"grid.connectivity", "4"}},
                                          {{"grid.connectivity", "16"}},
                                          {{"grid.align", "corner"}},
                                          {{"grid.search", "jps"}}};
  for (const auto& variant : variants) {
    std::string name;
    const PlanOptions options = grid_options(variant, name);
    std::mt19937_64 rng(std::hash<std::string>()(name));
    Scene scene = warehouse();
    // The warehouse's ramp with a climb limit makes some moves one way; corner-aligned grids
    // take no climb limit.
    if (options.settings.has("grid.align")) scene.agent.max_climb = INFINITY;
    Model model(scene);
    EditablePlanner live(scene, options);
    const Point goal{38, 20};
    Replanner route(live, goal);
    Point start{2, 1.5};
    int repaired = 0, changed = 0, found = 0;
    QueryWorkspace workspace;
    for (int step = 0; step < 8; ++step) {
      if (step > 0) live.apply(random_batch(model, rng));
      const PlanResult a = route.plan(start), b = live.plan(start, goal);
      ASSERT_EQ(a.status, b.status) << name << " step " << step << ": " << a.message;
      const Replanner::Repair& repair = route.last_repair();
      if (a.found()) {
        const OccupancyGrid& grid = grid_of(*live.planner());
        workspace.astar.reserve(grid.node_count() + 2);
        const RawPath oracle = find_path(grid, start, goal, QueryOptions{}, workspace);
        ASSERT_TRUE(oracle.status == search::SearchStatus::found) << oracle.message;
        EXPECT_NEAR(repair.cost, oracle.graph_cost, 1e-9 * oracle.graph_cost)
            << name << " step " << step;
        EXPECT_FALSE(a.waypoints.empty());
        ++found;
        // On along the path: the next start is a point of it.
        start = a.raw_waypoints[std::min<std::size_t>(3, a.raw_waypoints.size() - 1)];
      }
      EXPECT_EQ(repair.version, live.version());
      repaired += repair.fresh ? 0 : 1;
      changed += int(repair.changed_nodes);
    }
    EXPECT_GE(found, 6) << name;
    EXPECT_GE(repaired, 4) << name;
    EXPECT_GT(changed, 0) << name;
  }
}

// What a repair saves: moving the start along its path re-expands a few nodes, and a pallet
// dropped on the path fewer than a fresh search on the edited scene expands.
TEST(Replanner, RepairsExpandLessThanFreshSearches) {
  EditablePlanner live(warehouse());
  const Point goal{38, 20};
  Replanner route(live, goal);
  const PlanResult first = route.plan({2, 1.5});
  ASSERT_TRUE(first.found()) << first.message;
  ASSERT_GT(first.raw_waypoints.size(), 6u);
  const Point on = first.raw_waypoints[3];
  const PlanResult moved = route.plan(on);
  ASSERT_TRUE(moved.found());
  EXPECT_LT(moved.stats.expanded * 4, first.stats.expanded)
      << moved.stats.expanded << " expanded after the move, " << first.stats.expanded
      << " at first";

  const Point across = first.raw_waypoints[first.raw_waypoints.size() / 2];
  SceneEdit pallet;
  pallet.shape.outer = box(across - Point{0.6, 0.6}, across + Point{0.6, 0.6});
  live.apply(std::span(&pallet, 1));
  const PlanResult repaired = route.plan(on);
  Replanner fresh_route(live, goal);
  const PlanResult fresh = fresh_route.plan(on);
  ASSERT_EQ(repaired.status, fresh.status);
  EXPECT_FALSE(route.last_repair().fresh);
  EXPECT_TRUE(fresh_route.last_repair().fresh);
  EXPECT_GT(route.last_repair().changed_nodes, 0u);
  EXPECT_LT(repaired.stats.expanded, fresh.stats.expanded);
  if (repaired.found()) {
    EXPECT_NEAR(repaired.raw_length, fresh.raw_length, 1e-9 * fresh.raw_length);
  }
}

// A mesh's corridor followed by an agent that moves along its path while obstacles and regions
// come, go and move: every answer is as short as the edited version's own Polyanya search finds
// (from a point of the last path the rest of it is a shortest path, and an edit that could open
// a shorter way makes the replanner search again), and the corridor is followed, not searched,
// on most steps, edits included.
TEST(Replanner, AMeshCorridorFollowedAlongItsPathStaysShortestThroughRandomEdits) {
  PlanOptions options;
  options.method = "navmesh";
  options.settings.set("navmesh.search", "optimal");
  int followed = 0, followed_after_edit = 0, found = 0;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    std::mt19937_64 rng(seed);
    const Scene scene = warehouse();
    Model model(scene);
    EditablePlanner live(scene, options);
    const Point goal{38, 20};
    Replanner route(live, goal);
    Point start{2, 1.5};
    for (int step = 0; step < 10; ++step) {
      const bool edit = step > 0 && step % 2 == 0;
      if (edit) live.apply(random_batch(model, rng));
      const PlanResult a = route.plan(start), b = live.plan(start, goal);
      const Replanner::Repair& repair = route.last_repair();
      ASSERT_EQ(a.status, b.status) << "seed " << seed << " step " << step << ": " << a.message;
      EXPECT_EQ(repair.version, live.version());
      if (!a.found()) {
        start = {2, 1.5};  // walled in: start again where it began
        continue;
      }
      ++found;
      EXPECT_NEAR(a.raw_length, b.raw_length, 1e-9 * b.raw_length)
          << "seed " << seed << " step " << step << (repair.fresh ? " (searched)" : " (followed)");
      EXPECT_NEAR(repair.cost, a.raw_length, 1e-9 * a.raw_length);
      if (!repair.fresh) {
        ++followed;
        followed_after_edit += edit ? 1 : 0;
        EXPECT_EQ(a.stats.expanded, 0u);
      }
      // On along the path: the next start is a point of it.
      start = a.raw_waypoints[std::min<std::size_t>(1, a.raw_waypoints.size() - 1)];
    }
  }
  // What the test exercises: of 160 steps, 64 after an edit.
  EXPECT_GE(found, 120);
  EXPECT_GE(followed, 60);
  EXPECT_GE(followed_after_edit, 8);
}

// The three ways a mesh's corridor gives way: an edit out of reach keeps it, an edit that opens a
// shorter way (a wall removed) and one that blocks it (a pallet on the path) make the replanner
// search again; and a start off the corridor is searched from.
TEST(Replanner, AMeshCorridorIsSearchedAgainWhereAnEditCouldShortenOrBlockIt) {
  Scene scene;
  scene.name = "wall";
  scene.bounds = box({0, 0}, {40, 20});
  scene.agent.radius = 0.5;
  scene.obstacles.push_back({{box({19, 0}, {21, 16}), {}}, {}});  // the way is over its top
  for (const std::string search : {"optimal", "graph"}) {
    PlanOptions options;
    options.method = "navmesh";
    options.settings.set("navmesh.search", search);
    EditablePlanner live(scene, options);
    const Point goal{35, 2};
    Replanner route(live, goal);
    const Point start{5, 2};
    const PlanResult over = route.plan(start);
    ASSERT_TRUE(over.found()) << over.message;
    EXPECT_TRUE(route.last_repair().fresh);
    EXPECT_GT(over.raw_length, 40.0) << search;  // over the wall: up to y = 16.5 and down

    // Out of reach: farther from start and goal together than the path is long, and clear of
    // the bounds (an obstacle that meets them changes their edges).
    SceneEdit far;
    far.shape.outer = box({1.5, 14}, {2.5, 15});
    live.apply(std::span(&far, 1));
    const PlanResult kept = route.plan(start);
    ASSERT_TRUE(kept.found()) << kept.message;
    EXPECT_FALSE(route.last_repair().fresh) << search;
    EXPECT_EQ(kept.stats.expanded, 0u);
    // Polyanya's path is the corridor's shortest; the graph's, through its nodes, may be longer.
    if (search == "optimal") {
      EXPECT_NEAR(kept.raw_length, over.raw_length, 1e-9 * over.raw_length);
    }
    EXPECT_LE(kept.raw_length, over.raw_length * (1 + 1e-9)) << search;

    SceneEdit open;  // the wall goes: the straight way opens
    open.kind = SceneEdit::Kind::remove_obstacle;
    open.id = 0;
    live.apply(std::span(&open, 1));
    const PlanResult straight = route.plan(start);
    ASSERT_TRUE(straight.found()) << straight.message;
    EXPECT_TRUE(route.last_repair().fresh) << search;
    EXPECT_NEAR(straight.raw_length, 30.0, 1e-9) << search;

    SceneEdit pallet;  // on the straight path
    pallet.shape.outer = box({14, 0}, {16, 5});
    live.apply(std::span(&pallet, 1));
    const PlanResult around = route.plan(start);
    ASSERT_TRUE(around.found()) << around.message;
    EXPECT_TRUE(route.last_repair().fresh) << search;
    EXPECT_GT(around.raw_length, 30.0) << search;
    const PlanResult fresh = live.plan(start, goal);
    EXPECT_NEAR(around.raw_length, fresh.raw_length, 1e-9 * fresh.raw_length) << search;

    const PlanResult off = route.plan({5, 18});  // far off the corridor, which runs low
    ASSERT_TRUE(off.found()) << off.message;
    EXPECT_TRUE(route.last_repair().fresh) << search;
  }
}

// In a weighted scene the funnel would shorten what the mesh's graph search made cheapest: there
// every answer is searched (Polyanya, minimising length, still follows its corridor).
TEST(Replanner, AMeshGraphSearchInAWeightedSceneIsSearchedEveryTime) {
  PlanOptions options;
  options.method = "navmesh";
  options.settings.set("navmesh.search", "graph");
  EditablePlanner live(warehouse(), options);
  ASSERT_TRUE(live.planner()->free_space().weighted());
  Replanner route(live, {38, 20});
  PlanResult r = route.plan({2, 1.5});
  ASSERT_TRUE(r.found()) << r.message;
  r = route.plan(r.raw_waypoints[1]);
  ASSERT_TRUE(r.found()) << r.message;
  EXPECT_TRUE(route.last_repair().fresh);
}

TEST(Replanner, OtherMethodsAreRefused) {
  PlanOptions visgraph;
  visgraph.method = "visgraph";
  EditablePlanner a(warehouse(), visgraph);
  EXPECT_EQ(caught([&] { Replanner r(a, {38, 20}); }).where().key_path, "method");
  PlanOptions theta;
  theta.settings.set("grid.search", "theta");
  EditablePlanner b(warehouse(), theta);
  EXPECT_EQ(caught([&] { Replanner r(b, {38, 20}); }).where().key_path, "grid.search");
}

TEST(EditablePlanner, AddedIdsAreReturnedAndNeverReused) {
  const Scene scene = warehouse();
  EditablePlanner live(scene);
  const std::size_t n = scene.obstacles.size();
  SceneEdit add;
  add.shape.outer = box({20, 10}, {21, 11});
  SceneEdit region;
  region.kind = SceneEdit::Kind::add_region;
  region.region.cost = 2;
  region.region.polygon = box({1, 1}, {3, 3});
  const std::vector<SceneEdit> batch = {add, region, add};
  const EditablePlanner::Applied a = live.apply(batch);
  EXPECT_EQ(a.added, (std::vector<std::size_t>{n, scene.regions.size(), n + 1}));
  SceneEdit remove;
  remove.kind = SceneEdit::Kind::remove_obstacle;
  remove.id = n + 1;
  live.apply(std::span(&remove, 1));
  const EditablePlanner::Applied b = live.apply(std::span(&add, 1));
  EXPECT_EQ(b.added, std::vector<std::size_t>{n + 2}) << "a removed id is not taken again";
}

TEST(EditablePlanner, AFailedBatchChangesNothing) {
  const Scene scene = warehouse();
  EditablePlanner live(scene);
  const std::shared_ptr<const Scene> before = live.scene();
  SceneEdit add;
  add.shape.outer = box({20, 10}, {21, 11});
  SceneEdit missing;
  missing.kind = SceneEdit::Kind::remove_obstacle;
  missing.id = 999;
  std::vector<SceneEdit> batch = {add, missing};
  const InputError e = caught([&] { live.apply(batch); });
  EXPECT_EQ(e.where().key_path, "edits[1]");
  EXPECT_NE(e.message().find("no obstacle has id 999"), std::string::npos) << e.message();
  EXPECT_EQ(live.version(), 0u);
  EXPECT_EQ(live.scene(), before);
  // A self-crossing ring, a region of no cost, a translation to infinity.
  SceneEdit bowtie;
  bowtie.shape.outer = {{20, 10}, {22, 12}, {22, 10}, {20, 12}};
  SceneEdit free_region;
  free_region.kind = SceneEdit::Kind::add_region;
  free_region.region.polygon = box({1, 1}, {3, 3});
  free_region.region.cost = 0;
  SceneEdit far;
  far.kind = SceneEdit::Kind::move_obstacle;
  far.id = 0;
  far.by = {INFINITY, 0};
  SceneEdit huge;
  huge.kind = SceneEdit::Kind::move_obstacle;
  huge.id = 0;
  huge.by = {1e300, 0};
  for (const SceneEdit& bad : {bowtie, free_region, far, huge}) {
    batch = {add, bad};
    const InputError b = caught([&] { live.apply(batch); });
    EXPECT_FALSE(b.message().empty());
    EXPECT_EQ(live.version(), 0u) << b.message();
    EXPECT_EQ(live.scene(), before);
  }
}

TEST(EditablePlanner, AStartAnEditCoversIsAnInvalidQueryAndTheOldPlannerStillAnswers) {
  EditablePlanner live(warehouse());
  const Point start{20.5, 10.5}, goal{2, 1.5};
  const std::shared_ptr<const Planner> old = live.planner();
  ASSERT_TRUE(live.plan(start, goal).found());
  SceneEdit cover;
  cover.shape.outer = box({20, 10}, {21, 11});
  const EditablePlanner::Applied a = live.apply(std::span(&cover, 1));
  const PlanResult r = live.plan(start, goal);
  EXPECT_EQ(r.status, search::SearchStatus::invalid_query);
  EXPECT_FALSE(r.message.empty());
  EXPECT_TRUE(old->plan(start, goal).found()) << "a planner taken before the edit keeps its scene";
  SceneEdit uncover;
  uncover.kind = SceneEdit::Kind::remove_obstacle;
  uncover.id = a.added.front();
  live.apply(std::span(&uncover, 1));
  EXPECT_TRUE(live.plan(start, goal).found());
}

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("polynav_edits_" + name);
  std::ofstream(p) << text;
  return p;
}

TEST(SceneEdits, FileOfTimedEditsIsReadInBatches) {
  const fs::path p = write("good.yaml", R"(version: 1
edits:
  - time: 1
    add_obstacle: [[20, 10], [21, 10], [21, 11], [20, 11]]
  - time: 1
    move_obstacle: {id: 0, by: [0.5, 0]}
  - time: 2.5
    add_region: {name: spill, cost: 4, polygon: [[1, 1], [3, 1], [3, 3]]}
  - time: 3
    remove_obstacle: 2
  - time: 3
    remove_region: 0
  - time: 4
    move_region: {id: 1, by: [1, 1]}
    )");
  const std::vector<TimedEdits> steps = load_scene_edits(p);
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].time, 1.0);
  ASSERT_EQ(steps[0].edits.size(), 2u);
  EXPECT_EQ(steps[0].edits[0].kind, SceneEdit::Kind::add_obstacle);
  EXPECT_EQ(steps[0].edits[0].shape.outer.size(), 4u);
  EXPECT_EQ(steps[0].edits[1].kind, SceneEdit::Kind::move_obstacle);
  EXPECT_EQ(steps[0].edits[1].by, (Point{0.5, 0}));
  EXPECT_EQ(steps[1].edits[0].region.name, "spill");
  EXPECT_EQ(steps[1].edits[0].region.cost, 4.0);
  EXPECT_EQ(steps[2].edits.size(), 2u);
  EXPECT_EQ(steps[2].edits[0].id, 2u);
  EXPECT_EQ(steps[3].edits[0].kind, SceneEdit::Kind::move_region);
  EXPECT_EQ(steps[0].edits[1].where.line, 5);  // the item's first line
  // Applied to the warehouse, in order.
  Scene scene = warehouse();
  SceneIds ids = SceneIds::of(scene);
  for (const TimedEdits& t : steps) apply_edits(scene, ids, t.edits);
  EXPECT_EQ(scene.obstacles.size(), warehouse().obstacles.size());
  fs::remove(p);
}

// The example the docs name applies to the warehouse as its comments say.
TEST(SceneEdits, TheBundledExampleAppliesToTheWarehouse) {
  const std::vector<TimedEdits> steps =
      load_scene_edits(fs::path(POLYNAV_SOURCE_DIR) / "examples" / "warehouse-edits.yaml");
  EditablePlanner live(warehouse());
  for (const TimedEdits& t : steps) live.apply(t.edits);
  EXPECT_EQ(live.version(), steps.size());
  EXPECT_EQ(live.scene()->obstacles.size(), warehouse().obstacles.size());
  EXPECT_EQ(live.scene()->regions.size(), warehouse().regions.size());
}

TEST(SceneEdits, BadFilesAreRefusedWhereTheyAreWrong) {
  const std::vector<std::tuple<std::string, std::string, int, std::string>> cases = {
      {"decreasing",
       "version: 1\nedits:\n  - {time: 2, remove_obstacle: 0}\n"
       "  - {time: 1, remove_obstacle: 1}\n",
       4, "never decrease"},
      {"two", "version: 1\nedits:\n  - time: 1\n    remove_obstacle: 0\n    remove_region: 0\n", 5,
       "one edit per item"},
      {"none", "version: 1\nedits:\n  - time: 1\n", 3, "no edit"},
      {"id", "version: 1\nedits:\n  - {time: 1, remove_obstacle: 1.5}\n", 3, "whole number"},
      {"bowtie",
       "version: 1\nedits:\n  - time: 1\n    add_obstacle: [[0, 0], [2, 2], [2, 0], [0, 2]]\n", 4,
       ""},
      {"unknown", "version: 1\nedits:\n  - {time: 1, delete_obstacle: 0}\n", 3, "delete_obstacle"},
      {"version", "edits: []\n", 1, "version"},
  };
  for (const auto& [name, text, line, words] : cases) {
    const fs::path p = write(name + ".yaml", text);
    const InputError e = caught([&] { load_scene_edits(p); });
    EXPECT_EQ(e.where().file, p.string()) << name;
    EXPECT_EQ(e.where().line, line) << name << ": " << e.what();
    EXPECT_NE(e.message().find(words), std::string::npos) << name << ": " << e.message();
    fs::remove(p);
  }
  EXPECT_THROW(load_scene_edits("/nonexistent/edits.yaml"), InputError);
}

}  // namespace
}  // namespace polynav
