// Polyanya navigation meshes (`.mesh`). Versions 1 and 2: FORMAT-mesh-v2.txt of the Polyanya
// repository (M. Cui, D. Harabor, A. Grastien, "Compromise-free Pathfinding on a Navigation Mesh",
// IJCAI 2017); version 1 differs from version 2 only in how a polygon's neighbour list is rotated,
// and those lists are checked for range but not used, so both read the same way. Version 3 lists
// vertices without neighbours and, per face, whether it is traversable and what lies across each
// edge: another face one may cross into, another face behind a constrained edge, or the border.
// Its neighbour lists are checked against the geometry and used: free space is the union of the
// traversable faces, and a constrained edge between two of them is a wall.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "polynav/error.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/kernel/memory.hpp"
#include "polynav/kernel/place_order.hpp"
#include "polynav/number.hpp"
#include "polynav/text.hpp"
#include "readers.hpp"
#include "validate.hpp"

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
// line and column for messages, each found in the text when it is asked for (a mesh of a million
// numbers kept as tokens took several times the file's memory, and splitting it into lines of
// fields twice was a third of reading it). Only their count is taken up front, in one pass over
// the bytes, so that the header's counts can be checked against what the file holds.
//
// What a token is read as (`what`) is named in messages only: a string, or a function making one
// when a message needs it (a million vertices and faces are not named on the way).
class TokenStream {
 public:
  TokenStream(std::string_view text, std::string file) : file_(std::move(file)), text_(text) {
    using reader_text::is_space;
    // Lines end at '\n'; the last one needs none. The end of the file is located just after its
    // last token, or at the start of its last line when that holds none.
    int line = 1;
    std::size_t line_start = 0;
    int last_line = 0;
    std::size_t last_end = 0, last_line_start = 0;
    bool in_token = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (!is_space(c)) {
        total_ += in_token ? 0 : 1;
        in_token = true;
        continue;
      }
      if (in_token) {
        last_line = line;
        last_end = i;
        last_line_start = line_start;
        in_token = false;
      }
      if (c == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    if (in_token) {
      last_line = line;
      last_end = text.size();
      last_line_start = line_start;
    }
    end_line_ = text.empty() ? 0 : text.back() == '\n' ? line - 1 : line;
    end_column_ = last_line == end_line_ && total_ > 0 ? int(last_end - last_line_start) + 1 : 1;
  }

  std::size_t remaining() const { return total_ - read_; }

  template <class What>
  const Token& next(const What& what) {
    if (read_ == total_) {
      throw InputError({file_, end_line_, end_column_, {}},
                       "unexpected end of file: expected " + text_of(what) +
                           " (the file is truncated or the header's counts are too large)");
    }
    // A token is left, so the scans stop inside the text.
    while (reader_text::is_space(text_[pos_])) {
      if (text_[pos_] == '\n') {
        ++line_;
        line_start_ = pos_ + 1;
      }
      ++pos_;
    }
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !reader_text::is_space(text_[pos_])) ++pos_;
    ++read_;
    current_ = {text_.substr(start, pos_ - start), line_, int(start - line_start_) + 1};
    return current_;
  }

  template <class What>
  long long integer(const What& what, long long lo, long long hi) {
    const Token& t = next(what);
    const auto v = reader_text::parse_integer(t.text);
    if (!v) fail(t, text_of(what) + " must be an integer, found " + reader_text::quote(t.text));
    if (*v < lo || *v > hi) {
      fail(t, text_of(what) + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                  "], found " + std::to_string(*v));
    }
    return *v;
  }

  template <class What>
  double number(const What& what) {
    const Token& t = next(what);
    const ParsedNumber v = parse_number(t.text);
    if (v.status == NumberStatus::infinite || v.status == NumberStatus::not_a_number)
      fail(t, text_of(what) + " must be a finite number, found " + std::string(t.text));
    if (!v.is_finite())
      fail(t, text_of(what) + " must be a number, found " + reader_text::quote(t.text));
    if (std::abs(v.value) > ScaleLimits::max_coordinate) {
      fail(t, text_of(what) + " is beyond the largest magnitude polynav plans in " +
                  "(1125899906842624 = 2^50), found " + std::string(t.text));
    }
    return v.value;
  }

  [[noreturn]] void fail(const Token& t, const std::string& what) const {
    throw InputError({file_, t.line, t.column, {}}, what);
  }

  // The token last returned by next() (the one next() returned until it is called again).
  const Token& previous() const { return current_; }

 private:
  template <class What>
  static std::string text_of(const What& what) {
    if constexpr (std::is_invocable_v<const What&>)
      return what();
    else
      return std::string(what);
  }

