// Any scene as a native YAML scene (export_native_scene in scene.hpp; docs/scene-format.md,
// "Converting to a native scene").

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "polynav/kernel/exact.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/text.hpp"
#include "validate.hpp"

namespace polynav {
namespace {

using detail::PointHash;
using detail::split_at_repeated_vertices;

// The shortest text that reads back as the same double; infinities as YAML writes them.
std::string number(double v) {
  if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string point(Point p) {
  std::string s = "[";
  s += number(p.x);
  s += ", ";
  s += number(p.y);
  s += ']';
  return s;
}

std::string ring(const Ring& r) {
  std::string s = "[";
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (i > 0) s += ", ";
    s += point(r[i]);
  }
  return s + "]";
}

// A YAML double-quoted string that reads back as `text`, or as valid_utf8(text) where `text`
// is not UTF-8 (a name taken from a file name: polynav/text.hpp). What YAML 1.2 does not count
// as printable is escaped: control characters (\n, \t, \xNN for C0 and C1), and U+FFFE and
// U+FFFF (\uNNNN).
std::string yaml_quoted(std::string_view raw) {
  constexpr char hex[] = "0123456789abcdef";
  const std::string text = valid_utf8(raw);
  std::string s = "\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      s += '\\';
      s += c;
    } else if (c == '\n') {
      s += "\\n";
    } else if (c == '\t') {
      s += "\\t";
    } else if (u < 0x20 || u == 0x7f ||
               (u == 0xC2 && static_cast<unsigned char>(text[i + 1]) <= 0x9F &&
                text[i + 1] != '\x85')) {
      // A C0 control, DEL, or a C1 control (U+0080 to U+009F, written C2 80 to C2 9F) other
      // than U+0085, which YAML counts as printable.
      const unsigned v = u == 0xC2 ? static_cast<unsigned char>(text[++i]) : u;
      s += "\\x";
      s += hex[v >> 4];
      s += hex[v & 15];
    } else if (u == 0xEF && text.compare(i + 1, 1, "\xBF") == 0 &&
               (text[i + 2] == '\xBE' || text[i + 2] == '\xBF')) {
      s += text[i + 2] == '\xBE' ? "\\ufffe" : "\\uffff";
      i += 2;
    } else {
      s += c;
    }
  }
  return s + "\"";
}

std::string polygon(const Polygon& p) {
  if (p.holes.empty()) return ring(p.outer);
  std::string s = "{outer: " + ring(p.outer) + ", holes: [";
  for (std::size_t h = 0; h < p.holes.size(); ++h) s += (h > 0 ? ", " : "") + ring(p.holes[h]);
  return s + "]}";
}

