// Polyanya meshes: invariants checked on every mesh available (bundled in scenes/mesh and, when
// present, ../shared/data/mesh), the mesh scenario, a cross-check against the grid tracer on cell
// patterns written as meshes, version 3 (blocked faces, walls, the same boundary as version 2),
// and a corpus of bad inputs.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "../../src/scene/readers.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

const fs::path bundled_dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "mesh";
const fs::path shared_dir = fs::path(POLYNAV_SHARED_DATA) / "mesh";
const fs::path corpus_dir = fs::path(POLYNAV_SOURCE_DIR) / "tests" / "corpus" / "bad_maps";

using EdgeKey = std::pair<std::pair<double, double>, std::pair<double, double>>;
EdgeKey key(Point a, Point b) {
  return {{a.x + 0.0, a.y + 0.0}, {b.x + 0.0, b.y + 0.0}};
}

// A mesh read by a deliberately naive parser (whitespace-separated numbers, no validation), with
// every face put in counter-clockwise order. Version 3 keeps only the traversable faces, and
// `walls` holds both directions of each constrained edge between two of them.
struct PlainMesh {
  std::vector<Point> vertices;
  std::vector<std::vector<Point>> faces;
  std::set<EdgeKey> walls;
};

PlainMesh read_plain_mesh(const fs::path& path) {
  std::ifstream in(path);
  std::string header;
  int version = 0;
  std::size_t v_count = 0;
  std::size_t p_count = 0;
  in >> header >> version >> v_count >> p_count;
  PlainMesh mesh;
  for (std::size_t i = 0; i < v_count; ++i) {
    Point p;
    in >> p.x >> p.y;
    int n = 0;
    if (version < 3) in >> n;
    for (int k = 0, skip = 0; k < n; ++k) in >> skip;
    mesh.vertices.push_back(p);
  }
  const int base = version < 3 ? 0 : 1;
  std::vector<std::vector<Point>> faces;
  std::vector<std::vector<long long>> neighbours;
  std::vector<bool> traversable;
  for (std::size_t i = 0; i < p_count; ++i) {
    int flag = 1;
    if (version == 3) in >> flag;
    traversable.push_back(flag == 1);
    int n = 0;
    in >> n;
    std::vector<Point> face;
    for (int k = 0, v = 0; k < n; ++k) {
      in >> v;
      face.push_back(mesh.vertices[std::size_t(v - base)]);
    }
    faces.push_back(face);
    neighbours.emplace_back(std::size_t(n));
    for (long long& k : neighbours.back()) in >> k;
  }
  for (std::size_t i = 0; i < faces.size(); ++i) {
    if (!traversable[i]) continue;
    std::vector<Point> face = faces[i];
    const std::size_t n = face.size();
    for (std::size_t k = 0; version == 3 && k < n; ++k) {
      const long long across = neighbours[i][k];
      if (across < 0 && traversable[std::size_t(-across - 1)]) {
        mesh.walls.insert(key(face[(k + n - 1) % n], face[k]));
        mesh.walls.insert(key(face[k], face[(k + n - 1) % n]));
      }
    }
    if (signed_area2(face) < 0) std::reverse(face.begin(), face.end());
    mesh.faces.push_back(face);
  }
  return mesh;
}

bool on_segment(Point a, Point b, Point p) {
  const Point d = b - a;
  const double scale = dot(d, d);
  const double t = dot(p - a, d);
  return std::abs(cross(d, p - a)) <= 1e-12 * scale && t > 0 && t < scale;
}

