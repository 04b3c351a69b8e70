#include "merge.hpp"

#include <queue>
#include <tuple>
#include <utility>

#include "disjoint_sets.hpp"
#include "polynav/kernel/exact.hpp"

namespace polynav::navmesh_detail {
namespace {

// The edge of w from vertex a to vertex b, or w.v.size() when it has none.
std::size_t edge_of(const MergePolygon& w, std::uint32_t a, std::uint32_t b) {
  const std::size_t n = w.v.size();
  for (std::size_t e = 0; e < n; ++e)
    if (w.v[e] == a && w.v[(e + 1) % n] == b) return e;
  return n;
}

// Whether removing the diagonal, edge i of p (from a to b) and edge j of q (from b to a), leaves
// both of its ends convex (exact; a straight angle counts as convex). Only the angles at a and b
// change, so this is all Hertel and Mehlhorn's merge checks.
bool stays_convex(const std::vector<Point>& at, const MergePolygon& p, std::size_t i,
                  const MergePolygon& q, std::size_t j) {
  const std::size_t np = p.v.size(), nq = q.v.size();
  const std::uint32_t a = p.v[i], b = p.v[(i + 1) % np];
  const Point p_before_a = at[p.v[(i + np - 1) % np]], p_after_b = at[p.v[(i + 2) % np]];
  const Point q_after_a = at[q.v[(j + 2) % nq]], q_before_b = at[q.v[(j + nq - 1) % nq]];
  return exact::orientation(p_before_a, at[a], q_after_a) >= 0 &&
         exact::orientation(q_before_b, at[b], p_after_b) >= 0;
}

// The polygon p and q make without their shared diagonal (edge i of p, edge j of q).
MergePolygon joined(const MergePolygon& p, std::size_t i, const MergePolygon& q, std::size_t j) {
  const std::size_t np = p.v.size(), nq = q.v.size();
  MergePolygon merged;
  const auto take = [&](const MergePolygon& w, std::size_t e) {
    merged.v.push_back(w.v[e]);
    merged.across.push_back(w.across[e]);
    merged.mergeable.push_back(w.mergeable[e]);
  };
  // P from b round to the edge before a, then Q from a round to the edge before b.
  for (std::size_t s = 1; s < np; ++s) take(p, (i + s) % np);
  for (std::size_t s = 1; s < nq; ++s) take(q, (j + s) % nq);
  return merged;
}

}  // namespace

std::vector<std::uint32_t> merge_convex(const Triangulation& tri,
                                        const std::vector<std::uint8_t>& free,
                                        std::vector<MergePolygon>& polygons) {
  const std::vector<Triangle>& t = tri.triangles;
  const std::vector<Point>& at = tri.vertices;
  const std::size_t n = t.size();
  DisjointSets sets(n);
  for (std::uint32_t f = 0; f < n; ++f) {
    if (!free[f]) continue;
    for (int k = 0; k < 3; ++k) {
      const std::int32_t g = t[f].neighbour[k];
      if (g < 0 || std::uint32_t(g) < f || !free[g]) continue;
      const std::uint32_t P = sets.find(f), Q = sets.find(std::uint32_t(g));
      if (P == Q) continue;
      MergePolygon& p = polygons[P];
      MergePolygon& q = polygons[Q];
      const std::uint32_t a = t[f].v[k], b = t[f].v[(k + 1) % 3];
      const std::size_t i = edge_of(p, a, b), j = edge_of(q, b, a);
      if (i == p.v.size() || j == q.v.size() || !p.mergeable[i]) continue;
      if (!stays_convex(at, p, i, q, j)) continue;
      MergePolygon merged = joined(p, i, q, j);
      sets.attach(Q, P);
      p = std::move(merged);
      q = MergePolygon{};
    }
  }
  std::vector<std::uint32_t> owner(n);
  for (std::uint32_t f = 0; f < n; ++f) owner[f] = sets.find(f);
  return owner;
}

std::vector<std::uint32_t> merge_largest_first(const Triangulation& tri,
                                               const std::vector<std::uint8_t>& free,
                                               std::vector<MergePolygon>& polygons) {
  // Stout's idea of a maximal-area convex decomposition, greedily: the largest merge first
  // tends to leave fewer, larger polygons than Hertel and Mehlhorn's triangle order. Greedy is
  // not the optimum, which is out of reach anyway: the fewest convex pieces of a polygon with
  // holes is NP-hard (Lingas, "The power of non-rectilinear holes", 1982).
  const std::vector<Triangle>& t = tri.triangles;
  const std::vector<Point>& at = tri.vertices;
  const std::size_t n = t.size();
  DisjointSets sets(n);
  std::vector<double> area(n, 0.0);
  std::vector<std::uint32_t> version(n, 0);  // how often the polygon of a root has grown
  for (std::uint32_t f = 0; f < n; ++f) {
    if (!free[f]) continue;
    const Point a = at[t[f].v[0]], b = at[t[f].v[1]], c = at[t[f].v[2]];
    area[f] = 0.5 * cross(b - a, c - a);
  }

  // A diagonal: edge a -> b of root p's polygon, q's polygon across, as they were when queued.
  struct Diagonal {
    double area;  // of the merged polygon (a measure: only the order depends on it)
    std::uint32_t p, q, a, b;
    std::uint32_t p_version, q_version;
  };
  const auto before = [](const Diagonal& x, const Diagonal& y) {
    // std::priority_queue pops its greatest: the larger area, then the smaller ids.
    if (x.area != y.area) return x.area < y.area;
    return std::tie(x.p, x.a, x.b) > std::tie(y.p, y.a, y.b);
  };
  std::priority_queue<Diagonal, std::vector<Diagonal>, decltype(before)> queue(before);
  const auto offer = [&](std::uint32_t P, std::size_t e) {
    const MergePolygon& p = polygons[P];
    if (!p.mergeable[e] || p.across[e] < 0) return;
    const std::uint32_t Q = sets.find(std::uint32_t(p.across[e]));
    if (Q == P) return;
    const std::uint32_t a = p.v[e], b = p.v[(e + 1) % p.v.size()];
    const std::size_t j = edge_of(polygons[Q], b, a);
    if (j == polygons[Q].v.size() || !stays_convex(at, p, e, polygons[Q], j)) return;
    queue.push({area[P] + area[Q], P, Q, a, b, version[P], version[Q]});
  };
  for (std::uint32_t f = 0; f < n; ++f) {
    if (!free[f]) continue;
    for (std::size_t e = 0; e < polygons[f].v.size(); ++e)
      if (polygons[f].across[e] > std::int32_t(f)) offer(f, e);
  }
  while (!queue.empty()) {
    const Diagonal d = queue.top();
    queue.pop();
    // Stale: one side has been merged into another polygon or has grown since (its diagonals
    // were queued again then, with their new areas).
    if (sets.find(d.p) != d.p || sets.find(d.q) != d.q || version[d.p] != d.p_version ||
        version[d.q] != d.q_version)
      continue;
    // Both polygons are as they were when the diagonal was found removable.
    MergePolygon& p = polygons[d.p];
    MergePolygon& q = polygons[d.q];
    MergePolygon merged = joined(p, edge_of(p, d.a, d.b), q, edge_of(q, d.b, d.a));
    sets.attach(d.q, d.p);
    p = std::move(merged);
    q = MergePolygon{};
    area[d.p] += area[d.q];
    ++version[d.p];
    for (std::size_t e = 0; e < polygons[d.p].v.size(); ++e) offer(d.p, e);
  }
  std::vector<std::uint32_t> owner(n);
  for (std::uint32_t f = 0; f < n; ++f) owner[f] = sets.find(f);
  return owner;
}

}  // namespace polynav::navmesh_detail
