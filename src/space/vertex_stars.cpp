#include "vertex_stars.hpp"

#include <algorithm>
#include <numeric>

#include "polynav/kernel/exact.hpp"
#include "polynav/kernel/place_order.hpp"

namespace polynav::detail {
namespace {

using exact::same_direction;

// Whether ray r1 comes before r2 sweeping clockwise around v from direction q (angle 0 first).
bool clockwise_before(Point v, Point q, Point r1, Point r2) {
  // Half 0: angle in [0, pi) clockwise from q; half 1: [pi, 2 pi).
  const auto half = [&](Point r) {
    const int o = exact::orientation(v, q, r);
    return o < 0 || (o == 0 && same_direction(v, q, r)) ? 0 : 1;
  };
  const int h1 = half(r1), h2 = half(r2);
  if (h1 != h2) return h1 < h2;
  const int o = exact::orientation(v, r1, r2);
  if (o != 0) return o < 0;
  // Same direction (a wall, see free_after) or opposite (only possible across halves).
  return exact::orientation(v, q, r1) == 0 && same_direction(v, q, r1);
}

// Counter-clockwise order of directions around v, starting at +x (exact).
bool counter_clockwise_before(Point v, Point a, Point b) {
  const auto half = [&](Point t) { return t.y > v.y || (t.y == v.y && t.x > v.x) ? 0 : 1; };
  const int ha = half(a), hb = half(b);
  if (ha != hb) return ha < hb;
  return exact::orientation(v, a, b) > 0;
}

bool along(Point v, Point direction, Point r) {
  return exact::orientation(v, direction, r) == 0 && same_direction(v, direction, r);
}

}  // namespace

bool free_after(Point v, Point q, std::span<const Ray> rays) {
  // Two rays to one point are a wall: the boundary runs along it and back, with free space on
  // both sides, so of the two the outgoing one (free just counter-clockwise of it) decides.
  const Ray* first = &rays.front();
  for (const Ray& r : rays) {
    if (r.toward == first->toward) {
      if (r.outgoing) first = &r;
    } else if (clockwise_before(v, q, r.toward, first->toward)) {
      first = &r;
    }
  }
  return first->outgoing;
}

bool free_direction(Point v, Point q, std::span<const Ray> rays) {
  for (const Ray& r : rays)
    if (along(v, r.toward, q)) return true;
  return free_after(v, q, rays);
}

bool passes_through(Point a, Point b, Point v, std::span<const Ray> rays, bool open_gaps) {
  if (open_gaps) return free_direction(v, a, rays) && free_direction(v, b, rays);
  // If boundary edges leave v into both sides of the segment's line, blocked parts lie on both
  // sides: the segment would enter an obstacle or slip through a zero-width gap between two that
  // touch.
  bool edges_left = false, edges_right = false;
  for (const Ray& r : rays) {
    const int o = exact::orientation(a, b, r.toward);
    edges_left = edges_left || o > 0;
    edges_right = edges_right || o < 0;
  }
  return (!edges_left && free_after(v, b, rays)) || (!edges_right && free_after(v, a, rays));
}

bool turn_is_free(Point from, Point w, Point to, std::span<const Ray> rays, bool open_gaps) {
  if (rays.empty()) return true;  // w is inside free space
  // With open gaps the path may cross between blocked parts touching at w; it must only not
  // enter one. (Where one blocked sector meets w, that is the same as one side being free.)
  if (open_gaps) return free_direction(w, from, rays) && free_direction(w, to, rays);
  // The turn sweeps counter-clockwise from `from` to `to`, or the other way round; one of the
  // two sectors must hold no boundary edge and be free.
  const auto sector_free = [&](Point first, Point last) {
    for (const Ray& r : rays) {
      // Strictly inside the counter-clockwise sweep from first to last: met before `first`
      // when sweeping clockwise from `last`.
      if (!along(w, first, r.toward) && !along(w, last, r.toward) &&
          clockwise_before(w, last, r.toward, first))
        return false;
    }
    return free_after(w, first, rays);
  };
  return sector_free(from, to) || sector_free(to, from);
}

VertexStars::VertexStars(std::span<const Segment> edges) {
  // Vertices: the distinct edge starts (every end starts the ring's next edge), numbered in
  // (x, y) order (place_order) of the starts.
  const auto by_xy = [](Point l, Point r) { return l.x < r.x || (l.x == r.x && l.y < r.y); };
  edge_start_.resize(edges.size());
  points_.reserve(edges.size());
  for (const std::uint32_t e :
       place_order(edges.size(), [&](std::size_t i) { return edges[i].a; })) {
    const Point at = edges[e].a;
    if (points_.empty() || !(points_.back() == at)) points_.push_back(at);
    edge_start_[e] = std::uint32_t(points_.size() - 1);
  }
  // An edge's end is the next edge's start, except at the end of a ring.
  edge_end_.resize(edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e)
    edge_end_[e] =
        e + 1 < edges.size() && edges[e + 1].a == edges[e].b
            ? edge_start_[e + 1]
            : std::uint32_t(std::lower_bound(points_.begin(), points_.end(), edges[e].b, by_xy) -
                            points_.begin());
  offsets_.assign(points_.size() + 1, 0);
  for (std::size_t e = 0; e < edges.size(); ++e) {
    if (edge_start_[e] == edge_end_[e]) continue;  // a repeated point is no edge
    ++offsets_[edge_start_[e] + 1];
    ++offsets_[edge_end_[e] + 1];
  }
  for (std::size_t v = 1; v < offsets_.size(); ++v) offsets_[v] += offsets_[v - 1];
  // The rays as kept: the vertex each points to and whether it is outgoing, in edge order at each
  // vertex (place_ray); then sorted counter-clockwise where a vertex has more than two (two are
  // in counter-clockwise order either way round).
  rays_.resize(offsets_.back());
  {
    std::vector<std::uint32_t> next(offsets_.begin(), offsets_.end() - 1);
    for_each_ray(
        [&](std::uint32_t v, std::uint32_t code, std::uint32_t) { rays_[next[v]++] = code; });
  }
  std::vector<std::uint32_t> around;
  for (std::uint32_t v = 0; v < points_.size(); ++v) {
    const std::size_t first = offsets_[v], k = offsets_[v + 1] - first;
    if (k <= 2) continue;
    const Point at = points_[v];
    around.assign(rays_.begin() + std::ptrdiff_t(first), rays_.begin() + std::ptrdiff_t(first + k));
    // Of two rays in one direction (a wall) the incoming one comes first: the sector just
    // clockwise of the wall ends at it and the one just counter-clockwise starts at the outgoing
    // one, both free.
    std::sort(around.begin(), around.end(), [&](std::uint32_t l, std::uint32_t r) {
      const Point tl = points_[l >> 1], tr = points_[r >> 1];
      if (counter_clockwise_before(at, tl, tr)) return true;
      if (counter_clockwise_before(at, tr, tl)) return false;
      return !(l & 1u) && (r & 1u);
    });
    std::copy(around.begin(), around.end(), rays_.begin() + std::ptrdiff_t(first));
  }
}

std::vector<Corner> VertexStars::corners(std::span<const std::uint32_t> component,
                                         bool open_gaps) const {
  // Each ray's component: that of its edge. A vertex's rays were placed in edge order and kept
  // so where it has two; where it has more they were sorted, and each is found by its code.
  std::vector<std::uint32_t> ray_component(rays_.size());
  {
    std::vector<std::uint32_t> next(offsets_.begin(), offsets_.end() - 1);
    std::vector<std::uint8_t> placed;
    for_each_ray([&](std::uint32_t v, std::uint32_t code, std::uint32_t e) {
      const std::uint32_t first = offsets_[v], k = offsets_[v + 1] - first;
      if (k <= 2) {
        ray_component[next[v]++] = component[e];
        return;
      }
      if (placed.empty()) placed.assign(rays_.size(), 0);
      for (std::uint32_t i = first; i < first + k; ++i) {
        if (rays_[i] != code || placed[i]) continue;
        placed[i] = 1;
        ray_component[i] = component[e];
        return;
      }
    });
  }
  // The sectors around each vertex, counter-clockwise: free from an outgoing ray to the next
  // ray, which is incoming. A free sector is wider than 180 degrees exactly when the boundary
  // turns right there; a spike (both rays in one direction, nothing else at the point) has a
  // free sector of 360 degrees. At most one corner per vertex with gaps closed (the sectors
  // around a vertex make 360 degrees, so one free sector at most is wider than 180).
  std::vector<Corner> out;
  std::vector<Ray> star;
  for (std::uint32_t v = 0; v < points_.size(); ++v) {
    const Point at = points_[v];
    const std::span<const Ray> sorted = rays(v, star);
    const std::size_t k = sorted.size();
    const std::uint32_t* sorted_component = ray_component.data() + offsets_[v];
    for (std::size_t q = 0; q < k && open_gaps; ++q) {
      // A blocked sector, from an incoming ray counter-clockwise to the next (outgoing) one: a
      // path may bend around it when it is narrower than 180 degrees (a wall's end included).
      const Ray& in = sorted[q];
      const Ray& out_ray = sorted[(q + 1) % k];
      if (in.outgoing || !out_ray.outgoing) continue;
      const int o = exact::orientation(at, in.toward, out_ray.toward);
      if (o > 0 || (o == 0 && same_direction(at, in.toward, out_ray.toward)))
        out.push_back({at, in.toward, out_ray.toward, sorted_component[q]});
    }
    for (std::size_t q = 0; q < k && !open_gaps; ++q) {
      const Ray& out_ray = sorted[q];
      const Ray& in = sorted[(q + 1) % k];
      if (!out_ray.outgoing || in.outgoing) continue;  // not a free sector (or malformed rings)
      const int o = exact::orientation(at, out_ray.toward, in.toward);
      const bool spike = o == 0 && k == 2 && same_direction(at, out_ray.toward, in.toward);
      if (o < 0 || spike) out.push_back({at, in.toward, out_ray.toward, sorted_component[q]});
    }
  }
  return out;
}

}  // namespace polynav::detail