// Checks free_boundary against the faces: total signed area equals the faces' area; every ring
// vertex is a mesh vertex; every ring edge is a chain of face edges, each of which belongs to
// exactly one face that has it in the ring's direction (free on the left) and is either in no
// other face or a wall; those pieces are all the face edges of that kind, each used once; no ring
// vertex lies inside a ring edge; and two consecutive ring edges are collinear only at a vertex
// another ring edge touches.
::testing::AssertionResult boundary_matches_faces(const Scene& scene, const PlainMesh& mesh) {
  double face_area2 = 0.0;
  std::map<EdgeKey, int> directed;
  for (const auto& face : mesh.faces) {
    face_area2 += signed_area2(face);
    for (std::size_t i = 0; i < face.size(); ++i)
      ++directed[key(face[i], face[(i + 1) % face.size()])];
  }
  std::multimap<std::pair<double, double>, Point> boundary_from;
  std::size_t boundary_count = 0;
  for (const auto& [k, count] : directed) {
    if (count != 1) return ::testing::AssertionFailure() << "a directed face edge repeats";
    if (directed.count({k.second, k.first}) == 0 || mesh.walls.count(k) != 0) {
      boundary_from.emplace(k.first, Point{k.second.first, k.second.second});
      ++boundary_count;
    }
  }
  double ring_area2 = 0.0;
  std::size_t pieces = 0;
  std::map<std::pair<double, double>, int> vertex_uses;
  for (const Ring& ring : scene.free_boundary) {
    for (const Point& p : ring) ++vertex_uses[{p.x + 0.0, p.y + 0.0}];
  }
  for (std::size_t r = 0; r < scene.free_boundary.size(); ++r) {
    const Ring& ring = scene.free_boundary[r];
    const std::size_t n = ring.size();
    if (n < 3) return ::testing::AssertionFailure() << "ring " << r << " has " << n << " vertices";
    ring_area2 += signed_area2(ring);
    for (std::size_t i = 0; i < n; ++i) {
      const Point a = ring[i];
      const Point b = ring[(i + 1) % n];
      const Point c = ring[(i + 2) % n];
      if (std::find(mesh.vertices.begin(), mesh.vertices.end(), a) == mesh.vertices.end()) {
        return ::testing::AssertionFailure()
               << "ring " << r << " vertex " << i << " is not a mesh vertex";
      }
      if (cross(b - a, c - b) == 0 && dot(b - a, c - b) > 0 &&
          vertex_uses[{b.x + 0.0, b.y + 0.0}] == 1) {
        return ::testing::AssertionFailure()
               << "ring " << r << " keeps a straight vertex " << i + 1;
      }
      // Walk from a to b along boundary face edges.
      Point at = a;
      while (!(at == b)) {
        const auto [first, last] = boundary_from.equal_range({at.x + 0.0, at.y + 0.0});
        const auto step = std::find_if(first, last, [&](const auto& e) {
          return e.second == b || on_segment(at, b, e.second);
        });
        if (step == last) {
          return ::testing::AssertionFailure()
                 << "ring " << r << " edge " << i << " from (" << a.x << ", " << a.y << ") to ("
                 << b.x << ", " << b.y << ") is not made of boundary face edges near (" << at.x
                 << ", " << at.y << ")";
        }
        at = step->second;
        ++pieces;
      }
      for (const Ring& other : scene.free_boundary) {
        for (const Point& p : other) {
          if (on_segment(a, b, p)) {
            return ::testing::AssertionFailure() << "vertex (" << p.x << ", " << p.y
                                                 << ") lies inside ring " << r << " edge " << i;
          }
        }
      }
    }
  }
  if (pieces != boundary_count) {
    return ::testing::AssertionFailure() << "rings use " << pieces << " face edges, the faces have "
                                         << boundary_count << " boundary edges";
  }
  if (std::abs(ring_area2 - face_area2) > 1e-9 * std::max(1.0, face_area2)) {
    return ::testing::AssertionFailure()
           << "rings enclose " << ring_area2 / 2 << ", faces " << face_area2 / 2;
  }
  return ::testing::AssertionSuccess();
}

