// Adaptive quadtree: leaves against FreeSpace and against each other (tiling, minimality,
// balance), arcs against a brute-force adjacency and exact motion checks, attachment, budgets,
// and reachability against the occupancy grid of the same finest cell size.
#include "polynav/discretise/quadtree/quadtree.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>

#include "discretise/random_scenes.hpp"
#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/smooth/path_simplifier.hpp"
#include "polynav/space/free_space.hpp"
#include "scene/error_of.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

using test::random_scene;
using test::rect;

bool inside_open(const Box& b, Point p) {
  return p.x > b.min.x && p.x < b.max.x && p.y > b.min.y && p.y < b.max.y;
}

// The length of the boundary two closed boxes share: positive when they share a piece of a side,
// 0 when they touch at a corner only, negative when they do not touch (or overlap).
double shared_length(const Box& a, const Box& b) {
  const double ox = std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x);
  const double oy = std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y);
  if (ox == 0.0 && oy >= 0.0) return oy;
  if (oy == 0.0 && ox >= 0.0) return ox;
  return -1.0;
}

std::vector<Point> arc_polyline(const Quadtree& tree, search::NodeId u, search::NodeId v) {
  std::vector<Point> line = {tree.node_position(u)};
  tree.arc_points(u, v, line);
  line.push_back(tree.node_position(v));
  return line;
}

TEST(Quadtree, LeavesTileTheRootWithoutOverlap) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const FreeSpace space(random_scene(seed, seed % 2 ? 0.0 : 0.3));
    QuadtreeOptions options;
    options.min_cell = 0.3;
    const Quadtree tree(space, options);
    const Box root = tree.root_box();
    // Areas sum to the root's (in bottom cells, exactly).
    std::uint64_t cells = 0;
    for (const QuadtreeLeaf& leaf : tree.leaves()) {
      const std::uint64_t s = std::uint64_t{1} << (tree.depth() - leaf.level);
      cells += s * s;
    }
    EXPECT_EQ(cells, std::uint64_t{1} << (2 * tree.depth()));
    EXPECT_LE(root.min.x, space.box().min.x);
    EXPECT_LE(root.min.y, space.box().min.y);
    EXPECT_GE(root.max.x, space.box().max.x);
    EXPECT_GE(root.max.y, space.box().max.y);
    // Random points lie in the interior of exactly one leaf (a scan of every leaf, not the
    // tree's own point location).
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> ux(root.min.x, root.max.x), uy(root.min.y, root.max.y);
    for (int k = 0; k < 300; ++k) {
      const Point p{ux(rng), uy(rng)};
      int containing = 0;
      for (const QuadtreeLeaf& leaf : tree.leaves())
        containing += inside_open(tree.leaf_box(leaf), p) ? 1 : 0;
      EXPECT_EQ(containing, 1) << p.x << "," << p.y;
    }
  }
}

// A free leaf lies in free space: its sides are in line of sight, its centre is free and no
// boundary vertex lies inside it (an oracle independent of classify), and classify agrees.
// Blocked leaves above the bottom level have no free interior point.
TEST(Quadtree, EveryFreeLeafIsFreeAndBlockedLeavesAreBlocked) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const FreeSpace space(random_scene(seed, seed % 2 ? 0.0 : 0.3));
    QuadtreeOptions options;
    options.min_cell = 0.25;
    const Quadtree tree(space, options);
    std::size_t free_leaves = 0;
    for (const QuadtreeLeaf& leaf : tree.leaves()) {
      const Box b = tree.leaf_box(leaf);
      if (!leaf.free) {
        if (leaf.level < tree.depth()) {
          EXPECT_EQ(space.classify(b), BoxClass::blocked);
        }
        continue;
      }
      ++free_leaves;
      const Point a = b.min, c = b.max, p{c.x, a.y}, q{a.x, c.y};
      bool vertex_inside = false;
      for (const BoundaryRing& ring : space.boundary())
        for (const Point& v : ring.points) vertex_inside = vertex_inside || inside_open(b, v);
      EXPECT_TRUE(space.line_of_sight(a, p) && space.line_of_sight(p, c) &&
                  space.line_of_sight(c, q) && space.line_of_sight(q, a));
      EXPECT_TRUE(space.is_free({0.5 * (a.x + c.x), 0.5 * (a.y + c.y)}));
      EXPECT_FALSE(vertex_inside);
      EXPECT_EQ(space.classify(b), BoxClass::free);
    }
    EXPECT_EQ(free_leaves, tree.free_leaf_count());
    EXPECT_GT(free_leaves, 50u);
  }
}

