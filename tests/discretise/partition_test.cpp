// The navigation mesh's convex partition: its invariants (NavPartition::check) hold on rebuilt
// partitions of the bundled scenes, on the faces of .mesh files and on the visibility graph's
// boundary-only partitions; the check finds polygons over a hole and portals along a wall; a
// navigation mesh over a shared partition is the one it builds itself.
#include "polynav/discretise/navmesh/partition.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "polynav/discretise/navmesh/navmesh.hpp"
#include "polynav/discretise/navmesh/polyanya.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

const fs::path bundled = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
const fs::path shared = fs::path(POLYNAV_SHARED_DATA);

std::string joined(const std::vector<std::string>& problems) {
  std::string out;
  for (std::size_t i = 0; i < problems.size() && i < 10; ++i) out += "\n  " + problems[i];
  if (problems.size() > 10) out += "\n  ... " + std::to_string(problems.size() - 10) + " more";
  return out;
}

void expect_valid(const FreeSpace& space, const NavPartitionOptions& options) {
  const NavPartition partition(space, options);
  ASSERT_GT(partition.polygon_count(), 0u);
  const std::vector<std::string> problems = partition.check(space);
  EXPECT_TRUE(problems.empty()) << problems.size() << " problems:" << joined(problems);
}

class PartitionOnScene : public testing::TestWithParam<fs::path> {};

TEST_P(PartitionOnScene, RebuiltPartitionsHoldTheirInvariants) {
  const Scene scene = load_scene(GetParam());
  const FreeSpace space(scene);
  for (const bool merge : {true, false}) {
    for (const bool regions : {true, false}) {
      SCOPED_TRACE(std::string("merge ") + (merge ? "on" : "off") + ", regions " +
                   (regions ? "on" : "off"));
      NavPartitionOptions options;
      options.source = NavMeshSource::rebuild;
      options.merge = merge;
      options.regions = regions;
      expect_valid(space, options);
    }
  }
}

TEST_P(PartitionOnScene, AMeshOverASharedPartitionIsTheMeshItBuilds) {
  const Scene scene = load_scene(GetParam());
  const FreeSpace space(scene);
  NavMeshOptions options;
  options.source = NavMeshSource::rebuild;
  for (const NavMeshNodes nodes : {NavMeshNodes::vertices, NavMeshNodes::portals}) {
    options.nodes = nodes;
    const NavMesh own(space, options);
    const auto partition = std::make_shared<const NavPartition>(space, partition_options(options));
    const NavMesh over(space, partition, options);
    EXPECT_EQ(&over.partition(), partition.get());
    EXPECT_EQ(over.summary(), own.summary());
    ASSERT_EQ(over.node_count(), own.node_count());
    for (search::NodeId n = 0; n < own.node_count(); ++n) {
      ASSERT_EQ(over.node_position(n), own.node_position(n)) << "node " << n;
      std::vector<std::pair<search::NodeId, double>> a, b;
      own.for_each_neighbour(n, [&](search::NodeId m, double c) { a.emplace_back(m, c); });
      over.for_each_neighbour(n, [&](search::NodeId m, double c) { b.emplace_back(m, c); });
      ASSERT_EQ(a, b) << "node " << n;
    }
  }
  // A partition without region outlines is refused: its polygons may span costs.
  NavPartitionOptions boundary_only;
  boundary_only.regions = false;
  EXPECT_THROW(NavMesh(space, std::make_shared<const NavPartition>(space, boundary_only)),
               std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Bundled, PartitionOnScene,
                         testing::Values(bundled / "maze.yaml", bundled / "terrain.yaml",
                                         bundled / "office.yaml", bundled / "warehouse.yaml",
                                         bundled / "movingai" / "arena.map"),
                         [](const testing::TestParamInfo<fs::path>& param) {
                           std::string name = param.param.stem().string();
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// The faces of navigation mesh files as they are, and rebuilt.
TEST(NavPartition, MeshFilesHoldTheirInvariants) {
  std::vector<fs::path> files = {bundled / "mesh" / "walls-v3.mesh"};
  for (const char* name : {"arena.mesh", "arena-merged.mesh"})
    if (fs::exists(shared / "mesh" / name)) files.push_back(shared / "mesh" / name);
  if (files.size() == 1) std::printf("%s is not present: bundled meshes only\n", shared.c_str());
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const Scene scene = load_scene(file);
    const FreeSpace space(scene);
    NavPartitionOptions options;
    options.source = NavMeshSource::mesh;
    const NavPartition faces(space, options);
    EXPECT_TRUE(faces.stats().from_mesh);
    EXPECT_EQ(faces.polygon_count(), scene.mesh->face_count());
    const std::vector<std::string> problems = faces.check(space);
    EXPECT_TRUE(problems.empty()) << problems.size() << " problems:" << joined(problems);
    options.source = NavMeshSource::rebuild;
    expect_valid(space, options);
  }
}

// Polyanya's degenerate test meshes (collinear and ambiguous geometry, faces convex only up to
// rounding): their faces where they can serve, else rebuilt, and rebuilt.
TEST(NavPartition, DegenerateMeshesHoldTheirInvariants) {
  int meshes = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(bundled / "mesh" / "degenerate")) {
    if (entry.path().extension() != ".mesh") continue;
    SCOPED_TRACE(entry.path().string());
    ++meshes;
    const FreeSpace space(load_scene(entry.path()));
    for (const NavMeshSource source : {NavMeshSource::automatic, NavMeshSource::rebuild}) {
      NavPartitionOptions options;
      options.source = source;
      expect_valid(space, options);
    }
  }
  EXPECT_GE(meshes, 5);
}

// Polyanya's turning points are the partition's vertices whose free sector is wider than 180
// degrees: the corners of free space.
TEST(NavPartition, PolyanyaTurnsAtTheCornersOfFreeSpace) {
  const Scene scene = load_scene(bundled / "maze.yaml");
  const FreeSpace space(scene);
  const NavPartition partition(space);
  const Polyanya polyanya(partition);
  EXPECT_EQ(polyanya.turning_points(), space.corners().size());
  EXPECT_EQ(&polyanya.partition(), &partition);
}

// A square 4 x 4 with a wall from (2, 0) to (2, 3), given as a navigation mesh of three faces
// that share the wall's edge: the faces' partition is valid only where the file declares the wall.
Scene walled_square(bool wall_declared) {
  Scene scene;
  scene.bounds = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};
  scene.free_boundary = {{{0, 0}, {2, 0}, {2, 3}, {2, 0}, {4, 0}, {4, 4}, {0, 4}}};
  MeshFaces mesh;
  mesh.vertices = {{0, 0}, {2, 0}, {2, 3}, {4, 0}, {4, 4}, {0, 4}};
  for (const std::vector<std::uint32_t>& face :
       std::vector<std::vector<std::uint32_t>>{{0, 1, 2, 5}, {1, 3, 4, 2}, {2, 4, 5}})
    mesh.add_face(face);
  mesh.written = {{0, 0}, {1, 0}, {2, 0}};
  if (wall_declared) mesh.walls = {{1, 2}};
  mesh.join_faces();
  scene.mesh = std::make_shared<const MeshFaces>(mesh);
  return scene;
}

