#include "validate.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_2_algorithms.h>
#include <CGAL/intersections.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "polynav/kernel/exact.hpp"

namespace polynav::detail {

void split_at_repeated_vertices(const Ring& ring, std::vector<Ring>& loops) {
  Ring path;
  std::unordered_map<Point, std::size_t, PointHash> at;  // index in `path`
  for (std::size_t k = 0; k <= ring.size(); ++k) {
    const Point p = ring[k % ring.size()];
    const auto seen = at.find(p);
    if (seen == at.end()) {
      at.emplace(p, path.size());
      path.push_back(p);
      continue;
    }
    // Close the loop from the earlier visit of p to here; p stays on the path.
    const std::size_t from = seen->second;
    Ring loop(path.begin() + std::ptrdiff_t(from), path.end());
    for (std::size_t i = from + 1; i < path.size(); ++i) at.erase(path[i]);
    path.resize(from + 1);
    if (loop.size() >= 3) loops.push_back(std::move(loop));
  }
}
namespace {

using K = CGAL::Exact_predicates_inexact_constructions_kernel;
using KPoint = K::Point_2;
using KSegment = K::Segment_2;

KPoint to_k(Point p) {
  return {p.x, p.y};
}

// Numbers in messages: the shortest text that reads back as the same double for input values,
// six significant digits for constructed (approximate) places.
std::string format_number(double v, bool exact) {
  char buf[64];
  const auto r = exact ? std::to_chars(buf, buf + sizeof buf, v)
                       : std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6);
  return std::string(buf, r.ptr);
}

std::string format_point(Point p, bool exact = true) {
  // Appending (rather than chaining operator+ on temporaries) also avoids a false -Wrestrict
  // from GCC 12 at -O3.
  std::string s = "(";
  s.append(format_number(p.x, exact)).append(", ").append(format_number(p.y, exact)).append(")");
  return s;
}

// A ring after dropping repeated consecutive points, remembering each kept point's position in
// the input so messages can name what the user wrote.
struct CleanRing {
  std::vector<Point> points;
  std::vector<std::size_t> input_index;
  const RawRing* raw = nullptr;

  std::size_t size() const { return points.size(); }
  // The label of edge e (from kept point e to kept point e + 1): its first point's input index.
  std::size_t edge_label(std::size_t e) const { return input_index[e]; }
};

CleanRing clean(const RawRing& raw) {
  CleanRing c;
  c.raw = &raw;
  for (std::size_t i = 0; i < raw.points.size(); ++i) {
    if (!c.points.empty() && c.points.back() == raw.points[i]) {
      // A point's label is its last repetition: the edge leaving it is the one written there.
      c.input_index.back() = i;
      continue;
    }
    c.points.push_back(raw.points[i]);
    c.input_index.push_back(i);
  }
  while (c.points.size() > 1 && c.points.back() == c.points.front()) {
    c.points.pop_back();
    c.input_index.pop_back();
  }
  return c;
}

[[noreturn]] void fail(const RawRing& raw, const std::string& message) {
  throw InputError(raw.where, message);
}

// A defect that make-valid repairs (InvalidPolygon).
[[noreturn]] void fail_invalid(const RawRing& raw, const std::string& message) {
  throw InvalidPolygon(raw.where, message);
}

// A ring edge as the sweep sees it: `left` is its lexicographically smaller (x, then y) end.
struct SweepEdge {
  KPoint left;
  KPoint right;
  std::uint32_t ring;  // index into the rings being swept
  std::uint32_t edge;  // edge index within its clean ring
};

bool lex_less(const KPoint& a, const KPoint& b) {
  return CGAL::compare_xy(a, b) == CGAL::SMALLER;
}

// Strict order of the edges crossing the sweep line, bottom to top. Only ever asked about two
// edges that are both on the sweep line, so the one that started later has its left end within
// the other's x-range and its side of the other's supporting line decides. Ties (an end lying on
// the other edge) mean the edges meet, which the neighbour tests report; they are broken by the
// far end's side and then by index only to keep the order strict.
class BelowOnSweep {
 public:
  explicit BelowOnSweep(const std::vector<SweepEdge>* edges) : edges_(edges) {}

  bool operator()(std::uint32_t ia, std::uint32_t ib) const {
    if (ia == ib) return false;
    const SweepEdge& a = (*edges_)[ia];
    const SweepEdge& b = (*edges_)[ib];
    if (a.left == b.left || lex_less(a.left, b.left)) return is_above(a, b, ia < ib);
    return !is_above(b, a, ib < ia);
  }