  std::string file_;
  std::string_view text_;
  std::size_t pos_ = 0;         // where the next token's search starts
  int line_ = 1;                // the line holding pos_
  std::size_t line_start_ = 0;  // where that line starts
  Token current_;
  std::size_t total_ = 0;
  std::size_t read_ = 0;
  int end_line_ = 0;
  int end_column_ = 1;
};

// How a version names its faces and counts its ids in messages, as its files do: versions 1 and 2
// call faces polygons and count from 0, version 3 calls them faces and counts from 1.
struct Naming {
  std::string face;    // "polygon" or "face"
  std::string faces;   // the plural
  long long base = 0;  // the id of the first vertex and of the first face
};

struct Face {
  std::vector<std::uint32_t> vertices;  // canonical vertex ids, counter-clockwise once oriented
  int line = 0;                         // where the face's record starts
  int column = 0;
  int index = 0;
  bool traversable = true;
  bool flat = false;  // no area: adds nothing to the union and is left out of it
};

// Version 3: each face's vertex ids as listed (0-based) and, for each, the neighbour entry across
// the edge ending at it (from the vertex before it; from the last vertex for the first) with
// where it was written. Face f's entries are [first[f], first[f + 1]).
struct FaceSides {
  std::vector<std::uint32_t> first{0};
  std::vector<std::uint32_t> vertex;
  std::vector<long long> neighbour;
  std::vector<Token> token;
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

// Sorts items by bucket(item), a number below `buckets`, with a counting sort (O(items) against
// O(items log items): a comparison sort had been a tenth of reading a mesh), then each bucket's
// few items by `less`. Returns where each bucket starts among the sorted items: bucket b's are
// [start[b], start[b + 1]).
template <class T, class Bucket, class Less>
std::vector<std::uint32_t> bucket_sort(std::vector<T>& items, std::size_t buckets, Bucket bucket,
                                       Less less) {
  std::vector<std::uint32_t> start(buckets + 1, 0);
  for (const T& item : items) ++start[bucket(item) + 1];
  for (std::size_t b = 1; b <= buckets; ++b) start[b] += start[b - 1];
  std::vector<T> sorted(items.size());
  {
    std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
    for (const T& item : items) sorted[next[bucket(item)]++] = item;
  }
  for (std::size_t b = 0; b < buckets; ++b)
    std::sort(sorted.begin() + std::ptrdiff_t(start[b]),
              sorted.begin() + std::ptrdiff_t(start[b + 1]), less);
  items = std::move(sorted);
  return start;
}

// Sorts edges as operator< orders them; returns where each origin's edges start, as bucket_sort.
std::vector<std::uint32_t> sort_edges(std::vector<DirectedEdge>& edges, std::size_t vertex_count) {
  return bucket_sort(
      edges, vertex_count, [](const DirectedEdge& e) { return e.from; }, std::less<>{});
}

// "polygon 3" or "face 4", numbered as in the file.
std::string face_label(const Face& f, const Naming& naming) {
  return naming.face + " " + std::to_string(f.index + naming.base);
}

// "polygon 3 (line 12)" or "face 4 (line 17)": how messages name a face, as the file counts
// them (a Face here, MeshFaces::name once read).
std::string face_text(const std::string& word, long long number, long long line) {
  return word + " " + std::to_string(number) + " (line " + std::to_string(line) + ")";
}

std::string face_name(const Face& f, const Naming& naming) {
  return face_text(naming.face, f.index + naming.base, f.line);
}

std::string vertex_name(std::uint32_t id, const std::vector<Point>& points, const Naming& naming) {
  return "vertex " + std::to_string(id + naming.base) + " " + format_point(points[id]);
}

// Puts a face in counter-clockwise order, or returns false when it has no area. The
// lexicographically smallest vertex of a simple polygon is a strictly convex corner, so the
// orientation of it and its two neighbours is the orientation of the polygon; if they are
// collinear the polygon is either flat (every vertex on one line) or not simple.
bool orient_face(Face& face, const std::vector<Point>& points, const Naming& naming,
                 const std::string& file) {
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
        throw InputError({file, face.line, face.column, {}},
                         face_name(face, naming) + " is not a simple polygon: it doubles back at " +
                             format_point(here));
      }
    }
    return false;
  }
  if (o == right_turn) std::reverse(v.begin(), v.end());
  return true;
}

