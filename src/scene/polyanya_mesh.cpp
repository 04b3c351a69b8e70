// Polyanya navigation meshes (`.mesh`). Format: FORMAT-mesh-v2.txt of the Polyanya repository
// (M. Cui, D. Harabor, A. Grastien, "Compromise-free Pathfinding on a Navigation Mesh", IJCAI
// 2017). Version 1 differs from version 2 only in how a polygon's neighbour list is rotated; the
// neighbour lists are checked for range but not used, so both versions read the same way.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"
#include "readers.hpp"

namespace polynav {
namespace {

// Every decision below (face orientation, angular order, collinearity) uses the exact
// orientation predicate on the input coordinates, so nearly-degenerate meshes (such as the
// rotated collinear test meshes of Polyanya) are read consistently.
enum Turn : int { right_turn = -1, collinear = 0, left_turn = 1 };
Turn orient(Point a, Point b, Point c) {
  return Turn(exact::orientation(a, b, c));
}

bool lex_less(Point a, Point b) {
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}

std::string format_point(Point p) {
  std::ostringstream s;
  s.precision(17);
  s << '(' << p.x << ", " << p.y << ')';
  return s.str();
}

struct Token {
  std::string_view text;
  int line = 0;
  int column = 0;
};

// The mesh format is whitespace-insensitive (FORMAT-mesh-v2.txt: "all recommended whitespace ...
// can be replaced with any other space"), so it is read as a stream of tokens that remember their
// line and column for messages.
class TokenStream {
 public:
  TokenStream(std::string_view text, std::string file) : file_(std::move(file)) {
    reader_text::LineReader lines(text);
    while (const auto line = lines.next()) {
      for (const auto& field : reader_text::split_fields(*line)) {
        tokens_.push_back({field.text, lines.line_number(), field.column});
      }
    }
    end_line_ = lines.line_number();
  }

  std::size_t remaining() const { return tokens_.size() - next_; }

  const Token& next(const std::string& what) {
    if (next_ == tokens_.size()) {
      throw InputError({file_, end_line_, 0, {}},
                       "unexpected end of file: expected " + what +
                           " (the file is truncated or the header's counts are too large)");
    }
    return tokens_[next_++];
  }

  long long integer(const std::string& what, long long lo, long long hi) {
    const Token& t = next(what);
    const auto v = reader_text::parse_integer(t.text);
    if (!v) fail(t, what + " must be an integer, found " + reader_text::quote(t.text));
    if (*v < lo || *v > hi) {
      fail(t, what + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                  "], found " + std::to_string(*v));
    }
    return *v;
  }

  double number(const std::string& what) {
    const Token& t = next(what);
    const auto v = reader_text::parse_number(t.text);
    if (!v) fail(t, what + " must be a number, found " + reader_text::quote(t.text));
    if (!std::isfinite(*v))
      fail(t, what + " must be a finite number, found " + std::string(t.text));
    return *v;
  }

  [[noreturn]] void fail(const Token& t, const std::string& what) const {
    throw InputError({file_, t.line, t.column, {}}, what);
  }

  // The token last returned by next().
  const Token& previous() const { return tokens_[next_ - 1]; }