 private:
  // Whether `later` lies above `earlier`, where `later` started no earlier than `earlier`.
  static bool is_above(const SweepEdge& earlier, const SweepEdge& later, bool earlier_first_by_id) {
    if (earlier.left != later.left) {
      const auto o = CGAL::orientation(earlier.left, earlier.right, later.left);
      if (o != CGAL::COLLINEAR) return o == CGAL::LEFT_TURN;
    }
    const auto o = CGAL::orientation(earlier.left, earlier.right, later.right);
    if (o != CGAL::COLLINEAR) return o == CGAL::LEFT_TURN;
    return earlier_first_by_id;
  }

 protected:
  const std::vector<SweepEdge>* edges_;
};

// BelowOnSweep that also compares an edge with a point on the sweep line (the edge below the
// point, or above it; neither when the point lies on it), to look up the edge through a point.
// Only for edges that are not vertical and span the point's x (see points_inside_edges).
class BelowOnSweepOrPoint : public BelowOnSweep {
 public:
  using is_transparent = void;
  using BelowOnSweep::BelowOnSweep;
  using BelowOnSweep::operator();

  bool operator()(std::uint32_t e, const KPoint& p) const {
    return CGAL::orientation((*edges_)[e].left, (*edges_)[e].right, p) == CGAL::LEFT_TURN;
  }
  bool operator()(const KPoint& p, std::uint32_t e) const {
    return CGAL::orientation((*edges_)[e].left, (*edges_)[e].right, p) == CGAL::RIGHT_TURN;
  }
};

// Sweeps `edges` left to right and finds two that meet although `may_meet(a, b)` says they may
// not, or reports that there are none. Shamos and Hoey's sweep ("Geometric intersection problems",
// FOCS 1976): any meeting pair becomes adjacent on the sweep line before the sweep passes the
// leftmost meeting place, so testing each newly adjacent pair finds one. Edges may meet where one
// ends and the other starts (the sweep never compares them), and the caller has ruled out such
// pairs that overlap. `on_insert(e, below)` sees each edge as it enters the sweep line, edges
// starting at one point bottom to top, with the edge just below it (or none); returning false
// stops the sweep. O(n log n).
template <class MayMeet, class OnInsert>
std::optional<std::pair<std::uint32_t, std::uint32_t>> sweep_edges(
    const std::vector<SweepEdge>& edges, const MayMeet& may_meet, const OnInsert& on_insert) {
  // Each event carries its point's coordinates: compared in place, (x, y) order is the kernel's
  // compare_xy on the same doubles, and the sort reads no edge but at ties.
  struct Event {
    double x, y;
    std::uint32_t edge;
    bool insert;
  };
  std::vector<Event> events;
  events.reserve(2 * edges.size());
  for (std::uint32_t e = 0; e < edges.size(); ++e) {
    events.push_back({edges[e].left.x(), edges[e].left.y(), e, true});
    events.push_back({edges[e].right.x(), edges[e].right.y(), e, false});
  }
  const BelowOnSweep below_on_sweep(&edges);
  // At one point, removals come first: an edge ending where another starts is then never
  // compared with it, which is what consecutive ring edges need. Insertions there go bottom to
  // top, so each one's neighbour below is final when on_insert sees it.
  std::sort(events.begin(), events.end(), [&](const Event& a, const Event& b) {
    if (a.x != b.x) return a.x < b.x;
    if (a.y != b.y) return a.y < b.y;
    if (a.insert != b.insert) return a.insert < b.insert;
    return a.insert && below_on_sweep(a.edge, b.edge);
  });

  const auto meet = [&](std::uint32_t ia, std::uint32_t ib) {
    return may_meet(ia, ib) && CGAL::do_intersect(KSegment(edges[ia].left, edges[ia].right),
                                                  KSegment(edges[ib].left, edges[ib].right));
  };

  using Status = std::set<std::uint32_t, BelowOnSweep>;
  Status status{below_on_sweep};
  std::vector<Status::iterator> position(edges.size(), status.end());
  for (const Event& ev : events) {
    if (ev.insert) {
      const auto it = status.insert(ev.edge).first;
      position[ev.edge] = it;
      if (it != status.begin() && meet(*std::prev(it), ev.edge)) {
        return std::pair{*std::prev(it), ev.edge};
      }
      if (std::next(it) != status.end() && meet(ev.edge, *std::next(it))) {
        return std::pair{ev.edge, *std::next(it)};
      }
      const std::uint32_t* below = it != status.begin() ? &*std::prev(it) : nullptr;
      if (!on_insert(ev.edge, below)) return std::nullopt;
    } else {
      const auto it = position[ev.edge];
      const auto above = std::next(it);
      const bool has_below = it != status.begin();
      const auto below = has_below ? std::prev(it) : status.end();
      status.erase(it);
      if (has_below && above != status.end() && meet(*below, *above)) {
        return std::pair{*below, *above};
      }
    }
  }
  return std::nullopt;
}

// Two edges of the given rings that meet other than consecutive edges of one ring at their shared
// point, if any.
std::optional<std::pair<std::uint32_t, std::uint32_t>> find_meeting_edges(
    const std::vector<SweepEdge>& edges, const std::vector<std::size_t>& ring_sizes) {
  const auto may_meet = [&](std::uint32_t ia, std::uint32_t ib) {
    const SweepEdge& a = edges[ia];
    const SweepEdge& b = edges[ib];
    if (a.ring != b.ring) return true;
    const std::size_t n = ring_sizes[a.ring];
    return !((a.edge + 1) % n == b.edge || (b.edge + 1) % n == a.edge);
  };
  return sweep_edges(edges, may_meet, [](std::uint32_t, const std::uint32_t*) { return true; });
}

bool on_segment(const KPoint& p, const KPoint& a, const KPoint& b) {
  return CGAL::collinear(a, b, p) && CGAL::collinear_are_ordered_along_line(a, p, b);
}

// How two meeting edges meet, in words ("cross near (4, 5)"), for messages.
std::string describe_meeting(const SweepEdge& a, const SweepEdge& b) {
  const auto as_point = [](const KPoint& p) { return Point{p.x(), p.y()}; };
  if (CGAL::collinear(a.left, a.right, b.left) && CGAL::collinear(a.left, a.right, b.right)) {
    const KPoint& from = lex_less(a.left, b.left) ? b.left : a.left;
    return "overlap from " + format_point(as_point(from));
  }
  for (const KPoint* p : {&a.left, &a.right}) {
    if (on_segment(*p, b.left, b.right)) return "touch at " + format_point(as_point(*p));
  }
  for (const KPoint* p : {&b.left, &b.right}) {
    if (on_segment(*p, a.left, a.right)) return "touch at " + format_point(as_point(*p));
  }
  const auto x = CGAL::intersection(KSegment(a.left, a.right), KSegment(b.left, b.right));
  if (x) {
    if (const KPoint* p = boost::get<KPoint>(&*x)) {
      return "cross near " + format_point(as_point(*p), false);
    }
  }
  return "cross near " + format_point(as_point(a.left));
}

void add_edges(const CleanRing& ring, std::uint32_t ring_id, std::vector<SweepEdge>& out) {
  const std::size_t n = ring.size();
  for (std::size_t e = 0; e < n; ++e) {
    KPoint p = to_k(ring.points[e]);
    KPoint q = to_k(ring.points[(e + 1) % n]);
    if (lex_less(q, p)) std::swap(p, q);
    out.push_back({p, q, ring_id, static_cast<std::uint32_t>(e)});
  }
}

std::string points_text(const RawRing& raw) {
  std::string s = "[";
  for (std::size_t i = 0; i < raw.points.size(); ++i) {
    if (i > 0) s += ", ";
    if (s.size() > 80) {
      s += "...";
      break;
    }
    s.append("[").append(format_number(raw.points[i].x, true)).append(", ");
    s.append(format_number(raw.points[i].y, true)).append("]");
  }
  return s + "]";
}

// Everything about one ring on its own; see checked_ring.
void check_simple(const CleanRing& ring) {
  const RawRing& raw = *ring.raw;
  const std::size_t n = ring.size();
  if (n < 3) {
    fail(raw, "a ring needs at least 3 distinct points, got " + std::to_string(n) + ": " +
                  points_text(raw));
  }

  std::vector<KPoint> k;
  k.reserve(n);
  for (const Point& p : ring.points) k.push_back(to_k(p));

  // Consecutive points differ, so k[0] and k[1] span a line; zero area means all points on it.
  bool all_collinear = true;
  for (std::size_t i = 2; i < n && all_collinear; ++i) {
    all_collinear = CGAL::collinear(k[0], k[1], k[i]);
  }
  if (all_collinear) {
    fail(raw, "ring has zero area (all its points lie on one line): " + points_text(raw));
  }

  // A point visited twice makes four edges meet there, which the sweep's neighbour argument does
  // not cover; it is also the clearest message for a ring that touches itself.
  std::vector<std::uint32_t> order(n);
  for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const auto c = CGAL::compare_xy(k[a], k[b]);
    return c == CGAL::SMALLER || (c == CGAL::EQUAL && a < b);
  });
  for (std::size_t i = 1; i < n; ++i) {
    if (k[order[i - 1]] == k[order[i]]) {
      const std::size_t a = ring.input_index[order[i - 1]];
      const std::size_t b = ring.input_index[order[i]];
      fail_invalid(raw, "ring is self-intersecting: it passes through " +
                            format_point(ring.points[order[i]]) + " twice (points " +
                            std::to_string(a) + " and " + std::to_string(b) + ")");
    }
  }

  // Consecutive edges meet at their shared point; they also overlap when the ring folds back
  // along itself (a spike of zero width), which the sweep leaves to this test.
  for (std::size_t i = 0; i < n; ++i) {
    const KPoint& p = k[(i + n - 1) % n];
    const KPoint& q = k[i];
    const KPoint& r = k[(i + 1) % n];
    if (CGAL::collinear(p, q, r) && CGAL::compare_xy(p, q) == CGAL::compare_xy(r, q)) {
      std::size_t e1 = ring.edge_label((i + n - 1) % n);
      std::size_t e2 = ring.edge_label(i);
      if (e1 > e2) std::swap(e1, e2);
      fail_invalid(raw, "ring is self-intersecting: edges " + std::to_string(e1) + " and " +
                            std::to_string(e2) + " overlap (the ring folds back at " +
                            format_point(ring.points[i]) + ")");
    }
  }

  std::vector<SweepEdge> edges;
  edges.reserve(n);
  add_edges(ring, 0, edges);
  if (const auto hit = find_meeting_edges(edges, {n})) {
    const SweepEdge& a = edges[hit->first];
    const SweepEdge& b = edges[hit->second];
    std::size_t e1 = ring.edge_label(a.edge);
    std::size_t e2 = ring.edge_label(b.edge);
    if (e1 > e2) std::swap(e1, e2);
    fail_invalid(raw, "ring is self-intersecting: edges " + std::to_string(e1) + " and " +
                          std::to_string(e2) + " " + describe_meeting(a, b));
  }
}

