#include "validate.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_2_algorithms.h>
#include <CGAL/intersections.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace polynav::detail {
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

  const std::vector<SweepEdge>* edges_;
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
  struct Event {
    std::uint32_t edge;
    bool insert;
  };
  std::vector<Event> events;
  events.reserve(2 * edges.size());
  for (std::uint32_t e = 0; e < edges.size(); ++e) {
    events.push_back({e, true});
    events.push_back({e, false});
  }
  const auto where = [&](const Event& ev) -> const KPoint& {
    return ev.insert ? edges[ev.edge].left : edges[ev.edge].right;
  };
  const BelowOnSweep below_on_sweep(&edges);
  // At one point, removals come first: an edge ending where another starts is then never
  // compared with it, which is what consecutive ring edges need. Insertions there go bottom to
  // top, so each one's neighbour below is final when on_insert sees it.
  std::sort(events.begin(), events.end(), [&](const Event& a, const Event& b) {
    const auto c = CGAL::compare_xy(where(a), where(b));
    if (c != CGAL::EQUAL) return c == CGAL::SMALLER;
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
      fail(raw, "ring is self-intersecting: it passes through " +
                    format_point(ring.points[order[i]]) + " twice (points " + std::to_string(a) +
                    " and " + std::to_string(b) + ")");
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
      fail(raw, "ring is self-intersecting: edges " + std::to_string(e1) + " and " +
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
    fail(raw, "ring is self-intersecting: edges " + std::to_string(e1) + " and " +
                  std::to_string(e2) + " " + describe_meeting(a, b));
  }
}

std::vector<KPoint> to_k(const CleanRing& ring) {
  std::vector<KPoint> k;
  k.reserve(ring.size());
  for (const Point& p : ring.points) k.push_back(to_k(p));
  return k;
}

bool box_inside(const Box& inner, const Box& outer) {
  return inner.min.x >= outer.min.x && inner.min.y >= outer.min.y && inner.max.x <= outer.max.x &&
         inner.max.y <= outer.max.y;
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
    // Ring 0 is the outer ring, ring h + 1 is hole h. A contact between ring a and ring b > a is
    // reported at hole b - 1, with `what` naming the places on each ring.
    const auto fail_contact = [&](std::size_t a, std::size_t b, const std::string& detail,
                                  bool touch) {
      if (a == 0) fail(holes[b - 1], "hole is not strictly inside its outer ring: " + detail);
      fail(holes[b - 1], "holes " + std::to_string(a - 1) + " and " + std::to_string(b - 1) +
                             (touch ? " touch: " : " overlap: ") + detail +
                             " (holes must not touch or overlap)");
    };
    const auto ring_name = [&](std::size_t r, std::size_t other) {
      if (r == 0) return std::string("the outer ring's");
      if (other == 0) return std::string("its");
      return "hole " + std::to_string(r - 1) + "'s";
    };

    // A point shared by two rings joins an edge ending there to one starting there, a pair the
    // sweep never compares (it removes ending edges first), so shared points are found here.
    std::vector<std::pair<Point, std::pair<std::size_t, std::size_t>>> points;
    for (std::size_t r = 0; r < rings.size(); ++r) {
      for (std::size_t i = 0; i < rings[r].size(); ++i)
        points.push_back({rings[r].points[i], {r, i}});
    }
    std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) {
      if (a.first.x != b.first.x) return a.first.x < b.first.x;
      if (a.first.y != b.first.y) return a.first.y < b.first.y;
      return a.second < b.second;
    });
    for (std::size_t i = 1; i < points.size(); ++i) {
      if (points[i - 1].first != points[i].first) continue;
      const auto [ra, ia] = points[i - 1].second;
      const auto [rb, ib] = points[i].second;
      // Within one ring, check_simple has ruled this out.
      fail_contact(ra, rb,
                   ring_name(rb, ra) + " point " + std::to_string(rings[rb].input_index[ib]) +
                       " and " + ring_name(ra, rb) + " point " +
                       std::to_string(rings[ra].input_index[ia]) + " touch at " +
                       format_point(points[i].first),
                   true);
    }

    std::vector<SweepEdge> edges;
    std::vector<std::size_t> sizes;
    for (std::uint32_t r = 0; r < rings.size(); ++r) {
      add_edges(rings[r], r, edges);
      sizes.push_back(rings[r].size());
    }
    if (const auto hit = find_meeting_edges(edges, sizes)) {
      const SweepEdge* a = &edges[hit->first];
      const SweepEdge* b = &edges[hit->second];
      if (a->ring > b->ring) std::swap(a, b);
      const std::string how = describe_meeting(*a, *b);
      fail_contact(a->ring, b->ring,
                   ring_name(b->ring, a->ring) + " edge " +
                       std::to_string(rings[b->ring].edge_label(b->edge)) + " and " +
                       ring_name(a->ring, b->ring) + " edge " +
                       std::to_string(rings[a->ring].edge_label(a->edge)) + " " + how,
                   how.starts_with("touch"));
    }

    // No two rings meet now, so each ring lies wholly inside or wholly outside each other one
    // and one point of it decides.
    const std::vector<KPoint> outer_k = to_k(rings[0]);
    std::vector<Box> boxes;
    for (const CleanRing& r : rings) boxes.push_back(bounding_box(r.points));
    for (std::size_t h = 0; h < holes.size(); ++h) {
      const KPoint probe = to_k(rings[h + 1].points[0]);
      if (CGAL::bounded_side_2(outer_k.begin(), outer_k.end(), probe, K()) !=
          CGAL::ON_BOUNDED_SIDE) {
        fail(holes[h], "hole is not strictly inside its outer ring: its point " +
                           std::to_string(rings[h + 1].input_index[0]) + " " +
                           format_point(rings[h + 1].points[0]) + " is outside it");
      }
    }
    for (std::size_t i = 0; i < holes.size(); ++i) {
      std::optional<std::vector<KPoint>> ring_i;
      for (std::size_t j = 0; j < holes.size(); ++j) {
        if (i == j || !box_inside(boxes[j + 1], boxes[i + 1])) continue;
        if (!ring_i) ring_i = to_k(rings[i + 1]);
        const KPoint probe = to_k(rings[j + 1].points[0]);
        if (CGAL::bounded_side_2(ring_i->begin(), ring_i->end(), probe, K()) ==
            CGAL::ON_BOUNDED_SIDE) {
          fail(holes[std::max(i, j)], "holes " + std::to_string(std::min(i, j)) + " and " +
                                          std::to_string(std::max(i, j)) + " overlap: hole " +
                                          std::to_string(j) + " lies inside hole " +
                                          std::to_string(i) + " (holes must not touch or overlap)");
        }
      }
    }
  }

  Polygon p;
  p.outer = std::move(rings[0].points);
  for (std::size_t h = 0; h < holes.size(); ++h) p.holes.push_back(std::move(rings[h + 1].points));
  return p;
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