 private:
  std::string file_;
  std::vector<Token> tokens_;
  std::size_t next_ = 0;
  int end_line_ = 0;
};

struct Face {
  std::vector<std::uint32_t> vertices;  // canonical vertex ids, counter-clockwise once oriented
  int line = 0;
  int index = 0;
};

struct DirectedEdge {
  std::uint32_t from;
  std::uint32_t to;
  int face;
  // By origin, then target; `face` breaks ties only to make messages deterministic.
  friend bool operator<(const DirectedEdge& a, const DirectedEdge& b) {
    if (a.from != b.from) return a.from < b.from;
    return a.to != b.to ? a.to < b.to : a.face < b.face;
  }
};

std::string face_name(const Face& f) {
  return "polygon " + std::to_string(f.index) + " (line " + std::to_string(f.line) + ")";
}

// Puts a face in counter-clockwise order, or returns false when it has no area. The
// lexicographically smallest vertex of a simple polygon is a strictly convex corner, so the
// orientation of it and its two neighbours is the orientation of the polygon; if they are
// collinear the polygon is either flat (every vertex on one line) or not simple.
bool orient_face(Face& face, const std::vector<Point>& points, const std::string& file) {
  auto& v = face.vertices;
  if (v.size() < 3) return false;
  const std::size_t n = v.size();
  std::size_t low = 0;
  for (std::size_t i = 1; i < n; ++i) {
    if (lex_less(points[v[i]], points[v[low]])) low = i;
  }
  const Point prev = points[v[(low + n - 1) % n]];
  const Point here = points[v[low]];
  const Point next = points[v[(low + 1) % n]];
  const Turn o = orient(prev, here, next);
  if (o == collinear) {
    for (std::size_t i = 0; i < n; ++i) {
      if (orient(prev, here, points[v[i]]) != collinear) {
        throw InputError(
            {file, face.line, 0, {}},
            face_name(face) + " is not a simple polygon: it doubles back at " + format_point(here));
      }
    }
    return false;
  }
  if (o == right_turn) std::reverse(v.begin(), v.end());
  return true;
}

// Where `w` lies around `v`, rotating clockwise from the ray v->u: 0 strictly right of the ray,
// 1 on the opposite ray, 2 strictly left, 3 on the ray itself (a full turn, so last).
int clockwise_sector(Point v, Point u, Point w) {
  switch (orient(v, u, w)) {
    case right_turn:
      return 0;
    case left_turn:
      return 2;
    default:
      return lex_less(v, u) == lex_less(v, w) ? 3 : 1;
  }
}

// True when w1 comes strictly before w2 rotating clockwise around v from the ray v->u.
bool clockwise_before(Point v, Point u, Point w1, Point w2) {
  const int s1 = clockwise_sector(v, u, w1);
  const int s2 = clockwise_sector(v, u, w2);
  if (s1 != s2) return s1 < s2;
  // Within one open half-plane the angle between candidates is below pi, so orientation orders
  // them; on the two rays they tie.
  return (s1 == 0 || s1 == 2) && orient(v, w1, w2) == right_turn;
}

// A vertex strictly inside a boundary edge (a T-junction) means the faces on the two sides do
// not share that edge as the format requires; matching edges would then wall the faces off from
// each other along it. Candidates are found through the boundary vertices sorted by x and by y,
// scanning whichever range is shorter, so axis-parallel edges cost little.
void refuse_t_junctions(const std::vector<DirectedEdge>& boundary, const std::vector<Point>& points,
                        const std::vector<Face>& faces, const std::string& file) {
  std::vector<std::uint32_t> by_x;
  for (const DirectedEdge& e : boundary) by_x.push_back(e.from);
  std::sort(by_x.begin(), by_x.end());
  by_x.erase(std::unique(by_x.begin(), by_x.end()), by_x.end());
  std::vector<std::uint32_t> by_y = by_x;
  std::sort(by_x.begin(), by_x.end(),
            [&](std::uint32_t a, std::uint32_t b) { return points[a].x < points[b].x; });
  std::sort(by_y.begin(), by_y.end(),
            [&](std::uint32_t a, std::uint32_t b) { return points[a].y < points[b].y; });
  const auto range = [&](const std::vector<std::uint32_t>& sorted, double lo, double hi,
                         double Point::*axis) {
    const auto first =
        std::lower_bound(sorted.begin(), sorted.end(), lo,
                         [&](std::uint32_t v, double t) { return points[v].*axis < t; });
    const auto last = std::upper_bound(
        first, sorted.end(), hi, [&](double t, std::uint32_t v) { return t < points[v].*axis; });
    return std::make_pair(first, last);
  };
  for (const DirectedEdge& e : boundary) {
    const Point a = points[e.from];
    const Point b = points[e.to];
    const auto xs = range(by_x, std::min(a.x, b.x), std::max(a.x, b.x), &Point::x);
    const auto ys = range(by_y, std::min(a.y, b.y), std::max(a.y, b.y), &Point::y);
    const auto [first, last] = xs.second - xs.first <= ys.second - ys.first ? xs : ys;
    for (auto it = first; it != last; ++it) {
      const Point p = points[*it];
      if (*it == e.from || *it == e.to || p.x < std::min(a.x, b.x) || p.x > std::max(a.x, b.x) ||
          p.y < std::min(a.y, b.y) || p.y > std::max(a.y, b.y) || orient(a, b, p) != collinear) {
        continue;
      }
      const Face& face = faces[std::size_t(e.face)];
      throw InputError({file, face.line, 0, {}},
                       "vertex " + std::to_string(*it) + " " + format_point(p) +
                           " lies inside the edge from " + format_point(a) + " to " +
                           format_point(b) + " of " + face_name(face) +
                           ": faces must meet along whole edges (the mesh has a T-junction)");
    }
  }
}

}  // namespace

Scene parse_polyanya_mesh(std::string_view text, const std::string& file_name) {
  TokenStream in(text, file_name);

  const Token& header = in.next("the header 'mesh'");
  if (header.text != "mesh") {
    in.fail(header, "not a Polyanya mesh: expected the header 'mesh', found " +
                        reader_text::quote(header.text));
  }
  {
    const Token& t = in.next("the format version");
    const auto version = reader_text::parse_integer(t.text);
    if (!version || (*version != 1 && *version != 2)) {
      in.fail(t, "unsupported mesh version " + reader_text::quote(t.text) + " (supported: 1, 2)");
    }
  }
  constexpr long long max_count = std::numeric_limits<std::int32_t>::max();
  const long long vertex_count = in.integer("the vertex count V", 0, max_count);
  const long long polygon_count = in.integer("the polygon count P", 0, max_count);
  const int counts_line = in.previous().line;
  // A vertex takes at least 3 numbers and a polygon at least 7; refusing impossible counts here
  // keeps a corrupt header from reserving memory.
  if (vertex_count * 3 + polygon_count * 7 > static_cast<long long>(in.remaining())) {
    throw InputError({file_name, counts_line, 0, {}},
                     "the header declares " + std::to_string(vertex_count) + " vertices and " +
                         std::to_string(polygon_count) + " polygons but the file holds only " +
                         std::to_string(in.remaining()) +
                         " more numbers (it is truncated or the counts are wrong)");
  }

  std::vector<Point> points;
  points.reserve(std::size_t(vertex_count));
  for (long long i = 0; i < vertex_count; ++i) {
    const std::string name = "vertex " + std::to_string(i);
    const double x = in.number("the x coordinate of " + name);
    const double y = in.number("the y coordinate of " + name);
    // Not bounded by P: the list also holds a -1 for each obstacle around the vertex.
    const auto neighbours = in.integer("the neighbour count of " + name, 0, max_count);
    for (long long k = 0; k < neighbours; ++k) {
      in.integer("neighbouring polygon " + std::to_string(k) + " of " + name, -1,
                 polygon_count - 1);
    }
    // -0 and 0 are the same place; normalising keeps exact equality and the key below simple.
    points.push_back({x + 0.0, y + 0.0});
  }

  // Vertices at the same coordinates are the same vertex of the free space.
  std::vector<std::uint32_t> canonical(points.size());
  {
    std::vector<std::uint32_t> order(points.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return lex_less(points[a], points[b]) || (points[a] == points[b] && a < b);
    });
    for (std::size_t k = 0; k < order.size(); ++k) {
      const bool same = k > 0 && points[order[k]] == points[order[k - 1]];
      canonical[order[k]] = same ? canonical[order[k - 1]] : order[k];
    }
  }