// The tree is as coarse as the rules allow: no four sibling leaves that are all free could have
// been one free leaf, and no blocked siblings one blocked leaf.
TEST(Quadtree, NoFourSiblingsCouldBeOneLeaf) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const FreeSpace space(random_scene(seed, 0.2));
    QuadtreeOptions options;
    options.min_cell = 0.2;
    const Quadtree tree(space, options);
    std::map<std::tuple<std::uint32_t, std::uint32_t, int>, std::vector<const QuadtreeLeaf*>>
        families;
    for (const QuadtreeLeaf& leaf : tree.leaves()) {
      if (leaf.level == 0) continue;
      const std::uint32_t s = std::uint32_t{1} << (tree.depth() - leaf.level + 1);
      families[{leaf.x / s * s, leaf.y / s * s, leaf.level - 1}].push_back(&leaf);
    }
    int merged = 0;
    for (const auto& [parent, children] : families) {
      if (children.size() != 4) continue;
      const bool all_free = std::all_of(children.begin(), children.end(),
                                        [](const QuadtreeLeaf* l) { return l->free; });
      const bool all_blocked = std::none_of(children.begin(), children.end(),
                                            [](const QuadtreeLeaf* l) { return l->free; });
      const auto [x, y, level] = parent;
      const Box b = tree.leaf_box({x, y, std::uint8_t(level), false});
      if (all_free) {
        EXPECT_NE(space.classify(b), BoxClass::free);
      }
      if (all_blocked) {
        // Mixed bottom cells are blocked leaves: their parent may be mixed, never blocked.
        EXPECT_NE(space.classify(b), BoxClass::blocked);
        ++merged;
      }
    }
    // Far fewer free leaves than free grid cells of the same size.
    GridOptions grid_options;
    grid_options.resolution = tree.cell_size();
    const OccupancyGrid grid(space, grid_options);
    std::size_t free_cells = 0;
    for (int cy = 0; cy < grid.height(); ++cy)
      for (int cx = 0; cx < grid.width(); ++cx) free_cells += grid.blocked(cx, cy) ? 0 : 1;
    EXPECT_LT(2 * tree.free_leaf_count(), free_cells);
  }
}

// Centre nodes: arcs join exactly the free leaves sharing a piece of side (brute force over all
// pairs), each with a valid motion whose exact cost is the arc's cost.
TEST(Quadtree, ArcsJoinExactlyTheLeavesSharingASideWithValidMotions) {
  for (bool corners : {false, true}) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE(std::to_string(seed) + (corners ? " corners" : ""));
      const FreeSpace space(random_scene(seed, 0.1));
      QuadtreeOptions options;
      options.min_cell = 0.4;
      options.corners = corners;
      options.nodes = QuadtreeNodes::centres;
      const Quadtree tree(space, options);
      const PathSimplifier checker(space);
      std::set<std::pair<search::NodeId, search::NodeId>> arcs;
      for (search::NodeId u = 0; u < tree.node_count(); ++u)
        tree.for_each_neighbour(u, [&](search::NodeId v, double cost) {
          EXPECT_TRUE(arcs.insert({u, v}).second) << "repeated arc";
          const std::vector<Point> line = arc_polyline(tree, u, v);
          EXPECT_TRUE(checker.is_valid(line));
          EXPECT_NEAR(cost, space.path_cost(line), 1e-9 * cost);
          EXPECT_GE(cost, distance(line.front(), line.back()) * (1 - 1e-12));
        });
      int corner_pairs = 0;
      for (search::NodeId u = 0; u < tree.node_count(); ++u)
        for (search::NodeId v = 0; v < tree.node_count(); ++v) {
          if (u == v) continue;
          const double shared =
              shared_length(tree.leaf_box(tree.node_leaf(u)), tree.leaf_box(tree.node_leaf(v)));
          bool expected = shared > 0.0;
          if (corners && shared == 0.0) {
            ++corner_pairs;
            expected = checker.is_valid(arc_polyline(tree, u, v));
          }
          EXPECT_EQ(arcs.count({u, v}) == 1, expected) << u << " -> " << v;
        }
      if (corners) {
        EXPECT_GT(corner_pairs, 0);
      }
    }
  }
}

