// The query driver's shared steps: the workspace's per-type state, and attach_ends ruling out a
// goal set in another component of the graph without a search.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "discretise/random_scenes.hpp"
#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/discretise/query.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

using test::rect;

TEST(QueryWorkspace, KeepsOneObjectPerTypeMadeOnFirstUse) {
  QueryWorkspace ws;
  std::vector<int>& a = ws.state<std::vector<int>>(3, 7);  // made from the arguments
  EXPECT_EQ(a, std::vector<int>({7, 7, 7}));
  a.push_back(1);
  std::vector<int>& again = ws.state<std::vector<int>>(5, 0);  // kept: the arguments are unused
  EXPECT_EQ(&again, &a);
  EXPECT_EQ(again.size(), 4u);
  std::vector<double>& other = ws.state<std::vector<double>>();
  EXPECT_TRUE(other.empty());
  EXPECT_NE(static_cast<void*>(&other), static_cast<void*>(&a));
}

// Two rooms split by a wall that the free space's outline keeps apart only at the grid: a slot
// narrower than a cell joins the rooms in free space, but no free cell crosses it.
TEST(AttachEnds, AGoalSetInAnotherComponentOfTheGraphIsAnsweredWithoutASearch) {
  Scene scene;
  scene.bounds = rect(0, 0, 20, 10);
  scene.obstacles.push_back({{rect(9.5, 0, 10.5, 4.8), {}}, {}});
  scene.obstacles.push_back({{rect(9.5, 5.2, 10.5, 10), {}}, {}});
  const FreeSpace space(scene);
  GridOptions options;
  options.resolution = 1.0;
  const OccupancyGrid grid(space, options);
  const Point start{2.5, 5.5};
  const std::vector<Point> goals = {{17.5, 2.5}, {17.5, 7.5}};
  ASSERT_TRUE(space.is_free(start));
  ASSERT_EQ(space.component(start), space.component(goals[0]));  // one component of free space

  QueryWorkspace ws;
  std::size_t reached = 0;
  const RawPath set = find_path_to_any(grid, start, goals, {}, ws, reached);
  EXPECT_EQ(set.status, search::SearchStatus::no_path);
  EXPECT_EQ(set.message, "no_path: no goal of the set is reachable from the start");
  EXPECT_EQ(set.stats.expanded, 0u);  // answered by the component labels
  EXPECT_EQ(reached, goals.size());

  const RawPath one = find_path(grid, start, goals[0], {}, ws);
  EXPECT_EQ(one.status, search::SearchStatus::no_path);
  EXPECT_EQ(one.message,
            "no_path: start and goal attach to different connected components of the grid");
  EXPECT_EQ(one.stats.expanded, 0u);

  // A goal on the start's side is searched for and reached.
  const std::vector<Point> mixed = {goals[0], {4.5, 8.5}};
  const RawPath found = find_path_to_any(grid, start, mixed, {}, ws, reached);
  EXPECT_EQ(found.status, search::SearchStatus::found);
  EXPECT_EQ(reached, 1u);
}

}  // namespace
}  // namespace polynav