TEST(NavPartition, TheCheckFindsAPortalAlongAWall) {
  NavPartitionOptions options;
  options.source = NavMeshSource::mesh;
  const FreeSpace declared(walled_square(true));
  const std::vector<std::string> none = NavPartition(declared, options).check(declared);
  EXPECT_TRUE(none.empty()) << joined(none);

  const FreeSpace undeclared(walled_square(false));
  const NavPartition broken(undeclared, options);
  const std::vector<std::string> problems = broken.check(undeclared);
  ASSERT_FALSE(problems.empty());
  EXPECT_TRUE(std::any_of(problems.begin(), problems.end(), [](const std::string& p) {
    return p.find("lies along the boundary edge") != std::string::npos;
  })) << joined(problems);
}

// Two faces covering a square with a hole in it: both meet the hole's boundary inside.
TEST(NavPartition, TheCheckFindsPolygonsOverAHole) {
  Scene scene;
  scene.bounds = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  scene.free_boundary = {{{0, 0}, {10, 0}, {10, 10}, {0, 10}},
                         {{4, 4}, {4, 6}, {6, 6}, {6, 4}}};  // the hole, clockwise
  MeshFaces mesh;
  mesh.vertices = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  mesh.add_face(std::vector<std::uint32_t>{0, 1, 2});
  mesh.add_face(std::vector<std::uint32_t>{0, 2, 3});
  mesh.written = {{0, 0}, {1, 0}};
  mesh.join_faces();
  scene.mesh = std::make_shared<const MeshFaces>(mesh);
  const FreeSpace space(scene);
  NavPartitionOptions options;
  options.source = NavMeshSource::mesh;
  const NavPartition broken(space, options);
  ASSERT_EQ(broken.polygon_count(), 2u);
  const std::vector<std::string> problems = broken.check(space);
  for (const char* polygon : {"polygon 0 meets", "polygon 1 meets"})
    EXPECT_TRUE(
        std::any_of(problems.begin(), problems.end(),
                    [&](const std::string& p) { return p.find(polygon) != std::string::npos; }))
        << polygon << joined(problems);
  // Rebuilt from free space instead, the partition goes round the hole.
  options.source = NavMeshSource::rebuild;
  expect_valid(space, options);
}

}  // namespace
}  // namespace polynav