// 2:1 balance: leaves sharing a piece of side differ by at most one level.
TEST(Quadtree, BalanceLimitsNeighbourLevels) {
  const FreeSpace space(random_scene(7, 0.2));
  QuadtreeOptions options;
  options.min_cell = 0.1;
  const Quadtree plain(space, options);
  options.balance = true;
  const Quadtree balanced(space, options);
  EXPECT_GT(balanced.leaves().size(), plain.leaves().size());
  int unbalanced_before = 0;
  const auto count_unbalanced = [](const Quadtree& tree) {
    int bad = 0;
    const auto& leaves = tree.leaves();
    for (const QuadtreeLeaf& a : leaves)
      for (const QuadtreeLeaf& b : leaves)
        if (shared_length(tree.leaf_box(a), tree.leaf_box(b)) > 0.0 && b.level > a.level + 1) ++bad;
    return bad;
  };
  unbalanced_before = count_unbalanced(plain);
  EXPECT_GT(unbalanced_before, 0);
  EXPECT_EQ(count_unbalanced(balanced), 0);
}

TEST(Quadtree, PointsOnSidesAndCornersAttachToALeafContainingThem) {
  Scene scene;
  scene.bounds = rect(0, 0, 16, 16);
  scene.obstacles.push_back({{rect(5, 5, 7, 6), {}}, {}});
  const FreeSpace space(scene);
  QuadtreeOptions options;
  options.min_cell = 1.0;
  options.nodes = QuadtreeNodes::centres;
  const Quadtree tree(space, options);
  std::vector<Attachment> out;
  for (const QuadtreeLeaf& leaf : tree.leaves()) {
    if (!leaf.free) continue;
    const Box b = tree.leaf_box(leaf);
    for (const Point p :
         {b.min, b.max, Point{b.min.x, b.max.y}, Point{0.5 * (b.min.x + b.max.x), b.min.y}}) {
      if (!space.is_free(p)) continue;
      tree.attach(p, AttachDirection::from_point, out);
      ASSERT_EQ(out.size(), 1u) << p.x << "," << p.y;
      const Box joined = tree.leaf_box(tree.node_leaf(out[0].node));
      EXPECT_TRUE(p.x >= joined.min.x && p.x <= joined.max.x && p.y >= joined.min.y &&
                  p.y <= joined.max.y);
      EXPECT_DOUBLE_EQ(out[0].cost, distance(p, tree.node_position(out[0].node)));
    }
  }
}

// Every free grid cell of the same size lies in a free leaf and the leaves' arcs cover the grid's
// moves, so the quadtree finds a path wherever the grid does; and every path it finds is valid.
void expect_found_where_grid_finds(const Scene& scene, const std::vector<Query>& queries,
                                   std::optional<double> cell, const char* nodes) {
  SCOPED_TRACE(nodes);
  PlanOptions grid_options, tree_options;
  grid_options.method = "grid";
  tree_options.method = "quadtree";
  tree_options.settings.set("quadtree.nodes", nodes);
  if (cell) {
    grid_options.settings.set("grid.resolution", *cell);
    tree_options.settings.set("quadtree.min_cell", *cell);
  }
  auto space = std::make_shared<const FreeSpace>(scene);
  const Planner grid(space, grid_options), tree(space, tree_options);
  const PathSimplifier checker(*space);
  int found = 0;
  for (const Query& q : queries) {
    if (!space->is_free(q.start) || !space->is_free(q.goal)) continue;
    const PlanResult g = grid.plan(q.start, q.goal);
    const PlanResult t = tree.plan(q.start, q.goal);
    if (t.found()) {
      EXPECT_TRUE(checker.is_valid(t.raw_waypoints));
      EXPECT_TRUE(checker.is_valid(t.waypoints));
    }
    EXPECT_NE(t.status, search::SearchStatus::no_path) << "quadtree: " << t.message;
    if (!g.found()) continue;
    ++found;
    EXPECT_TRUE(t.found()) << q.start.x << "," << q.start.y << " -> " << q.goal.x << "," << q.goal.y
                           << ": " << t.message;
  }
  EXPECT_GT(found, 0);
}