// Whether a face of distinct vertices and positive area is convex: it turns the same way at every
// vertex where it turns, never doubles back, and goes round once (the lexicographic order of
// consecutive vertices changes twice: at the lowest vertex and at the highest). O(n), exact.
bool is_convex(const std::vector<std::uint32_t>& v, const std::vector<Point>& points) {
  const std::size_t n = v.size();
  Turn way = collinear;
  int changes = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Point prev = points[v[(i + n - 1) % n]];
    const Point here = points[v[i]];
    const Point next = points[v[(i + 1) % n]];
    const bool turns_lex = lex_less(prev, here) != lex_less(here, next);
    const Turn t = orient(prev, here, next);
    if (t == collinear ? turns_lex : (way != collinear && t != way)) return false;
    if (t != collinear) way = t;
    if (turns_lex) ++changes;
  }
  return changes == 2;
}

// Free space is the union of the faces, traced from their edges, so each must be a simple polygon
// (faces that are simple but not convex are kept: navmesh.source=auto rebuilds them). Convex faces
// are; the others are checked with the scene validator's sweep. O(n) for a convex face, else
// O(n log n).
void refuse_non_simple_face(const Face& face, const std::vector<Point>& points,
                            const Naming& naming, const std::string& file) {
  if (is_convex(face.vertices, points)) return;
  detail::RawRing ring;
  ring.where = {file, face.line, face.column, {}};
  for (const std::uint32_t v : face.vertices) ring.points.push_back(points[v]);
  try {
    detail::checked_ring(ring);
  } catch (const InputError& e) {
    // "ring is self-intersecting: edges 1 and 3 cross near (x, y)": the edge numbers count the
    // face's vertices after reordering, so only how and where they meet is kept.
    std::string how = e.message();
    const std::string lead = "ring is self-intersecting: edges ";
    if (how.starts_with(lead)) {
      const std::size_t and_at = how.find(" and ", lead.size());
      const std::size_t after = and_at == std::string::npos ? and_at : how.find(' ', and_at + 5);
      if (after != std::string::npos) how = "two of its edges" + how.substr(after);
    }
    throw InputError(ring.where, face_name(face, naming) + " is not a simple polygon: " + how);
  }
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
// each other along it. The points of an edge lie between its ends both in (x, y) order and in
// (y, x) order, so the candidates are the boundary vertices strictly between them in whichever
// order holds fewer: for an edge along an axis, just the vertices on its line. The ends' ranks
// in each order give the range at once.
// `by_place` lists the canonical vertices in (x, y) order.
void refuse_t_junctions(const std::vector<DirectedEdge>& boundary, const std::vector<Point>& points,
                        const std::vector<std::uint32_t>& by_place, const std::vector<Face>& faces,
                        const Naming& naming, const std::string& file) {
  struct Listed {
    Point at;
    std::uint32_t id;
  };
  std::vector<std::uint8_t> on_boundary(points.size(), 0);
  for (const DirectedEdge& e : boundary) on_boundary[e.from] = on_boundary[e.to] = 1;
  std::vector<Listed> by_xy;
  for (const std::uint32_t id : by_place)
    if (on_boundary[id]) by_xy.push_back({points[id], id});
  std::vector<Listed> by_yx;
  by_yx.reserve(by_xy.size());
  for (const std::uint32_t i : place_order(
           by_xy.size(), [&](std::size_t i) { return by_xy[i].at; }, true))
    by_yx.push_back(by_xy[i]);
  // Each boundary vertex's place in the two orders (its coordinates are its own: vertices at the
  // same place are one).
  std::vector<std::uint32_t> rank_xy(points.size()), rank_yx(points.size());
  for (std::uint32_t i = 0; i < by_xy.size(); ++i) {
    rank_xy[by_xy[i].id] = i;
    rank_yx[by_yx[i].id] = i;
  }
  for (const DirectedEdge& e : boundary) {
    const Point a = points[e.from];
    const Point b = points[e.to];
    const auto [x0, x1] = std::minmax(rank_xy[e.from], rank_xy[e.to]);
    const auto [y0, y1] = std::minmax(rank_yx[e.from], rank_yx[e.to]);
    const bool along_x = x1 - x0 <= y1 - y0;
    const std::vector<Listed>& order = along_x ? by_xy : by_yx;
    for (std::uint32_t i = (along_x ? x0 : y0) + 1; i < (along_x ? x1 : y1); ++i) {
      const Point p = order[i].at;
      if (p.x < std::min(a.x, b.x) || p.x > std::max(a.x, b.x) || p.y < std::min(a.y, b.y) ||
          p.y > std::max(a.y, b.y) || orient(a, b, p) != collinear) {
        continue;
      }
      const Face& face = faces[std::size_t(e.face)];
      throw InputError({file, face.line, face.column, {}},
                       vertex_name(order[i].id, points, naming) + " lies inside the edge from " +
                           format_point(a) + " to " + format_point(b) + " of " +
                           face_name(face, naming) +
                           ": faces must meet along whole edges (the mesh has a T-junction)");
    }
  }
}

// Faces that overlap without sharing a directed edge: their edges cross, or one face (or a group
// of faces) lies inside another. The boundary edges then bound some places twice, which the
// winding number of the boundary (the number of faces covering a place) shows.
void refuse_overlapping_faces(const std::vector<DirectedEdge>& boundary,
                              const std::vector<Point>& points, const std::vector<Face>& faces,
                              const Naming& naming, const std::string& file) {
  std::vector<detail::DirectedSegment> segments;
  segments.reserve(boundary.size());
  for (const DirectedEdge& e : boundary) segments.push_back({points[e.from], points[e.to]});
  const std::optional<detail::CoverDefect> defect = detail::find_cover_defect(segments);
  if (!defect) return;
  const DirectedEdge& e = boundary[defect->segment];
  const Face& face = faces[std::size_t(e.face)];
  const InputLocation where{file, face.line, face.column, {}};
  if (defect->other) {
    // Edges of one face meet only when it is not simple, which was refused before.
    const Face& other = faces[std::size_t(boundary[*defect->other].face)];
    throw InputError(where, face_name(face, naming) + " and " + face_name(other, naming) +
                                " overlap: their edges " + defect->how);
  }
  throw InputError(where, face_name(face, naming) + " overlaps another " + naming.face +
                              ": the area beside its edge from " + format_point(points[e.from]) +
                              " to " + format_point(points[e.to]) + " is covered by " +
                              std::to_string(defect->times) + " " + naming.faces);
}

// Version 3: every neighbour entry must say what lies across its edge. An entry k != 0 names the
// other face with that edge (vertices at the same coordinates being the same vertex), and that
// face names this one back; 0 (the border of the mesh) means no other face has the edge. Between
// two traversable faces the signs must agree, and a negative pair is a wall. Entries are checked
// in file order, so the first one that breaks a rule is reported. Returns the walls as sorted
// pairs of canonical vertex ids (lower first).
std::vector<std::pair<std::uint32_t, std::uint32_t>> check_neighbours(
    const std::vector<Face>& faces, const FaceSides& sides_of, const std::vector<Point>& points,
    const std::vector<std::uint32_t>& canonical, const Naming& naming, const TokenStream& in) {
  // Each edge of each face by its canonical ends, so the faces sharing an edge are adjacent.
  struct Side {
    std::uint32_t lo, hi;
    std::uint32_t face, slot;
    auto key() const { return std::tie(lo, hi, face, slot); }
    bool operator<(const Side& o) const { return key() < o.key(); }
  };
  const auto count = [&](std::uint32_t f) { return sides_of.first[f + 1] - sides_of.first[f]; };
  // The listed vertex at the start and at the end of a face's edge `slot`, and its entry.
  const auto from = [&](std::uint32_t f, std::uint32_t slot) {
    return sides_of.vertex[sides_of.first[f] + (slot + count(f) - 1) % count(f)];
  };
  const auto to = [&](std::uint32_t f, std::uint32_t slot) {
    return sides_of.vertex[sides_of.first[f] + slot];
  };
  const auto entry_of = [&](std::uint32_t f, std::uint32_t slot) {
    return sides_of.neighbour[sides_of.first[f] + slot];
  };
  const auto side_of = [&](std::uint32_t f, std::uint32_t slot) {
    const std::uint32_t a = canonical[from(f, slot)], b = canonical[to(f, slot)];
    return Side{std::min(a, b), std::max(a, b), f, slot};
  };
  std::vector<Side> sides;
  for (std::uint32_t f = 0; f < faces.size(); ++f) {
    for (std::uint32_t slot = 0; slot < count(f); ++slot) {
      const Side side = side_of(f, slot);
      if (side.lo != side.hi) sides.push_back(side);  // a repeated vertex is no edge
    }
  }
  std::sort(sides.begin(), sides.end());

  std::vector<std::pair<std::uint32_t, std::uint32_t>> walls;
  for (std::uint32_t f = 0; f < faces.size(); ++f) {
    const Face& face = faces[f];
    for (std::uint32_t slot = 0; slot < count(f); ++slot) {
      const Side side = side_of(f, slot);
      if (side.lo == side.hi) continue;
      const long long k = entry_of(f, slot);
      // Messages, built only when one is needed: the entry and its edge.
      const auto fail = [&](const std::string& what) {
        in.fail(sides_of.token[sides_of.first[f] + slot],
                "neighbour " + std::to_string(slot + naming.base) + " of " +
                    face_label(face, naming) + " is " + std::to_string(k) + what);
      };
      const auto edge = [&] {
        return "from " + vertex_name(from(f, slot), points, naming) + " to " +
               vertex_name(to(f, slot), points, naming);
      };
      const auto first = std::lower_bound(sides.begin(), sides.end(), Side{side.lo, side.hi, 0, 0});
      const auto last = std::upper_bound(
          first, sides.end(), Side{side.lo, side.hi, std::numeric_limits<std::uint32_t>::max(), 0});
      const auto across = std::find_if(first, last, [&](const Side& o) { return o.face != f; });
      if (k == 0) {
        if (across != last) {
          fail(" (the border of the mesh), but " + face_name(faces[across->face], naming) +
               " is across that edge, " + edge());
        }
        continue;
      }
      const auto other_id = std::uint32_t(std::llabs(k) - 1);
      const Face& other = faces[other_id];
      if (other_id == f) fail(", " + face_label(face, naming) + " itself");
      const auto match =
          std::find_if(first, last, [&](const Side& o) { return o.face == other_id; });
      if (match == last) {
        fail(", but " + face_name(other, naming) + " does not have that edge, " + edge() +
             (across != last ? " (" + face_name(faces[across->face], naming) + " has it)"
                             : " (no other face has it: 0 marks the border of the mesh)"));
      }
      const long long back = entry_of(other_id, match->slot);
      if (std::llabs(back) - 1 != f) {
        const std::string self = std::to_string(f + naming.base);
        fail(", but " + face_name(other, naming) + " has " + std::to_string(back) +
             (back == 0 ? " (the border of the mesh)" : "") + " across that edge, " + edge() +
             ", not " + self + " or -" + self);
      }
      if (!face.traversable || !other.traversable) continue;
      if ((k > 0) != (back > 0)) {
        const auto meaning = [](long long id) {
          return id > 0 ? std::string(" (it can be crossed)")
                        : std::string(" (a constrained edge)");
        };
        fail(meaning(k) + ", but " + face_name(other, naming) + " has " + std::to_string(back) +
             meaning(back) + " across that edge, " + edge() + "; two traversable faces must agree");
      }
      if (k < 0 && f < other_id) walls.emplace_back(side.lo, side.hi);
    }
  }
  std::sort(walls.begin(), walls.end());
  return walls;
}

}  // namespace