std::vector<KPoint> to_k(const CleanRing& ring) {
  std::vector<KPoint> k;
  k.reserve(ring.size());
  for (const Point& p : ring.points) k.push_back(to_k(p));
  return k;
}

// Whether edges a and b (of different rings) meet other than at a single point that is an end of
// one of them: they cross, or they overlap along a piece of positive length. The rings of a valid
// polygon may touch at points, never so.
bool meet_improperly(const SweepEdge& a, const SweepEdge& b) {
  if (!CGAL::do_intersect(KSegment(a.left, a.right), KSegment(b.left, b.right))) return false;
  if (CGAL::collinear(a.left, a.right, b.left) && CGAL::collinear(a.left, a.right, b.right)) {
    const KPoint& from = lex_less(a.left, b.left) ? b.left : a.left;
    const KPoint& to = lex_less(a.right, b.right) ? a.right : b.right;
    return lex_less(from, to);
  }
  return !(on_segment(a.left, b.left, b.right) || on_segment(a.right, b.left, b.right) ||
           on_segment(b.left, a.left, a.right) || on_segment(b.right, a.left, a.right));
}

// The points that lie inside an edge (on it, not at one of its ends), each with that edge, as
// (index in `points`, index in `edges`) pairs. @pre no two edges cross or overlap: they meet at
// most where an end of one lies on the other. Then at most one edge holds a point inside it (two
// would cross or overlap there), and the edges keep their order along the sweep line.
// O((n + m) log(n + m)).
std::vector<std::pair<std::uint32_t, std::uint32_t>> points_inside_edges(
    const std::vector<SweepEdge>& edges, const std::vector<KPoint>& points) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> found;
  std::vector<std::uint32_t> by_xy(points.size());
  std::iota(by_xy.begin(), by_xy.end(), 0u);
  std::sort(by_xy.begin(), by_xy.end(),
            [&](std::uint32_t a, std::uint32_t b) { return lex_less(points[a], points[b]); });

  struct Event {
    KPoint at;
    int kind;  // 0: an edge ends, 1: a point, 2: an edge starts (their order at one place)
    std::uint32_t id;
  };
  std::vector<Event> events;
  for (std::uint32_t e = 0; e < edges.size(); ++e) {
    const SweepEdge& edge = edges[e];
    if (edge.left.x() == edge.right.x()) {
      // A vertical edge holds the points between its ends in (x, y) order. The sweep leaves it
      // out: where it stands among the other edges on the sweep line (by its lower end) does not
      // tell on which side of it a point above that end lies.
      auto it = std::upper_bound(
          by_xy.begin(), by_xy.end(), edge.left,
          [&](const KPoint& p, std::uint32_t i) { return lex_less(p, points[i]); });
      for (; it != by_xy.end() && lex_less(points[*it], edge.right); ++it)
        found.push_back({*it, e});
      continue;
    }
    events.push_back({edge.left, 2, e});
    events.push_back({edge.right, 0, e});
  }
  for (std::uint32_t i = 0; i < points.size(); ++i) events.push_back({points[i], 1, i});
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    const auto c = CGAL::compare_xy(a.at, b.at);
    if (c != CGAL::EQUAL) return c == CGAL::SMALLER;
    return a.kind < b.kind;
  });

  // At a point's turn, the edges on the sweep line span its x without ending or starting there,
  // so each lies wholly below it, above it, or runs through it.
  using Status = std::set<std::uint32_t, BelowOnSweepOrPoint>;
  Status status{BelowOnSweepOrPoint(&edges)};
  std::vector<Status::iterator> position(edges.size(), status.end());
  for (const Event& ev : events) {
    if (ev.kind == 2) {
      position[ev.id] = status.insert(ev.id).first;
    } else if (ev.kind == 0) {
      status.erase(position[ev.id]);
    } else {
      const auto it = status.lower_bound(ev.at);
      if (it != status.end() && !status.key_comp()(ev.at, *it)) found.push_back({ev.id, *it});
    }
  }
  return found;
}