TEST(Quadtree, FindsAPathWhereverTheGridOfItsCellSizeDoes) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(seed);
    const Scene scene = random_scene(seed, seed % 2 ? 0.0 : 0.25);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coord(0.0, 20.0);
    std::vector<Query> queries;
    for (int k = 0; k < 40; ++k)
      queries.push_back({"", {coord(rng), coord(rng)}, {coord(rng), coord(rng)}, {}, {}});
    for (const char* nodes : {"portals", "centres"})
      expect_found_where_grid_finds(scene, queries, 0.4, nodes);
  }
}

TEST(Quadtree, FindsAPathWhereverTheGridDoesOnBundledMaps) {
  const fs::path dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "movingai";
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".map") continue;
    SCOPED_TRACE(entry.path().string());
    const Scene scene = load_scene(entry.path());
    fs::path scen = entry.path();
    scen += ".scen";
    std::vector<Query> queries = load_scenario(scen, scene);
    if (queries.size() > 200) queries.resize(200);
    for (const char* nodes : {"portals", "centres"})
      expect_found_where_grid_finds(scene, queries, std::nullopt, nodes);
  }
}

// A wall along leaf sides (a boundary edge traced both ways): no arc crosses it.
TEST(Quadtree, NoArcCrossesAWall) {
  Scene scene;
  scene.bounds = rect(0, 0, 8, 8);
  scene.free_boundary = {{{0, 0}, {4, 0}, {4, 6}, {4, 0}, {8, 0}, {8, 8}, {0, 8}}};
  const FreeSpace space(scene);
  for (const QuadtreeNodes nodes : {QuadtreeNodes::portals, QuadtreeNodes::centres}) {
    QuadtreeOptions options;
    options.min_cell = 1.0;
    options.nodes = nodes;
    const Quadtree tree(space, options);
    for (search::NodeId u = 0; u < tree.node_count(); ++u)
      tree.for_each_neighbour(u, [&](search::NodeId v, double) {
        const std::vector<Point> line = arc_polyline(tree, u, v);
        for (std::size_t k = 1; k < line.size(); ++k)
          EXPECT_TRUE(space.line_of_sight(line[k - 1], line[k]));
      });
    PlanOptions plan_options;
    plan_options.method = "quadtree";
    plan_options.settings.set("quadtree.min_cell", 1.0);
    plan_options.settings.set("quadtree.nodes",
                              nodes == QuadtreeNodes::portals ? "portals" : "centres");
    for (const char* smoother : {"none", "shortcut", "funnel"}) {
      plan_options.smoother = smoother;
      const Planner planner(scene, plan_options);
      const PlanResult r = planner.plan({3.5, 0.5}, {4.5, 0.5});
      ASSERT_TRUE(r.found()) << r.message;
      EXPECT_GT(r.cost, 11.0);  // around the top of the wall at (4, 6)
    }
  }
}

TEST(Quadtree, OneWayHeightStepsHaveNoComponentLabels) {
  Scene scene;
  scene.bounds = rect(0, 0, 12, 3);
  scene.agent.max_climb = 1.0;
  scene.regions.push_back({"plateau", 1.0, 2.0, rect(4, 0, 8, 3), {}});
  for (const char* nodes : {"portals", "centres"}) {
    SCOPED_TRACE(nodes);
    PlanOptions options;
    options.method = "quadtree";
    options.settings.set("quadtree.min_cell", 0.5);
    options.settings.set("quadtree.nodes", nodes);
    Planner planner(scene, options);
    EXPECT_EQ(planner.discretisation().components(), nullptr);
    EXPECT_EQ(planner.plan({1, 1.5}, {11, 1.5}).status, search::SearchStatus::no_path);
    EXPECT_EQ(planner.plan({11, 1.5}, {6, 1.5}).status, search::SearchStatus::no_path);
    EXPECT_TRUE(planner.plan({6, 1.5}, {11, 1.5}).found());
    EXPECT_TRUE(planner.plan({6, 1.5}, {1, 0.5}).found());
  }
}