  std::vector<Face> faces;
  faces.reserve(std::size_t(polygon_count));
  for (long long i = 0; i < polygon_count; ++i) {
    const std::string name = "polygon " + std::to_string(i);
    Face face;
    face.index = int(i);
    const Token& count_token = in.next("the vertex count of " + name);
    face.line = count_token.line;
    const auto n = reader_text::parse_integer(count_token.text);
    if (!n || *n < 3 || *n > vertex_count) {
      in.fail(count_token, "the vertex count of " + name + " must be an integer in [3, " +
                               std::to_string(vertex_count) + "], found " +
                               reader_text::quote(count_token.text));
    }
    for (long long k = 0; k < *n; ++k) {
      const auto v = in.integer("vertex " + std::to_string(k) + " of " + name, 0, vertex_count - 1);
      face.vertices.push_back(canonical[std::size_t(v)]);
    }
    for (long long k = 0; k < *n; ++k) {
      in.integer("neighbouring polygon " + std::to_string(k) + " of " + name, -1,
                 polygon_count - 1);
    }
    faces.push_back(std::move(face));
  }
  if (in.remaining() > 0) {
    const Token& t = in.next("");
    in.fail(t, "unexpected " + reader_text::quote(t.text) + " after the last of the " +
                   std::to_string(polygon_count) +
                   " polygons the header declares (the header's counts may be wrong)");
  }