// The inside of a ring next to a point p on it: the open sector swept counter-clockwise from the
// direction of `from` to the direction of `to`, both seen from p.
struct Sector {
  KPoint from;
  KPoint to;
};

// Whether the direction from p to q lies strictly inside the sector.
bool in_sector(const KPoint& p, const Sector& s, const KPoint& q) {
  switch (CGAL::orientation(p, s.from, s.to)) {
    case CGAL::LEFT_TURN:  // narrower than a half-turn
      return CGAL::orientation(p, s.from, q) == CGAL::LEFT_TURN &&
             CGAL::orientation(p, q, s.to) == CGAL::LEFT_TURN;
    case CGAL::RIGHT_TURN:  // wider: all but the closed sector from `to` round to `from`
      return !(CGAL::orientation(p, s.to, q) != CGAL::RIGHT_TURN &&
               CGAL::orientation(p, q, s.from) != CGAL::RIGHT_TURN);
    default:  // opposite directions (p inside an edge): the half-plane on the edge's left
      return CGAL::orientation(p, s.from, q) == CGAL::LEFT_TURN;
  }
}

// Open sectors at one point whose four bounding directions all differ (rings whose edges leave a
// point in the same direction overlap, which is found before). Two such sectors overlap exactly
// when one's first direction lies inside the other: turning clockwise from a direction inside
// both, the first bounding direction met is a `from`, and it lies inside the other sector.
bool sectors_disjoint(const KPoint& p, const Sector& a, const Sector& b) {
  return !in_sector(p, a, b.from) && !in_sector(p, b, a.from);
}
bool sector_inside(const KPoint& p, const Sector& inner, const Sector& outer) {
  return in_sector(p, outer, inner.from) && in_sector(p, outer, inner.to) &&
         !in_sector(p, inner, outer.from);
}