TEST(Quadtree, CostRegionsSplitLeavesAndCostsAreExact) {
  Scene scene;
  scene.bounds = rect(0, 0, 16, 16);
  scene.regions.push_back({"mud", 4.0, std::nullopt, rect(3, 0, 9, 12), {}});
  const FreeSpace space(scene);
  QuadtreeOptions options;
  options.min_cell = 0.5;
  const Quadtree tree(space, options);
  for (const QuadtreeLeaf& leaf : tree.leaves()) {
    if (!leaf.free || leaf.level == tree.depth()) continue;
    const FieldRange r = space.cost_range(tree.leaf_box(leaf));
    EXPECT_EQ(r.lowest, r.highest);
  }
  PlanOptions plan_options;
  plan_options.method = "quadtree";
  plan_options.settings.set("quadtree.min_cell", 0.5);
  const Planner planner(scene, plan_options);
  const PlanResult r = planner.plan({1, 1}, {12, 1});
  ASSERT_TRUE(r.found());
  EXPECT_NEAR(r.cost, space.path_cost(r.waypoints), 1e-9 * r.cost);
  EXPECT_LT(r.cost, 4.0 * 11.0);  // around the mud, not through it
}

TEST(Quadtree, RefusesBadOptionsWithMessagesNamingTheOption) {
  Scene scene;
  scene.bounds = rect(0, 0, 10, 10);
  scene.obstacles.push_back({{{{2, 2}, {7, 3}, {4, 8}}, {}}, {}});
  const FreeSpace space(scene);
  QuadtreeOptions options;
  options.min_cell = 1e-5;
  options.max_leaves = 100000;
  try {
    Quadtree tree(space, options);
    ADD_FAILURE() << "tree beyond the budget accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("quadtree.max_leaves"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("quadtree.min_cell"), std::string::npos) << e.what();
  }
  // The message of a planner refusing `value` for `option` ("" when it is accepted).
  const auto refusal = [&](const std::string& option, const char* value) {
    PlanOptions o;
    o.method = "quadtree";
    o.settings.set(option, value);
    return test::error_of([&] { Planner planner(scene, o); });
  };
  for (const char* bad : {"0", "-1", "nan", "x"})
    EXPECT_NE(refusal("quadtree.min_cell", bad).find("quadtree.min_cell"), std::string::npos)
        << "min_cell " << bad;
  PlanOptions plan_options;
  plan_options.method = "quadtree";
  plan_options.settings.set("quadtree.max_depth", 31);
  EXPECT_THROW(Planner(scene, plan_options), InputError);
  for (const char* bad : {"middle", "", "portal"}) {
    EXPECT_NE(refusal("quadtree.nodes", bad).find("quadtree.nodes"), std::string::npos)
        << "nodes '" << bad << "'";
    EXPECT_NE(test::error_of([&] { (void)parse_quadtree_nodes(bad); }).find("quadtree.nodes"),
              std::string::npos)
        << "nodes '" << bad << "'";
  }
}

bool in_box(const Box& b, Point p) {
  return p.x >= b.min.x && p.x <= b.max.x && p.y >= b.min.y && p.y <= b.max.y;
}