Scene parse_polyanya_mesh(std::string_view text, const std::string& file_name) {
  TokenStream in(text, file_name);

  const Token& header = in.next("the header 'mesh'");
  if (header.text != "mesh") {
    in.fail(header, "not a Polyanya mesh: expected the header 'mesh', found " +
                        reader_text::quote(header.text));
  }
  long long version = 0;
  {
    const Token& t = in.next("the format version");
    const auto v = reader_text::parse_integer(t.text);
    if (!v || *v < 1 || *v > 3) {
      in.fail(t,
              "unsupported mesh version " + reader_text::quote(t.text) + " (supported: 1, 2, 3)");
    }
    version = *v;
  }
  const bool v3 = version == 3;
  const Naming naming = v3 ? Naming{"face", "faces", 1} : Naming{"polygon", "polygons", 0};
  const long long base = naming.base;
  constexpr long long max_count = std::numeric_limits<std::int32_t>::max();
  const long long vertex_count = in.integer("the vertex count V", 0, max_count);
  const Token counts = in.previous();  // errors about the counts point at their line's start
  const long long face_count =
      in.integer(v3 ? "the face count F" : "the polygon count P", 0, max_count);
  // A vertex takes at least 3 numbers and a polygon at least 7 (version 3: 2 and 8); refusing
  // impossible counts here keeps a corrupt header from reserving memory.
  const long long least =
      v3 ? vertex_count * 2 + face_count * 8 : vertex_count * 3 + face_count * 7;
  if (least > static_cast<long long>(in.remaining())) {
    throw InputError({file_name, counts.line, counts.column, {}},
                     "the header declares " + std::to_string(vertex_count) + " vertices and " +
                         std::to_string(face_count) + " " + naming.faces +
                         " but the file holds only " + std::to_string(in.remaining()) +
                         " more numbers (it is truncated or the counts are wrong)");
  }

  std::vector<Point> points;
  points.reserve(std::size_t(vertex_count));
  for (long long i = 0; i < vertex_count; ++i) {
    const auto name = [&] { return "vertex " + std::to_string(i + base); };
    const double x = in.number([&] { return "the x coordinate of " + name(); });
    const double y = in.number([&] { return "the y coordinate of " + name(); });
    if (!v3) {
      // Not bounded by P: the list also holds a -1 for each obstacle around the vertex.
      const auto neighbours =
          in.integer([&] { return "the neighbour count of " + name(); }, 0, max_count);
      for (long long k = 0; k < neighbours; ++k) {
        in.integer([&] { return "neighbouring polygon " + std::to_string(k) + " of " + name(); },
                   -1, face_count - 1);
      }
    }
    // -0 and 0 are the same place; normalising keeps exact equality and the key below simple.
    points.push_back({x + 0.0, y + 0.0});
  }

  // Vertices at the same coordinates are the same vertex of the free space.
  // The canonical vertices in (x, y) order are kept for the T-junction check.
  std::vector<std::uint32_t> canonical(points.size());
  std::vector<std::uint32_t> by_place;
  {
    // By place, equal points in file order (a comparison sort of them was a twentieth of reading
    // a mesh).
    const std::vector<std::uint32_t> order =
        place_order(points.size(), [&](std::size_t i) { return points[i]; });
    for (std::size_t k = 0; k < order.size(); ++k) {
      const bool same = k > 0 && points[order[k]] == points[order[k - 1]];
      canonical[order[k]] = same ? canonical[order[k - 1]] : order[k];
      if (!same) by_place.push_back(order[k]);
    }
  }

  std::vector<Face> faces;
  faces.reserve(std::size_t(face_count));
  FaceSides sides;
  for (long long i = 0; i < face_count; ++i) {
    Face face;
    face.index = int(i);
    const auto name = [&] { return face_label(face, naming); };
    if (v3) {
      const Token& flag = in.next([&] { return "the traversable flag of " + name(); });
      face.line = flag.line;
      face.column = flag.column;
      const auto t = reader_text::parse_integer(flag.text);
      if (!t || (*t != 0 && *t != 1)) {
        in.fail(flag, "the traversable flag of " + name() +
                          " must be 0 (not traversable) or 1 (traversable), found " +
                          reader_text::quote(flag.text));
      }
      face.traversable = *t == 1;
    }
    const Token& count_token = in.next([&] { return "the vertex count of " + name(); });
    if (!v3) {
      face.line = count_token.line;
      face.column = count_token.column;
    }
    const auto n = reader_text::parse_integer(count_token.text);
    if (!n || *n < 3 || *n > vertex_count) {
      in.fail(count_token, "the vertex count of " + name() + " must be an integer in [3, " +
                               std::to_string(vertex_count) + "], found " +
                               reader_text::quote(count_token.text));
    }
    for (long long k = 0; k < *n; ++k) {
      const auto v =
          in.integer([&] { return "vertex " + std::to_string(k + base) + " of " + name(); }, base,
                     vertex_count - 1 + base);
      face.vertices.push_back(canonical[std::size_t(v - base)]);
      if (v3) sides.vertex.push_back(std::uint32_t(v - base));
    }
    for (long long k = 0; k < *n; ++k) {
      if (v3) {
        sides.neighbour.push_back(
            in.integer([&] { return "neighbour " + std::to_string(k + base) + " of " + name(); },
                       -face_count, face_count));
        sides.token.push_back(in.previous());
      } else {
        in.integer([&] { return "neighbouring polygon " + std::to_string(k) + " of " + name(); },
                   -1, face_count - 1);
      }
    }
    if (v3) sides.first.push_back(std::uint32_t(sides.vertex.size()));
    faces.push_back(std::move(face));
  }
  if (in.remaining() > 0) {
    const Token& t = in.next("");
    in.fail(t, "unexpected " + reader_text::quote(t.text) + " after the last of the " +
                   std::to_string(face_count) + " " + naming.faces +
                   " the header declares (the header's counts may be wrong)");
  }

  // Faces: drop repeated consecutive vertices, refuse vertices visited twice, orient CCW, and
  // mark flat faces (they add no area to the union).
  std::size_t free_faces = 0, free_corners = 0;
  std::vector<std::uint32_t> sorted;
  for (Face& face : faces) {
    auto& v = face.vertices;
    v.erase(std::unique(v.begin(), v.end()), v.end());
    while (v.size() > 1 && v.front() == v.back()) v.pop_back();
    sorted.assign(v.begin(), v.end());
    std::sort(sorted.begin(), sorted.end());
    const auto repeat = std::adjacent_find(sorted.begin(), sorted.end());
    if (repeat != sorted.end()) {
      throw InputError({file_name, face.line, face.column, {}},
                       face_name(face, naming) + " is not a simple polygon: it visits " +
                           vertex_name(*repeat, points, naming) + " twice");
    }
    face.flat = !orient_face(face, points, naming, file_name);
    if (!face.flat && face.traversable) refuse_non_simple_face(face, points, naming, file_name);
    if (!face.flat && face.traversable) {
      ++free_faces;
      free_corners += v.size();
    }
  }
  if (free_faces == 0) {
    throw InputError({file_name, counts.line, counts.column, {}},
                     v3 ? "the mesh has no traversable face of positive area"
                        : "the mesh has no polygon of positive area");
  }

  // Faces are convex and do not overlap (FORMAT-mesh-v2.txt), blocked ones included: two faces
  // with the same directed edge overlap.
  std::vector<DirectedEdge> edges;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    if (faces[f].flat) continue;
    const auto& v = faces[f].vertices;
    for (std::size_t i = 0; i < v.size(); ++i) {
      edges.push_back({v[i], v[(i + 1) % v.size()], int(f)});
    }
  }
  sort_edges(edges, points.size());
  for (std::size_t i = 1; i < edges.size(); ++i) {
    if (edges[i].from == edges[i - 1].from && edges[i].to == edges[i - 1].to) {
      const Face& later = faces[std::size_t(edges[i].face)];
      throw InputError({file_name, later.line, later.column, {}},
                       face_name(later, naming) + " and " +
                           face_name(faces[std::size_t(edges[i - 1].face)], naming) +
                           " overlap: both run from " + format_point(points[edges[i].from]) +
                           " to " + format_point(points[edges[i].to]));
    }
  }
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> walls =
      v3 ? check_neighbours(faces, sides, points, canonical, naming, in)
         : std::vector<std::pair<std::uint32_t, std::uint32_t>>{};

  release(edges);

  // The faces the scene keeps (traversable, of positive area), sized once as the scene keeps them,
  // and what lies across each of their edges.
  MeshFaces mesh;
  mesh.face_word = naming.face;
  mesh.first.reserve(free_faces + 1);
  mesh.corners.reserve(free_corners);
  mesh.written.reserve(free_faces);
  std::vector<std::uint32_t> file_face;  // each kept face's index in `faces`
  file_face.reserve(free_faces);
  for (std::uint32_t f = 0; f < faces.size(); ++f) {
    const Face& face = faces[f];
    if (!face.traversable || face.flat) continue;
    mesh.add_face(face.vertices);
    mesh.written.push_back({std::uint32_t(face.index + naming.base), std::uint32_t(face.line)});
    file_face.push_back(f);
  }
  mesh.walls = walls;
  mesh.join_faces();

  // Boundary of the union of the traversable faces: a directed edge of a CCW face is on it when no
  // other traversable face has its reverse (no two faces have one directed edge: refused above);
  // free space is on its left. A wall (version 3: a constrained edge between two traversable
  // faces) stays in both directions, so the boundary goes along it and back, free on both sides.
  std::vector<DirectedEdge> boundary;
  for (std::uint32_t m = 0; m < mesh.face_count(); ++m) {
    for (std::uint32_t c = mesh.first[m]; c < mesh.first[m + 1]; ++c) {
      if (mesh.across[c] >= 0) continue;
      boundary.push_back(
          {mesh.corners[c], mesh.corners[mesh.next_corner(m, c)], int(file_face[m])});
    }
  }
  // Outgoing boundary edges of each vertex: those of v are [first_out[v], first_out[v + 1]).
  const std::vector<std::uint32_t> first_out = sort_edges(boundary, points.size());

  refuse_t_junctions(boundary, points, by_place, faces, naming, file_name);
  release(by_place);
  refuse_overlapping_faces(boundary, points, faces, naming, file_name);

  // The number of boundary edges touching each vertex.
  std::vector<int> degree(points.size(), 0);
  for (const DirectedEdge& e : boundary) {
    ++degree[e.from];
    ++degree[e.to];
  }

  // Successor of each boundary edge u->v: the outgoing boundary edge at v met first rotating
  // clockwise from the ray v->u. That ray and the edge bound the free sector the incoming edge
  // has on its left, with no boundary edge inside, so the ring keeps to one region; at a vertex
  // where faces touch only at a corner this separates them, matching the grid rule that a
  // zero-width gap is a wall. The way back along a wall (v->u itself) comes last, so a ring turns
  // round a wall only at its free end. In a valid mesh this pairs incoming and outgoing edges one
  // to one; otherwise faces overlap or meet at a vertex lying inside another face's edge.
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
      const Face& near = faces[std::size_t(boundary[e].face)];
      throw InputError({file_name, near.line, near.column, {}},
                       "the boundary of the mesh is ambiguous at " +
                           vertex_name(v_id, points, naming) + ": " + naming.faces +
                           " overlap there or a vertex lies inside another " + naming.face +
                           "'s edge (near " + face_name(near, naming) + ")");
    }
    claimed[best] = 1;
    successor[e] = best;
  }

  // Chain into rings; drop a vertex where the ring goes straight on and nothing else touches it.
  Scene scene;
  std::vector<unsigned char> used(boundary.size(), 0);
  std::vector<std::uint32_t> chain;
  Ring ring;
  for (std::uint32_t start = 0; start < boundary.size(); ++start) {
    if (used[start]) continue;
    chain.clear();
    for (std::uint32_t e = start; !used[e]; e = successor[e]) {
      used[e] = 1;
      chain.push_back(boundary[e].from);
    }
    const std::size_t n = chain.size();
    ring.clear();
    for (std::size_t i = 0; i < n; ++i) {
      const Point prev = points[chain[(i + n - 1) % n]];
      const Point here = points[chain[i]];
      const Point next = points[chain[(i + 1) % n]];
      const bool straight = degree[chain[i]] == 2 && orient(prev, here, next) == collinear &&
                            lex_less(prev, here) == lex_less(here, next);
      if (!straight) ring.push_back(here);
    }
    // Copied at its size: the scene keeps it (grown a point at a time, aurora's rings had held
    // half as much room again).
    scene.free_boundary.emplace_back(ring.begin(), ring.end());
  }

  Box box;
  for (const Point& p : points) box.expand(p);
  scene.name = valid_utf8(std::filesystem::path(file_name).stem().string());
  scene.bounds = {box.min, {box.max.x, box.min.y}, box.max, {box.min.x, box.max.y}};
  // The bounds come from the vertices: checks of the scene as a whole (a scene too far from the
  // origin for its size) name the file.
  scene.bounds_where = {file_name, 0, 0, {}};
  mesh.vertices = std::move(points);
  scene.mesh = std::make_shared<const MeshFaces>(std::move(mesh));
  return scene;
}