// A place where a ring passes through a point: at its vertex `index`, or inside its edge `index`.
struct Incidence {
  KPoint at;
  std::uint32_t ring;
  std::uint32_t index;
  bool on_edge;
};

// Every point where two or more of the rings meet, with each ring through it. @pre the rings are
// simple and meet only at single points (no edges of two rings cross or overlap). Then they meet
// only at vertices: a vertex shared by several rings, or a vertex of one inside an edge of another.
std::vector<std::vector<Incidence>> ring_contacts(const std::vector<std::vector<KPoint>>& rings) {
  std::vector<SweepEdge> edges;
  std::vector<KPoint> points;
  std::vector<Incidence> all;
  for (std::uint32_t r = 0; r < rings.size(); ++r) {
    const std::vector<KPoint>& k = rings[r];
    for (std::uint32_t i = 0; i < k.size(); ++i) {
      KPoint p = k[i];
      KPoint q = k[(i + 1) % k.size()];
      if (lex_less(q, p)) std::swap(p, q);
      edges.push_back({p, q, r, i});
      points.push_back(k[i]);
      all.push_back({k[i], r, i, false});
    }
  }
  for (const auto& [point, edge] : points_inside_edges(edges, points)) {
    all.push_back({points[point], edges[edge].ring, edges[edge].edge, true});
  }
  std::sort(all.begin(), all.end(), [](const Incidence& a, const Incidence& b) {
    const auto c = CGAL::compare_xy(a.at, b.at);
    if (c != CGAL::EQUAL) return c == CGAL::SMALLER;
    return a.ring < b.ring;
  });
  std::vector<std::vector<Incidence>> contacts;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    std::vector<Incidence> here;
    for (; j < all.size() && all[j].at == all[i].at; ++j) {
      // Several vertices at one point inside an edge each found that edge.
      if (here.empty() || here.back().ring != all[j].ring) here.push_back(all[j]);
    }
    if (here.size() > 1) contacts.push_back(std::move(here));
    i = j;
  }
  return contacts;
}

}  // namespace

Ring checked_ring(const RawRing& ring) {
  CleanRing c = clean(ring);
  check_simple(c);
  return std::move(c.points);
}