// Portal nodes: each lies on the side (or corner) its two free leaves share, in free space; every
// arc joins two nodes of one leaf (or crosses a portal at one point) with a valid straight motion
// of exact cost; and every turn a path can make at a node (any arc in, any arc out) is free,
// checked by FreeSpace::turn_is_free, also at the corner nodes of leaves touching at a point,
// with zero-width gaps closed and open.
TEST(Quadtree, PortalNodesLieOnSharedSidesAndEveryArcAndTurnIsValid) {
  for (const bool open_gaps : {false, true})
    for (const bool corners : {false, true})
      for (unsigned seed = 1; seed <= 3; ++seed) {
        SCOPED_TRACE(std::to_string(seed) + (corners ? " corners" : "") +
                     (open_gaps ? " open gaps" : ""));
        FreeSpaceOptions space_options;
        space_options.open_gaps = open_gaps;
        const FreeSpace space(random_scene(seed, 0.1), space_options);
        QuadtreeOptions options;
        options.min_cell = 0.4;
        options.corners = corners;
        const Quadtree tree(space, options);
        ASSERT_EQ(tree.options().nodes, QuadtreeNodes::portals);  // the default
        const PathSimplifier checker(space);
        std::vector<std::vector<search::NodeId>> in(tree.node_count());
        std::size_t corner_nodes = 0;
        for (search::NodeId u = 0; u < tree.node_count(); ++u) {
          const Point p = tree.node_position(u);
          const auto [a, b] = tree.node_leaves(u);
          const Box ba = tree.leaf_box(tree.leaves()[a]), bb = tree.leaf_box(tree.leaves()[b]);
          EXPECT_TRUE(tree.leaves()[a].free && tree.leaves()[b].free);
          EXPECT_TRUE(in_box(ba, p) && in_box(bb, p));
          EXPECT_TRUE(space.is_free(p));
          if (a != b) {
            const double shared = shared_length(ba, bb);
            EXPECT_GE(shared, 0.0);
            const Segment s = tree.node_portal(u);
            EXPECT_EQ(exact::orientation(s.a, s.b, p), 0);
            EXPECT_NEAR(distance(s.a, s.b), shared, 1e-12);
            if (shared == 0.0) ++corner_nodes;
          }
          tree.for_each_neighbour(u, [&](search::NodeId v, double cost) {
            in[v].push_back(u);
            const Point q = tree.node_position(v);
            EXPECT_TRUE(checker.is_valid({p, q}));
            EXPECT_NEAR(cost, space.segment_cost(p, q), 1e-9 * cost);
            // Both ends on the boundary of one leaf.
            bool shared_leaf = false;
            for (const std::uint32_t x : tree.node_leaves(u))
              for (const std::uint32_t y : tree.node_leaves(v)) shared_leaf |= x == y;
            EXPECT_TRUE(shared_leaf || p == q);
          });
        }
        for (search::NodeId w = 0; w < tree.node_count(); ++w) {
          const Point at = tree.node_position(w);
          tree.for_each_neighbour(w, [&](search::NodeId v, double) {
            for (const search::NodeId u : in[w]) {
              if (u == v) continue;
              const Point from = tree.node_position(u), to = tree.node_position(v);
              if (from == at || to == at) continue;
              EXPECT_TRUE(space.turn_is_free(from, at, to))
                  << from.x << "," << from.y << " " << at.x << "," << at.y << " " << to.x << ","
                  << to.y;
            }
          });
        }
        if (corners && open_gaps) {
          EXPECT_GT(corner_nodes, 0u);
        }
      }
}

// No path is shorter than the exact Euclidean optimum (the visibility graph), raw or smoothed,
// with either node placement; every path is valid; start and goal in one leaf are joined
// straight.
TEST(Quadtree, PathsAreValidAndNeverShorterThanTheOptimum) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE(seed);
    auto space = std::make_shared<const FreeSpace>(random_scene(seed, seed % 2 ? 0.0 : 0.25));
    PlanOptions optimum_options;
    optimum_options.method = "visgraph";
    const Planner optimum(space, optimum_options);
    const PathSimplifier checker(*space);
    std::vector<std::unique_ptr<Planner>> planners;
    for (const char* nodes : {"portals", "centres"})
      for (const char* smoother : {"none", "shortcut", "funnel"}) {
        PlanOptions o;
        o.method = "quadtree";
        o.smoother = smoother;
        o.settings.set("quadtree.nodes", nodes);
        o.settings.set("quadtree.min_cell", 0.3);
        planners.push_back(std::make_unique<Planner>(space, o));
      }
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coord(0.0, 20.0);
    int compared = 0;
    for (int k = 0; k < 60; ++k) {
      const Point s{coord(rng), coord(rng)}, g{coord(rng), coord(rng)};
      if (!space->is_free(s) || !space->is_free(g)) continue;
      const PlanResult best = optimum.plan(s, g);
      for (const auto& planner : planners) {
        const PlanResult r = planner->plan(s, g);
        EXPECT_NE(r.status, search::SearchStatus::internal_error) << r.message;
        if (!r.found()) continue;
        EXPECT_TRUE(checker.is_valid(r.waypoints));
        EXPECT_TRUE(checker.is_valid(r.raw_waypoints));
        if (best.found()) {
          EXPECT_GE(r.length, best.length * (1 - 1e-9));
          EXPECT_GE(r.raw_length, best.length * (1 - 1e-9));
          ++compared;
        }
      }
    }
    EXPECT_GT(compared, 50);
  }
  // One leaf holds both ends: the straight segment.
  Scene scene;
  scene.bounds = rect(0, 0, 16, 16);
  scene.obstacles.push_back({{rect(13, 13, 14, 14), {}}, {}});
  PlanOptions o;
  o.method = "quadtree";
  o.settings.set("quadtree.min_cell", 1.0);
  const Planner planner(scene, o);
  const PlanResult r = planner.plan({1, 1}, {7, 6});
  ASSERT_TRUE(r.found());
  EXPECT_EQ(r.raw_waypoints.size(), 2u);
}

}  // namespace
}  // namespace polynav