std::string MeshFaces::name(std::size_t f) const {
  return face_text(face_word, written[f].number, written[f].line);
}

void MeshFaces::add_face(std::span<const std::uint32_t> ids) {
  corners.insert(corners.end(), ids.begin(), ids.end());
  first.push_back(std::uint32_t(corners.size()));
}

void MeshFaces::join_faces() {
  // The sides by their lower vertex, then by the higher one and the face: the faces listing one
  // edge are then next to each other, in face order.
  struct Side {
    std::uint32_t lo, hi, face, corner;
    auto key() const { return std::tie(hi, face, corner); }
  };
  std::vector<Side> sides;
  sides.reserve(corners.size());
  for (std::uint32_t f = 0; f < face_count(); ++f)
    for (std::uint32_t c = first[f]; c < first[f + 1]; ++c) {
      const std::uint32_t a = corners[c], b = corners[next_corner(f, c)];
      sides.push_back({std::min(a, b), std::max(a, b), f, c});
    }
  const std::uint32_t ids =
      corners.empty() ? 0 : *std::max_element(corners.begin(), corners.end()) + 1;
  const std::vector<std::uint32_t> start = bucket_sort(
      sides, ids, [](const Side& s) { return s.lo; },
      [](const Side& a, const Side& b) { return a.key() < b.key(); });
  across.assign(corners.size(), -1);
  for (std::uint32_t lo = 0; lo < ids; ++lo) {
    const auto bucket = sides.begin() + start[lo], bucket_end = sides.begin() + start[lo + 1];
    for (auto run = bucket; run != bucket_end;) {
      const std::uint32_t hi = run->hi;
      auto run_end = run;
      while (run_end != bucket_end && run_end->hi == hi) ++run_end;
      if (!std::binary_search(walls.begin(), walls.end(), std::pair{lo, hi})) {
        // The first face of the run, and for the sides of that face the first other one.
        const auto other =
            std::find_if(run, run_end, [&](const Side& x) { return x.face != run->face; });
        for (auto side = run; side != run_end; ++side) {
          const auto across_face = side->face != run->face ? run : other;
          if (across_face != run_end) across[side->corner] = std::int32_t(across_face->face);
        }
      }
      run = run_end;
    }
  }
}

Scene read_polyanya_mesh(const std::filesystem::path& path) {
  Scene scene =
      parse_polyanya_mesh(reader_text::read_file(path, max_mesh_file_bytes), path.string());
  scene.source = path;
  return scene;
}

}  // namespace polynav