  // Faces: drop repeated consecutive vertices, refuse vertices visited twice, orient CCW, and
  // drop flat faces (they add no area to the union).
  std::vector<Face> kept;
  for (Face& face : faces) {
    auto& v = face.vertices;
    v.erase(std::unique(v.begin(), v.end()), v.end());
    while (v.size() > 1 && v.front() == v.back()) v.pop_back();
    auto sorted = v;
    std::sort(sorted.begin(), sorted.end());
    const auto repeat = std::adjacent_find(sorted.begin(), sorted.end());
    if (repeat != sorted.end()) {
      throw InputError({file_name, face.line, 0, {}},
                       face_name(face) + " is not a simple polygon: it visits vertex " +
                           std::to_string(*repeat) + " " + format_point(points[*repeat]) +
                           " twice");
    }
    if (orient_face(face, points, file_name)) kept.push_back(std::move(face));
  }
  if (kept.empty()) {
    throw InputError({file_name, counts_line, 0, {}}, "the mesh has no polygon of positive area");
  }

  // Boundary of the union (FORMAT-mesh-v2.txt: faces are convex and do not overlap): a directed
  // edge of a CCW face is on the boundary when no other face has its reverse; free space is on
  // its left.
  std::vector<DirectedEdge> edges;
  for (std::size_t f = 0; f < kept.size(); ++f) {
    const auto& v = kept[f].vertices;
    for (std::size_t i = 0; i < v.size(); ++i) {
      edges.push_back({v[i], v[(i + 1) % v.size()], int(f)});
    }
  }
  std::sort(edges.begin(), edges.end());
  for (std::size_t i = 1; i < edges.size(); ++i) {
    if (edges[i].from == edges[i - 1].from && edges[i].to == edges[i - 1].to) {
      throw InputError({file_name, kept[std::size_t(edges[i].face)].line, 0, {}},
                       face_name(kept[std::size_t(edges[i].face)]) + " and " +
                           face_name(kept[std::size_t(edges[i - 1].face)]) +
                           " overlap: both run from " + format_point(points[edges[i].from]) +
                           " to " + format_point(points[edges[i].to]));
    }
  }
  std::vector<DirectedEdge> boundary;
  for (const DirectedEdge& e : edges) {
    const auto reverse =
        std::lower_bound(edges.begin(), edges.end(), DirectedEdge{e.to, e.from, 0});
    if (reverse == edges.end() || reverse->from != e.to || reverse->to != e.from) {
      boundary.push_back(e);
    }
  }