Polygon checked_polygon(const RawRing& outer, const std::vector<RawRing>& holes) {
  std::vector<CleanRing> rings;
  rings.reserve(holes.size() + 1);
  rings.push_back(clean(outer));
  for (const RawRing& h : holes) rings.push_back(clean(h));
  for (const CleanRing& r : rings) check_simple(r);

  if (!holes.empty()) {
    // Ring 0 is the outer ring, ring h + 1 is hole h. A defect between ring a and ring b > a is
    // reported at hole b - 1, with the detail naming the places on each ring.
    const auto ring_name = [&](std::size_t r, std::size_t other) {
      if (r == 0) return std::string("the outer ring's");
      if (other == 0) return std::string("its");
      return "hole " + std::to_string(r - 1) + "'s";
    };
    const auto fail_between = [&](std::size_t a, std::size_t b, const std::string& detail,
                                  const char* holes_do) {
      if (a == 0)
        fail_invalid(holes[b - 1], "hole is not strictly inside its outer ring: " + detail);
      fail_invalid(holes[b - 1], "holes " + std::to_string(a - 1) + " and " +
                                     std::to_string(b - 1) + " " + holes_do + ": " + detail +
                                     " (holes may touch only at single points)");
    };

    // Rings may meet only at single points, where a vertex of one lies on the other.
    std::vector<SweepEdge> edges;
    for (std::uint32_t r = 0; r < rings.size(); ++r) add_edges(rings[r], r, edges);
    const auto improper = [&](std::uint32_t ia, std::uint32_t ib) {
      // Each ring alone was checked by check_simple.
      return edges[ia].ring != edges[ib].ring && meet_improperly(edges[ia], edges[ib]);
    };
    if (const auto hit = sweep_edges(edges, improper,
                                     [](std::uint32_t, const std::uint32_t*) { return true; })) {
      const SweepEdge* a = &edges[hit->first];
      const SweepEdge* b = &edges[hit->second];
      if (a->ring > b->ring) std::swap(a, b);
      const std::string how = describe_meeting(*a, *b);
      fail_between(a->ring, b->ring,
                   ring_name(b->ring, a->ring) + " edge " +
                       std::to_string(rings[b->ring].edge_label(b->edge)) + " and " +
                       ring_name(a->ring, b->ring) + " edge " +
                       std::to_string(rings[a->ring].edge_label(a->edge)) + " " + how,
                   how.starts_with("overlap") ? "touch along an edge" : "overlap");
    }

    // Where rings touch, each must stay on its own side of the others: a hole within the outer
    // ring's inside, two holes' insides apart.
    std::vector<std::vector<KPoint>> k;
    std::vector<bool> counter_clockwise;
    for (const CleanRing& r : rings) {
      k.push_back(to_k(r));
      counter_clockwise.push_back(CGAL::orientation_2(k.back().begin(), k.back().end(), K()) ==
                                  CGAL::COUNTERCLOCKWISE);
    }
    const std::vector<std::vector<Incidence>> contacts = ring_contacts(k);
    const auto sector = [&](const Incidence& c) {
      const std::vector<KPoint>& ring = k[c.ring];
      const std::size_t n = ring.size();
      const KPoint& before = c.on_edge ? ring[c.index] : ring[(c.index + n - 1) % n];
      const KPoint& after = ring[(c.index + 1) % n];
      // The inside lies left of each edge of a counter-clockwise ring, right of a clockwise one.
      return counter_clockwise[c.ring] ? Sector{after, before} : Sector{before, after};
    };
    const auto place = [&](const Incidence& c, std::size_t other) {
      return ring_name(c.ring, other) + (c.on_edge ? " edge " : " point ") +
             std::to_string(c.on_edge ? rings[c.ring].edge_label(c.index)
                                      : rings[c.ring].input_index[c.index]);
    };
    for (const std::vector<Incidence>& here : contacts) {
      const KPoint& p = here.front().at;
      for (std::size_t i = 0; i < here.size(); ++i) {
        for (std::size_t j = i + 1; j < here.size(); ++j) {
          const Incidence& a = here[i];  // a.ring < b.ring
          const Incidence& b = here[j];
          const bool apart = a.ring == 0 ? sector_inside(p, sector(b), sector(a))
                                         : sectors_disjoint(p, sector(a), sector(b));
          if (apart) continue;
          const std::string where = place(b, a.ring) + " and " + place(a, b.ring) + " meet at " +
                                    format_point({p.x(), p.y()});
          if (a.ring == 0) fail_between(0, b.ring, where + ", where it reaches outside", "");
          fail_between(a.ring, b.ring, where + ", where their insides overlap", "overlap");
        }
      }
    }

    // Touching rings must not close a loop, which would cut the polygon's inside apart: in the
    // graph joining each ring to the points where it touches others, a loop is a cycle.
    const std::size_t n_rings = rings.size();
    std::vector<std::uint32_t> parent(n_rings + contacts.size());
    std::iota(parent.begin(), parent.end(), 0u);
    const auto find = [&](std::uint32_t x) {
      while (parent[x] != x) x = parent[x] = parent[parent[x]];
      return x;
    };
    std::vector<std::vector<std::uint32_t>> joined(parent.size());
    for (std::uint32_t c = 0; c < contacts.size(); ++c) {
      const std::uint32_t node = std::uint32_t(n_rings) + c;
      for (const Incidence& at : contacts[c]) {
        if (find(at.ring) != find(node)) {
          parent[find(at.ring)] = find(node);
          joined[at.ring].push_back(node);
          joined[node].push_back(at.ring);
          continue;
        }
        // The loop: the path already joining the ring to this point, and this contact.
        std::vector<std::uint32_t> from(parent.size(), std::uint32_t(-1));
        std::vector<std::uint32_t> queue{at.ring};
        from[at.ring] = at.ring;
        for (std::size_t q = 0; q < queue.size() && from[node] == std::uint32_t(-1); ++q) {
          for (const std::uint32_t next : joined[queue[q]]) {
            if (from[next] != std::uint32_t(-1)) continue;
            from[next] = queue[q];
            queue.push_back(next);
          }
        }
        std::vector<std::uint32_t> loop_rings;
        std::vector<KPoint> loop_at;
        for (std::uint32_t x = node;; x = from[x]) {
          if (x < n_rings) {
            loop_rings.push_back(x);
          } else {
            loop_at.push_back(contacts[x - n_rings].front().at);
          }
          if (x == at.ring) break;
        }
        std::sort(loop_rings.begin(), loop_rings.end());
        std::sort(loop_at.begin(), loop_at.end(), lex_less);
        std::vector<std::string> loop_points;
        for (const KPoint& p : loop_at) loop_points.push_back(format_point({p.x(), p.y()}));
        const std::size_t last = loop_rings.back();
        std::string names;
        for (std::size_t i = 0; i < loop_rings.size(); ++i) {
          names += i == 0 ? "" : i + 1 == loop_rings.size() ? " and " : ", ";
          names +=
              loop_rings[i] == 0 ? "the outer ring" : "hole " + std::to_string(loop_rings[i] - 1);
        }
        std::string points;
        for (std::size_t i = 0; i < loop_points.size(); ++i) {
          points += i == 0 ? "" : i + 1 == loop_points.size() ? " and " : ", ";
          points += loop_points[i];
        }
        const std::string what =
            loop_rings.size() == 2
                ? names + " touch at " + std::to_string(loop_points.size()) + " points, " + points
                : names + " touch one another in a closed loop, at " + points;
        fail_invalid(holes[last - 1], what +
                                          ", which cuts the polygon's inside apart (rings may "
                                          "touch only where the inside stays in one piece)");
      }
    }

    // No two rings cross now, so each ring lies wholly inside or wholly outside each other one
    // (touching it at most), and one point of it decides; a point on the other ring is a contact,
    // where the sectors above have shown the ring on the right side.
    std::vector<Box> boxes;
    for (const CleanRing& r : rings) boxes.push_back(bounding_box(r.points));
    for (std::size_t h = 0; h < holes.size(); ++h) {
      const KPoint& probe = k[h + 1].front();
      if (CGAL::bounded_side_2(k[0].begin(), k[0].end(), probe, K()) == CGAL::ON_UNBOUNDED_SIDE) {
        fail_invalid(holes[h], "hole is not strictly inside its outer ring: its point " +
                                   std::to_string(rings[h + 1].input_index[0]) + " " +
                                   format_point(rings[h + 1].points[0]) + " is outside it");
      }
    }
    for (std::size_t i = 0; i < holes.size(); ++i) {
      for (std::size_t j = 0; j < holes.size(); ++j) {
        if (i == j || !boxes[i + 1].contains(boxes[j + 1])) continue;
        const KPoint& probe = k[j + 1].front();
        if (CGAL::bounded_side_2(k[i + 1].begin(), k[i + 1].end(), probe, K()) ==
            CGAL::ON_BOUNDED_SIDE) {
          fail_invalid(holes[std::max(i, j)], "holes " + std::to_string(std::min(i, j)) + " and " +
                                                  std::to_string(std::max(i, j)) +
                                                  " overlap: hole " + std::to_string(j) +
                                                  " lies inside hole " + std::to_string(i) +
                                                  " (holes may touch only at single points)");
        }
      }
    }
  }

  Polygon p;
  p.outer = std::move(rings[0].points);
  for (std::size_t h = 0; h < holes.size(); ++h) p.holes.push_back(std::move(rings[h + 1].points));
  return p;
}

