// Polyanya meshes: invariants checked on every mesh available (bundled in scenes/mesh and, when
// present, ../shared/data/mesh), the mesh scenario, a cross-check against the grid tracer on cell
// patterns written as meshes, and a corpus of bad inputs.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../../src/scene/readers.hpp"
#include "polynav/error.hpp"
#include "polynav/scene/scene.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

const fs::path bundled_dir = fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "mesh";
const fs::path shared_dir = fs::path(POLYNAV_SHARED_DATA) / "mesh";
const fs::path corpus_dir = fs::path(POLYNAV_SOURCE_DIR) / "tests" / "corpus" / "bad_maps";

// A mesh read by a deliberately naive parser (whitespace-separated numbers, no validation), with
// every face put in counter-clockwise order.
struct PlainMesh {
  std::vector<Point> vertices;
  std::vector<std::vector<Point>> faces;
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
    int n = 0;
    in >> p.x >> p.y >> n;
    for (int k = 0, skip = 0; k < n; ++k) in >> skip;
    mesh.vertices.push_back(p);
  }
  for (std::size_t i = 0; i < p_count; ++i) {
    int n = 0;
    in >> n;
    std::vector<Point> face;
    for (int k = 0, v = 0; k < n; ++k) {
      in >> v;
      face.push_back(mesh.vertices[std::size_t(v)]);
    }
    for (int k = 0, skip = 0; k < n; ++k) in >> skip;
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

using EdgeKey = std::pair<std::pair<double, double>, std::pair<double, double>>;
EdgeKey key(Point a, Point b) {
  return {{a.x + 0.0, a.y + 0.0}, {b.x + 0.0, b.y + 0.0}};
}

// Checks free_boundary against the faces: total signed area equals the faces' area; every ring
// vertex is a mesh vertex; every ring edge is a chain of face edges, each of which belongs to
// exactly one face that has it in the ring's direction (free on the left); those pieces are all
// the face edges of that kind, each used once; no ring vertex lies inside a ring edge; and two
// consecutive ring edges are collinear only at a vertex another ring edge touches.
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
    if (directed.count({k.second, k.first}) == 0) {
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
// Bad inputs: each names the file, the line and the offending value.

struct BadMesh {
  std::string file;
  int line;
  std::string value;
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
        BadMesh{"bad_version.mesh", 2, "unsupported mesh version '3'"},
        BadMesh{"not_a_mesh.mesh", 1, "found 'poly'"},
        BadMesh{"overlapping.mesh", 10, "polygon 2 (line 10) and polygon 0 (line 8) overlap"},
        BadMesh{"repeated_vertex.mesh", 8, "visits vertex 0 (0, 0) twice"},
        BadMesh{"two_vertex_polygon.mesh", 8,
                "vertex count of polygon 0 must be an integer in [3, 4], found '2'"},
        BadMesh{"flat.mesh", 3, "no polygon of positive area"},
        BadMesh{"negative_count.mesh", 3, "found -1"},
        BadMesh{"t_junction.mesh", 10,
                "vertex 3 (1, 0) lies inside the edge from (0, 0) to (2, 0)"}),
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

}  // namespace
}  // namespace polynav