// Free space given as boundary rings (a navigation mesh's) as native obstacles: the outside of
// the outermost free regions, as one obstacle reaching past the bounds with those regions as its
// holes, and every island of blocked space with the free regions directly inside it as holes.
std::vector<Obstacle> obstacles_around(const Scene& scene, const std::string& source) {
  std::vector<Ring> loops;
  for (const Ring& r : scene.free_boundary) split_at_repeated_vertices(r, loops);
  std::vector<double> area;  // sizes, for ordering
  std::vector<int> turn;     // exact orientations, for decisions
  for (const Ring& l : loops) {
    area.push_back(signed_area2(l));
    turn.push_back(exact::ring_orientation(l));
    if (turn.back() == 0) {
      throw InputError({source, 0, 0, ""},
                       "the free space has a boundary of zero area near " + point(l.front()) +
                           " (a wall of zero width), which native obstacles cannot represent");
    }
  }
  // The loop directly around each loop: the smallest one holding a vertex of it not on its own
  // boundary (loops meet only at vertices, so one such vertex decides).
  std::vector<std::ptrdiff_t> parent(loops.size(), -1);
  for (std::size_t i = 0; i < loops.size(); ++i) {
    for (std::size_t j = 0; j < loops.size(); ++j) {
      if (i == j || std::abs(area[j]) <= std::abs(area[i])) continue;
      if (parent[i] >= 0 && std::abs(area[std::size_t(parent[i])]) <= std::abs(area[j])) continue;
      for (const Point& p : loops[i]) {
        const exact::Side side = exact::side_of_ring(loops[j], p);
        if (side == exact::Side::boundary) continue;
        if (side == exact::Side::inside) parent[i] = std::ptrdiff_t(j);
        break;
      }
    }
  }
  Box box = bounding_box(scene.bounds);
  for (const Ring& l : loops) box.expand(bounding_box(l));
  const double margin = std::max({box.width(), box.height(), 1.0}) * 0.05;
  std::vector<Polygon> shapes(1);
  shapes[0].outer = {{box.min.x - margin, box.min.y - margin},
                     {box.max.x + margin, box.min.y - margin},
                     {box.max.x + margin, box.max.y + margin},
                     {box.min.x - margin, box.max.y + margin}};
  std::vector<std::size_t> shape_of(loops.size(), 0);
  for (std::size_t i = 0; i < loops.size(); ++i) {
    if (turn[i] < 0) {  // clockwise: an island of blocked space
      shape_of[i] = shapes.size();
      shapes.push_back({Ring(loops[i].rbegin(), loops[i].rend()), {}});
    }
  }
  for (std::size_t i = 0; i < loops.size(); ++i) {
    if (turn[i] > 0) {
      const std::size_t owner = parent[i] < 0 ? 0 : shape_of[std::size_t(parent[i])];
      shapes[owner].holes.push_back(loops[i]);
    }
  }
  // Holes touching one another are refused outright, though valid polygons may have holes that
  // touch at points leaving the inside in one piece: telling those apart is left to
  // detail::checked_polygon, which this conversion does not call yet.
  for (const Polygon& shape : shapes) {
    std::unordered_map<Point, std::size_t, PointHash> ring_of;
    for (std::size_t r = 0; r <= shape.holes.size(); ++r) {
      for (const Point& p : r == 0 ? shape.outer : shape.holes[r - 1]) {
        const auto [it, fresh] = ring_of.emplace(p, r);
        if (!fresh && it->second != r) {
          throw InputError(
              {source, 0, 0, ""},
              "free regions touch at the single point " + point(p) +
                  " where they would both be holes of one native obstacle; the native format "
                  "does not allow holes that touch, so this free space cannot be converted");
        }
      }
    }
  }
  std::vector<Obstacle> out;
  for (Polygon& shape : shapes) out.push_back({std::move(shape), {}});
  return out;
}