Polygon with_contacts_as_vertices(const Polygon& polygon) {
  if (polygon.holes.empty()) return polygon;
  std::vector<const Ring*> rings{&polygon.outer};
  for (const Ring& h : polygon.holes) rings.push_back(&h);
  std::vector<SweepEdge> edges;
  std::vector<KPoint> points;
  std::vector<std::size_t> first_edge;
  for (std::uint32_t r = 0; r < rings.size(); ++r) {
    first_edge.push_back(edges.size());
    const Ring& ring = *rings[r];
    for (std::uint32_t i = 0; i < ring.size(); ++i) {
      KPoint p = to_k(ring[i]);
      KPoint q = to_k(ring[(i + 1) % ring.size()]);
      if (lex_less(q, p)) std::swap(p, q);
      edges.push_back({p, q, r, i});
      points.push_back(to_k(ring[i]));
    }
  }
  std::vector<std::vector<Point>> inside(edges.size());
  bool any = false;
  for (const auto& [point, edge] : points_inside_edges(edges, points)) {
    inside[edge].push_back({points[point].x(), points[point].y()});
    any = true;
  }
  if (!any) return polygon;
  Polygon out;
  for (std::uint32_t r = 0; r < rings.size(); ++r) {
    const Ring& ring = *rings[r];
    Ring split;
    for (std::size_t i = 0; i < ring.size(); ++i) {
      split.push_back(ring[i]);
      std::vector<Point>& on = inside[first_edge[r] + i];
      // Along the edge from ring[i]: its points in (x, y) order, or the reverse order when the
      // edge runs towards smaller (x, y).
      const bool forward = lex_less(to_k(ring[i]), to_k(ring[(i + 1) % ring.size()]));
      std::sort(on.begin(), on.end(), [&](Point a, Point b) {
        return forward ? lex_less(to_k(a), to_k(b)) : lex_less(to_k(b), to_k(a));
      });
      for (const Point& p : on) {
        if (!(split.back() == p)) split.push_back(p);
      }
    }
    if (r == 0) {
      out.outer = std::move(split);
    } else {
      out.holes.push_back(std::move(split));
    }
  }
  return out;
}