  refuse_t_junctions(boundary, points, kept, file_name);

  // Outgoing boundary edges of each vertex as ranges of `boundary` (sorted by origin), and the
  // number of boundary edges touching each vertex.
  std::vector<std::uint32_t> first_out(points.size() + 1, 0);
  std::vector<int> degree(points.size(), 0);
  for (const DirectedEdge& e : boundary) {
    ++first_out[e.from + 1];
    ++degree[e.from];
    ++degree[e.to];
  }
  for (std::size_t i = 1; i < first_out.size(); ++i) first_out[i] += first_out[i - 1];

  // Successor of each boundary edge u->v: the outgoing boundary edge at v met first rotating
  // clockwise from the ray v->u. That ray and the edge bound the free sector the incoming edge
  // has on its left, with no boundary edge inside, so the ring keeps to one region; at a vertex
  // where faces touch only at a corner this separates them, matching the grid rule that a
  // zero-width gap is a wall. In a valid mesh this pairs incoming and outgoing edges one to one;
  // otherwise faces overlap or meet at a vertex lying inside another face's edge.
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> successor(boundary.size(), none);
  std::vector<unsigned char> claimed(boundary.size(), 0);
  for (std::uint32_t e = 0; e < boundary.size(); ++e) {
    const Point u = points[boundary[e].from];
    const std::uint32_t v_id = boundary[e].to;
    const Point v = points[v_id];
    std::uint32_t best = none;
    for (std::uint32_t k = first_out[v_id]; k < first_out[v_id + 1]; ++k) {
      if (best == none ||
          clockwise_before(v, u, points[boundary[k].to], points[boundary[best].to])) {
        best = k;
      }
    }
    if (best == none || claimed[best]) {
      throw InputError({file_name, kept[std::size_t(boundary[e].face)].line, 0, {}},
                       "the boundary of the mesh is ambiguous at vertex " + std::to_string(v_id) +
                           " " + format_point(v) +
                           ": polygons overlap there or a vertex lies inside another polygon's "
                           "edge (near " +
                           face_name(kept[std::size_t(boundary[e].face)]) + ")");
    }
    claimed[best] = 1;
    successor[e] = best;
  }

  // Chain into rings; drop a vertex where the ring goes straight on and nothing else touches it.
  Scene scene;
  std::vector<unsigned char> used(boundary.size(), 0);
  std::vector<std::uint32_t> chain;
  for (std::uint32_t start = 0; start < boundary.size(); ++start) {
    if (used[start]) continue;
    chain.clear();
    for (std::uint32_t e = start; !used[e]; e = successor[e]) {
      used[e] = 1;
      chain.push_back(boundary[e].from);
    }
    const std::size_t n = chain.size();
    Ring ring;
    for (std::size_t i = 0; i < n; ++i) {
      const Point prev = points[chain[(i + n - 1) % n]];
      const Point here = points[chain[i]];
      const Point next = points[chain[(i + 1) % n]];
      const bool straight = degree[chain[i]] == 2 && orient(prev, here, next) == collinear &&
                            lex_less(prev, here) == lex_less(here, next);
      if (!straight) ring.push_back(here);
    }
    scene.free_boundary.push_back(std::move(ring));
  }

  Box box;
  for (const Point& p : points) box.expand(p);
  scene.name = std::filesystem::path(file_name).stem().string();
  scene.bounds = {box.min, {box.max.x, box.min.y}, box.max, {box.min.x, box.max.y}};
  return scene;
}

Scene read_polyanya_mesh(const std::filesystem::path& path) {
  Scene scene =
      parse_polyanya_mesh(reader_text::read_file(path, max_mesh_file_bytes), path.string());
  scene.source = path;
  return scene;
}

}  // namespace polynav