// The bounds as written. A rotated map's blocked rectangles and outline pass through every
// lattice point of its border, which, turned and rounded, need not lie exactly on the four sides
// of the turned image; written with all of them, the bounds meet the rectangles at shared
// vertices, so the native scene's free space is the map's without slivers along the border.
Ring written_bounds(const Scene& scene) {
  if (!scene.occupancy || scene.occupancy->yaw == 0.0) return scene.bounds;
  const OccupancyMap& m = *scene.occupancy;
  const auto corner = [&](int x, int y) {
    return m.to_scene({m.origin.x + m.resolution * x, m.origin.y + m.resolution * y});
  };
  Ring ring;
  for (int x = 0; x < m.width; ++x) ring.push_back(corner(x, 0));
  for (int y = 0; y < m.height; ++y) ring.push_back(corner(m.width, y));
  for (int x = m.width; x > 0; --x) ring.push_back(corner(x, m.height));
  for (int y = m.height; y > 0; --y) ring.push_back(corner(0, y));
  return ring;
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

NativeExport export_native_scene(const Scene& scene) {
  NativeExport out;
  const std::string source = scene.source.string();
  std::vector<Obstacle> derived;
  const std::vector<Obstacle>* obstacles = &scene.obstacles;
  const bool raster = scene.cell_map.has_value() || scene.occupancy.has_value();
  const std::size_t fills = scene.vectorisation ? scene.vectorisation->fills : 0;

  if (raster) {
    // The obstacles of a raster map are its blocked cells as rectangles plus the fills.
    const std::size_t rectangles = scene.obstacles.size() - fills;
    std::string note =
        "the map's blocked cells are written as " + plural(rectangles, "rectangle", "rectangles");
    if (fills > 0) {
      note += " and the simplification's " + plural(fills, "fill polygon", "fill polygons") +
              " (tolerance " + number(scene.vectorisation->tolerance) + ")";
    }
    if (scene.occupancy) {
      note += "; which cells were occupied and which unknown (read as " +
              std::string(scene.occupancy->unknown_free ? "free" : "blocked") +
              ") is not kept, nor the image";
      if (scene.occupancy->yaw != 0.0) {
        note += "; the map's yaw " + number(scene.occupancy->yaw) +
                " is kept only in the turned coordinates: the bounds are written with every "
                "corner of the cells along them, and the grid method lines its cells up with "
                "the scene's axes, not with the map's cells";
      }
    } else {
      note +=
          "; MovingAI scenarios (.scen) name cells, which the native scene does not have: "
          "cell (x, y) is the point (x + 0.5, height - y - 0.5)";
    }
    out.notes.push_back(note);
  } else if (!scene.free_boundary.empty()) {
    if (scene.mesh && !scene.mesh->walls.empty()) {
      throw InputError({source, 0, 0, ""},
                       "the mesh has " + plural(scene.mesh->walls.size(), "wall", "walls") +
                           " of zero width (constrained edges between traversable faces), which "
                           "native obstacles cannot represent");
    }
    derived = obstacles_around(scene, source);
    obstacles = &derived;
    if (scene.mesh) {
      out.notes.push_back(
          "the mesh's own faces are not kept: the navmesh method triangulates the free space "
          "again (as navmesh.source=rebuild does)");
    }
  }
  out.notes.insert(out.notes.end(), scene.unused.begin(), scene.unused.end());
  for (const std::string& r : scene.repairs) out.notes.push_back("repaired " + r);
  std::size_t references = 0;
  for (const Query& q : scene.queries) references += q.reference_length.has_value() ? 1 : 0;
  if (references > 0) {
    out.notes.push_back("the reference lengths of " + plural(references, "query", "queries") +
                        " are not kept");
  }

  std::string& y = out.text;
  y += "# Native polynav scene (docs/scene-format.md)";
  // Comments are messages: one line of UTF-8 each, whatever a file name or key in them holds.
  if (!source.empty()) y += ", converted from " + one_line(source);
  y += ".\n";
  for (const std::string& note : out.notes) y += "# Note: " + one_line(note) + ".\n";
  y += "version: 1\n";
  if (!scene.name.empty()) y += "name: " + yaml_quoted(scene.name) + "\n";
  if (scene.native_cell_size) y += "cell_size: " + number(*scene.native_cell_size) + "\n";
  y += "bounds: " + ring(written_bounds(scene)) + "\n";
  if (scene.agent.radius != 0.0 || std::isfinite(scene.agent.max_climb)) {
    y += "agent: {radius: " + number(scene.agent.radius) +
         ", max_climb: " + number(scene.agent.max_climb) + "}\n";
  }
  if (!obstacles->empty()) {
    y += "obstacles:\n";
    for (const Obstacle& o : *obstacles) y += "  - " + polygon(o.shape) + "\n";
  }
  if (!scene.regions.empty()) {
    y += "regions:\n";
    for (const Region& r : scene.regions) {
      y += "  - {";
      if (!r.name.empty()) y += "name: " + yaml_quoted(r.name) + ", ";
      y += "cost: " + number(r.cost) + ", ";
      if (r.height) y += "height: " + number(*r.height) + ", ";
      y += "polygon: " + ring(r.polygon) + "}\n";
    }
  }
  if (!scene.queries.empty()) {
    y += "queries:\n";
    for (const Query& q : scene.queries) {
      y += "  - {";
      if (!q.name.empty()) y += "name: " + yaml_quoted(q.name) + ", ";
      y += "start: " + point(q.start) + ", goal: " + point(q.goal);
      if (q.radius) y += ", radius: " + number(*q.radius);
      y += "}\n";
    }
  }
  if (scene.waypoints) {
    const Waypoints& w = *scene.waypoints;
    y += "waypoints:\n  points: [";
    for (std::size_t i = 0; i < w.points.size(); ++i) y += (i > 0 ? ", " : "") + point(w.points[i]);
    y += "]\n";
    // Absent links mean "link every two points in line of sight"; an empty list, none.
    if (w.links_given) {
      y += "  links: [";
      for (std::size_t i = 0; i < w.links.size(); ++i) {
        y += i > 0 ? ", [" : "[";
        y += std::to_string(w.links[i][0]) + ", " + std::to_string(w.links[i][1]) + "]";
      }
      y += "]\n";
    }
  }
  return out;
}

}  // namespace polynav