std::optional<CoverDefect> find_cover_defect(const std::vector<DirectedSegment>& segments) {
  // Each distinct segment once, left to right, with its net direction: +1 when it runs from its
  // left end to its right end (its left side, where the region is, is then above it on the
  // sweep line), -1 the other way; two segments along the same two points add up.
  struct Merged {
    KPoint left, right;
    int up = 0;
    std::size_t first = 0;  // the lowest index of the segments merged into it
  };
  std::vector<Merged> merged;
  merged.reserve(segments.size());
  for (std::size_t i = 0; i < segments.size(); ++i) {
    KPoint a = to_k(segments[i].from);
    KPoint b = to_k(segments[i].to);
    const bool forward = lex_less(a, b);
    if (!forward) std::swap(a, b);
    merged.push_back({a, b, forward ? 1 : -1, i});
  }
  std::sort(merged.begin(), merged.end(), [](const Merged& a, const Merged& b) {
    if (a.left != b.left) return lex_less(a.left, b.left);
    if (a.right != b.right) return lex_less(a.right, b.right);
    return a.first < b.first;
  });
  std::vector<SweepEdge> edges;
  std::vector<int> up;
  std::vector<std::size_t> first;
  for (const Merged& m : merged) {
    if (!edges.empty() && edges.back().left == m.left && edges.back().right == m.right) {
      up.back() += m.up;
      continue;
    }
    edges.push_back({m.left, m.right, 0, std::uint32_t(edges.size())});
    up.push_back(m.up);
    first.push_back(m.first);
  }

  // Segments may meet only at an end of both, and not run on from it in the same direction. (One
  // ending where the other starts is never compared: the sweep removes the first before it
  // inserts the second.)
  const auto may_meet = [&](std::uint32_t ia, std::uint32_t ib) {
    const SweepEdge& a = edges[ia];
    const SweepEdge& b = edges[ib];
    if (a.left == b.left) return CGAL::collinear(a.left, a.right, b.right);
    if (a.right == b.right) return CGAL::collinear(a.left, a.right, b.left);
    return true;
  };
  // The winding number of the boundary just above each segment: the one just below it (above
  // the segment below, or 0 with none) plus its direction. With no segments meeting, it is
  // constant along the segment, and every part of the plane the segments bound borders one.
  std::vector<int> above(edges.size(), 0);
  std::optional<CoverDefect> defect;
  const auto on_insert = [&](std::uint32_t e, const std::uint32_t* below) {
    const int under = below ? above[*below] : 0;
    above[e] = under + up[e];
    for (const int w : {under, above[e]}) {
      if (w != 0 && w != 1) {
        defect = CoverDefect{first[e], std::nullopt, "", w};
        return false;
      }
    }
    return true;
  };
  if (const auto hit = sweep_edges(edges, may_meet, on_insert)) {
    std::size_t a = first[hit->first];
    std::size_t b = first[hit->second];
    if (a > b) std::swap(a, b);
    return CoverDefect{b, a, describe_meeting(edges[hit->first], edges[hit->second]), 0};
  }
  return defect;
}

}  // namespace polynav::detail