std::vector<fs::path> meshes_in(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const fs::path& d : {dir, dir / "degenerate"}) {
    if (!fs::is_directory(d)) continue;
    for (const auto& entry : fs::directory_iterator(d)) {
      if (entry.path().extension() == ".mesh") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> fixtures() {
  auto files = meshes_in(bundled_dir);
  const auto shared = meshes_in(shared_dir);
  if (shared.empty()) files.emplace_back();
  files.insert(files.end(), shared.begin(), shared.end());
  return files;
}

std::string fixture_name(const ::testing::TestParamInfo<fs::path>& info) {
  if (info.param.empty()) return "shared_data_absent";
  const std::string where =
      info.param.string().rfind(bundled_dir.string(), 0) == 0 ? "bundled_" : "shared_";
  std::string name = where + info.param.filename().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// ---------------------------------------------------------------------------------------------
// Every mesh

class MeshFile : public ::testing::TestWithParam<fs::path> {};

TEST_P(MeshFile, BoundaryIsTheBoundaryOfTheUnionOfFaces) {
  if (GetParam().empty()) GTEST_SKIP() << "no reference meshes: " << shared_dir << " is absent";
  const Scene scene = read_polyanya_mesh(GetParam());
  const PlainMesh mesh = read_plain_mesh(GetParam());
  EXPECT_EQ(scene.name, GetParam().stem().string());
  EXPECT_EQ(scene.source, GetParam());
  EXPECT_TRUE(scene.obstacles.empty());
  EXPECT_FALSE(scene.cell_map.has_value());
  Box box;
  for (const Point& p : mesh.vertices) box.expand(p);
  EXPECT_EQ(scene.bounds, (Ring{box.min, {box.max.x, box.min.y}, box.max, {box.min.x, box.max.y}}));
  EXPECT_TRUE(boundary_matches_faces(scene, mesh));
}

// What lies across each edge of each face, against a map of the faces' edges by their ends'
// coordinates (not ids) and the walls the naive parser read: the other face listing the edge,
// or none on the border and along a wall.
TEST_P(MeshFile, AcrossEachEdgeIsTheOtherFaceListingIt) {
  if (GetParam().empty()) GTEST_SKIP() << "no reference meshes: " << shared_dir << " is absent";
  const Scene scene = read_polyanya_mesh(GetParam());
  const PlainMesh plain = read_plain_mesh(GetParam());
  const MeshFaces& mesh = *scene.mesh;
  ASSERT_EQ(mesh.across.size(), mesh.corners.size());
  ASSERT_EQ(mesh.first.back(), mesh.corners.size());
  const auto undirected = [](Point a, Point b) { return std::min(key(a, b), key(b, a)); };
  std::map<EdgeKey, std::vector<std::size_t>> faces_of;
  for (std::size_t f = 0; f < mesh.face_count(); ++f) {
    const std::span<const std::uint32_t> v = mesh.face(f);
    for (std::size_t k = 0; k < v.size(); ++k)
      faces_of[undirected(mesh.vertices[v[k]], mesh.vertices[v[(k + 1) % v.size()]])].push_back(f);
  }
  std::size_t joined = 0;
  for (std::size_t f = 0; f < mesh.face_count(); ++f) {
    const std::span<const std::uint32_t> v = mesh.face(f);
    for (std::size_t k = 0; k < v.size(); ++k) {
      const Point a = mesh.vertices[v[k]], b = mesh.vertices[v[(k + 1) % v.size()]];
      const std::vector<std::size_t>& listing = faces_of[undirected(a, b)];
      std::int32_t expected = -1;
      if (plain.walls.count(key(a, b)) == 0) {
        const auto other =
            std::find_if(listing.begin(), listing.end(), [&](std::size_t g) { return g != f; });
        if (other != listing.end()) expected = std::int32_t(*other);
      }
      EXPECT_EQ(mesh.across[mesh.first[f] + k], expected) << mesh.name(f) << " edge " << k;
      joined += expected >= 0 ? 1 : 0;
    }
  }
  // Every face of a mesh of more than one face has a neighbour.
  if (mesh.face_count() > 1) {
    EXPECT_GT(joined, 0u);
  }
}

// Many faces round one vertex (a fan, as a convex polygon's triangulation from one corner gives):
// each spoke joins its two triangles, the first and last spokes are the border, and a wall on a
// spoke keeps its two triangles apart.
TEST(MeshFaces, JoinFacesOfAFan) {
  constexpr std::uint32_t n = 2000;  // triangles (0, k, k + 1)
  MeshFaces mesh;
  mesh.vertices.resize(n + 2);
  for (std::uint32_t k = 1; k <= n; ++k) mesh.add_face(std::vector<std::uint32_t>{0, k, k + 1});
  mesh.walls = {{0, 7}};
  mesh.join_faces();
  for (std::uint32_t f = 0; f < n; ++f) {
    const std::size_t c = mesh.first[f];
    // Corner 0 -> k (spoke k, shared with the triangle before), k -> k + 1 (the rim), k + 1 -> 0
    // (spoke k + 1, shared with the one after).
    const std::int32_t before = f == 0 || f + 1 == 7 ? -1 : std::int32_t(f - 1);
    const std::int32_t after = f + 1 == n || f + 2 == 7 ? -1 : std::int32_t(f + 1);
    EXPECT_EQ(mesh.across[c], before) << f;
    EXPECT_EQ(mesh.across[c + 1], -1) << f;
    EXPECT_EQ(mesh.across[c + 2], after) << f;
  }
}

INSTANTIATE_TEST_SUITE_P(All, MeshFile, ::testing::ValuesIn(fixtures()), fixture_name);

// ---------------------------------------------------------------------------------------------
// Scenarios on meshes are points in the mesh's own coordinates.

bool inside_some_face(const PlainMesh& mesh, Point p) {
  return std::any_of(mesh.faces.begin(), mesh.faces.end(), [&](const std::vector<Point>& f) {
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (cross(f[(i + 1) % f.size()] - f[i], p - f[i]) < -1e-9) return false;
    }
    return true;
  });
}

void expect_scenario_points(const fs::path& mesh_path, const fs::path& scen_path,
                            std::size_t expected_count) {
  const Scene scene = read_polyanya_mesh(mesh_path);
  const PlainMesh mesh = read_plain_mesh(mesh_path);
  const std::vector<Query> queries = load_scenario(scen_path, scene);
  ASSERT_EQ(queries.size(), expected_count);
  std::ifstream in(scen_path);
  std::string line;
  std::getline(in, line);
  for (const Query& q : queries) {
    std::string bucket, map, width, height;
    double sx, sy, gx, gy, length;
    do {
      std::getline(in, line);
    } while (line.empty());
    std::istringstream(line) >> bucket >> map >> width >> height >> sx >> sy >> gx >> gy >> length;
    EXPECT_EQ(q.start, (Point{sx, sy}));
    EXPECT_EQ(q.goal, (Point{gx, gy}));
    if (length >= 0) {
      EXPECT_EQ(q.reference_length, length);
    } else {
      EXPECT_FALSE(q.reference_length.has_value());
    }
    EXPECT_TRUE(inside_some_face(mesh, q.start)) << line;
    EXPECT_TRUE(inside_some_face(mesh, q.goal)) << line;
  }
}

TEST(MeshScenario, ArenaEuclideanLoadsAsPoints) {
  expect_scenario_points(bundled_dir / "arena.mesh", bundled_dir / "arena-euclidean.scen", 160);
}

TEST(MeshScenario, SharedArenaEuclideanLoadsAsPoints) {
  if (!fs::exists(shared_dir / "arena-euclidean.scen")) {
    GTEST_SKIP() << "no reference data: " << shared_dir << " is absent";
  }
  expect_scenario_points(shared_dir / "arena.mesh", shared_dir / "arena-euclidean.scen", 160);
}

TEST(MeshScenario, DegenerateScenariosLoad) {
  for (const fs::path& mesh : meshes_in(bundled_dir / "degenerate")) {
    const fs::path scen = fs::path(mesh).replace_extension(".scen");
    if (!fs::exists(scen)) continue;
    std::ifstream in(scen);
    std::size_t rows = 0;
    for (std::string line; std::getline(in, line);) rows += !line.empty();
    SCOPED_TRACE(scen.string());
    expect_scenario_points(mesh, scen, rows - 1);
  }
}

TEST(MeshScenario, LoadSceneDispatchesMeshFiles) {
  const Scene scene = load_scene(bundled_dir / "arena-merged.mesh");
  EXPECT_EQ(scene.name, "arena-merged");
  EXPECT_FALSE(scene.free_boundary.empty());
  EXPECT_FALSE(scene.cell_map.has_value());
}

// ---------------------------------------------------------------------------------------------
// The same free space as cells and as a mesh of unit squares gives the same rings.

std::string mesh_of_free_cells(const std::vector<std::string>& rows) {
  const int h = int(rows.size());
  const int w = int(rows[0].size());
  std::ostringstream vertices;
  std::ostringstream faces;
  int face_count = 0;
  for (int y = 0; y <= h; ++y) {
    for (int x = 0; x <= w; ++x) vertices << x << ' ' << y << " 1 -1\n";
  }
  const auto id = [&](int x, int y) { return y * (w + 1) + x; };
  for (int cy = 0; cy < h; ++cy) {
    for (int cx = 0; cx < w; ++cx) {
      if (rows[std::size_t(cy)][std::size_t(cx)] != '.') continue;
      const int y = h - 1 - cy;
      faces << "4 " << id(cx, y) << ' ' << id(cx + 1, y) << ' ' << id(cx + 1, y + 1) << ' '
            << id(cx, y + 1) << " -1 -1 -1 -1\n";
      ++face_count;
    }
  }
  return "mesh\n2\n" + std::to_string((w + 1) * (h + 1)) + " " + std::to_string(face_count) + "\n" +
         vertices.str() + faces.str();
}

// Rings as a sorted list, each rotated to its lexicographically smallest vertex sequence.
std::vector<std::vector<std::pair<double, double>>> normalised(const std::vector<Ring>& rings) {
  std::vector<std::vector<std::pair<double, double>>> out;
  for (const Ring& ring : rings) {
    std::vector<std::pair<double, double>> best;
    for (std::size_t s = 0; s < ring.size(); ++s) {
      std::vector<std::pair<double, double>> rotated;
      for (std::size_t i = 0; i < ring.size(); ++i) {
        const Point p = ring[(s + i) % ring.size()];
        rotated.emplace_back(p.x, p.y);
      }
      if (best.empty() || rotated < best) best = rotated;
    }
    out.push_back(best);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void expect_same_rings_as_grid(const std::vector<std::string>& rows) {
  std::string map_text = "type octile\nheight " + std::to_string(rows.size()) + "\nwidth " +
                         std::to_string(rows[0].size()) + "\nmap\n";
  for (const auto& row : rows) map_text += row + "\n";
  const Scene grid = parse_movingai_map(map_text, "cells.map");
  const Scene mesh = parse_polyanya_mesh(mesh_of_free_cells(rows), "cells.mesh");
  EXPECT_EQ(normalised(mesh.free_boundary), normalised(grid.free_boundary));
}

TEST(MeshCoordinates, ArenaMeshIsTheArenaMapInItsOwnYDownCoordinates) {
  // Polyanya's arena.mesh was built from arena.map with y counting rows downwards; the reader
  // keeps the mesh's coordinates, so its boundary is the map's mirrored in y (which also
  // reverses the rings' direction).
  const Scene map = read_movingai_map(fs::path(POLYNAV_SOURCE_DIR) / "scenes/movingai/arena.map");
  const Scene mesh = read_polyanya_mesh(bundled_dir / "arena.mesh");
  std::vector<Ring> mirrored = map.free_boundary;
  for (Ring& ring : mirrored) {
    for (Point& p : ring) p.y = map.cell_map->height - p.y;
    std::reverse(ring.begin(), ring.end());
  }
  EXPECT_EQ(normalised(mesh.free_boundary), normalised(mirrored));
}

TEST(MeshPinch, SquaresTouchingAtACornerStaySeparate) {
  const Scene scene = parse_polyanya_mesh(mesh_of_free_cells({".@", "@."}), "pinch.mesh");
  ASSERT_EQ(scene.free_boundary.size(), 2u);
  for (const Ring& ring : scene.free_boundary) {
    EXPECT_EQ(ring.size(), 4u);
    EXPECT_EQ(std::count(ring.begin(), ring.end(), Point{1, 1}), 1);
  }
  expect_same_rings_as_grid({".@", "@."});
  expect_same_rings_as_grid({"@.", ".@"});
}

TEST(MeshPinch, HoleTouchingItselfAtACorner) {
  const std::vector<std::string> rows = {"....", ".@..", "..@.", "...."};
  const Scene scene = parse_polyanya_mesh(mesh_of_free_cells(rows), "hole.mesh");
  ASSERT_EQ(scene.free_boundary.size(), 2u);
  expect_same_rings_as_grid(rows);
}

TEST(MeshPinch, RandomCellPatternsMatchTheGridTracer) {
  std::mt19937 rng(20240611);
  for (int trial = 0; trial < 40; ++trial) {
    const int w = 1 + int(rng() % 12);
    const int h = 1 + int(rng() % 12);
    const auto blocked_percent = 20 + rng() % 50;
    std::vector<std::string> rows(std::size_t(h), std::string(std::size_t(w), '.'));
    bool any_free = false;
    for (auto& row : rows) {
      for (char& c : row) {
        if (rng() % 100 < blocked_percent) c = '@';
        any_free = any_free || c == '.';
      }
    }
    if (!any_free) continue;
    SCOPED_TRACE("trial " + std::to_string(trial));
    expect_same_rings_as_grid(rows);
  }
}

TEST(MeshOrientation, ClockwiseFacesAreAccepted) {
  const Scene scene = parse_polyanya_mesh(
      "mesh 2 4 1  0 0 1 0  0 1 1 0  1 1 1 0  1 0 1 0  4 0 1 2 3 -1 -1 -1 -1", "cw.mesh");
  ASSERT_EQ(scene.free_boundary.size(), 1u);
  EXPECT_EQ(signed_area2(scene.free_boundary[0]), 2.0);
}

TEST(MeshOrientation, CollinearVerticesMergeOnlyWhenNothingElseTouches) {
  // Two squares side by side: the shared side's ends are straight on the outer ring and touched
  // by no other boundary edge, so the ring is the 2 x 1 rectangle.
  const Scene scene = parse_polyanya_mesh(mesh_of_free_cells({".."}), "pair.mesh");
  ASSERT_EQ(scene.free_boundary.size(), 1u);
  EXPECT_EQ(scene.free_boundary[0].size(), 4u);
}

// ---------------------------------------------------------------------------------------------
// Version 3: free space is the union of the traversable faces; a constrained edge between two of
// them is a wall, traced along and back.

Ring rect(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

// Three unit squares in a row; `middle` is the middle one's traversable flag and `sign` the sign
// of the neighbour ids across its two sides.
std::string strip_of_three(int middle, int sign) {
  const std::string l = std::to_string(sign * 1), m = std::to_string(sign * 2),
                    r = std::to_string(sign * 3);
  return "mesh\n3\n8 3\n0 0\n1 0\n2 0\n3 0\n3 1\n2 1\n1 1\n0 1\n"
         "1 4 1 2 7 8 0 0 " +
         m + " 0\n" + std::to_string(middle) + " 4 2 3 6 7 " + l + " 0 " + r + " 0\n" +
         "1 4 3 4 5 6 " + m + " 0 0 0\n";
}

TEST(MeshV3, NonTraversableFacesAreBlocked) {
  const Scene blocked = parse_polyanya_mesh(strip_of_three(0, -1), "strip.mesh");
  EXPECT_EQ(normalised(blocked.free_boundary), normalised({rect(0, 0, 1, 1), rect(2, 0, 3, 1)}));
  EXPECT_EQ(blocked.bounds, rect(0, 0, 3, 1));
  const FreeSpace space(blocked);
  EXPECT_DOUBLE_EQ(space.area(), 2.0);
  EXPECT_EQ(space.component_count(), 2u);
  EXPECT_FALSE(space.is_free({1.5, 0.5}));
  EXPECT_FALSE(space.line_of_sight({0.5, 0.5}, {2.5, 0.5}));
  // The same faces all traversable and crossable are one rectangle.
  const Scene open = parse_polyanya_mesh(strip_of_three(1, 1), "strip.mesh");
  EXPECT_EQ(normalised(open.free_boundary), normalised({rect(0, 0, 3, 1)}));
  EXPECT_TRUE(FreeSpace(open).line_of_sight({0.5, 0.5}, {2.5, 0.5}));
}

TEST(MeshV3, CubeExampleIsItsThreeTraversableTriangles) {
  const fs::path path = shared_dir / "cube-v3.mesh";
  if (!fs::exists(path)) GTEST_SKIP() << "no reference data: " << path << " is absent";
  const Scene scene = read_polyanya_mesh(path);
  // The square (0, 0)-(10, 10) less its blocked bottom triangle (faces listed clockwise, which
  // are reversed as in versions 1 and 2).
  EXPECT_EQ(normalised(scene.free_boundary),
            normalised({{{0, 0}, {5, 5}, {10, 0}, {10, 10}, {0, 10}}}));
  const FreeSpace space(scene);
  EXPECT_DOUBLE_EQ(space.area(), 75.0);
  EXPECT_EQ(space.component_count(), 1u);
  EXPECT_FALSE(space.is_free({5, 2}));
  EXPECT_TRUE(space.is_free({5, 8}));
  EXPECT_FALSE(space.line_of_sight({1, 2}, {9, 2}));  // through the blocked triangle
  EXPECT_TRUE(space.line_of_sight({1, 2}, {5, 5}));
  EXPECT_TRUE(space.line_of_sight({1, 9}, {9, 9}));
}

TEST(MeshV3, ConstrainedEdgeBetweenTraversableFacesIsAWall) {
  // Two unit squares side by side; their shared side from (1, 0) to (1, 1) is constrained.
  const auto two_squares = [](int sign) {
    return "mesh 3 6 2  0 0  1 0  2 0  2 1  1 1  0 1\n"
           "1 4 1 2 5 6 0 0 " +
           std::to_string(2 * sign) + " 0\n1 4 2 3 4 5 " + std::to_string(sign) + " 0 0 0\n";
  };
  const Scene walled = parse_polyanya_mesh(two_squares(-1), "wall.mesh");
  EXPECT_EQ(normalised(walled.free_boundary), normalised({rect(0, 0, 1, 1), rect(1, 0, 2, 1)}));
  const FreeSpace space(walled);
  EXPECT_DOUBLE_EQ(space.area(), 2.0);
  EXPECT_EQ(space.component_count(), 2u);
  EXPECT_FALSE(space.line_of_sight({0.5, 0.5}, {1.5, 0.5}));  // across the wall
  EXPECT_FALSE(space.line_of_sight({1.5, 0.2}, {0.5, 0.8}));
  EXPECT_TRUE(space.line_of_sight({1, 0}, {1, 1}));  // along it
  EXPECT_TRUE(space.line_of_sight({1, 0.25}, {1, 0.75}));
  EXPECT_TRUE(space.is_free({1, 0.5}));  // on it
  EXPECT_TRUE(space.line_of_sight({0.5, 0.5}, {1, 0.5}));
  EXPECT_TRUE(space.line_of_sight({1.5, 0.5}, {1, 0.5}));
  EXPECT_FALSE(space.turn_is_free({0.5, 0.5}, {1, 0.5}, {1.5, 0.5}));
  // Unconstrained, the shared side is no boundary at all.
  const Scene open = parse_polyanya_mesh(two_squares(1), "open.mesh");
  EXPECT_EQ(normalised(open.free_boundary), normalised({rect(0, 0, 2, 1)}));
  EXPECT_TRUE(FreeSpace(open).line_of_sight({0.5, 0.5}, {1.5, 0.5}));
}

TEST(MeshV3, AWallEndingInFreeSpaceIsASlitThatPathsGoRound) {
  // Four unit squares; only the side between the bottom two, from (1, 0) to (1, 1), is
  // constrained. The ring runs up that side and back.
  const std::string text =
      "mesh 3 9 4  0 0  1 0  2 0  0 1  1 1  2 1  0 2  1 2  2 2\n"
      "1 4 1 2 5 4 0 0 -2 3\n"
      "1 4 2 3 6 5 -1 0 0 4\n"
      "1 4 4 5 8 7 0 1 4 0\n"
      "1 4 5 6 9 8 3 2 0 0\n";
  const Scene scene = parse_polyanya_mesh(text, "slit.mesh");
  EXPECT_EQ(normalised(scene.free_boundary),
            normalised({{{0, 0}, {1, 0}, {1, 1}, {1, 0}, {2, 0}, {2, 2}, {0, 2}}}));
  const FreeSpace space(scene);
  EXPECT_DOUBLE_EQ(space.area(), 4.0);
  EXPECT_EQ(space.component_count(), 1u);
  EXPECT_FALSE(space.line_of_sight({0.5, 0.5}, {1.5, 0.5}));
  EXPECT_TRUE(space.line_of_sight({1, 0}, {1, 1}));
  EXPECT_TRUE(space.is_free({1, 0.5}));
  EXPECT_TRUE(space.line_of_sight({0.5, 1.5}, {1.5, 1.5}));  // above the wall's end
  EXPECT_TRUE(space.line_of_sight({0.5, 0.5}, {1, 1}));      // to its end
  // The shortest path bends round the wall's end at (1, 1); the grid's path does not cross it.
  PlanOptions options;
  options.method = "visgraph";
  const PlanResult shortest = Planner(scene, options).plan({0.5, 0.5}, {1.5, 0.5});
  ASSERT_TRUE(shortest.found()) << shortest.message;
  EXPECT_NEAR(shortest.cost, 2 * std::sqrt(0.5), 1e-12);
  EXPECT_EQ(shortest.waypoints, (std::vector<Point>{{0.5, 0.5}, {1, 1}, {1.5, 0.5}}));
  options.method = "grid";
  options.settings.set("grid.resolution", 0.25);
  const PlanResult grid = Planner(scene, options).plan({0.5, 0.5}, {1.5, 0.5});
  ASSERT_TRUE(grid.found()) << grid.message;
  EXPECT_GE(grid.cost, shortest.cost - 1e-12);
}

TEST(MeshV3, BundledWallsMeshShortestPaths) {
  // scenes/mesh/walls-v3.mesh: 5 x 4 unit squares, the two at (2, 1) and (2, 2) blocked (a
  // pillar from (2, 1) to (3, 3)), walls from (1, 0) up to (1, 2) and from the pillar at (3, 2)
  // right to the border at (5, 2).
  const Scene scene = read_polyanya_mesh(bundled_dir / "walls-v3.mesh");
  PlanOptions options;
  options.method = "visgraph";
  const Planner planner(scene, options);
  const PlanResult round_wall = planner.plan({0.5, 0.5}, {1.5, 0.5});
  ASSERT_TRUE(round_wall.found()) << round_wall.message;
  EXPECT_NEAR(round_wall.cost, 2 * std::sqrt(2.5), 1e-12);
  // The wall meets the pillar at (3, 2): no way through there, so round the pillar's far side.
  const PlanResult round_pillar = planner.plan({3.5, 1.5}, {3.5, 2.5});
  ASSERT_TRUE(round_pillar.found()) << round_pillar.message;
  EXPECT_NEAR(round_pillar.cost, 4 + std::sqrt(2.0), 1e-12);
}

// A version 1 or 2 mesh written as version 3: vertices as written, faces traversable, 1-based
// ids, and each neighbour the other face with that edge (found by coordinates) or 0.
std::string as_version_3(const fs::path& path) {
  std::ifstream in(path);
  std::string header, version;
  std::size_t v_count = 0, p_count = 0;
  in >> header >> version >> v_count >> p_count;
  std::ostringstream out;
  out << "mesh\n3\n" << v_count << ' ' << p_count << '\n';
  std::vector<std::pair<double, double>> at;
  for (std::size_t i = 0; i < v_count; ++i) {
    std::string x, y;
    int n = 0;
    in >> x >> y >> n;
    for (int k = 0, skip = 0; k < n; ++k) in >> skip;
    out << x << ' ' << y << '\n';
    at.emplace_back(std::stod(x) + 0.0, std::stod(y) + 0.0);
  }
  std::vector<std::vector<std::size_t>> faces(p_count);
  std::multimap<std::pair<std::pair<double, double>, std::pair<double, double>>, std::size_t> owner;
  for (std::size_t f = 0; f < p_count; ++f) {
    int n = 0;
    in >> n;
    faces[f].resize(std::size_t(n));
    for (std::size_t& v : faces[f]) in >> v;
    for (int k = 0, skip = 0; k < n; ++k) in >> skip;
    for (std::size_t k = 0; k < faces[f].size(); ++k) {
      const auto a = at[faces[f][(k + faces[f].size() - 1) % faces[f].size()]];
      const auto b = at[faces[f][k]];
      owner.emplace(std::minmax(a, b), f);
    }
  }
  for (std::size_t f = 0; f < p_count; ++f) {
    out << "1 " << faces[f].size();
    for (std::size_t v : faces[f]) out << ' ' << v + 1;
    for (std::size_t k = 0; k < faces[f].size(); ++k) {
      const auto a = at[faces[f][(k + faces[f].size() - 1) % faces[f].size()]];
      const auto b = at[faces[f][k]];
      std::size_t across = 0;
      const auto [first, last] = owner.equal_range(std::minmax(a, b));
      for (auto it = first; it != last; ++it)
        if (it->second != f) across = it->second + 1;
      out << ' ' << across;
    }
    out << '\n';
  }
  return out.str();
}

TEST(MeshV3, EveryFaceTraversableGivesTheSameBoundaryAsVersion2) {
  int compared = 0;
  for (const fs::path& path : fixtures()) {
    if (path.empty()) continue;
    std::ifstream in(path);
    std::string header;
    int version = 0;
    in >> header >> version;
    if (version == 3) continue;
    SCOPED_TRACE(path.string());
    const Scene original = read_polyanya_mesh(path);
    const Scene rewritten = parse_polyanya_mesh(as_version_3(path), path.string());
    EXPECT_EQ(rewritten.free_boundary, original.free_boundary);
    EXPECT_EQ(rewritten.bounds, original.bounds);
    ++compared;
  }
  EXPECT_GE(compared, 9);  // the bundled meshes at least
}

// ---------------------------------------------------------------------------------------------
// Bad inputs: each names the file, the line and the offending value.

struct BadMesh {
  std::string file;
  int line;
  std::string value;
  int column = -1;  // checked when >= 0
};

std::ostream& operator<<(std::ostream& os, const BadMesh& b) {
  return os << b.file;
}

class BadMeshInput : public ::testing::TestWithParam<BadMesh> {};

TEST_P(BadMeshInput, ThrowsInputErrorNamingFileLineAndValue) {
  const fs::path path = corpus_dir / GetParam().file;
  ASSERT_TRUE(fs::exists(path)) << path;
  try {
    read_polyanya_mesh(path);
    FAIL() << "expected InputError for " << path;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.where().file, path.string());
    EXPECT_EQ(e.where().line, GetParam().line) << what;
    EXPECT_EQ(what.rfind(path.string() + ":" + std::to_string(GetParam().line), 0), 0u) << what;
    EXPECT_GT(e.where().column, 0) << "every error is located to a column: " << what;
    if (GetParam().column >= 0) {
      EXPECT_EQ(e.where().column, GetParam().column) << what;
      const std::string column =
          GetParam().column > 0 ? ":" + std::to_string(GetParam().column) : std::string();
      EXPECT_EQ(
          what.rfind(path.string() + ":" + std::to_string(GetParam().line) + column + ": ", 0), 0u)
          << what;
    }
    EXPECT_NE(what.find(GetParam().value), std::string::npos)
        << what << "\nlacks: " << GetParam().value;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, BadMeshInput,
    ::testing::Values(
        BadMesh{"index_out_of_range.mesh", 9, "vertex 2 of polygon 1 must be in [0, 3], found 9"},
        BadMesh{"neighbour_out_of_range.mesh", 4,
                "polygon 1 of vertex 0 must be in [-1, 1], found 5"},
        BadMesh{"too_few_polygons.mesh", 9, "expected the vertex count of polygon 2"},
        BadMesh{"too_many_polygons.mesh", 9, "unexpected '3' after the last of the 1 polygons"},
        BadMesh{"impossible_counts.mesh", 3, "4 vertices and 200 polygons"},
        BadMesh{"truncated.mesh", 9, "expected vertex 2 of polygon 1"},
        BadMesh{"nan.mesh", 6, "x coordinate of vertex 2 must be a finite number, found nan"},
        BadMesh{"overflow.mesh", 7, "y coordinate of vertex 3 must be a number, found '1e999'"},
        BadMesh{"bad_version.mesh", 2, "unsupported mesh version '4' (supported: 1, 2, 3)", 1},
        BadMesh{"not_a_mesh.mesh", 1, "found 'poly'"},
        BadMesh{"overlapping.mesh", 10, "polygon 2 (line 10) and polygon 0 (line 8) overlap"},
        BadMesh{"repeated_vertex.mesh", 8, "visits vertex 0 (0, 0) twice"},
        BadMesh{"two_vertex_polygon.mesh", 8,
                "vertex count of polygon 0 must be an integer in [3, 4], found '2'"},
        BadMesh{"flat.mesh", 3, "no polygon of positive area"},
        BadMesh{"negative_count.mesh", 3, "found -1"},
        BadMesh{"t_junction.mesh", 10,
                "vertex 3 (1, 0) lies inside the edge from (0, 0) to (2, 0)"},
        BadMesh{"huge_coordinate.mesh", 6,
                "the y coordinate of vertex 2 is beyond the largest magnitude polynav plans in "
                "(1125899906842624 = 2^50), found 1e16",
                3},
        BadMesh{"self_intersecting_face.mesh", 8,
                "polygon 0 (line 8) is not a simple polygon: two of its edges cross near (1, 1)",
                1},
        // Version 3: faces are numbered from 1 and so are vertices, as in the file.
        BadMesh{"v3_traversable_flag.mesh", 14,
                "the traversable flag of face 2 must be 0 (not traversable) or 1 (traversable), "
                "found '2'",
                1},
        BadMesh{"v3_neighbour_out_of_range.mesh", 15,
                "neighbour 3 of face 3 must be in [-4, 4], found -5", 17},
        BadMesh{"v3_neighbour_not_sharing.mesh", 13,
                "neighbour 4 of face 1 is 2, but face 2 (line 14) does not have that edge, from "
                "vertex 5 (1, 1) to vertex 4 (0, 1) (face 3 (line 15) has it)",
                20},
        BadMesh{"v3_neighbour_itself.mesh", 13, "neighbour 4 of face 1 is 1, face 1 itself", 20},
        BadMesh{"v3_border_but_shared.mesh", 13,
                "neighbour 4 of face 1 is 3, but face 3 (line 15) has 0 (the border of the mesh) "
                "across that edge, from vertex 5 (1, 1) to vertex 4 (0, 1), not 1 or -1",
                20},
        BadMesh{"v3_neighbour_not_named_back.mesh", 13,
                "neighbour 4 of face 1 is 3, but face 3 (line 15) has 2 across that edge, from "
                "vertex 5 (1, 1) to vertex 4 (0, 1), not 1 or -1",
                20},
        BadMesh{"v3_crossing_disagrees.mesh", 13,
                "neighbour 4 of face 1 is 3 (it can be crossed), but face 3 (line 15) has -1 (a "
                "constrained edge) across that edge, from vertex 5 (1, 1) to vertex 4 (0, 1); two "
                "traversable faces must agree",
                20},
        BadMesh{"v3_too_few_faces.mesh", 16,
                "unexpected end of file: expected the traversable flag of face 5", 22},
        BadMesh{"v3_too_many_faces.mesh", 17,
                "unexpected '0' after the last of the 4 faces the header declares", 1},
        BadMesh{"v3_impossible_counts.mesh", 3,
                "the header declares 9 vertices and 200 faces but the file holds only 58 more "
                "numbers",
                1},
        BadMesh{"v3_two_vertex_face.mesh", 13,
                "the vertex count of face 1 must be an integer in [3, 9], found '2'", 3},
        BadMesh{"v3_vertex_id_zero.mesh", 13, "vertex 1 of face 1 must be in [1, 9], found 0", 5},
        BadMesh{"v3_no_traversable_face.mesh", 3,
                "the mesh has no traversable face of positive area", 1},
        BadMesh{"v3_overlapping.mesh", 17, "face 5 (line 17) and face 1 (line 13) overlap", 1},
        // Faces that overlap without sharing an edge: edges crossing, a face inside another,
        // a face over two that tile a square (crossing only their shared, cancelled edge).
        BadMesh{"crossing_faces.mesh", 11,
                "polygon 1 (line 11) and polygon 0 (line 10) overlap: their edges cross near "
                "(1.5, 0.5)",
                1},
        BadMesh{"face_inside_face.mesh", 11,
                "polygon 1 (line 11) overlaps another polygon: the area beside its edge from "
                "(0.5, 0.5) to (2, 0.5) is covered by 2 polygons",
                1},
        BadMesh{"face_over_split_square.mesh", 13, "polygon 2 (line 13) overlaps another polygon",
                1}),
    [](const ::testing::TestParamInfo<BadMesh>& param) {
      std::string name = param.param.file;
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

TEST(MeshCorpus, GoodBaseLoads) {
  EXPECT_EQ(read_polyanya_mesh(corpus_dir / "good_square.mesh").free_boundary.size(), 1u);
}

TEST(MeshCorpus, GoodVersion3BaseLoads) {
  // Four unit squares, the top right one blocked and the side between the bottom two
  // constrained: the bottom right square touches the rest only along that wall and at (1, 1).
  const Scene scene = read_polyanya_mesh(corpus_dir / "v3_good.mesh");
  EXPECT_EQ(normalised(scene.free_boundary),
            normalised({{{0, 0}, {1, 0}, {1, 1}, {1, 2}, {0, 2}}, rect(1, 0, 2, 1)}));
  const FreeSpace space(scene);
  EXPECT_DOUBLE_EQ(space.area(), 3.0);
  EXPECT_EQ(space.component_count(), 2u);
}

}  // namespace
}  // namespace polynav
